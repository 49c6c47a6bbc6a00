"""A sweep folder without chunk records (as committed to results/) is read from its
summary.csv and pairs.csv: checked, never trusted (issue 46). And plot reads what table
reads: a summary left stale by an interrupted growth is never drawn."""
import json
import os

import pytest

import fastsweep
from fastsweep.cli.main import main
from fastsweep.viz.figures import plot_results

SMALL = dict(agents=["basic"], sizes=8, densities=[0.2], mine_count=[False, True], games=40,
             chunk_games=20, workers=1, quiet=True)


@pytest.fixture(scope="module")
def committed(tmp_path_factory):
    """A folder as committed: params.json, summary.csv, pairs.csv, no chunk records."""
    out = tmp_path_factory.mktemp("summ") / "s"
    fastsweep.sweep(**SMALL, out=str(out))
    os.remove(out / "chunks.jsonl")
    return out


def cli(argv) -> int:
    try:
        return main(argv)
    except SystemExit as e:  # (errors exit 2 through argparse's error)
        return e.code


def copy_of(committed, tmp_path, edit_summary=None, edit_pairs=None):
    out = tmp_path / "c"
    out.mkdir()
    for name in ("params.json", "summary.csv", "pairs.csv"):
        text = (committed / name).read_text()
        if name == "summary.csv" and edit_summary:
            text = edit_summary(text)
        if name == "pairs.csv" and edit_pairs:
            text = edit_pairs(text)
        (out / name).write_text(text)
    return out


def cell(text, line, column, value):
    """``text`` (a CSV) with ``column`` of ``line`` (1 = the header) set to ``value``."""
    rows = text.splitlines()
    head = rows[0].split(",")
    vals = rows[line - 1].split(",")
    vals[head.index(column)] = value
    rows[line - 1] = ",".join(vals)
    return "\n".join(rows) + "\n"


def test_a_committed_folder_reads_back(committed):
    r = fastsweep.load(str(committed))
    assert len(r.summary) == 2 and len(r.pairs) == 1
    assert r.summary.games.tolist() == [40, 40]


@pytest.mark.parametrize("edit, text", [
    (lambda t: cell(t, 2, "mean_score", "7.5"), r"summary.csv line 2: mean_score is '?7.5'?; "
                                                r"must be a finite number in \[0, 1\]"),
    (lambda t: cell(t, 3, "mean_score", "0.01"), r"summary.csv line 3: mean_score 0.01 is not "
                                                 r"within \[ci_low, ci_high\]"),
    (lambda t: cell(t, 2, "win_rate", "-0.5"), r"line 2: win_rate is '?-0.5'?; must be"),
    (lambda t: cell(t, 2, "games", "12.5"), r"line 2: games is '?12.5'?; must be an integer"),
    (lambda t: cell(t, 2, "games", "80"), r"line 2: 80 games, but params.json says 40"),
    (lambda t: cell(t, 3, "mine_count", "maybe"), r"line 3: mine_count is 'maybe'; must be True"),
    (lambda t: cell(t, 2, "agent", "nosuch"), r"line 2: member nosuch:0 is not one of"),
    (lambda t: cell(t, 2, "mines", "14"), r"line 2: board 8x8 with 14 mines .* not in"),
    (lambda t: cell(t, 2, "us_per_game", "inf"), r"line 2: us_per_game is '?inf'?; must be"),
    (lambda t: "\n".join(t.splitlines()[:2]) + "\n", r"summary.csv: 1 rows, but params.json's "
                                                     r"grid has 2"),
    (lambda t: t + t.splitlines()[1] + "\n", r"line 4: a second row of basic:0"),
    (lambda t: "a,b\n1,2\n", r"summary.csv: not a sweep's table \(columns height, width"),
    (lambda t: "", r"summary.csv: 0 rows, but params.json's grid has 2"),
    (lambda t: "\x00\x01garbage\"\n,,,\"\n", r"summary.csv: not (a CSV|a sweep's) table"),
])
def test_an_edited_summary_is_refused_with_file_and_line(committed, tmp_path, edit, text):
    out = copy_of(committed, tmp_path, edit_summary=edit)
    with pytest.raises(ValueError, match=text):
        fastsweep.load(str(out))
    assert cli(["table", str(out)]) == 2  # one line, no traceback, from every command
    assert cli(["plot", str(out)]) == 2


@pytest.mark.parametrize("edit, text", [
    (lambda t: cell(t, 2, "mean_diff", "3"), r"pairs.csv line 2: mean_diff is '?3'?; must be"),
    (lambda t: cell(t, 2, "ci_low", "0.9"), r"pairs.csv line 2: mean_diff .* is not within"),
    (lambda t: cell(t, 2, "agent_b", "x"), r"pairs.csv line 2: member x:1 is not one of"),
])
def test_edited_pairs_are_refused_with_file_and_line(committed, tmp_path, edit, text):
    out = copy_of(committed, tmp_path, edit_pairs=edit)
    with pytest.raises(ValueError, match=text):
        fastsweep.load(str(out))


def test_a_sweep_of_one_member_plots_and_reads_back(tmp_path):
    """Its pairs.csv has no rows but keeps its header (it held only a newline, which
    pandas cannot read); plot draws it."""
    out = tmp_path / "one"
    r = fastsweep.sweep(**dict(SMALL, mine_count=[False]), out=str(out))
    assert (out / "pairs.csv").read_text().startswith("board,height,width,mines")
    os.remove(out / "chunks.jsonl")
    back = fastsweep.load(str(out))
    assert back.summary.games.tolist() == r.summary.games.tolist() and back.pairs.empty
    files = plot_results(str(out), kinds=["score"], formats=("png",))
    assert files and all(os.path.getsize(f) > 1000 for f in files)


def test_plot_refuses_a_summary_left_stale_by_an_interrupted_growth(tmp_path, capsys):
    """A folder being grown to more games holds the old summary.csv until the run ends:
    plot, like table, reads the chunk records, and refuses an unfinished sweep."""
    out = tmp_path / "g"
    fastsweep.sweep(**SMALL, out=str(out))
    p = out / "params.json"
    p.write_text(json.dumps(dict(json.loads(p.read_text()), games=80)))  # as the growth does
    with pytest.raises(ValueError, match=r"results: the sweep is unfinished \(8x8 with 13 "
                                         r"mines, keep-going, lacks games\); re-run"):
        fastsweep.load(str(out))
    capsys.readouterr()
    for command in ("table", "plot"):
        assert cli([command, str(out)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "the sweep is unfinished" in err[0], err
    assert not list(out.glob("fig_*"))


# ---- issue 57, part 2: what ties the summaries to params.json --------------------------

def _edit_params(out, **kw):
    p = out / "params.json"
    params = json.loads(p.read_text())
    for k, v in kw.items():
        if v is None:
            params.pop(k, None)
        else:
            params[k] = v
    p.write_text(json.dumps(params))


def test_a_row_at_a_density_the_grid_lacks_is_refused(committed, tmp_path):
    """The density column is part of a row's board (it was not: a row edited from 0.2 to
    0.15, same mines, was read), and so are the first click and cell."""
    out = copy_of(committed, tmp_path, edit_summary=lambda t: cell(t, 2, "density", "0.15"))
    _edit_params(out, summaries=None, format=4)  # as an older folder: rows checked only
    with pytest.raises(ValueError, match=r"summary.csv line 2: board 8x8 with 13 mines "
                                         r"\(keep-going, density 0.15, first_click .*\) is "
                                         r"not in params.json's grid"):
        fastsweep.load(str(out))
    (tmp_path / "p").mkdir()
    out = copy_of(committed, tmp_path / "p", edit_pairs=lambda t: cell(t, 2, "density", "0.15"))
    with pytest.raises(ValueError, match=r"pairs.csv line 2: board 8x8 with 13 mines is not"):
        fastsweep.load(str(out))


@pytest.mark.parametrize("edit", [
    dict(params=dict(seed=5)),  # other games than the numbers'
    dict(params=dict(prior=0.3)),
    dict(summary=lambda t: cell(t, 2, "us_per_game", "1.5")),  # in range, yet edited
    dict(pairs=lambda t: t.replace("\n", "\r\n")),  # line ends alone: the same files
])
def test_edited_params_or_numbers_are_refused_by_table_and_plot(committed, tmp_path, capsys,
                                                                 edit):
    """summary.csv and pairs.csv are tied to params.json by a digest written with them:
    load, table and plot refuse a folder whose params.json (its seed, say) or numbers
    were edited since (only sweep refused it)."""
    out = copy_of(committed, tmp_path, edit_summary=edit.get("summary"),
                  edit_pairs=edit.get("pairs"))
    _edit_params(out, **edit.get("params", {}))
    if "pairs" in edit:  # (CRLF: a checkout on Windows) reads
        assert fastsweep.load(str(out)).summary.games.tolist() == [40, 40]
        return
    text = r"are not as the sweep wrote them together \(the digest in params.json does not"
    with pytest.raises(ValueError, match=text):
        fastsweep.load(str(out))
    capsys.readouterr()
    for command in ("table", "plot"):
        assert cli([command, str(out)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "the digest in params.json does not match" in err[0], err
    assert not list(out.glob("fig_*"))


def test_a_removed_digest_is_refused_and_an_older_folder_is_read_as_unchecked(committed,
                                                                             tmp_path, capsys):
    out = copy_of(committed, tmp_path)
    _edit_params(out, summaries=None)
    with pytest.raises(ValueError, match=r"its params.json says format 5, whose summaries "
                                         r"carry a digest \(summaries\), but it has none"):
        fastsweep.load(str(out))
    _edit_params(out, format=4, seed=5)  # a folder from before the digest: read, and said
    with pytest.warns(UserWarning, match=r"its summary.csv and pairs.csv carry no digest \(a "
                                         r"folder of format 4, without chunk records\): their "
                                         r"rows are checked against params.json's grid, but "
                                         r"their numbers are unchecked"):
        assert fastsweep.load(str(out)).summary.games.tolist() == [40, 40]
    capsys.readouterr()
    # (the command line prints it as one line, "fastsweep: warning: ...": under pytest the
    # warning is recorded instead; test_hostile_args checks the printed line in a process)
    with pytest.warns(UserWarning, match="their numbers are unchecked"):
        assert cli(["table", str(out)]) == 0
    assert "| density |" in capsys.readouterr().out


def test_a_finished_run_writes_the_digest_of_what_it_wrote(tmp_path):
    from fastsweep.sweep.folder.integrity import summaries_id

    out = tmp_path / "s"
    fastsweep.sweep(**SMALL, out=str(out))
    p = json.loads((out / "params.json").read_text())
    assert p["summaries"] == summaries_id(p, (out / "summary.csv").read_text(),
                                          (out / "pairs.csv").read_text())
    fastsweep.sweep(**dict(SMALL, games=60), out=str(out))  # grown: a new digest
    q = json.loads((out / "params.json").read_text())
    assert q["games"] == 60 and q["summaries"] != p["summaries"]
    os.remove(out / "chunks.jsonl")
    assert fastsweep.load(str(out)).summary.games.tolist() == [60, 60]
