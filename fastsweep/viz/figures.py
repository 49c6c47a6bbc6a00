"""Publication figures from sweep summaries: mean score, paired score difference, win rate
and time per game (matplotlib, Agg backend).

Every ``*_figure`` function returns a matplotlib Figure (to inspect or edit further);
``plot_*`` and :func:`plot_results` write them as vector PDF, 300 dpi PNG or SVG. A table
with one board gives one panel, one column (3.4 in) wide. A table with several boards
(sizes or rules) gives one faceted figure, one panel per board on shared axes, two
columns (7 in) wide, and one single-panel figure per board (file suffix ``_HxW_rules``).
The encodings (colour and marker = agent, dashed line and open marker = mine total
known, legend below the panels) are those of :mod:`fastsweep.viz.style`. ``labels``
(every function here) renames agents in the legends and titles: ``{agent: label}`` or
``"AGENT=LABEL,..."`` (see :mod:`fastsweep.sweep.results.labels` for the default labels).
"""
from __future__ import annotations

import os

import matplotlib.pyplot as plt
import matplotlib.ticker as ticker
import numpy as np
import pandas as pd

from .compare import compare_figure, comparison_table, one_setting
from .style import (
    BAND_ALPHA, FORMATS, STYLE, Looks, agent_style, finish, label_axes, line_kw, members,
    panels, save,
)

__all__ = ["KINDS", "FORMATS", "agent_style", "win_cut", "score_figure", "diff_figure",
           "time_figure", "plot_score", "plot_diff", "plot_time", "plot_results",
           "sweep_looks"]

KINDS = ("score", "diff", "win", "time")
BOARD_KEYS = ["height", "width", "rules", "first_click", "first_cell"]
DENSITY = "Mine density (fraction of cells)"
SCORE = ("mean_score", "ci_low", "ci_high", "Score (mines flagged / mines)", "95% CI")
# the interval of a mean score or difference (fastsweep.stats.hist_ci), in the caption
CI_NOTE = "CI: Gaffke's bound for the mean of a bounded score"
WIN = ("win_rate", "win_low", "win_high", "Win rate (no detonation)",
       "95% Clopper-Pearson interval")


def sweep_looks(results, labels=None) -> Looks:
    """The :class:`~fastsweep.viz.style.Looks` of a sweep's agents (``results``: a
    :class:`~fastsweep.sweep.SweepResult` or a sweep folder), in its agents' order: users'
    agents labelled by the ``name`` its parameters (a folder's ``params.json``) record
    for them (their code is not imported for it), else by their import paths shortened
    to ``file.py:attr``; ``labels`` overrides. Every figure drawn with it draws each
    agent alike.

    >>> looks = sweep_looks("results/headline")  # doctest: +SKIP
    >>> fig = score_figure(summary_of_some_agents, labels=looks)  # doctest: +SKIP
    """
    from ..sweep.results.labels import recorded_names
    from ..sweep.folder.store import folder_arg, read_params
    from ..sweep.results.summary import SweepResult

    if isinstance(labels, Looks):
        return labels
    if isinstance(results, SweepResult):
        params = results.params
    else:
        params = read_params(os.path.join(folder_arg(results, "results"), "params.json"))
    return Looks([a for a, _ in params["members"]], recorded_names(params), labels)


def _source(data, what, labels):
    """(table, Looks) of ``data``: a DataFrame (its agents' default labels), or a
    SweepResult or sweep folder (``what``: its "summary" or "pairs"; its recorded
    names)."""
    if isinstance(data, pd.DataFrame):
        agents = (data.agent if what == "summary" else
                  _pair_agents(data))
        return data, Looks.of(agents, labels)
    from ..sweep.results.summary import SweepResult, load

    r = data if isinstance(data, SweepResult) else load(data)
    return getattr(r, what), sweep_looks(data, labels)


def _groups(df, keys):
    """[(key dict, rows), ...]: one entry per value of ``keys`` (sorted), or the whole table."""
    if not keys:
        return [({}, df)]
    return [(dict(zip(keys, k if isinstance(k, tuple) else (k,))), g)
            for k, g in df.groupby(keys, sort=True, dropna=False)]


def _parts(key):
    """The named pieces of a panel's description, in title order."""
    out = []
    if "height" in key:
        out.append(("size", f"{key['height']}\u00d7{key['width']} board"))
    for k, fmt in (("rules", "{} rules"), ("first_click", "first click {}"),
                   ("first_cell", "first cell {}"), ("density", "density {:g}")):
        if k in key:
            out.append((k, fmt.format(key[k])))
    return out


def _titles(keys):
    """(common title text, [panel title per key]): what differs between panels goes on
    the panels, the rest (except first click and cell, which the sweep's params record)
    into the figure title."""
    parts = [dict(_parts(k)) for k in keys]
    names = list(parts[0])
    varying = [n for n in names if len({p[n] for p in parts}) > 1]
    common = [parts[0][n] for n in names if n not in varying
              and n not in ("first_click", "first_cell")]
    return ", ".join(common), [", ".join(p[n] for n in varying) for p in parts]


def _suffix(key, varying):
    s = f"_{key['height']}x{key['width']}_{key['rules']}"
    return s + "".join(f"_{key[k]}" for k in ("first_click", "first_cell") if k in varying)


def _draw(ax, g, x, y, lo, hi, looks):
    """One curve (and band) per member of ``g``; returns the bands drawn."""
    bands = []
    for agent, mc in members(g, looks=looks):
        h = g[(g.agent == agent) & (g.mine_count == mc)].sort_values(x)
        ax.plot(h[x], h[y], **line_kw(agent, mc, looks))
        if lo is not None:
            ax.fill_between(h[x], h[lo], h[hi], color=looks.style(agent)[0], alpha=BAND_ALPHA,
                            lw=0)
            bands.append((ax, h[x], h[lo], h[hi]))
    return bands


def _faceted(df, keys, x, y, lo, hi, what, title, xlabel, ylabel, notes=(), ylim=None,
             zero_line=False, looks=None, short_ylabel=None):
    if df.empty:
        raise ValueError(f"results: nothing to plot for {title.lower()!r} (no rows)")
    groups = _groups(df, keys)
    common, panel_titles = _titles([k for k, _ in groups])
    with plt.rc_context(STYLE):
        fig, axes = panels(len(groups))
        bands = []
        for ax, (_, g), t in zip(axes, groups, panel_titles):
            bands += _draw(ax, g, x, y, lo, hi, looks)
            if zero_line:
                ax.axhline(0, color="0.3", lw=0.6, zorder=1)
            if t:
                ax.set_title(t)
        if ylim:
            axes[0].set_ylim(*ylim)
        label_axes(axes, xlabel, ylabel)
        finish(fig, axes, title, common, notes, bands, what, looks)
        if short_ylabel and _sticks_out(fig, [ax.yaxis.label for ax in axes]):
            label_axes(axes, xlabel, short_ylabel)  # (a long reference label)
    return fig


def _sticks_out(fig, texts):
    """Whether any of ``texts`` reaches past the figure's edges or into its title or
    legend (laid out first)."""
    fig.draw_without_rendering()
    box = fig.bbox
    others = [a.get_window_extent() for a in [fig._suptitle, *fig.legends] if a is not None]
    for t in texts:
        if not t.get_text():
            continue
        e = t.get_window_extent()
        if e.y0 < box.y0 or e.y1 > box.y1 or any(e.overlaps(o) for o in others):
            return True
    return False


def win_cut(summary):
    """(rows to draw, note): drops the densities past the first one at which no member won
    a game (and before the last one at which every member won every game), so that the
    axis shows where the win rate varies; the note says what was cut.

    >>> s = pd.DataFrame(dict(density=[0.1, 0.2, 0.3, 0.4], win_rate=[0.5, 0.1, 0.0, 0.0],
    ...                       games=[200, 200, 210, 220]))
    >>> rows, note = win_cut(s)
    >>> list(rows.density), note
    ([0.1, 0.2, 0.3], 'density 0.4 not shown: 0 of \u2265 220 games won')
    """
    by = summary.groupby("density").agg(top=("win_rate", "max"), low=("win_rate", "min"),
                                        games=("games", "min")).sort_index()
    varies = ((by.top > 0) & (by.low < 1)).to_numpy()
    if not varies.any():
        return summary, ""
    first, last = varies.argmax(), len(varies) - 1 - varies[::-1].argmax()
    keep = by.index[max(first - 1, 0):last + 2]  # one constant point on each side
    notes = []
    for cut, what in ((by.index[last + 2:], "0"), (by.index[:max(first - 1, 0)], "all")):
        if len(cut):  # n: the fewest games of a point cut
            span = f"{cut[0]:g}" if len(cut) == 1 else f"{cut[0]:g}\u2013{cut[-1]:g}"
            n = int(by.games[cut].min())
            notes.append(f"density {span} not shown: {what} of \u2265 {n:,} games won")
    if not notes:
        return summary, ""
    return summary[summary.density.isin(keep)], "; ".join(notes)


def score_figure(summary, kind="score", labels=None):
    """Mean score (``kind="score"``) or win rate (``"win"``) vs mine density with shaded 95%
    intervals; one panel per board. The win rate's axis stops past the densities where it
    varies (:func:`win_cut`), and the figure says so. ``summary``: a sweep's summary
    DataFrame, its SweepResult or its folder (whose recorded names label users' agents);
    ``labels``: the agents' names in the legend (see the module's doc).

    >>> fig = score_figure(pd.read_csv("results/headline/summary.csv"))  # doctest: +SKIP
    """
    summary, looks = _source(summary, "summary", labels)
    y, lo, hi, ylabel, what = SCORE if kind == "score" else WIN
    rows, cut = win_cut(summary) if kind == "win" else (summary, "")
    title = "Mean score" if kind == "score" else "Win rate"
    keys = [k for k in BOARD_KEYS if k in rows]
    notes = [cut, CI_NOTE] if kind == "score" else [cut]
    return _faceted(rows, keys, "density", y, lo, hi, what, title, DENSITY, ylabel, notes,
                    ylim=(-0.02, 1.02), looks=looks)


def _pair_agents(pairs):
    return list(dict.fromkeys(list(pairs.agent_a) + list(pairs.agent_b)))


def _reference_pairs(pairs, reference, looks=None):
    """(rows, title, y label): rows 'agent minus reference' (sign flipped where the
    reference is listed second), at equal mine_count, or against the reference's only
    setting when it has one (the basic agent without the mine total); with a single
    agent, the effect of the mine total. ``reference``: an agent's name or its label."""
    agents = _pair_agents(pairs)
    looks = looks or Looks(agents)
    ref = agents[0] if reference is None else looks.find(reference)
    if ref not in agents:
        raise ValueError(f"reference: agent {reference!r} is not in this sweep; agents: "
                         f"{', '.join(looks.label(a) for a in agents)}")
    name = looks.label(ref)
    ref_mcs = set(pairs.mine_count_a[pairs.agent_a == ref]) | set(
        pairs.mine_count_b[pairs.agent_b == ref])
    a = pairs[(pairs.agent_a == ref) & (pairs.agent_b != ref)].copy()
    b = pairs[(pairs.agent_b == ref) & (pairs.agent_a != ref)].copy()
    if len(b):  # reference listed second: flip to 'other minus reference'
        b["mean_diff"], b["ci_low"], b["ci_high"] = -b.mean_diff, -b.ci_high, -b.ci_low
        b["agent_a"], b["agent_b"] = b.agent_b, b.agent_a
        b["mine_count_a"], b["mine_count_b"] = b.mine_count_b, b.mine_count_a
    rows = pd.concat([a, b])
    if len(ref_mcs) > 1:
        rows = rows[rows.mine_count_a == rows.mine_count_b]
    if len(rows):  # the title names what was subtracted
        vs = (f"{name} (same mine-total setting)" if len(ref_mcs) > 1 else
              f"{name} + mine total" if True in ref_mcs else f"{name} (no mine total)")
        return (rows, f"Score difference vs {vs}, same games",
                f"Score difference vs {name} (paired)")
    mc = pairs[(pairs.agent_a == pairs.agent_b) & (pairs.agent_a == ref)
               & (pairs.mine_count_a != pairs.mine_count_b)].copy()
    if mc.mine_count_a.any():
        mc["mean_diff"], mc["ci_low"], mc["ci_high"] = -mc.mean_diff, -mc.ci_high, -mc.ci_low
    mc["mine_count_b"] = True
    return (mc, "Score gain from the mine total, same games",
            "Score gain from the mine total (paired)")


def diff_figure(pairs, reference=None, labels=None):
    """Paired difference of mean score (each agent minus ``reference``, default the first
    agent, on the same games) vs density with its 95% CI; one panel per board. None when
    the sweep has no such pairs. ``pairs``: a sweep's pairs DataFrame, its SweepResult or
    its folder; ``reference``: an agent's name or its label; ``labels``: the agents'
    names in the legend (see the module's doc)."""
    pairs, looks = _source(pairs, "pairs", labels)
    rows, title, ylabel = _reference_pairs(pairs, reference, looks)
    if rows.empty:
        return None
    rows = rows.rename(columns={"agent_b": "agent", "mine_count_b": "mine_count"})
    keys = [k for k in BOARD_KEYS if k in rows]
    return _faceted(rows, keys, "density", "mean_diff", "ci_low", "ci_high", "95% CI", title,
                    DENSITY, ylabel, [CI_NOTE], zero_line=True, looks=looks,
                    short_ylabel=ylabel.split(" vs ")[0] + " (paired)")


def time_figure(table, labels=None):
    """Microseconds per game on log axes, against board size (cells) with one panel per
    density when the table has at least as many sizes as densities (as the profile does),
    otherwise against density with one panel per board. Every point is one measured
    configuration (nothing averaged). ``table``: a profile or summary DataFrame, or a
    SweepResult or sweep folder; ``labels``: the agents' names in the legend (see the
    module's doc).

    >>> fig = time_figure(pd.read_csv("out/demo/summary.csv"))  # doctest: +SKIP
    """
    table, looks = _source(table, "summary", labels)
    t = table.dropna(subset=["us_per_game"]).copy()
    t["cells"] = t.height * t.width
    by_size = t.cells.nunique() > 1 and t.cells.nunique() >= t.density.nunique()
    if by_size:
        x, xlabel = "cells", "Board size (cells)"
        keys = ["density"] + [k for k in BOARD_KEYS[2:] if k in t]
    else:
        x, xlabel = "density", DENSITY
        keys = [k for k in BOARD_KEYS if k in t]
    skipped = len(table) - len(t)
    notes = [("" if "games" not in t else f"games per point: {t.games.min():,}"
              if t.games.min() == t.games.max()
              else f"games per point: {t.games.min():,}\u2013{t.games.max():,}"),
             f"{skipped} configuration(s) not measured (too slow)" if skipped else ""]
    fig = _faceted(t, keys, x, "us_per_game", None, None, "", "Time per game, one core",
                   xlabel, "Time per game (\u00b5s)", notes, looks=looks)
    plain = ticker.FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}")
    with plt.rc_context(STYLE):
        for ax in fig.axes:
            ax.set_yscale("log")
            axes = [ax.yaxis]
            if by_size:
                ax.set_xscale("log")
                axes.append(ax.xaxis)
            for axis in axes:  # plain numbers (400, 10,000), not 4x10^2
                lo, hi = axis.get_view_interval()
                axis.set_major_formatter(plain)
                # label the 2..9 ticks only when the axis spans less than a decade
                axis.set_minor_formatter(plain if hi / lo < 10 else ticker.NullFormatter())
    return fig


def _write(make, df, base, formats):
    """The figure of the whole table, and with several boards one figure per board."""
    fig = make(df)
    if fig is None:
        return []
    files = save(fig, base, formats)
    keys = [k for k in BOARD_KEYS if k in df]
    groups = _groups(df, keys)
    if len(groups) > 1:
        varying = [k for k in keys if df[k].nunique() > 1]
        for key, g in groups:
            files += save(make(g), base + _suffix(key, varying), formats)
    return files


def plot_score(summary, base, formats=("pdf", "png"), kind="score", labels=None):
    """Write :func:`score_figure` (and one per board); returns the files written.

    >>> plot_score(load("results/headline").summary, "fig_score")  # doctest: +SKIP
    ['fig_score.pdf', 'fig_score.png']
    """
    summary, looks = _source(summary, "summary", labels)  # (alike in every board's figure)
    return _write(lambda d: score_figure(d, kind, looks), summary, base, formats)


def plot_diff(pairs, base, formats=("pdf", "png"), reference=None, labels=None):
    """Write :func:`diff_figure` (and one per board); returns the files written."""
    pairs, looks = _source(pairs, "pairs", labels)
    _reference_pairs(pairs, reference, looks)  # a bad reference is an error even without rows
    return _write(lambda d: diff_figure(d, reference, looks), pairs, base, formats)


def plot_time(table, base, formats=("pdf", "png"), labels=None):
    """Write :func:`time_figure` (one figure: board size is an axis or the panels)."""
    return save(time_figure(table, labels), base, formats)


def _check_plot_args(summary, kinds, formats, out, reference, looks):
    """ValueError naming the argument: a kind or format not drawn (they were skipped in
    silence), a reference agent not in the sweep (it was ignored unless a figure used it),
    an ``out`` that is a file (os.makedirs' "[Errno 17] File exists"). Returns the kinds
    and formats as lists ("score,win" too: a string was iterated by its letters)."""
    lists = []
    for name, vals, allowed in (("kinds", kinds, KINDS), ("formats", formats, FORMATS)):
        vals = vals.split(",") if isinstance(vals, str) else list(vals)
        bad = [v for v in vals if v not in allowed]
        if bad or not vals:
            raise ValueError(f"{name}: unknown {name[:-1]} {(bad or [''])[0]!r}; allowed: "
                             f"{', '.join(allowed)}")
        lists.append(vals)
    agents = list(dict.fromkeys(summary.agent))
    if reference is not None and looks.find(reference) not in agents:
        raise ValueError(f"reference: agent {reference!r} is not in this sweep; agents: "
                         f"{', '.join(looks.label(a) for a in agents)}")
    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise ValueError(f"out: expected a folder name for the figures, got {out!r}")
    if out and os.path.exists(out) and not os.path.isdir(out):
        raise ValueError(f"out: {os.fspath(out)!r} is a file; expected a folder for the "
                         "figures (created if missing)")
    return lists


def plot_results(results, kinds=KINDS, formats=("pdf", "png"), out=None, reference=None,
                 labels=None):
    """Every requested figure of a sweep folder into ``out`` (default: the folder itself):
    ``fig_<kind>`` for the whole sweep and, with several boards, ``fig_<kind>_HxW_rules``
    for each (not for ``time``). A sweep with one density a board (agents compared at one
    setting) also gets ``fig_compare`` and its table ``compare.csv``
    (:mod:`fastsweep.viz.compare`: win rates, scores and paired differences from
    ``reference``, an agent's name or its label). ``labels``: ``{agent: label}`` or
    ``"AGENT=LABEL,..."``, the agents' names in every figure (by default a built-in
    agent's name, a user's agent's ``name`` attribute as the folder recorded it, else its
    import path shortened to ``file.py:attr``); every agent keeps one colour and marker
    in all the folder's figures.

    >>> plot_results("results/headline", kinds=["score"])  # doctest: +SKIP
    ['results/headline/fig_score.pdf', 'results/headline/fig_score.png']
    """
    if not os.path.isdir(results):
        raise ValueError(f"results: {results!r} is not a folder")
    from ..sweep import load

    # through load(), as table does: from the chunk records when the folder has them (a
    # summary.csv left by an interrupted growth is stale), else its checked summaries
    r = load(results)
    summary, pairs = r.summary, r.pairs
    # one look per agent for every figure of the folder, in the folder's agent order
    looks = sweep_looks(results, labels)
    if "diff" in kinds and len(pairs):
        # a bad reference fails before any file is written
        _reference_pairs(pairs, reference, looks)
    kinds, formats = _check_plot_args(summary, kinds, formats, out, reference, looks)
    out = out or results
    os.makedirs(out, exist_ok=True)
    files = []
    for k in kinds:
        base = os.path.join(out, f"fig_{k}")
        if k in ("score", "win"):
            files += plot_score(summary, base, formats, kind=k, labels=looks)
        elif k == "diff" and len(pairs):
            files += plot_diff(pairs, base, formats, reference, looks)
        elif k == "time":
            files += plot_time(summary, base, formats, looks)
    if one_setting(summary) and summary.agent.nunique() + summary.mine_count.nunique() > 2:
        # agents compared at one setting: their own figure (a density axis would be empty)
        keys = [k for k in BOARD_KEYS if k in summary]
        groups = _groups(summary, keys)
        varying = [k for k in keys if summary[k].nunique() > 1]
        for key, g in groups:
            gp = pairs
            if len(pairs):
                at = np.ones(len(pairs), bool)
                for k, v in key.items():
                    at &= pairs[k].to_numpy() == v
                gp = pairs[at]
            suffix = "" if len(groups) == 1 else _suffix(key, varying)
            files += save(compare_figure(g, gp, reference, looks),
                          os.path.join(out, "fig_compare" + suffix), formats)
        path = os.path.join(out, "compare.csv")  # the figure's numbers, every board
        comparison_table(summary, pairs, looks.find(reference) if reference else None
                         ).to_csv(path, index=False)
        files.append(path)
    return files
