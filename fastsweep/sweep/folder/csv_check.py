"""Reading a sweep folder's ``summary.csv`` and ``pairs.csv`` when it has no chunk
records (committed folders keep only these): nothing is trusted. Columns, types and
ranges are checked (rates in [0, 1], counts non-negative integers, intervals around their
means), and the rows against ``params.json`` (one row per board and member of its grid,
game counts its stopping rule allows); anything else is refused in one line naming the
file and line (the header is line 1).
"""
from __future__ import annotations

import math

import pandas as pd

from ..grid import _label

BOARD = ("height", "width", "mines", "rules")
SUMMARY_NEEDS = BOARD + ("agent", "mine_count", "games", "mean_score", "ci_low", "ci_high",
                         "win_rate")
PAIRS_NEEDS = BOARD + ("agent_a", "mine_count_a", "agent_b", "mine_count_b", "games",
                       "mean_diff", "ci_low", "ci_high")
# column -> (kind, low, high): "int" non-negative integers, "real" finite numbers, "bool"
RANGES = {
    "board": ("int", 0, None), "height": ("int", 1, None), "width": ("int", 1, None),
    "mines": ("int", 0, None), "density": ("real", 0, 1), "games": ("int", 1, None),
    "mean_score": ("real", 0, 1), "std_score": ("real", 0, None),
    "ci_low": ("real", None, None), "ci_high": ("real", None, None),
    "ci_half": ("real", 0, None), "win_rate": ("real", 0, 1), "win_low": ("real", 0, 1),
    "win_high": ("real", 0, 1), "mean_guesses": ("real", 0, None),
    "mean_detonations": ("real", 0, None), "mean_moves": ("real", 0, None),
    "mean_wrong_flags": ("real", 0, None), "mean_safe_detonations": ("real", 0, None),
    "mean_clues_dropped": ("real", 0, None), "approx_steps": ("int", 0, None),
    "us_per_game": ("real", 0, None), "mine_count": ("bool",), "hit_cap": ("bool",),
    "mine_count_a": ("bool",), "mine_count_b": ("bool",), "mean_diff": ("real", -1, 1),
    "std_diff": ("real", 0, None), "unpaired_half": ("real", 0, None),
    "win_diff": ("real", -1, 1), "win_diff_low": ("real", -1, 1),
    "win_diff_high": ("real", -1, 1),
}
SLACK = 1e-9  # float rounding of a CSV round trip


def read_table(path, needs) -> pd.DataFrame:
    """``path`` as a DataFrame with the columns ``needs`` and every known column's type
    and range checked; an empty file (a sweep of one member has no pairs) is an empty
    table."""
    try:
        df = pd.read_csv(path, keep_default_na=False, na_values=[""])
    except pd.errors.EmptyDataError:
        return pd.DataFrame(columns=list(needs))
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"results: {path}: not a CSV table ({str(e).splitlines()[0]})") from None
    except OSError as e:
        raise OSError(f"results: cannot read {path}: {e.strerror or e}") from None
    # folders written before format 2 repeat the CI method on every row
    df = df.drop(columns=["ci_method"], errors="ignore")
    missing = [c for c in needs if c not in df.columns]
    if missing:
        raise ValueError(f"results: {path}: not a sweep's table (columns {', '.join(missing)} "
                         f"missing; it has {', '.join(map(str, df.columns[:8]))})")
    for col in df.columns:
        if col in RANGES:
            df[col] = _column(df[col], col, RANGES[col], path)
    for lo, mid, hi in (("ci_low", "mean_score", "ci_high"), ("win_low", "win_rate", "win_high"),
                        ("ci_low", "mean_diff", "ci_high"),
                        ("win_diff_low", "win_diff", "win_diff_high")):
        if {lo, mid, hi} <= set(df.columns):
            bad = ~((df[lo] <= df[mid] + SLACK) & (df[mid] <= df[hi] + SLACK))
            bad &= df[[lo, mid, hi]].notna().all(axis=1)  # (NaN: a paired win CI not known)
            if bad.any():
                i = int(bad.to_numpy().nonzero()[0][0])
                raise ValueError(f"results: {path} line {i + 2}: {mid} {_show(df[mid], i)} is "
                                 f"not within [{lo}, {hi}] = [{_show(df[lo], i)}, "
                                 f"{_show(df[hi], i)}]")
    return df


def _column(s, col, rule, path):
    kind = rule[0]
    if kind == "bool":
        text = s.astype(str).str.strip()
        ok = text.isin(["True", "False"])
        if not ok.all():
            _refuse(path, ok, s, col, "True or False")
        return text == "True"
    v = pd.to_numeric(s, errors="coerce").astype(float)
    lo, hi = rule[1], rule[2]
    allow_nan = col.startswith("win_diff")  # unknown for records without per-game wins
    ok = v.apply(math.isfinite) | (v.isna() & allow_nan & s.astype(str).isin(["", "nan"]))
    if lo is not None:
        ok &= ~(v < lo - SLACK)
    if hi is not None:
        ok &= ~(v > hi + SLACK)
    if kind == "int":
        ok &= v.apply(lambda x: math.isfinite(x) and x == int(x))
    if not ok.all():
        what = {"int": "an integer", "real": "a finite number"}[kind]
        bounds = (f" in [{lo}, {hi}]" if hi is not None else f" >= {lo}" if lo is not None
                  else "")
        _refuse(path, ok, s, col, what + bounds)
    return v.astype("int64") if kind == "int" else v


def _refuse(path, ok, s, col, allowed):
    i = int((~ok).to_numpy().nonzero()[0][0])
    raise ValueError(f"results: {path} line {i + 2}: {col} is {_show(s, i)}; must be "
                     f"{allowed}")


def _show(s, i) -> str:
    v = s.iloc[i]
    return repr(v.item() if hasattr(v, "item") else v)  # (7.5, not np.float64(7.5))


BOARD_MORE = ("density", "first_click", "first_cell")


def _board(row, extra) -> tuple:
    """A summary row's or a grid board's identity: size, mines, rules and ``extra``."""
    out = [int(row["height"]), int(row["width"]), int(row["mines"]), str(row["rules"])]
    for c in extra:
        v = row[c]
        if c == "density":
            out.append(round(float(v), 9))  # (a CSV round trip may move the last digit)
        else:
            out.append(",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v))
    return tuple(out)


def check_against_params(summary, pairs, params, boards, sfile, qfile):
    """The tables' rows are exactly the grid of ``params`` (every board and member once),
    with game counts its stopping rule allows."""
    members = {_label(tuple(m)) for m in params["members"]}
    # a board: its size, mines and rules, and of the columns the table has, its density
    # (two densities can give one mine count) and first click and cell
    extra = [c for c in BOARD_MORE if c in summary.columns]
    want = {_board(bd, extra) for bd in boards}
    seen = set()
    for i, row in enumerate(summary.itertuples(index=False)):
        board = _board(row._asdict(), extra)
        lab = _label((row.agent, bool(row.mine_count)))
        where = f"results: {sfile} line {i + 2}"
        if board not in want:
            more = "".join(f", {c} {row._asdict()[c]}" for c in extra)
            raise ValueError(f"{where}: board {row.height}x{row.width} with {row.mines} mines "
                             f"({row.rules}{more}) is not in params.json's grid")
        if lab not in members:
            raise ValueError(f"{where}: member {lab} is not one of params.json's members "
                             f"({', '.join(sorted(members))})")
        if (board, lab) in seen:
            raise ValueError(f"{where}: a second row of {lab} on that board")
        seen.add((board, lab))
        games = row.games
        if params.get("games") is not None and games != params["games"]:
            raise ValueError(f"{where}: {games} games, but params.json says {params['games']} "
                             f"(an unfinished or edited sweep: re-run it)")
        if params.get("games") is None and games > params["max_games"]:
            raise ValueError(f"{where}: {games} games, above params.json's max_games "
                             f"{params['max_games']}")
    if len(seen) != len(boards) * len(members):
        raise ValueError(f"results: {sfile}: {len(seen)} rows, but params.json's grid has "
                         f"{len(boards) * len(members)} (boards x members): an unfinished or "
                         f"edited sweep")
    pextra = [c for c in BOARD_MORE if c in pairs.columns]
    pwant = {_board(bd, pextra) for bd in boards}
    for i, row in enumerate(pairs.itertuples(index=False)):
        if _board(row._asdict(), pextra) not in pwant:
            raise ValueError(f"results: {qfile} line {i + 2}: board {row.height}x{row.width} "
                             f"with {row.mines} mines is not in params.json's grid")
        for a, mc in ((row.agent_a, row.mine_count_a), (row.agent_b, row.mine_count_b)):
            if _label((a, bool(mc))) not in members:
                raise ValueError(f"results: {qfile} line {i + 2}: member {_label((a, bool(mc)))}"
                                 f" is not one of params.json's members")
