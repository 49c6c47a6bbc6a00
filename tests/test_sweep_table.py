"""Tables for papers (fastsweep table / fastsweep.sweep.results.table.table), fastsweep.load,
and the sweep CLI's help (the headline script's report of a resumed run:
test_scripts.py)."""
import json
import importlib

import pandas as pd
import pytest

import fastsweep
from fastsweep.cli import main as cli
from fastsweep.sweep.results.table import table

SW = importlib.import_module("fastsweep.sweep")

GRID = dict(agents=["basic", "inference"], sizes=[8, (6, 9)], densities=[0.1, 0.3],
            games=60, chunk_games=20, seed=5, workers=1, quiet=True)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("t") / "o"
    r = SW.sweep(out=str(out), **GRID)
    return out, r


def _row(s, size, density, agent, mc):
    h, w = map(int, size.split("x"))
    return s[(s.height == h) & (s.width == w) & (s.density == density) & (s.agent == agent)
             & (s.mine_count == mc)].iloc[0]


def test_markdown_pivot_with_ci_and_readable_member_columns(folder):
    out, r = folder
    text = table(str(out), rows="size,density", cols="agent", ci=True)
    lines = text.splitlines()
    assert lines[0] == "| size / density | basic | basic + total | inference | inference + total |"
    assert lines[1] == "|---|---|---|---|---|"
    assert [x.split(" | ")[0] for x in lines[2:]] == ["| 8x8 / 0.1", "| 8x8 / 0.3",
                                                     "| 6x9 / 0.1", "| 6x9 / 0.3"]
    row = _row(r.summary, "6x9", 0.3, "inference", True)
    cell = lines[5].strip("| ").split(" | ")[4]
    # (few games off the most common score: Gaffke's interval, shown by its ends; the
    # normal one's "± half-width": tests/test_sweep_intervals.py)
    assert cell == f"{row.mean_score:.3f} [{row.ci_low:.3f}, {row.ci_high:.3f}]"
    assert text.endswith("|\n")


def test_latex_and_csv(folder):
    out, r = folder
    tex = table(str(out), rows="density", cols="agent,mine_count", fmt="latex", ci=True,
                where="size=8x8", digits=2)
    assert tex.startswith("\\begin{tabular}{lrrrr}\n\\toprule\n")
    assert "density & basic / total unknown & basic / total known & inference / total " \
           "unknown & inference / total known \\\\" in tex
    row = _row(r.summary, "8x8", 0.1, "basic", False)
    assert f"0.1 & {row.mean_score:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}] &" in tex
    assert tex.rstrip().endswith("\\end{tabular}")
    csv = table(str(out), rows="density", cols="size", value="win_rate", ci=True,
                where={"agent": "inference", "mine_count": True}, fmt="csv")
    back = pd.read_csv(pd.io.common.StringIO(csv))
    assert list(back.columns) == ["density", "8x8", "6x9"]
    row = _row(r.summary, "6x9", 0.3, "inference", True)
    assert back.iloc[1, 2] == f"{row.win_rate:.3f} [{row.win_low:.3f}, {row.win_high:.3f}]"
    games = table(r, rows="density", cols="size", where="agent=basic,mine_count=yes")
    assert "| 0.1 | " in games
    cells = [c.strip() for x in table(r.summary, rows="density,size", cols="agent",
                                      value="games").splitlines()[2:] for c in x.split("|")[2:-1]]
    assert cells == ["60"] * 16


def test_the_default_table_of_several_sizes_leads_its_rows_with_the_size(folder):
    """Rows left to the default: the fields that tell configurations apart lead them (the
    default table of a sweep of several sizes was an error); rows given are kept."""
    out, r = folder
    t = table(str(out))
    assert t.splitlines()[0].startswith("| size / density |"), t
    assert "| 8x8 / 0.1 |" in t and "| 6x9 / 0.3 |" in t
    assert t == table(str(out), rows="size,density")


@pytest.mark.parametrize("kw,msg", [
    (dict(rows="density"), r"rows/cols: several configurations share a cell; they differ in "
                           r"size, mines: add fields to --rows or --cols, or keep one value "
                           r"with --where size=8x8"),
    (dict(rows="colour"), r"rows: unknown field colour; allowed: size, density"),
    (dict(rows="size", cols="size"), r"rows/cols: size is in both"),
    (dict(rows="size,density", value="nope"), r"value: 'nope' is not a numeric summary column"),
    (dict(rows="size,density", value="games", ci=True), r"ci: games has no interval"),
    (dict(rows="size,density", fmt="html"), r"format: unknown format 'html'; allowed: markdown"),
    (dict(rows="density", where="size=9x9"), r"where: no row has size=9x9; it has 8x8, 6x9"),
    (dict(rows="size,density", digits=-1), r"digits: must be an integer in 0..12"),
])
def test_table_errors_name_the_argument(folder, kw, msg):
    with pytest.raises(ValueError, match=msg):
        table(str(folder[0]), **kw)


def test_cli_table(folder, capsys):
    out, _ = folder
    assert cli.main(["table", str(out), "--rows", "size,density", "--format", "csv"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == "size,density,basic,basic + total,inference,inference + total"
    with pytest.raises(SystemExit) as e:  # rows given: no field is added to them
        cli.main(["table", str(out), "--rows", "density"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("fastsweep table: error: --rows/--cols: several") and err.count("\n") == 1
    with pytest.raises(SystemExit):
        cli.main(["table", str(out.parent / "nothing")])
    assert "not a sweep folder" in capsys.readouterr().err


def test_load_returns_what_sweep_returned(folder, tmp_path):
    out, r = folder
    back = fastsweep.load(str(out))
    assert back.summary.equals(r.summary) and back.pairs.equals(r.pairs)
    assert back.params == r.params and back.path == str(out)
    # a folder without chunk records (e.g. committed results) is read from its CSVs; old
    # folders' repeated ci_method column is dropped (such a folder, from before the
    # summaries' digest, reads with a warning that its numbers are unchecked)
    copy = tmp_path / "c"
    copy.mkdir()
    (copy / "pairs.csv").write_bytes((out / "pairs.csv").read_bytes())
    p = json.loads((out / "params.json").read_text())
    p.pop("summaries")
    (copy / "params.json").write_text(json.dumps(dict(p, format=1)))
    old = r.summary.assign(ci_method=r.ci_method)
    (copy / "summary.csv").write_text(old.to_csv(index=False))
    with pytest.warns(UserWarning, match="their numbers are unchecked"):
        csv = fastsweep.load(str(copy))
    assert csv.summary.equals(r.summary) and csv.pairs.equals(r.pairs)
    assert csv.ci_method == r.ci_method
    with pytest.raises(ValueError, match="not a sweep folder"):
        fastsweep.load(str(tmp_path))


def test_load_docstring_example_runs():
    import doctest

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for t in finder.find(SW.results.summary.load, "load", globs={}):
        runner.run(t)
    assert runner.tries >= 5 and runner.failures == 0


def test_sweep_help_states_each_default_once(capsys):
    for cmd in ("sweep", "plot", "table"):
        with pytest.raises(SystemExit):
            cli.main([cmd, "--help"])
        text = " ".join(capsys.readouterr().out.split())  # undo argparse's line wrapping
        assert "(default: None)" not in text and "(default: False)" not in text
        if cmd == "sweep":
            assert "worker processes (default: all cores) --backend" in text
            assert "root seed (same games for every agent) (default: 0)" in text
            assert "(default: safe for classic, any otherwise) --first-cell" in text
