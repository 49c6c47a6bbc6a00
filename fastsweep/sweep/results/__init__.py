"""What a sweep gives back: ``summary`` (per-configuration statistics and paired
differences, ``SweepResult``, and ``load``: a folder read back), ``table`` (tables for
papers) and ``labels`` (what the agents are called in figures and tables)."""
