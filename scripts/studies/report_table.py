"""The Rele, Raman, Eng and Patel (Rutgers, 2019) flag-rate table, redone with exact agents.

Keep-going rules (the assignment's: a detonation is learned as a mine and play goes on),
random opening cell. For each board dim x dim and density, ``inference`` and
``probability`` with and without the mine total: mean flag rate (mines flagged by
inference / mines, percent) over ``--games`` games with a 95% CI. Writes
``OUT/report_table.csv``, one row per cell as it finishes (cells run on ``--workers``
processes, ``fastsweep.sweep.run.tasks``; rerunning skips the rows already there, so an
interrupted run resumes; the rows end in the order of the cells), and run.json. The
committed results/report_table/ is made by scripts/reproduce.py (default ``--out``:
out/report_table/).

Usage: python3 scripts/studies/report_table.py [--games 2000] [--dims 10 20 30 40]
                                               [--densities 0.2 0.3 0.5] [--out DIR] [--quick]
  --quick   seconds: 10x10 at density 0.2, 20 games a cell
"""
from __future__ import annotations

import os
import time

import numpy as np

from fastsweep.kernels.engine import game as kg
from fastsweep.options import make_config
from fastsweep.runner import play_chunk, scores
from fastsweep.stats import sample_ci
from fastsweep.studies.published import RELE_TABLE
from fastsweep.studies.rows import RowFile
from fastsweep.studies.script_args import parse, parser, write_run
from fastsweep.sweep.run.tasks import run_tasks

FIELDS = ["dim", "density", "mines", "agent", "mine_count", "games", "flag_rate_pct",
          "ci_low_pct", "ci_high_pct", "report_linear_algebra_pct", "report_brute_force_pct",
          "approx_steps", "wrong_flags", "safe_detonations", "seconds_per_game", "seed"]


def play_cell(dim, dens, mc, agent, games, seed):
    """One cell of the table: its row."""
    cfg = make_config(agent, dim, density=dens, mine_count=mc)
    t0 = time.perf_counter()
    out, _, _ = play_chunk(cfg, seed, 0, games)
    dt = time.perf_counter() - t0
    m, lo, hi = sample_ci(100.0 * scores(out), 0, 100)
    la, bf = RELE_TABLE.get((dim, dens), (np.nan, np.nan))
    return dict(dim=dim, density=dens, mines=cfg.mines, agent=agent, mine_count=mc,
                games=games, flag_rate_pct=round(m, 2), ci_low_pct=round(lo, 2),
                ci_high_pct=round(hi, 2), report_linear_algebra_pct=la,
                report_brute_force_pct=bf, approx_steps=int(out[:, kg.OUT_APPROX].sum()),
                wrong_flags=int(out[:, kg.OUT_WRONG_FLAGS].sum()),
                safe_detonations=int(out[:, kg.OUT_SAFE_DETONATIONS].sum()),
                seconds_per_game=round(dt / games, 5), seed=seed)


def main(argv=None):
    ap = parser("report_table", __doc__, seed=2019,
                quick="seconds: 10x10 at density 0.2, 20 games a cell")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--dims", type=int, nargs="+", default=[10, 20, 30, 40])
    ap.add_argument("--densities", type=float, nargs="+", default=[0.2, 0.3, 0.5])
    a = parse(ap, argv)
    if a.quick:
        a.games, a.dims, a.densities = 20, [10], [0.2]
    rows = RowFile(os.path.join(a.out, "report_table.csv"), FIELDS,
                   ("dim", "density", "agent", "mine_count"))
    order = [(dim, dens, agent, mc) for dim in a.dims for dens in a.densities
             for mc in (True, False) for agent in ("inference", "probability")]
    todo = [(dim, dens, mc, agent, a.games, a.seed) for dim, dens, agent, mc in order
            if not rows.done((dim, dens, agent, mc))][::-1]  # the largest boards first
    with rows:
        for _, row in run_tasks(play_cell, todo, a.workers):
            rows.add(row)
            print(row, flush=True)
    rows.sort(order)
    print("wrote", write_run(a, games=a.games, dims=a.dims, densities=a.densities,
                             seed=a.seed))


if __name__ == "__main__":
    main()
