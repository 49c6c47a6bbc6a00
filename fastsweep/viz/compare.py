"""Agents compared at one setting (a sweep with one density or mine count a board): each
member's win rate and mean score with their 95% intervals, and its paired differences
from a reference member on the same games (:func:`comparison_table`,
:func:`compare_figure`). ``plot_results`` draws it (``fig_compare``) whenever every board
of the sweep has a single density.

Encodings: a row per member (colour and marker = agent, open marker = told the mine
total, as in every figure here, and the agent's label: :class:`~fastsweep.viz.style.Looks`);
the x axes are the quantity and its interval.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from matplotlib.font_manager import FontProperties

from .style import STYLE, WIDE, Looks, break_lines, member_key, member_label, wrap_text

BOARD = ["height", "width", "rules", "first_click", "first_cell", "density"]


def one_setting(summary) -> bool:
    """Whether every board of ``summary`` has a single density (the comparison case)."""
    keys = [k for k in BOARD[:-1] if k in summary]
    return bool(len(summary)) and (summary.groupby(keys).density.nunique() == 1).all()


def _reference(summary, reference, looks):
    order = sorted({(a, bool(m)) for a, m in zip(summary.agent, summary.mine_count)},
                   key=lambda p: member_key(*p, looks=looks))
    if reference is None:
        return order, order[0]
    agent = looks.find(reference)
    ref = [p for p in order if p[0] == agent]
    if not ref:
        raise ValueError(f"reference: agent {reference!r} is not in this sweep; agents: "
                         f"{', '.join(dict.fromkeys(looks.label(a) for a, _ in order))}")
    return order, ref[0]


def comparison_table(summary, pairs, reference=None, labels=None) -> pd.DataFrame:
    """One row per board and member: games, win rate with its Clopper-Pearson interval, mean score
    with its CI, and the paired differences from ``reference`` (an agent's name, default
    the first member; the same mine-total setting when it has both) on the same games:
    win rate and score, each with its 95% CI (NaN for the reference itself, and for a
    win-rate difference from records older than per-game wins). ``reference`` may be
    given by the agent's label; ``labels`` (``{agent: label}``, ``"AGENT=LABEL,..."`` or
    a :class:`~fastsweep.viz.style.Looks`) orders the rows as the figures' legends.

    >>> from fastsweep.sweep import sweep
    >>> r = sweep(["basic", "probability"], 8, mines=[10], games=200, quiet=True,
    ...           mine_count=[False])
    >>> t = comparison_table(r.summary, r.pairs, "basic")
    >>> t[["agent", "games"]].values.tolist()
    [['basic', 200], ['probability', 200]]
    >>> bool(t.win_diff.iloc[1] > 0)  # probability wins more of the same games
    True
    """
    looks = Looks.of(summary.agent, labels)
    order, (ra, rm) = _reference(summary, reference, looks)
    keys = [k for k in BOARD if k in summary]
    rows = []
    for a, m in order:
        for _, s in summary[(summary.agent == a) & (summary.mine_count == m)].iterrows():
            row = {k: s[k] for k in keys}
            row.update(agent=a, mine_count=m, games=s.games, win_rate=s.win_rate,
                       win_low=s.win_low, win_high=s.win_high, mean_score=s.mean_score,
                       ci_low=s.ci_low, ci_high=s.ci_high)
            ref_m = m if ((summary.agent == ra) & (summary.mine_count == m)).any() else rm
            d = _pair(pairs, s, (ra, ref_m), (a, m), keys)
            row.update(reference=member_label(ra, ref_m), **d)
            rows.append(row)
    return pd.DataFrame(rows)


def _pair(pairs, s, ref, member, keys):
    """The paired differences member - ref on board ``s`` (NaN if none)."""
    out = dict(score_diff=np.nan, score_diff_low=np.nan, score_diff_high=np.nan,
               win_diff=np.nan, win_diff_low=np.nan, win_diff_high=np.nan)
    if ref == member or pairs is None or not len(pairs):
        return out
    at = np.ones(len(pairs), bool)
    for k in keys:
        if k in pairs:
            at &= pairs[k].to_numpy() == s[k]
    for (a, ma), (b, mb), sign in ((ref, member, 1), (member, ref, -1)):
        hit = pairs[at & (pairs.agent_a == a) & (pairs.mine_count_a == ma)
                    & (pairs.agent_b == b) & (pairs.mine_count_b == mb)]
        if len(hit):
            p = hit.iloc[0]
            lo, hi = sorted((sign * p.ci_low, sign * p.ci_high))
            out.update(score_diff=sign * p.mean_diff, score_diff_low=lo, score_diff_high=hi)
            if "win_diff" in p and not pd.isna(p.win_diff):
                lo, hi = sorted((sign * p.win_diff_low, sign * p.win_diff_high))
                out.update(win_diff=sign * p.win_diff, win_diff_low=lo, win_diff_high=hi)
    return out


def compare_figure(summary, pairs, reference=None, labels=None):
    """Four panels for one board: win rate and mean score of each member (top), their
    paired differences from ``reference`` on the same games (bottom), each with its 95%
    interval. A board's table (``summary`` and ``pairs`` of one board). ``labels``: the
    agents' names ({agent: label}, ``"AGENT=LABEL,..."`` or a Looks)."""
    looks = Looks.of(summary.agent, labels)
    t = comparison_table(summary, pairs, reference, looks)
    names = [looks.member_label(a, m) for a, m in zip(t.agent, t.mine_count)]
    n = len(t)
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(2, 2, figsize=(WIDE, 1.9 + 0.32 * n), sharey=True,
                                 layout="constrained")
        # a long label takes lines of at most a quarter of the width (the panels keep theirs)
        prop = FontProperties(size=STYLE["ytick.labelsize"])
        names = [break_lines(t, fig.bbox.width / 4, fig.canvas.get_renderer(), prop)
                 for t in names]
        lines = max(t.count("\n") + 1 for t in names)
        if lines > 1:  # rows tall enough for them
            fig.set_figheight(1.9 + n * max(0.32, 0.22 * lines + 0.1))  # (2 panels high)
        y = np.arange(n)[::-1]
        panels = [(axes[0, 0], "win_rate", "win_low", "win_high", "Win rate (95% Clopper-Pearson interval)"),
                  (axes[0, 1], "mean_score", "ci_low", "ci_high", "Mean score (95% CI)"),
                  (axes[1, 0], "win_diff", "win_diff_low", "win_diff_high",
                   "Win rate minus the reference (paired 95% CI)"),
                  (axes[1, 1], "score_diff", "score_diff_low", "score_diff_high",
                   "Score minus the reference (paired 95% CI)")]
        for ax, col, lo, hi, title in panels:
            for yi, (_, r) in zip(y, t.iterrows()):
                if pd.isna(r[col]):
                    continue
                c, mk = looks.style(r.agent)
                ax.errorbar(r[col], yi, xerr=[[r[col] - r[lo]], [r[hi] - r[col]]], fmt=mk,
                            color=c, mfc="none" if r.mine_count else c, ms=4, capsize=2,
                            lw=1)
            if col.endswith("diff"):
                ax.axvline(0, color="0.4", lw=0.6, ls=":")
                for yi, ref in zip(y, t.reference == [member_label(a, m) for a, m in
                                                      zip(t.agent, t.mine_count)]):
                    if ref:
                        ax.text(0, yi, " reference", va="center", ha="left", fontsize=6.5,
                                color="0.3")
            ax.set_title(title)
            ax.grid(axis="x")
        axes[0, 0].set_yticks(y, names)
        axes[1, 0].set_yticks(y, names)
        s = summary.iloc[0]
        ra = _reference(summary, reference, looks)[1][0]  # (t.reference: by agent name)
        rm = t.reference.iloc[0] == member_label(ra, True)
        head = (f"{s.height}x{s.width}, {s.mines} mines ({s.density:g}), {s.rules} rules: "
                f"{int(t.games.min()):,} games each,")
        tail = f"the same boards for every member; reference: {looks.member_label(ra, rm)}"
        fig.suptitle("\n".join([head] + wrap_text(fig, tail, STYLE["figure.titlesize"])))
    return fig
