"""Studies beyond sweeps of games: hard boards (``hard``, ``search_layouts``), chains of
influence (``influence``, ``influence_search``), random views (``positions``); and what
the scripts under scripts/studies share (``script_args``: their options and run.json;
``rows``: resumable CSVs; ``cells``: the reports' and noise studies' cells;
``solver_table``, ``published``: the solver study's table and the published figures)."""
