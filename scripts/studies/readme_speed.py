"""The one table of fastsweep's speed against other tools (block ``speed-table``, on
docs/pages/studies/benchmarks.md): one number per quantity, each rendered from the
committed benchmark data with the date it was measured; every other page links here.

Renderer for :mod:`readme_tables`.
"""
from __future__ import annotations

import json
import os

import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RES = os.path.join(ROOT, "results")


def _date(folder, df=None):
    path = os.path.join(RES, folder, "run.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)["date"][:10]
    return str(df["date"].iloc[0])[:10]


def _inference(variant, case):
    df = pd.read_csv(os.path.join(RES, "bench_inference", "bench_inference.csv"))
    row = df[(df.variant == variant) & (df.case.str.startswith(case))]
    return float(row.value.iloc[0])


def _n(v, digits=0):
    return f"{v:,.{digits}f}"


def speed_table():
    rows = []
    inf = "bench_inference"
    d = _date(inf)
    # exact probabilities against ms-toollib, on the same positions, in one run
    for case, label in (("Expert 16x30/99", "Expert positions (before `probability`'s guesses)"),
                        ("30x30/270 keep-going, positions before guesses",
                         "30x30, 270 mines, keep-going positions")):
        ours = _inference("fastsweep API (validation included)", case)
        theirs = _inference("ms-toollib cal_probability_onboard", case)
        rows.append(("exact mine probabilities, ms a call", label, f"{ours:.3f}",
                     f"ms-toollib {theirs:.3f}", f"{theirs / ours:.1f}x", d,
                     "results/bench_inference/"))
    hv = pd.read_csv(os.path.join(RES, "bench_hard_views", "bench_hard_views.csv"))
    hard = hv[hv.benchmark == "hard random views"]
    ours = hard[hard.variant == "fastsweep API time, known mines hidden"].set_index("case").value
    theirs = hard[hard.variant == "ms-toollib cal_probability_onboard"].set_index("case").value
    both = theirs.dropna().index
    oom = int(theirs.isna().sum())
    rows.append(("exact mine probabilities, ms a call (median over views)",
                 f"{len(ours)} hard 30x30/270 views (known mines hidden: ms-toollib's problem)",
                 f"{ours.median():.2f}", f"ms-toollib {theirs[both].median():.0f} "
                 f"({oom} of {len(theirs)} views out of memory)",
                 f"{(theirs[both] / ours[both]).median():.0f}x", _date("bench_hard_views"),
                 "results/bench_hard_views/"))
    gym = pd.read_csv(os.path.join(RES, "gym_speed", "gym_speed.csv"))
    for board in gym.board.unique():
        g = gym[gym.board == board]
        ours = g[(g.implementation == "fastsweep") & g.variant.str.contains("SameStep")].iloc[0]
        theirs = g[g.implementation == "jumanji"].steps_per_s.max()
        rows.append(("Gymnasium vector env, steps/s (one core)",
                     f"{board}, {int(ours.envs):,} envs, random legal actions",
                     _n(ours.steps_per_s), f"Jumanji {_n(theirs)} (jitted step, CPU)",
                     f"{ours.steps_per_s / theirs:.0f}x", str(ours.date)[:10],
                     "results/gym_speed/"))
    for mc, told in ((False, "not told"), (True, "told")):
        v = _inference(f"probability, mine_count={mc}", "16x30/99")
        rows.append(("games/s, one process", f"`probability` on Expert classic, safe corner "
                     f"opening, total {told}", _n(v), "-", "-", d, "results/bench_inference/"))
    sol = pd.read_csv(os.path.join(RES, "bench_solver", "bench_solver.csv"))
    sol = sol[sol.setting == "default"]
    for agent in ("pseq", "lookahead"):
        r = sol[sol.agent == agent]
        rows.append(("games/s over `probability`'s, same run",
                     f"`{agent}` on Expert classic, safe corner, total told",
                     f"{r.ratio.median():.3f} ({r.ratio.min():.3f}-{r.ratio.max():.3f})",
                     "Tu et al.'s C++ PSEQ: not measured here" if agent == "pseq" else "-",
                     "-", _date("bench_solver"), "results/bench_solver/"))
    b = pd.read_csv(os.path.join(RES, "bench", "bench.csv"))
    r = b[(b.metric == "basic keep-going") & b.board.str.startswith("30x30")].iloc[0]
    rows.append(("games/s, one process", "`basic` on 30x30 at density 0.2, keep-going",
                 _n(r.games_per_s), "-", "-", str(r.date)[:10], "results/bench/"))
    c = pd.read_csv(os.path.join(RES, "bench_compile", "compile.csv"))
    warm = c[c.kind == "all families"].iloc[0]
    prob = c[(c.kind == "cold") & (c.run == "probability")].iloc[0]
    rows.append(("first compile, s (empty cache)", "every family (`fastsweep.warm()`, 2 cores)",
                 f"{warm.wall_s:.0f}", "-", "-", _date("bench_compile"),
                 "results/bench_compile/"))
    rows.append(("first compile, s (empty cache)", "the exact family (`probability`), alone",
                 f"{prob.wall_s:.0f}", "-", "-", _date("bench_compile"),
                 "results/bench_compile/"))
    t = pd.read_csv(os.path.join(RES, "bench_cards", "time.csv"))
    for case, text in (("alone", "a benchmark card of an agent as fast as `probability` "
                                 "(classic suite, references reused)"),
                       ("replay", "the same card with every reference game replayed")):
        r = t[t.case == case].iloc[0]
        sec = r.seconds + (t[t.case == "reuse"].seconds.iloc[0] if case == "alone" else 0)
        rows.append(("benchmark card, s (2 workers)", text, f"{sec:.0f}", "-", "-",
                     str(r.date)[:10], "results/bench_cards/"))
    out = ["| quantity | conditions | fastsweep | other tool | ratio | measured | data |",
           "|---|---|---|---|---|---|---|"]
    out += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    return "\n".join(out)


BLOCKS = {"speed-table": speed_table}


# the solver study's wins of each setting on its first 10^5 Expert safe games (played
# 2026-11-27 and 2026-11-28 around fastsweep.sweep, one process per setting; paired
# differences with 95% half-widths): (label, wins, minus the default until 2026-11-27,
# minus pseq), by bench_solver.py's setting
SOLVER_WINS = {
    ("probability", "default"): ("`probability`", "35.53%", "", ""),
    ("pseq", "default"): ("`pseq`", "39.61%", "-1.46 +- 0.32", ""),
    ("lookahead", "default"): ("`lookahead` (default)", "41.11%",
                               "+0.03 +- 0.08 (10^6 games: +0.048 +- 0.025)", "+1.50 +- 0.32"),
    ("lookahead", "far_ties=False,pseudo_fifty=False"): (
        "`lookahead`, `far_ties=False, pseudo_fifty=False` (the default until 2026-11-27)",
        "41.08%", "", "+1.46 +- 0.32"),
    ("lookahead", "offedge_limit=True,far_ties=False,pseudo_fifty=False"): (
        "`lookahead`, `offedge_limit=True`", "41.07%", "-0.00 +- 0.03", "+1.46 +- 0.32"),
    ("lookahead", "offedge_limit=True,endgame=200,far_ties=False,pseudo_fifty=False"): (
        "`lookahead`, `offedge_limit=True, endgame=200`", "40.96%", "-0.11 +- 0.06",
        "+1.35 +- 0.32"),
    ("lookahead", "candidate_cut=1.0,offedge_limit=True,far_ties=False,pseudo_fifty=False"): (
        "`lookahead`, `candidate_cut=1.0, offedge_limit=True`", "40.43%", "-0.65 +- 0.15",
        "+0.82 +- 0.31"),
    ("lookahead", "candidate_cut=1.0,offedge_limit=True,endgame=200,far_ties=False,"
                  "pseudo_fifty=False"): (
        "`lookahead`, `candidate_cut=1.0, offedge_limit=True, endgame=200`", "40.31%",
        "-0.76 +- 0.15", "+0.70 +- 0.31"),
    ("lookahead", "candidate_cut=1.0,endgame=0,offedge_limit=True,far_ties=False,"
                  "pseudo_fifty=False"): (
        "`lookahead`, `candidate_cut=1.0, endgame=0, offedge_limit=True`", "39.81%",
        "-1.26 +- 0.26", "+0.20 +- 0.26"),
}


def solver_settings():
    """The solver page's table of settings: speed from results/bench_solver/ (ratio to
    probability's games/s in the same repeat, its range over the repeats), wins from the
    solver study."""
    df = pd.read_csv(os.path.join(RES, "bench_solver", "bench_solver.csv"))
    with open(os.path.join(RES, "bench_solver", "run.json")) as f:
        run = json.load(f)
    out = [f"Speed: `{run['command']}`, {run['date'][:16]}, {run['machine']} (Expert safe "
           "corner, told the total; games/s as a ratio to `probability`'s in the same "
           f"repeat, its range over the {df.repeat.nunique()} repeats; `probability`'s own games/s "
           "is in [the speed table](benchmarks.md#speed-against-other-tools)). "
           "Wins: the study's first 10^5 Expert safe games, every setting on the same "
           "games, paired differences with 95% half-widths (played 2026-11-27 and "
           "2026-11-28; the cheaper settings with `far_ties` and `pseudo_fifty` off, the "
           "default until 2026-11-27, and listed so):", "",
           "| agent, setting | games/s, ratio to `probability`'s | wins (10^5 games) "
           "| minus the default until 2026-11-27 | minus `pseq` |",
           "|---|---|---|---|---|"]
    for (agent, setting), g in df.groupby(["agent", "setting"], sort=False):
        label, wins, d1, d2 = SOLVER_WINS[(agent, setting)]
        ratio = ("1" if agent == "probability"
                 else f"{g.ratio.min():.3f}-{g.ratio.max():.3f}")
        out.append(f"| {label} | {ratio} | {wins} | {d1} | {d2} |")
    return "\n".join(out)


BLOCKS["solver-settings"] = solver_settings
