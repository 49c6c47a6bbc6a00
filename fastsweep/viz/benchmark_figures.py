"""The benchmark's compare figure (``fastsweep benchmark compare CARD... --figure BASE``).

One panel per board of the suite; a row per card (the agent's win rate or mean score,
the dot, with its 95% interval, the bar), and below a thin line a row per published figure
of that board (a hollow diamond: a figure quoted from its source, not measured here, with
no interval because its source gives none). Colour and marker: the agent, as in every
fastsweep figure; published rows are grey. Each panel's x range is its own (the boards'
rates differ by tens of points), so compare within a panel.
"""
from __future__ import annotations

import os
import textwrap

import matplotlib.pyplot as plt

from .style import Looks, STYLE, save, wrap_text

PUBLISHED = "#777777"


def _rows(cards, board):
    """The panel's rows, top to bottom: (label, value, low, high, agent or None)."""
    rows = []
    for c in cards:
        b = next(x for x in c["boards"] if x["board"] == board)
        rows.append((c["agent"], b["value"], b["low"], b["high"], c["agent"]))
    b = next(x for x in cards[0]["boards"] if x["board"] == board)
    for p in b.get("published") or []:
        who = f"counterpart: {p['agent']}" if p.get("agent") else "no fastsweep counterpart"
        short = p["source"].split(",")[0].split("(")[0].strip()
        rows.append((f"published: {short} ({who})", p["value"], None, None, None))
    return rows


def plot_compare(cards, base, formats=("png", "pdf")):
    """Draw the compare figure of ``cards`` (one suite version, checked by
    :func:`fastsweep.benchmark.card.compare` first) to ``base.<fmt>``; returns the files."""
    os.makedirs(os.path.dirname(os.path.abspath(base)), exist_ok=True)
    looks = Looks([c["agent"] for c in cards])
    boards = [b["board"] for b in cards[0]["boards"]]
    measure = "win rate (%)" if cards[0]["measure"] == "win_rate" else "mean score (%)"
    # a few boards: one column, each panel the figure's width (their labels once each)
    ncols = 1 if len(boards) <= 4 else (3 if len(boards) <= 9 else 4)
    nrows = -(-len(boards) // ncols)
    n_rows = max(len(_rows(cards, b)) for b in boards)
    with plt.rc_context(STYLE):
        fig, grid = plt.subplots(nrows, ncols, squeeze=False, layout="constrained",
                                 figsize=(6.5 if ncols == 1 else 7.2,
                                          0.9 + nrows * (0.45 + 0.22 * n_rows)))
        axes = list(grid.ravel())
        for ax in axes[len(boards):]:
            ax.remove()
        for i, (ax, board) in enumerate(zip(axes, boards)):
            rows = _rows(cards, board)
            for y, (lab, v, lo, hi, agent) in enumerate(rows):
                if agent is None:
                    ax.plot([v], [y], "D", mfc="none", mec=PUBLISHED, ms=4)
                    continue
                colour, marker = looks.style(agent)
                ax.errorbar([v], [y], xerr=[[v - lo], [hi - v]], fmt=marker, color=colour,
                            ms=4, capsize=2, lw=1)
            if len(rows) > len(cards):  # the published rows below a thin line
                ax.axhline(len(cards) - 0.5, color="#BBBBBB", lw=0.5)
            ax.set_yticks(range(len(rows)))
            # the rows are the same in every panel unless published figures add some
            show = i % ncols == 0 or any(len(_rows(cards, b)) > len(cards) for b in boards)
            # (x labels on every panel of one column: their ranges differ)
            ax.set_yticklabels([textwrap.fill(looks.label(r[4]) if r[4] else r[0], 48)
                                for r in rows] if show else [])
            ax.set_ylim(len(rows) - 0.5, -0.5)
            ax.set_title(board)
            ax.grid(True, axis="x")
            ax.margins(x=0.15)
            if i >= len(boards) - ncols or ncols == 1:
                ax.set_xlabel(measure)
        c = cards[0]
        quoted = any(b.get("published") for b in c["boards"])
        head = (f"{c['label']}: {c['games']:,} games a board, the same games for every "
                f"agent; dot and bar: {measure.split(' (')[0]} with its 95% interval"
                + ("; hollow grey diamond: a published figure under the suite's conditions "
                   "(quoted, not measured here)" if quoted else "")
                + ". Each panel has its own x range.")
        fig.suptitle("\n".join(wrap_text(fig, head, STYLE["figure.titlesize"])),
                     fontsize=STYLE["figure.titlesize"])
        return save(fig, base, formats)
