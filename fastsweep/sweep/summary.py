"""Summaries of a sweep: per-configuration statistics and paired differences over each
configuration's chunk prefix (:func:`summarize`), :class:`SweepResult`, and :func:`load`
(the summaries of a folder, recomputed from its chunk records).
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass

import pandas as pd

from .. import stats
from ..options import sweep_options
from .grid import _resolve, with_defaults
from .plan import _Plan

TIMING_COLUMNS = ("us_per_game",)  # wall-clock derived: the only non-reproducible columns
_STATS = ("n", "x1", "x2", "wins", "det", "guess", "moves", "approx", "wrong", "sdet")


@dataclass
class SweepResult:
    """What :func:`sweep` returns: per-configuration ``summary`` and paired ``pairs``
    DataFrames, the resolved ``params`` and the output folder ``path`` (or None)."""

    summary: pd.DataFrame
    pairs: pd.DataFrame
    params: dict
    path: str | None = None



def summarize(plan) -> SweepResult:
    """Per-configuration and paired summaries over each configuration's chunk prefix."""
    rows, prows = [], []
    for b, bd in enumerate(plan.boards):
        if not plan.done(b):
            raise ValueError(f"out: board {b} is unfinished; re-run the sweep to complete it")
        scale = max(bd["mines"], 1)
        fc = bd["first_cell"] if isinstance(bd["first_cell"], str) else ",".join(
            map(str, bd["first_cell"]))
        key = dict(board=b, height=bd["height"], width=bd["width"], mines=bd["mines"],
                   density=bd["density"], rules=bd["rules"], first_click=bd["first_click"],
                   first_cell=fc)
        for j, lab in enumerate(plan.labels):
            ks = plan.kstar[b][j]
            t = {s: 0 for s in _STATS}
            sec = 0.0
            for k in range(ks):
                m = plan.recs[b][k]["m"][lab]
                for s in _STATS:
                    t[s] += m[s]
                sec += m["sec"]
            n = t["n"]
            mean, sd = stats.moments(n, t["x1"], t["x2"], scale)
            h = stats.half_width(n, sd)
            wl, wh = stats.wilson(t["wins"], n)
            agent, mc = plan.p["members"][j]
            rows.append(dict(
                key, agent=agent, mine_count=mc, games=n, mean_score=mean, std_score=sd,
                ci_low=mean - h, ci_high=mean + h, ci_half=h, win_rate=t["wins"] / n,
                win_low=wl, win_high=wh, mean_guesses=t["guess"] / n,
                mean_detonations=t["det"] / n, mean_moves=t["moves"] / n,
                mean_wrong_flags=t["wrong"] / n, approx_steps=t["approx"],
                hit_cap=plan.p["ci"] is not None and not (
                    n >= plan.p["min_games"] and h <= plan.p["ci"]),
                us_per_game=sec / n * 1e6, ci_method=stats.CI_METHOD))
        for i, j in ((i, j) for i in range(len(plan.labels)) for j in range(i + 1, len(plan.labels))):
            ks = min(plan.kstar[b][i], plan.kstar[b][j])
            key_p = f"{plan.labels[i]}|{plan.labels[j]}"
            n = d1 = d2 = 0
            for k in range(ks):
                rec = plan.recs[b][k]
                d1 += rec["p"][key_p][0]
                d2 += rec["p"][key_p][1]
                n += rec["games"]
            m, sd, lo, hi = stats.paired_diff(n, d1, d2, scale)
            # for contrast: the half-width if the two means were independent samples
            ra, rb = rows[-len(plan.labels) + i], rows[-len(plan.labels) + j]
            unpaired = stats.Z95 * math.sqrt(ra["std_score"] ** 2 / ra["games"]
                                             + rb["std_score"] ** 2 / rb["games"])
            (aa, ma), (ab, mb) = plan.p["members"][i], plan.p["members"][j]
            prows.append(dict(key, agent_a=aa, mine_count_a=ma, agent_b=ab, mine_count_b=mb,
                              games=n, mean_diff=m, std_diff=sd, ci_low=lo, ci_high=hi,
                              ci_half=(hi - lo) / 2, unpaired_half=unpaired,
                              ci_method=stats.CI_METHOD))
    return SweepResult(pd.DataFrame(rows), pd.DataFrame(prows), plan.p)


def load(out) -> SweepResult:
    """Summaries of a finished sweep folder (recomputed from its chunk records).

    >>> r = load("results/headline")  # doctest: +SKIP
    """
    pfile = os.path.join(out, "params.json")
    if not os.path.exists(pfile):
        raise ValueError(f"out: {out} is not a sweep folder (no params.json)")
    with open(pfile) as f:
        p = with_defaults(json.load(f))
    members = {}
    for a, mc in p["members"]:
        members.setdefault(a, []).append(mc)
    single = {o.name: tuple(p[o.name]) if isinstance(p[o.name], list) else p[o.name]
              for o in sweep_options("single")}
    params, boards = _resolve(p["agents"], [tuple(s) for s in p["sizes"]], p["densities"],
                              p["mines"], p["rules"], members, p["games"], p["ci"],
                              p["min_games"] or 200, p["max_games"] or 100_000, p["seed"],
                              p["chunk_games"], **single)
    plan = _Plan(p, boards)
    with open(os.path.join(out, "chunks.jsonl")) as f:
        for line in f:
            if line.endswith("\n"):
                plan.add(json.loads(line))
    for b in range(len(boards)):
        plan.evaluate(b)
    r = summarize(plan)
    r.path = out
    return r
