"""The README's and the documentation's numbers, rendered from the committed results.

Every table of measured numbers in README.md and in the documentation site's pages
(docs/pages/**/*.md) sits between two markers::

    <!-- results:NAME -->
    ...
    <!-- /results:NAME -->

and is rendered here from the files under results/ (never typed by hand). ``check``
(the default) lists the blocks that differ from what the committed results give (a test
runs it, so a documented number cannot drift from its data) and exits 1 if any does;
``--write`` rewrites them (scripts/reproduce.py does, after regenerating the results).
A block's name says what it renders, wherever the block sits: the blocks move with their
text from page to page.

Usage: python3 scripts/studies/readme_tables.py [--write] [--readme FILE ...]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

import pandas as pd

import readme_agents  # (this folder's: the agents page's speed table)
import readme_compile  # (the compile page's tables)
import readme_coverage  # (the coverage study's tables)
import readme_hard  # (the hard-board study's tables)
import readme_noise  # (the noise studies' tables)
import readme_profiling  # (the profiling study's tables)
import readme_benchmark  # (the benchmark's reference cards)
import readme_tutorial  # (the tutorial's printed outputs)
import readme_speed  # (the one table of speed against other tools)
import readme_reports  # (the reports' tables)
from fastsweep.studies.solver_table import markdown as solver_markdown

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RES = os.path.join(ROOT, "results")
PAGES = os.path.join(ROOT, "docs", "pages")
LABEL = {("basic", False): "basic", ("inference", False): "inference",
         ("inference", True): "inference + total", ("probability", False): "probability",
         ("probability", True): "probability + total"}


_md = readme_reports._md


def _num(v, digits=0):
    return f"{v:,.{digits}f}"


def headline():
    s = pd.read_csv(os.path.join(RES, "headline", "summary.csv"))
    s["label"] = [LABEL.get((a, bool(m)), f"{a}{' + total' if m else ''}")
                  for a, m in zip(s.agent, s.mine_count)]
    cols = [lab for lab in LABEL.values() if lab in set(s.label)]
    rows = []
    for d in [round(0.1 * i, 1) for i in range(1, 10)]:
        at = s[(s.density - d).abs() < 1e-9].set_index("label").mean_score
        rows.append([d] + [f"{at[c]:.3f}" for c in cols])
    head = (f"30x30 board, keep-going rules, {int(s.games.sum()):,} games, every point's 95% CI "
            f"half-width <= {s.ci_half.max():.4f} (`results/headline/summary.csv`).")
    return head + "\n\n" + _md(["density"] + cols, rows)


def headline_prior():
    """The probability agent without the total against basic, per density: where the 95%
    CI of the paired difference lies below 0, above 0, or holds 0."""
    p = pd.read_csv(os.path.join(RES, "headline", "pairs.csv"))
    p = p[(p.agent_a == "basic") & ~p.mine_count_a.astype(bool)
          & (p.agent_b == "probability") & ~p.mine_count_b.astype(bool)].sort_values("density")
    def dens(rows):
        return ", ".join(f"{d:g}" for d in rows.density) or "none"
    below, above = p[p.ci_high < 0], p[p.ci_low > 0]
    unsure = p[(p.ci_low <= 0) & (p.ci_high >= 0)]
    # (a tie is what its games show: say when no game differed at all)
    same = unsure[unsure.differ == 0] if "differ" in p else unsure.iloc[:0]
    none = (f" (at {dens(same)} no game's score differed in the games played)"
            if len(same) else "")
    return (f"In the committed run (`results/headline/pairs.csv`, paired differences, 95% "
            f"CIs), `probability` without the total scores below `basic` at densities "
            f"{dens(below)}; the two cannot be told apart at {dens(unsure)}{none}; it scores "
            f"above at the other {len(above)} densities.")


def bench_targets():
    """The engine's speed targets (scripts/bench/bench_targets.py): the A/B rows, the
    rows read from other benchmarks (their source named), and the run."""
    path = os.path.join(RES, "bench_targets", "bench_targets.csv")
    if not os.path.exists(path):
        return "(no record yet: run `python3 scripts/reproduce.py`)"
    t = pd.read_csv(path)
    with open(os.path.join(RES, "bench_targets", "run.json")) as f:
        run = json.load(f)
    rows = []
    for r in t.itertuples():
        if r.old_ms == r.old_ms and str(r.old_ms) != "":
            what = (f"{float(r.old_ms):,.1f} -> {float(r.new_ms):,.1f} ms a game, "
                    f"x{1 / r.ratio:.1f} ({1 / r.ratio_max:.1f}-{1 / r.ratio_min:.1f})")
        elif r.ratio_min == r.ratio_max:
            what = f"{r.ratio:.3g}"
        else:
            what = f"{r.ratio:.3g} ({r.ratio_min:.3g}-{r.ratio_max:.3g})"
        same = {True: "yes", False: "NO", "True": "yes", "False": "NO"}.get(
            r.identical, "(two agents)" if "lookahead" in r.target else "-")
        if isinstance(r.identical, str) and r.identical.startswith("no:"):
            same = r.identical  # (games that differ, and why: bench_targets says)
        where = " ".join(x for x in (r.board, r.rules) if isinstance(x, str) and x)
        if isinstance(r.noise, str) and r.noise != "none":
            where += f", {r.noise}"
        if isinstance(r.mine_count, str) and r.mine_count != "default":
            where += ", total told" if r.mine_count == "yes" else ", total not told"
        elif isinstance(r.mine_count, str):  # (the default: an agent is not told the total)
            where += ", total not told"
        rows.append([r.target, where, what, same, r.goal, getattr(r, "source", ""),
                     "met" if target_met(r) else "MISSED"])
    head = (f"{run.get('date', '?')}, {run.get('machine', '?')}, "
            f"`{run.get('command', '?')}` against {run.get('rev', '?')}:")
    return head + "\n\n" + _md(["target", "board", "measured", "identical games", "goal",
                                 "source", "verdict (median)"], rows)


def target_met(r):
    """Whether a bench_targets row meets its goal, on the medians: "<= X ms a game" (the
    new time), ">= Nx faster" (old / new), or ">= R" / "<= R" on the value measured (the
    games/s ratio, a users' agent ratio, microseconds, seconds)."""
    goal = r.goal.split()
    bound = float(goal[1].rstrip("x"))
    if goal[1].endswith("x"):
        return 1 / r.ratio >= bound
    if len(goal) > 2 and goal[2] == "ms":
        return float(r.new_ms) <= bound
    return r.ratio <= bound if goal[0] == "<=" else r.ratio >= bound


def report():
    t = pd.read_csv(os.path.join(RES, "report_table", "report_table.csv"))
    order = [("inference", True), ("inference", False), ("probability", True),
             ("probability", False)]
    rows = []
    for (dim, dens), g in t.groupby(["dim", "density"], sort=True):
        r = [dim, dens, f"{g.report_linear_algebra_pct.iloc[0]:.1f}",
             f"{g.report_brute_force_pct.iloc[0]:.1f}"]
        for a, m in order:
            x = g[(g.agent == a) & (g.mine_count == m)].iloc[0]
            r.append(readme_reports.interval_text(x.flag_rate_pct, x.ci_low_pct,
                                                  x.ci_high_pct, 1, scale=1))
        rows.append(r)
    return _md(["dim", "density", "their linear algebra", "their + brute force"]
               + [LABEL[k] for k in order], rows)


def engine():
    b = pd.read_csv(os.path.join(RES, "bench", "bench.csv"))
    b = b[b.metric == "basic keep-going"]
    return _md(["basic agent, keep-going", "games/s on one core", "us per game"],
               [[r.board, _num(r.games_per_s), f"{r.us_per_game:.1f}"] for r in b.itertuples()])


def _inf():
    return pd.read_csv(os.path.join(RES, "bench_inference", "bench_inference.csv"))


def inference_calls():
    b = _inf()
    b = b[b.benchmark == "mine_probabilities per call"]
    rows = []
    for case, g in b.groupby("case", sort=False):
        v = g.set_index("variant").value
        ms = v.get("ms-toollib cal_probability_onboard", float("nan"))
        rows.append([case, f"{v['fastsweep API (validation included)']:.3f} ms",
                     f"{v['fastsweep kernel']:.3f} ms",
                     "n/a" if pd.isna(ms) else f"{ms:.3f} ms", int(g.n.iloc[0])])
    table = _md(["`mine_probabilities` per call (median)", "fastsweep API", "fastsweep kernel",
                 "ms-toollib `cal_probability_onboard`", "positions"], rows)
    v = b.set_index("variant").value
    if "speed-up (ms-toollib / fastsweep API)" in v:
        x = v["speed-up (ms-toollib / fastsweep API)"]
        table += (f"\n\nOn Expert the API (validation included) is {x:.1f}x faster than ms-toollib "
                  f"in the same run (target >= 2x: {'met' if x >= 2 else 'missed'}), and the "
                  f"probabilities agree to {v['max |p_fastsweep - p_ms-toollib|']:.0e}.")
    return table


def inference_outcomes():
    b = _inf()
    b = b[b.benchmark == "outcome_probabilities per call"]
    rows = []
    for case, g in b.groupby("case", sort=False):
        v = g.set_index("variant").value
        rows.append([case, f"{v['fastsweep API']:.1f} ms",
                     f"{v['kernel, untouched components reused, per what-if']:.1f} us",
                     f"{v['kernel, whole analysis each time, per what-if']:.1f} us",
                     int(g.n.iloc[0])])
    return _md(["`outcome_probabilities` per call (median)", "API per call",
                "per what-if, untouched components reused", "per what-if, whole analysis",
                "positions"], rows)


def inference_games():
    b = _inf()
    g = b[b.benchmark.str.startswith("games/s")]
    rows = [[f"Expert classic (safe corner opening), {r.variant}", _num(r.value)]
            for r in g.itertuples()]
    k = b[b.benchmark == "us/game, 30x30 keep-going"]
    order = ["inference, mine_count=False", "inference, mine_count=True",
             "probability, mine_count=False", "probability, mine_count=True"]
    rows2 = []
    for case, gg in k.groupby("case", sort=False):
        v = gg.set_index("variant").value
        rows2.append([case] + [_num(v[o]) for o in order])
    return (_md(["full games", "games/s on one core"], rows) + "\n\n"
            + _md(["30x30 keep-going, us per game", "inference", "inference + total",
                   "probability", "probability + total"], rows2))


def hard_views():
    b = pd.read_csv(os.path.join(RES, "bench_hard_views", "bench_hard_views.csv"))
    rows = []
    for case, g in b[b.case.str.contains("seeds")].groupby("case", sort=False):
        v = g.set_index("variant")
        n = int(g.n.iloc[0])
        exact = n - int(v.value["views approximated"])
        ms = v.loc["ms-toollib outcome"].notes if "ms-toollib outcome" in v.index else "n/a"
        if "ms-toollib time, median over ok views" in v.index:
            ms += (f"; median {v.value['ms-toollib time, median over ok views'] / 1e3:.1f} s, "
                   f"max {v.value['ms-toollib time, max over ok views'] / 1e3:.1f} s")
        rows.append([f"{case}, {n} views", f"{exact} of {n}",
                     f"{v.value['fastsweep API time, median']:.1f} ms",
                     f"{v.value['fastsweep API time, max']:.0f} ms", ms])
    table = _md(["`mine_probabilities(view, mines=total)`", "exact", "median", "max",
                 "ms-toollib (4 GiB cap, 60 s timeout)"], rows)
    g = b[b.case.str.startswith("30x30") & b.case.str.contains("seeds")].set_index("variant")
    v = g.value
    return table + (
        f"\n\nms-toollib treats a flag as a hidden cell, so it is compared on the same views "
        f"with the known mines hidden again; fastsweep there: median "
        f"{v['fastsweep API time, known mines hidden, median']:.1f} ms, max "
        f"{v['fastsweep API time, known mines hidden, max']:.0f} ms, "
        f"{int(g.n.iloc[0] - v['views approximated, known mines hidden'])} of "
        f"{int(g.n.iloc[0])} exact; where both answered, the probabilities agree to "
        f"{v['max |p_fastsweep - p_ms-toollib|']:.0e}.")


def sweeps():
    b = pd.read_csv(os.path.join(RES, "bench_sweep", "bench_sweep.csv"))
    rows = []
    for r in b.itertuples():
        if r.benchmark == "speed-up":
            rows.append([f"{r.games:,} basic games (30x30, 9 densities x 2), {r.backend}, "
                         f"{r.workers} worker(s)", f"{r.wall_s:.2f} s",
                         f"speed-up {r.speedup_vs_1:.2f}x"])
        else:
            over = "" if pd.isna(r.overhead_ms_per_chunk) or r.backend == "none" else \
                f"{r.overhead_ms_per_chunk:.2f} ms overhead per chunk"
            rows.append([f"{r.configurations:,} tiny configurations (20 games each): "
                         f"{r.benchmark.split(': ', 1)[-1]}, {r.backend}, {r.workers}",
                         f"{r.wall_s:.2f} s", over])
    return _md(["", "wall", ""], rows)


def provenance():
    """When, where and how each committed result was last made (results/reproduce.json)."""
    path = os.path.join(RES, "reproduce.json")
    if not os.path.exists(path):
        return "(no record yet: run `python3 scripts/reproduce.py`)"
    with open(path) as f:
        log = json.load(f)
    rows = [[k, v["date"], v["machine"], f"`{v['command']}`", f"{v['seconds'] / 60:.1f} min",
             v.get("note", "")] for k, v in log.items()]
    return _md(["results", "made on", "machine", "command", "took", "note"], rows)


BLOCKS = {"headline": headline, "headline-prior": headline_prior, "bench-targets": bench_targets, "report": report, "engine": engine,
          "inference-calls": inference_calls, "inference-outcomes": inference_outcomes,
          "inference-games": inference_games, "hard-views": hard_views, "sweeps": sweeps,
          "provenance": provenance, **readme_reports.BLOCKS, **readme_noise.BLOCKS,
          **readme_hard.BLOCKS, **readme_agents.BLOCKS, **readme_compile.BLOCKS,
          **readme_coverage.BLOCKS, **readme_profiling.BLOCKS, **readme_benchmark.BLOCKS, **readme_tutorial.BLOCKS, **readme_speed.BLOCKS, "solver": lambda: solver_markdown(pd.read_csv(os.path.join(RES, "solver", "table.csv")))}
_RE = re.compile(r"(<!-- results:([\w-]+) -->\n)(.*?)(\n<!-- /results:\2 -->)", re.S)


def render(text):
    """``text`` with every block re-rendered; unknown block names are an error."""
    def sub(m):
        name = m.group(2)
        if name not in BLOCKS:
            raise KeyError(f"results block {name!r}: no renderer (known: {', '.join(BLOCKS)})")
        return m.group(1) + BLOCKS[name]() + m.group(4)
    return _RE.sub(sub, text)


def blocks(text):
    return {m.group(2): m.group(3) for m in _RE.finditer(text)}


def documents():
    """README.md and every page of the documentation site, in a fixed order."""
    found = [os.path.join(ROOT, "README.md")]
    for folder, dirs, names in os.walk(PAGES):
        dirs.sort()
        found += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    return found


def _files(readme):
    if readme is None:
        return documents()
    return [readme] if isinstance(readme, str) else list(readme)


def check(readme=None):
    """Names of the blocks whose numbers differ from the committed results, in ``readme``
    (a file or a list of files; default: README.md and every page of the site)."""
    differ = []
    for path in _files(readme):
        with open(path) as f:
            text = f.read()
        new = blocks(render(text))
        differ += [k for k, v in blocks(text).items() if new[k] != v]
    return differ


def sync(readme=None):
    changed = []
    for path in _files(readme):
        with open(path) as f:
            text = f.read()
        out = render(text)
        if out != text:
            with open(path, "w") as f:
                f.write(out)
        changed += [k for k, v in blocks(text).items() if blocks(out)[k] != v]
    return changed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true",
                    help="rewrite the blocks that differ (default: only list them)")
    ap.add_argument("--readme", action="append", default=None, metavar="FILE",
                    help="a file to check or rewrite (repeatable; default: the checkout's "
                         "README.md and every page under docs/pages/)")
    a = ap.parse_args(argv)
    changed = sync(a.readme) if a.write else check(a.readme)
    print(("rewrote: " if a.write else "differ: ") + (", ".join(changed) or "none"))
    return 1 if changed and not a.write else 0


if __name__ == "__main__":
    sys.exit(main())
