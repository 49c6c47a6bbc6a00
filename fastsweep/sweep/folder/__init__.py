"""The sweep's output folder: ``store`` (``params.json``, ``chunks.jsonl`` and
``per_game/``: the folder read, checked against the run, and written), ``lock`` (one run
per folder at a time), ``integrity`` (record digests and record checks), ``grow`` (what a
run may change in an existing folder) and ``csv_check`` (``summary.csv`` and
``pairs.csv`` read back and checked when a folder has no chunk records)."""
