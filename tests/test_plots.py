"""Figures: every kind and format is written at its size, legends and captions hide no data
and fit the figure, several boards give one panel per board on shared axes, every agent
keeps its colour and marker and line style means the mine total in every figure, the win
figure states what it cuts, and the CLI refuses unknown kinds."""
import doctest
import importlib
import os
from itertools import product

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest

from fastsweep.cli import main as cli
from fastsweep.viz import style as plot_style, figures as plots

SW = importlib.import_module("fastsweep.sweep")  # fastsweep.sweep is the function
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results")
MEMBERS = [("basic", False), ("inference", False), ("inference", True),
           ("probability", False), ("probability", True)]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("plots") / "run"
    SW.sweep(["basic"], [8, 12], densities=[0.1, 0.2, 0.3], games=40, workers=1,
             out=str(out), quiet=True)
    return out


def board(size, **kw):
    return dict(height=size, width=size, rules="keep-going", first_click="any",
                first_cell="random", **kw)


def summary(sizes=(10, 20), densities=(0.1, 0.2, 0.3, 0.4, 0.5), half=0.01):
    """A synthetic summary: score falls with density, the win rate is 0 from 0.3 on."""
    rows = []
    for s, d, (i, (agent, mc)) in product(sizes, densities, enumerate(MEMBERS)):
        score, win = 1 - d + 0.02 * i, max(0.0, 0.6 - 2 * d) * (1 + 0.1 * i)
        rows.append(board(s, density=d, agent=agent, mine_count=mc, games=300,
                          mean_score=score, ci_low=score - half, ci_high=score + half,
                          win_rate=win, win_low=max(win - 0.05, 0), win_high=win + 0.05,
                          us_per_game=s * s * (1 + d) * (1 + i)))
    return pd.DataFrame(rows)


def pairs_of(s):
    """Paired rows 'member minus basic' from a synthetic summary."""
    rows = []
    for (_, g) in s.groupby(["height", "density"]):
        ref = g[g.agent == "basic"].iloc[0]
        for _, r in g[g.agent != "basic"].iterrows():
            diff = r.mean_score - ref.mean_score
            rows.append(board(r.height, density=r.density, agent_a="basic", mine_count_a=False,
                              agent_b=r.agent, mine_count_b=r.mine_count, mean_diff=diff,
                              ci_low=diff - 0.005, ci_high=diff + 0.005))
    return pd.DataFrame(rows)


def headline():
    d = os.path.join(RESULTS, "headline")
    return pd.read_csv(os.path.join(d, "summary.csv")), pd.read_csv(os.path.join(d, "pairs.csv"))


def _profiled():
    """The profiling study's keep-going rows as a time table (many sizes: log axes)."""
    t = pd.read_csv(os.path.join(RESULTS, "profiling", "summary.csv"))
    t = t[(t.rules == "keep-going") & t.agent.isin(["basic", "inference", "probability"])].copy()
    t["height"] = t["width"] = t["size"]
    return t[["agent", "mine_count", "height", "width", "cells", "density", "games",
              "us_per_game"]]


def all_figures():
    s, p = headline()
    syn = summary()
    return {"score": plots.score_figure(s), "win": plots.score_figure(s, "win"),
            "diff": plots.diff_figure(p), "profile": plots.time_figure(_profiled()),
            "score facets": plots.score_figure(syn), "win facets": plots.score_figure(syn, "win"),
            "diff facets": plots.diff_figure(pairs_of(syn)), "time facets": plots.time_figure(syn)}


@pytest.fixture(scope="module")
def figures():
    figs = all_figures()
    for f in figs.values():
        f.draw_without_rendering()
    yield figs
    plots.plt.close("all")


def data_points(ax):
    """Display coordinates of every plotted point and band vertex of an axes."""
    pts = [ax.transData.transform(line.get_xydata()) for line in ax.get_lines()
           if line.get_label() and not line.get_label().startswith("_")]
    for c in ax.collections:
        pts += [ax.transData.transform(p.vertices) for p in c.get_paths()]
    return np.concatenate(pts)


def title_box(fig):
    return fig._suptitle.get_window_extent()  # matplotlib has no public getter for the artist


def test_legend_and_captions_hide_no_data(figures):
    for name, fig in figures.items():
        (legend,) = fig.legends
        box = legend.get_window_extent()
        for ax in fig.axes:
            xy = data_points(ax)
            assert len(xy) > 0
            inside = ((xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) & (xy[:, 1] >= box.y0)
                      & (xy[:, 1] <= box.y1))
            assert not inside.any(), f"{name}: the legend covers {inside.sum()} data points"
            assert not box.overlaps(ax.get_window_extent()), f"{name}: legend inside a panel"
            assert not title_box(fig).overlaps(ax.get_window_extent())
        for text in (legend.get_window_extent(), title_box(fig)):
            assert fig.bbox.x0 <= text.x0 and text.x1 <= fig.bbox.x1, f"{name}: text cut off"


def test_facets_one_panel_per_board_on_shared_axes(figures):
    for name in ("score facets", "win facets", "diff facets", "time facets"):
        axes = figures[name].axes
        assert [ax.get_title() for ax in axes] == ["10\u00d710 board", "20\u00d720 board"], name
        assert axes[0].get_shared_x_axes().joined(axes[0], axes[1])
        assert axes[0].get_shared_y_axes().joined(axes[0], axes[1])
        assert "keep-going rules" in figures[name].get_suptitle()
    (ax,) = figures["score"].axes  # one board: one panel, the board in the title
    assert "30\u00d730 board" in figures["score"].get_suptitle()
    # the title names what was subtracted (the legend's plain 'basic' means no mine total)
    assert figures["diff"].get_suptitle().startswith("Score difference vs basic (no mine total)")


def test_one_encoding_per_meaning_in_every_figure(figures):
    style = {}  # agent -> (colour, marker) over all figures
    for name, fig in figures.items():
        at = {t.get_text(): (round(t.get_window_extent().x0), -round(t.get_window_extent().y0))
              for t in fig.legends[0].get_texts() if t.get_text()}
        agents = [a for a in ("basic", "inference", "probability") if a in at]
        # the agents without the total in registry order, reading down the columns
        assert agents == sorted(agents, key=at.get), f"{name}: legend {at}"
        # each agent's '+ mine total' entry beside or below its own, the same way for all
        ways = {(at[a][0] == at[a + " + mine total"][0], at[a][1] == at[a + " + mine total"][1])
                for a in agents if a + " + mine total" in at}
        assert ways in (set(), {(True, False)}, {(False, True)}), f"{name}: legend {at}"
        for ax in fig.axes:
            for line in ax.get_lines():
                label = line.get_label()
                if label.startswith("_"):
                    continue  # the zero line of the difference figure
                agent, total = label.replace(" + mine total", ""), label.endswith("mine total")
                style.setdefault(agent, set()).add((line.get_color(), line.get_marker()))
                assert line.get_linestyle() == ("--" if total else "-"), f"{name}: {label}"
                assert (line.get_markerfacecolor() == "none") == total, f"{name}: {label}"
    assert set(style) == {"basic", "inference", "probability"}
    for agent, s in style.items():
        assert s == {plots.agent_style(agent)}, f"{agent} drawn as {s}"
    assert len({plots.agent_style(a) for a in style}) == 3


def test_win_figure_states_its_cut(figures):
    fig = figures["win"]  # headline: nobody wins from density 0.35 on
    (ax,) = fig.axes
    xs = {x for line in ax.get_lines() for x in line.get_xdata()}
    assert max(xs) == pytest.approx(0.3)  # the first density without a win is kept
    assert "density 0.35\u20130.95 not shown: 0 of \u2265 207 games won" in \
        fig.get_suptitle().replace("\n", " ")
    s = summary()
    rows, note = plots.win_cut(s)
    assert sorted(rows.density.unique()) == [0.1, 0.2, 0.3]
    assert note == "density 0.4\u20130.5 not shown: 0 of \u2265 300 games won"
    for constant in (0.5, 0.0):  # no density where it is always 0 or always 1 / nowhere else
        s["win_rate"] = constant
        rows, note = plots.win_cut(s)
        assert rows is s and note == ""


def test_bands_said_to_be_hidden_only_when_they_are(figures):
    s, _ = headline()  # (the committed study: every band thinner than its line)
    half = float(((s.ci_high - s.ci_low) / 2).max())
    assert f"95% CIs (half-width \u2264 {half:.2g}) hidden by the lines" in \
        figures["score"].get_suptitle().replace("\n", " ")
    wide = plots.score_figure(summary(half=0.1)).get_suptitle()
    assert wide.endswith("shaded: 95% CI")
    thin = plots.score_figure(summary(half=0.0005)).get_suptitle()
    assert "hidden by the lines" in thin.replace("\n", " ")
    plots.plt.close("all")


def test_time_axis_is_what_varies_and_nothing_is_averaged(figures):
    prof = figures["profile"]  # 5 sizes x 3 densities: x = cells, a panel per density
    assert [ax.get_title() for ax in prof.axes] == [f"density {d}" for d in (0.1, 0.2, 0.3)]
    assert all(ax.get_xscale() == "log" and ax.get_yscale() == "log" for ax in prof.axes)
    # a point per size the agent was profiled at (an agent stops before a size whose game
    # would be too long), nothing averaged
    t = _profiled()
    sizes = set(t.groupby(["agent", "density"]).size())
    assert {len(line.get_xdata()) for ax in prof.axes for line in ax.get_lines()} == sizes
    assert max(sizes) == 5
    one = plots.time_figure(summary(sizes=(30,)))  # one size: x = density, every density drawn
    (ax,) = one.axes
    assert ax.get_xlabel().startswith("Mine density") and ax.get_xscale() == "linear"
    assert {len(line.get_xdata()) for line in ax.get_lines()} == {5}
    plots.plt.close(one)


def written(capsys):
    return [line.split(" ", 1)[1] for line in capsys.readouterr().out.splitlines()]


def test_cli_plot_writes_every_kind_and_format(folder, capsys):
    assert cli.main(["plot", str(folder), "--format", "png"]) == 0
    files = written(capsys)
    names = [os.path.basename(f) for f in files]
    per_board = [f"fig_{k}_{s}x{s}_keep-going.png" for k in ("score", "diff", "win")
                 for s in (8, 12)]
    assert sorted(names) == sorted(["fig_score.png", "fig_diff.png", "fig_win.png",
                                    "fig_time.png"] + per_board)
    for f, name in zip(files, names):  # 3.4 in (one board) or 7 in (panels) at 300 dpi
        assert mpimg.imread(f).shape[1] == (1020 if name in per_board else 2100), name
    assert cli.main(["plot", str(folder), "--kind", "time", "--format", "pdf,svg"]) == 0
    pdf, svg = written(capsys)
    with open(pdf, "rb") as fh:
        assert fh.read(5) == b"%PDF-" and os.path.getsize(pdf) > 2000
    with open(svg) as fh:
        assert "<svg" in fh.read(1000)


def test_plot_into_other_folder_and_single_kind(folder, tmp_path):
    files = plots.plot_results(str(folder), kinds=["time"], formats=["png"],
                               out=str(tmp_path / "figs"))
    assert files == [str(tmp_path / "figs" / "fig_time.png")]


def test_agent_style_is_stable():
    assert plots.agent_style("basic") == plots.agent_style("basic")
    assert plots.agent_style("basic") != plots.agent_style("not-registered-yet")


def test_plot_errors(folder, tmp_path, capsys):
    for argv, msg in [(["--kind", "pie"], "kind: unknown plot 'pie'"),
                      (["--format", "gif"], "format: unknown format 'gif'"),
                      (["--reference", "nosuch"], "reference: agent 'nosuch' is not in")]:
        with pytest.raises(SystemExit) as e:
            cli.main(["plot", str(folder)] + argv)
        assert e.value.code == 2
        assert msg in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["plot", str(tmp_path / "missing")])
    assert "is not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("module", [plots, plot_style])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_empty_table_is_a_clear_error():
    with pytest.raises(ValueError, match="results: nothing to plot for 'mean score'"):
        plots.score_figure(summary().iloc[:0])
