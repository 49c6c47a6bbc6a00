"""The profiling study's tables (blocks ``profiling-exponents``, ``profiling-claims`` and
``profiling-rele``), from ``results/profiling/`` (``scripts/studies/profile_study.py``).

Renderer for :mod:`readme_tables`.
"""
from __future__ import annotations

import json
import os

import pandas as pd

from readme_reports import _md

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RES = os.path.join(ROOT, "results", "profiling")


def _when():
    with open(os.path.join(RES, "run.json")) as f:
        r = json.load(f)
    return f"{r['date']}, {r['machine']}, `{r['command']}`"


def _ci(e, lo, hi):
    return f"{e:.2f} [{lo:.2f}, {hi:.2f}]"


def exponents():
    """Each agent's exponent of time per game against cells, by rules and density."""
    f = pd.read_csv(os.path.join(RES, "fits.csv"))
    f = f[f.quantity == "time"]
    s = pd.read_csv(os.path.join(RES, "summary.csv"))
    from fastsweep import AGENTS
    order = {a: i for i, a in enumerate(AGENTS)}
    rows = []
    for r in sorted(f.itertuples(), key=lambda r: (order.get(r.agent, 99), r.rules, r.density)):
        big = s[(s.agent == r.agent) & (s.rules == r.rules) & ((s.density - r.density).abs() < 1e-9)]
        top = big.loc[big.cells.idxmax()]
        where = f"{r.cells_lo:,}..{r.cells_hi:,}" + ("" if r.holds else " (curved: no range holds)")
        rows.append([f"`{r.agent}`", r.rules, f"{r.density:g}", _ci(r.exponent, r.lo, r.hi),
                     where, r.broken if isinstance(r.broken, str) else "",
                     f"{int(top['size'])}x{int(top['size'])}: {top.us_per_game:,.0f}"])
    return (f"{_when()}; time per game against cells, 95% intervals:\n\n"
            + _md(["agent", "rules", "density", "exponent", "cells where it holds",
                   "sizes (cells) outside", "largest board: us a game"], rows))


def claims():
    c = pd.read_csv(os.path.join(RES, "claims.csv"))
    rows = [[f"`{r.agent}`", r.claim, r.rules, f"{r.density:g}", _ci(r.measured, r.lo, r.hi),
             r.cells, r.local] for r in c.itertuples()]
    return _md(["agent", "the report's claim (n = cells)", "rules", "density",
                "measured exponent", "cells", "local exponents (cells: exponent)"], rows)


def rele():
    t = pd.read_csv(os.path.join(RES, "rele_time.csv"))
    rows = [[r.board, f"{r.density:g}", f"{r.their_seconds:.2f}",
             f"{r.basic_us:,.1f} [{r.basic_us_lo:,.1f}, {r.basic_us_hi:,.1f}]",
             f"{r.ratio:,.0f}x"] for r in t.itertuples()]
    return _md(["board", "density", "their baseline (s a game)",
                "basic + total (us a game, 95% CI)", "ratio"], rows)


BLOCKS = {"profiling-exponents": exponents, "profiling-claims": claims,
          "profiling-rele": rele}
