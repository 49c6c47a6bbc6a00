"""The figure scripts of the committed studies run on their committed results, into a
folder the test gives them, and leave the repository as it was (they once stopped with an
AttributeError after a rename in the style module, and nothing caught it)."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _status():
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                          text=True).stdout


@pytest.mark.parametrize("script, study, figures", [
    ("hard_figures.py", "hard", ["fig_layouts.png", "fig_exhaustive.png", "fig_cluster.png",
                                 "fig_drop.png"]),
    ("influence_figures.py", "influence", ["fig_chains.png", "fig_guess.png"]),
])
def test_figure_script_runs_into_the_given_folder(tmp_path, script, study, figures):
    out = tmp_path / study
    shutil.copytree(os.path.join(ROOT, "results", study), out)
    for f in figures:
        (out / f).unlink()
    before = _status()
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", script), "--out", str(out)],
                   cwd=ROOT, check=True, capture_output=True)
    for f in figures:
        assert (out / f).stat().st_size > 10_000, f
    assert _status() == before
