"""Figures from a small sweep: every kind and format is written and non-empty, at one-column
size and 300 dpi, and the CLI refuses unknown kinds."""
import importlib
import os

import matplotlib.image as mpimg
import pytest

from fastsweep import cli, plots

SW = importlib.import_module("fastsweep.sweep")  # fastsweep.sweep is the function


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("plots") / "run"
    SW.sweep(["basic"], [8, 12], densities=[0.1, 0.2, 0.3], games=40, workers=1,
             out=str(out), quiet=True)
    return out


def test_cli_plot_writes_every_kind_and_format(folder, capsys):
    assert cli.main(["plot", str(folder), "--format", "pdf,png,svg"]) == 0
    files = [line.split(" ", 1)[1] for line in capsys.readouterr().out.splitlines()]
    kinds = {os.path.basename(f).split("_")[1].split(".")[0] for f in files}
    assert kinds == {"score", "diff", "win", "time"}
    for ext in ("pdf", "png", "svg"):
        assert sum(f.endswith(ext) for f in files) == 7  # score/diff/win per size + time
    for f in files:
        assert os.path.getsize(f) > 2000
    with open(files[0], "rb") as fh:
        assert fh.read(5) == b"%PDF-"
    png = [f for f in files if f.endswith(".png")][0]
    h, w = mpimg.imread(png).shape[:2]
    assert 800 <= w <= 1200  # 3.4 in at 300 dpi, give or take the tight bounding box


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
