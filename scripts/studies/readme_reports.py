"""README tables of the reports' studies (results/reports/*.csv, scripts/studies/reports.py).

Renderers for :mod:`readme_tables` (blocks ``rele2019``, ``rele2019-time``, ``cs440``,
``cs440-follow``, ``cs440-risk``, ``patel2020``, ``dhurandhar``): numbers in percent, ``m ± h`` = mean and
95% CI half-width.
"""
from __future__ import annotations

import os

import pandas as pd

from fastsweep import AGENTS
from fastsweep.studies.published import DHURANDHAR, RELE, RELE_DENSITIES, RELE_SECONDS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REP = os.path.join(ROOT, "results", "reports")


def _md(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def _load(name):
    df = pd.read_csv(os.path.join(REP, f"{name}.csv"), keep_default_na=False, na_values=[""],
                     dtype={"options": str})
    df["options"] = df["options"].fillna("").astype(str)
    df["mine_count"] = df["mine_count"].astype(str) == "True"
    return df


def interval_text(m, lo, hi, digits=1, scale=100):
    """``m ± h`` where the interval is symmetric to the digits shown, else ``m [lo, hi]``
    (Gaffke's and Clopper-Pearson's intervals are not, at a pile or a rate near 0 or 1)."""
    m, lo, hi = scale * m, scale * lo, scale * hi
    if abs((hi - m) - (m - lo)) < 0.5 * 10 ** -digits:
        return f"{m:.{digits}f} ± {(hi - lo) / 2:.{digits}f}"
    return f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _pm(r, col="score", digits=1):
    stem = {"guess_share": "guess", "win_rate": "win", "wrong_rate": "wrong"}.get(col, col)
    return interval_text(r[col], r[f"{stem}_low"], r[f"{stem}_high"], digits)


def _cell(df, **kw):
    m = pd.Series(True, index=df.index)
    for k, v in kw.items():
        m &= (df[k] - v).abs() < 0.005 if k == "density" else df[k] == v
    sub = df[m]
    return sub.iloc[0] if len(sub) else None


def rele2019():
    """Two tables (8 and 7 columns, so that each fits a page): the single-clue and
    linear-algebra agents, then the brute-force ones; "their" columns beside ours."""
    df = _load("rele2019")
    groups = [("The baseline and linear algebra",
               [("basic", "baseline"), ("linalg", "linalg")]),
              ("Brute force", [("linalg-bruteforce", "linalg-bruteforce"),
                               ("bruteforce", None)])]
    n = int(df[df.width <= 40].games.min())
    out = (f"{n:,} games a cell (seed {int(df.seed.iloc[0])}), keep-going, random opening; "
           f"`results/reports/rele2019.csv`.")
    for title, cols in groups:
        head = ["dim", "density"]
        for a, theirs in cols:
            if theirs:
                head.append(f"their {theirs}")
            head += [f"{a} + total", a]
        rows = []
        for d in (10, 20, 30, 40):
            for j, dens in enumerate(RELE_DENSITIES):
                r = [d, dens]
                for a, theirs in cols:
                    if theirs:
                        r.append(f"{RELE[a][d][j]:.1f}")
                    for mc in (True, False):
                        x = _cell(df, agent=a, width=d, density=dens, mine_count=mc)
                        r.append(_pm(x) if x is not None else "")
                rows.append(r)
        out += f"\n\n{title}:\n\n" + _md(head, rows)
    return out


def rele2019_time():
    df = _load("rele2019")
    rows = []
    for (d, dens), theirs in RELE_SECONDS.items():
        r = [f"{d}x{d}", dens, f"{theirs:.2f}"]
        for a in ("basic", "linalg"):
            x = _cell(df, agent=a, width=d, density=dens, mine_count=True)
            r.append(f"{1e3 * x.seconds_per_game:.3f}" if x is not None else "")
        b = _cell(df, agent="basic", width=d, density=dens, mine_count=True)
        r.append(f"{theirs / b.seconds_per_game:,.0f}x" if b is not None else "")
        rows.append(r)
    return _md(["board", "density", "their baseline (s/game)", "fastsweep basic + total (ms)",
                "fastsweep linalg + total (ms)", "basic speed-up"], rows)


def cs440():
    df = _load("cs440")
    rows = []
    for dens in sorted(df[df.agent == "basic"].density.unique()):
        r = [f"{dens:g}"]
        for a in ("basic", "linalg-plus"):
            for mc in (False, True):
                x = _cell(df, agent=a, density=dens, mine_count=mc, options="")
                r.append(_pm(x) if x is not None else "")
        rows.append(r)
    n = int(df[df.agent.isin(["basic", "linalg-plus"])].games.min())
    return (f"20x20, keep-going, {n:,} games a cell; `results/reports/cs440.csv`.\n\n"
            + _md(["density", "basic", "basic + total", "linalg-plus", "linalg-plus + total"],
                  rows))


FOLLOW = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)  # the follow-up's densities


def cs440_follow():
    df = _load("cs440")
    who = [("linalg-plus", ""), ("probability", ""), ("risk", ""),
           ("risk", "risk_rules=basic")]
    rows = []
    for dens in FOLLOW:
        r = [f"{dens:g}"]
        for metric in ("cost", "guess_share"):
            for a, o in who:
                x = _cell(df, agent=a, density=dens, mine_count=False, options=o)
                r.append(_pm(x, metric) if x is not None else "")
        rows.append(r)
    names = ["linalg-plus", "probability", "risk", "risk (basic rules)"]
    games = {f"{a} {o}".strip(): (f"{int(g.games.min()):,}" if g.games.nunique() == 1 else
                                   f"{int(g.games.min()):,}-{int(g.games.max()):,}")
             for (a, o), g in df[~df.mine_count].groupby(["agent", "options"])}
    return ("20x20, keep-going, no mine total; games a cell: "
            + ", ".join(f"{k} {v}" for k, v in games.items() if k.split()[0] in
                        ("linalg-plus", "probability", "risk")) + ".\n\n"
            + _md(["density"] + [f"cost: {n}" for n in names]
                  + [f"guesses: {n}" for n in names], rows))


def _side(a, b, metric):
    """-1 / 0 / 1: ``a``'s 95% interval of ``metric`` below / overlapping / above ``b``'s."""
    stem = {"guess_share": "guess"}.get(metric, metric)
    if a[f"{stem}_high"] < b[f"{stem}_low"]:
        return -1
    return 1 if a[f"{stem}_low"] > b[f"{stem}_high"] else 0


def _where(sides):
    """"higher at densities 0.3, 0.4, ...": the densities of each side, empty sides left
    out ("at every density" when one side holds them all)."""
    words = {1: "higher", 0: "within each other's 95% interval", -1: "lower"}
    parts = []
    for want in (1, 0, -1):
        ds = [f"{d:g}" for d, s in sides if s == want]
        if len(ds) == len(sides):
            return f"{words[want]} at every density"
        if ds:
            parts.append(f"{words[want]} at {', '.join(ds)}")
    return "; ".join(parts)


def cs440_risk():
    """The follow-up's comparisons of ``risk`` with ``probability``, as sentences: where
    their 95% intervals (per cell, not paired) lie apart, and how far the single-clue
    what-if rules move ``risk``."""
    df = _load("cs440")

    def cell(a, d, o=""):
        return _cell(df, agent=a, density=d, mine_count=False, options=o)

    out = []
    for metric, what in (("cost", "cost"), ("guess_share", "share of guesses")):
        sides = [(d, _side(cell("risk", d), cell("probability", d), metric)) for d in FOLLOW]
        lo = max(FOLLOW, key=lambda d: cell("probability", d)[metric] - cell("risk", d)[metric])
        r, p = cell("risk", lo)[metric], cell("probability", lo)[metric]
        out.append(f"* `risk`'s {what} against `probability`'s, by density: "
                   f"{_where(sides)} (furthest below `probability`'s: {100 * r:.1f}% vs "
                   f"{100 * p:.1f}% at {lo:g}).")
    gap = {m: max(abs(cell("risk", d)[m] - cell("risk", d, "risk_rules=basic")[m])
                  for d in FOLLOW) for m in ("cost", "guess_share")}
    out.append("* Deciding its what-ifs by the single-clue rules (`risk_rules=basic`, the "
               f"report's variant) moves its cost by at most {100 * gap['cost']:.1f} and "
               f"its share of guesses by at most {100 * gap['guess_share']:.1f} points.")
    return "\n".join(out)


def patel2020():
    df = _load("patel2020")
    agents = ["basic", "subset", "probability", "threshold"]
    rows = []
    for d in sorted(df.width.unique()):
        for dens in sorted(df.density.round(2).unique()):
            r = [d, f"{dens:g}"]
            for a in agents:
                x = _cell(df, agent=a, width=d, density=dens)
                r.append(_pm(x) if x is not None else "")
            rows.append(r)
    n = int(df.games.min())
    return (f"keep-going, no mine total, {n:,} games a cell; `results/reports/patel2020.csv`."
            "\n\n" + _md(["dim", "density"] + agents, rows))


def dhurandhar():
    df = _load("dhurandhar")
    boards = [(9, 10), (16, 40), (30, 185)]
    head = ["agent"]
    for d, m in boards:
        head += [f"{d}x{d}/{m}: first 50", "won % (95% CI), games"]
    rows = [["the report"] + [v for d, m in boards
                              for v in (f"{DHURANDHAR[(d, m)]}/50", "")]]
    for a in sorted(set(df.agent), key=list(AGENTS).index):
        r = [a]
        for d, m in boards:
            x = _cell(df, agent=a, width=d, mines=m)
            if x is None:
                r += ["", ""]
                continue
            r += [f"{int(x.wins_first50)}/50",
                  f"{100 * x.win_rate:.1f} ({100 * x.win_low:.1f}-{100 * x.win_high:.1f}), "
                  f"{int(x.games):,}"]
        rows.append(r)
    return ("classic rules, first cell (0,0) (safe), no mine total; "
            "`results/reports/dhurandhar.csv`.\n\n" + _md(head, rows))


BLOCKS = {"rele2019": rele2019, "rele2019-time": rele2019_time, "cs440": cs440,
          "cs440-follow": cs440_follow, "cs440-risk": cs440_risk, "patel2020": patel2020, "dhurandhar": dhurandhar}
