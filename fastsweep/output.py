"""Tables the user asked for (``--out FILE``): CSV or Parquet, chosen by the file's extension.

:func:`check_table_path` runs before any game is played, so a typo in the path or a
missing Parquet engine is one clear error at once, not a traceback after a long run;
:func:`write_table` writes. :func:`game_rows` is ``run``'s per-game table with the whole
configuration in every row (so files of several runs can be concatenated).
"""
from __future__ import annotations

import os
from importlib.util import find_spec

import pandas as pd

FORMATS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}
_PARQUET_ENGINES = ("pyarrow", "fastparquet")  # what pandas.DataFrame.to_parquet can use


def check_table_path(path, name="out") -> str:
    """The format (``"csv"`` or ``"parquet"``) that ``path`` will be written in; raises a
    ValueError naming ``name`` if the extension is unknown, the folder is missing or
    Parquet is asked for without an engine to write it.

    >>> check_table_path("games.csv")
    'csv'
    >>> check_table_path("games.txt")
    Traceback (most recent call last):
    ...
    ValueError: out: unknown file type '.txt' of 'games.txt'; use .csv, .parquet or .pq
    """
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in FORMATS:
        raise ValueError(f"{name}: unknown file type {ext or '(none)'!r} of {str(path)!r}; "
                         "use .csv, .parquet or .pq")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"{name}: folder {os.path.dirname(str(path))!r} does not exist")
    if os.path.isdir(path):
        raise ValueError(f"{name}: {str(path)!r} is a folder; give a file name")
    fmt = FORMATS[ext]
    if fmt == "parquet" and not any(find_spec(e) for e in _PARQUET_ENGINES):
        raise ValueError(f"{name}: writing Parquet needs pyarrow, which is not installed "
                         f"(pip install pyarrow); or give a .csv file")
    return fmt


def write_table(df: pd.DataFrame, path, name="out") -> None:
    """Write ``df`` to ``path`` as CSV or Parquet (by the extension), without the index."""
    fmt = check_table_path(path, name)
    try:
        if fmt == "csv":
            df.to_csv(path, index=False)
        else:
            df.to_parquet(path, index=False)
    except OSError as e:
        raise ValueError(f"{name}: cannot write {str(path)!r}: {e.strerror or e}") from None


def game_rows(df: pd.DataFrame, cfg) -> pd.DataFrame:
    """``run``'s per-game DataFrame plus the configuration it does not carry (first_cell,
    prior, budget, threshold, risk_rules, max_component, noise, noise_aware,
    flag_threshold, endgame, endgame_nodes, candidate_cut, pseudo_fifty, corner_opening,
    offedge_limit, fifty_blocks, far_ties),
    next to the other configuration columns."""
    fc = cfg.first_cell
    out = df.copy()
    out.insert(out.columns.get_loc("first_click") + 1, "first_cell",
               fc if isinstance(fc, str) else f"{fc[0]},{fc[1]}")
    at = out.columns.get_loc("mine_count") + 1
    out.insert(at, "prior", cfg.prior)
    out.insert(at + 1, "budget", cfg.budget)
    for i, k in enumerate(("threshold", "risk_rules", "max_component", "noise",
                           "noise_aware", "flag_threshold", "endgame", "endgame_nodes",
                           "candidate_cut", "pseudo_fifty", "corner_opening", "offedge_limit",
                           "fifty_blocks", "far_ties")):
        out.insert(at + 2 + i, k, getattr(cfg, k))
    return out
