"""Summaries of a sweep: per-configuration statistics and paired differences over each
configuration's chunk prefix (:func:`summarize`), :class:`SweepResult`, and :func:`load`
(a folder read back: the summaries recomputed from its chunk records).
"""
from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ... import stats
from ..grid import board_key, from_params
from ..plan import _Plan
from ..run.progress import _hms
from ..grid import with_defaults
from ..folder.csv_check import PAIRS_NEEDS, SUMMARY_NEEDS, check_against_params, read_table
from ..folder.integrity import check_records, summaries_problem
from ..stopping import CI_METHOD, NORMAL_CI_METHOD, Tally
from ..folder.store import folder_arg, read_params, read_records

TIMING_COLUMNS = ("us_per_game",)  # wall-clock derived: the only non-reproducible columns
PAIR_COLUMNS = ("board", "height", "width", "mines", "density", "rules", "first_click",
                "first_cell", "agent_a", "mine_count_a", "agent_b", "mine_count_b", "games",
                "mean_diff", "std_diff", "ci_low", "ci_high", "ci_half", "unpaired_half",
                "win_diff", "win_diff_low", "win_diff_high", "differ", "win_differ")
_STATS = ("n", "x1", "x2", "wins", "det", "guess", "moves", "approx", "wrong", "sdet",
          "drop")


@dataclass
class SweepResult:
    """What :func:`sweep` and :func:`load` return: per-configuration ``summary`` and paired
    ``pairs`` DataFrames, the resolved ``params``, the output folder ``path`` (or None),
    and how many chunks were reused from the folder and played by this call."""

    summary: pd.DataFrame
    pairs: pd.DataFrame
    params: dict
    path: str | None = None
    reused_chunks: int = 0
    played_chunks: int = 0
    played_games: int = 0  # member-games this call played (a game of each member counts)
    recorded_games: int = 0  # member-games of this grid on record, used or not
    seconds_compile: float = 0.0  # this call's kernel warm-up (compile or cache load)
    seconds_playing: float = 0.0  # this call's play, from the first chunk to the last

    def describe(self) -> str:
        """One line on what this call did, in the words of the sweep's progress lines
        (games count once per member: a chunk of 25 games for 3 agents is 75 games).

        >>> r = SweepResult(pd.DataFrame({"games": [100, 100]}), pd.DataFrame(), {},
        ...                 played_chunks=8, played_games=250, recorded_games=250,
        ...                 seconds_compile=3.2, seconds_playing=61)
        >>> r.describe()
        '200 games in the summary; 250 played in 8 chunks in 1:01 (kernels ready in 0:03); 50 past the stopping points, kept for a tighter ci'
        """
        used = int(self.summary["games"].sum())
        where = f" from {self.path}" if self.path else ""
        if not self.played_chunks:
            return (f"{used:,} games in the summary, read{where} ({self.reused_chunks:,} "
                    f"chunks; none played)")
        chunks = f"{self.played_chunks:,} chunk" + ("s" if self.played_chunks != 1 else "")
        text = (f"{used:,} games in the summary; {self.played_games:,} played in {chunks} "
                f"in {_hms(self.seconds_playing)} (kernels ready in "
                f"{_hms(self.seconds_compile)})")
        if self.reused_chunks:
            text += f", {self.reused_chunks:,} chunks read{where}"
        beyond = self.recorded_games - used
        if beyond > 0:
            text += f"; {beyond:,} past the stopping points, kept for a tighter ci"
        return text

    @property
    def ci_method(self) -> str:
        """How the intervals were computed (stored once in params.json)."""
        return self.params.get("ci_method") or CI_METHOD


def summarize(plan) -> SweepResult:
    """Per-configuration and paired summaries over each configuration's chunk prefix."""
    rows, prows = [], []
    for b, bd in enumerate(plan.boards):
        if not plan.done(b):
            raise ValueError(
                f"results: the sweep is unfinished ({bd['height']}x{bd['width']} with "
                f"{bd['mines']} mines, {bd['rules']}, lacks games); re-run its command to "
                f"complete it")
        scale = max(bd["mines"], 1)
        fc = bd["first_cell"] if isinstance(bd["first_cell"], str) else ",".join(
            map(str, bd["first_cell"]))
        key = dict(board=b, height=bd["height"], width=bd["width"], mines=bd["mines"],
                   density=bd["density"], rules=bd["rules"], first_click=bd["first_click"],
                   first_cell=fc)
        scores = []
        for j, lab in enumerate(plan.labels):
            ks = plan.kstar[b][j]
            t = {s: 0 for s in _STATS}
            sec = 0.0
            score = Tally(scale)
            for k in range(ks):
                m = plan.recs[b][k]["m"][lab]
                for s in _STATS:
                    t[s] += m.get(s, 0)  # ("drop": records written before it were 0)
                sec += m["sec"]
                v = plan.values(b, k, j)
                score.add_sums(*v) if isinstance(v, tuple) else score.add(v)
            scores.append(score)
            n = t["n"]
            mean, sd = stats.moments(n, t["x1"], t["x2"], scale)
            ci = score.interval(scale, 0.0, 1.0)
            win = stats.win_ci(t["wins"], n)
            agent, mc = plan.p["members"][j]
            st = plan.stop[b]
            rows.append(dict(
                key, agent=agent, mine_count=mc, games=n, mean_score=mean, std_score=sd,
                ci_low=ci.low, ci_high=ci.high, ci_half=ci.half, win_rate=t["wins"] / n,
                win_low=win.low, win_high=win.high, mean_guesses=t["guess"] / n,
                mean_detonations=t["det"] / n, mean_moves=t["moves"] / n,
                mean_wrong_flags=t["wrong"] / n, mean_safe_detonations=t["sdet"] / n,
                mean_clues_dropped=t["drop"] / n, approx_steps=t["approx"],
                hit_cap=st is not None and st.capped[j],
                us_per_game=sec / n * 1e6))
        for i, j in ((i, j) for i in range(len(plan.labels)) for j in range(i + 1, len(plan.labels))):
            ks = min(plan.kstar[b][i], plan.kstar[b][j])
            d, w = _pair_tallies(plan, b, i, j, ks, scale)
            dci = d.interval(scale, -1.0, 1.0, about=0.0)
            wci = (w.interval(1, -1.0, 1.0, about=0.0) if w is not None  # (None: records from
                   else stats.Interval(*(math.nan,) * 3))  # before per-game wins)
            # for contrast: the half-width if the two means were independent samples
            ra, rb = rows[-len(plan.labels) + i], rows[-len(plan.labels) + j]
            unpaired = stats.Z95 * math.sqrt(ra["std_score"] ** 2 / ra["games"]
                                             + rb["std_score"] ** 2 / rb["games"])
            _, sd = stats.moments(d.n, d.x1, d.x2, scale)
            (aa, ma), (ab, mb) = plan.p["members"][i], plan.p["members"][j]
            prows.append(dict(key, agent_a=aa, mine_count_a=ma, agent_b=ab, mine_count_b=mb,
                              games=d.n, mean_diff=dci.estimate, std_diff=sd,
                              ci_low=dci.low, ci_high=dci.high, ci_half=dci.half,
                              unpaired_half=unpaired, win_diff=wci.estimate,
                              win_diff_low=wci.low, win_diff_high=wci.high,
                              differ=d.off, win_differ=-1 if w is None else w.off))
    # (one member: no pairs, but the header, so the written pairs.csv reads back)
    return SweepResult(pd.DataFrame(rows), pd.DataFrame(prows, columns=PAIR_COLUMNS), plan.p)


def _pair_tallies(plan, b, i, j, ks, scale):
    """Tallies of the paired score difference (B - A, flagged mines) and win difference
    over chunks 0..ks-1; a chunk without per-game values adds its sums (the difference's
    sums from each one's sums and their cross sum; wins: x = x^2, so the same algebra);
    the win tally is None if a chunk predates per-game wins."""
    d, w = Tally(scale), Tally(1)
    a, c = plan.labels[i], plan.labels[j]
    for k in range(ks):
        rec = plan.recs[b][k]
        ma, mb = rec["m"][a], rec["m"][c]
        if a in rec["xs"] and c in rec["xs"]:
            d.add(np.asarray(rec["xs"][c], np.int64) - np.asarray(rec["xs"][a], np.int64))
        else:
            d.add_sums(rec["games"], mb["x1"] - ma["x1"],
                       ma["x2"] + mb["x2"] - 2 * plan.cross(b, k, i, j))
        ws = rec.get("ws", {})
        if w is None:
            continue
        if a in ws and c in ws:
            w.add(np.asarray(ws[c], np.int64) - np.asarray(ws[a], np.int64))
        else:
            w = None
    return d, w


def _text(path) -> str:
    """A summary file's text ("" when absent; its digest then fails to match)."""
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except FileNotFoundError:
        return ""
    except OSError as e:
        raise OSError(f"results: cannot read {path}: {e.strerror or e}") from None


def load(path) -> SweepResult:
    """A sweep folder read back: the same :class:`SweepResult` as :func:`fastsweep.sweep`
    returned when it wrote the folder (summaries recomputed from its chunk records; a
    folder without ``chunks.jsonl`` is read from its ``summary.csv`` and ``pairs.csv``,
    refused unless they match their digest in ``params.json``; a folder from before that
    digest is read with a warning that its numbers are unchecked). Reading needs none of
    the folder's agents' code, and imports nothing it names.

    >>> import os, tempfile, fastsweep
    >>> out = os.path.join(tempfile.mkdtemp(), "demo")
    >>> r = fastsweep.sweep(["basic"], 8, densities=[0.1, 0.2], games=50, workers=1,
    ...                     out=out, quiet=True)
    >>> back = fastsweep.load(out)
    >>> back.summary.equals(r.summary), back.params == r.params
    (True, True)
    >>> back.summary[["density", "mine_count", "games"]].values.tolist()
    [[0.1, False, 50], [0.1, True, 50], [0.2, False, 50], [0.2, True, 50]]
    """
    path = folder_arg(path, "path")
    pfile = os.path.join(path, "params.json")
    if not os.path.exists(pfile):
        raise ValueError(f"results: {path} is not a sweep folder (no params.json)")
    stored = read_params(pfile)
    params, boards = from_params(stored)
    if not os.path.exists(os.path.join(path, "chunks.jsonl")):
        # (committed folders keep only their summaries: checked, not trusted)
        sfile, qfile = os.path.join(path, "summary.csv"), os.path.join(path, "pairs.csv")
        if not os.path.exists(sfile):
            raise ValueError(f"results: {path} has neither chunks.jsonl nor summary.csv")
        summary = read_table(sfile, SUMMARY_NEEDS)
        pairs = (read_table(qfile, PAIRS_NEEDS) if os.path.exists(qfile)
                 else pd.DataFrame(columns=PAIR_COLUMNS))
        check_against_params(summary, pairs, params, boards, sfile, qfile)
        # (rows first: an error names its line; then what ties the numbers to params.json)
        why = summaries_problem(stored, _text(sfile), _text(qfile))
        if why == "unchecked":
            warnings.warn(
                f"{path}: its summary.csv and pairs.csv carry no digest (a folder of format "
                f"{stored.get('format', 1)}, without chunk records): their rows are checked "
                f"against params.json's grid, but their numbers are unchecked (nothing ties "
                f"them to its seed and options)", stacklevel=2)
        elif why:
            raise ValueError(f"results: {path}: {why}")
        params["ci_method"] = stored.get("ci_method", NORMAL_CI_METHOD)  # (as written)
        return SweepResult(summary, pairs, params, path)
    plan = _Plan(params, boards)
    recs, _, lines = read_records(path, stored)
    # (a folder older than prior/budget in params.json was played with their defaults)
    check_records(recs, lines, with_defaults(stored), {board_key(bd): bd for bd in boards},
                  os.path.join(path, "chunks.jsonl"), stored.get("format", 1))
    for rec in recs:
        plan.add(rec)
    for b in range(len(boards)):
        plan.evaluate(b)
    r = summarize(plan)
    r.params["ci_method"] = CI_METHOD  # (the summaries were computed now)
    r.path, r.reused_chunks = path, sum(len(x) for x in plan.recs)
    return r
