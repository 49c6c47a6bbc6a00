"""What agents are called and how they look in figures and tables (issue 57): a user's
agent named by path gets its own colour and marker (built-in agents keep theirs), a short
label (its ``name`` as the folder recorded it, else ``file.py:attr``, told apart when two
read alike), ``labels=`` / ``--labels`` overrides, and legends and titles that stay inside
the figure however long the labels."""
import importlib
import json
import os

import pytest

from fastsweep.agents import AGENTS, USER_AGENTS
from fastsweep.cli import main as cli
from fastsweep.sweep.results.labels import agent_labels, parse_labels
from fastsweep.sweep.results.table import table
from fastsweep.viz import figures as plots
from fastsweep.viz.style import COLOURS, MARKERS, Looks, agent_style

SW = importlib.import_module("fastsweep.sweep")  # fastsweep.sweep is the function
AGENT = '''
class Mine:
    def act(self, obs):
        c = next(c for c in obs.order if obs.view.flat[c] == -1)
        return divmod(int(c), obs.view.shape[1])


class Named(Mine):
    name = "careful"
'''


@pytest.fixture(scope="module", autouse=True)
def _forget_these_agents():
    """The agents these tests register leave the registry as it was (other tests print
    the known agents)."""
    before = dict(USER_AGENTS)
    yield
    USER_AGENTS.clear()
    USER_AGENTS.update(before)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A sweep folder: two built-in agents and three of a user's, two of them the same
    file name in two folders, one with a ``name`` attribute; two boards."""
    root = tmp_path_factory.mktemp("labels")
    paths = []
    for sub in ("home/u/project/agents", "home/u/other/agents"):
        (root / sub).mkdir(parents=True)
        (root / sub / "mine.py").write_text(AGENT)
        paths.append(str(root / sub / "mine.py"))
    agents = ["basic", "probability", f"{paths[0]}:Mine", f"{paths[1]}:Mine",
              f"{paths[0]}:Named"]
    out = root / "run"
    SW.sweep(agents, [6, 8], densities=[0.1, 0.2], games=20, workers=1, out=str(out),
             quiet=True)
    return out, agents


def test_labels_are_short_distinct_and_overridable():
    a, b = "/home/u/a/agents/mine.py:Mine", "/home/u/b/agents/mine.py:Mine"
    got = agent_labels(["basic", a, b, "pkg.sub.lowest:Lowest", "/x/c.py:Careful"],
                       {"/x/c.py:Careful": "careful"})
    assert got == {"basic": "basic", a: "a/agents/mine.py:Mine", b: "b/agents/mine.py:Mine",
                   "pkg.sub.lowest:Lowest": "lowest:Lowest", "/x/c.py:Careful": "careful"}
    # a recorded name that is another agent's: told apart by its path
    got = agent_labels(["basic", "/x/c.py:Basic"], {"/x/c.py:Basic": "basic"})
    assert got["/x/c.py:Basic"] == "basic (c.py:Basic)" and got["basic"] == "basic"
    # overrides: by the agent's name or its shown label, dict or AGENT=LABEL text
    assert agent_labels(["basic", a], labels=f"basic=baseline,{a}=mine") == {
        "basic": "baseline", a: "mine"}
    assert agent_labels([a], labels={"mine.py:Mine": "m"}) == {a: "m"}
    for bad, msg in [("basic", "expected AGENT=LABEL pairs separated by commas"),
                     ("basic=", "expected AGENT=LABEL"), ("=x", "expected AGENT=LABEL"),
                     ("basic=x,basic=y", "agent 'basic' is given twice"),
                     ("nosuch=x", "no agent 'nosuch' in this sweep; its agents: basic, "
                                  "mine.py:Mine"),
                     (f"{a}=basic", "'basic' would name two agents, basic and mine.py:Mine"),
                     ({"basic": 3}, "with text labels"),
                     (["basic=x"], "expected {agent: label}")]:
        with pytest.raises(ValueError) as e:
            agent_labels(["basic", a], labels=bad)
        text = str(e.value)
        assert text.startswith("labels: ") and msg in text and "\n" not in text, text
    assert parse_labels(None) == {}


def test_every_member_has_its_own_look_and_built_ins_keep_theirs():
    own = [f"/p/a{i}.py:A" for i in range(20)]
    looks = Looks(["lookahead", *own[:3], "basic", *own[3:]])
    assert looks.order[:2] == ["basic", "lookahead"] and looks.order[2:] == own
    styles = [looks.style(a) for a in looks.order]
    assert len(set(styles)) == len(styles)  # 22 members, 22 (colour, marker) pairs
    for a in ("basic", "lookahead"):
        assert looks.style(a) == agent_style(a)  # the registry's look, as before
    built_in = [agent_style(a) for a in AGENTS]
    assert len(set(built_in)) == len(AGENTS)
    # the first users' agents: a colour and a marker no built-in agent has
    for a in own[:3]:
        c, m = looks.style(a)
        assert c not in {s[0] for s in built_in} and m not in {s[1] for s in built_in}
    assert len(set(COLOURS)) == len(COLOURS) and len(set(MARKERS)) == len(MARKERS)


def _inside(fig, artist):
    fig.draw_without_rendering()
    box, e = fig.bbox, artist.get_window_extent()
    return box.x0 <= e.x0 and e.x1 <= box.x1 and box.y0 <= e.y0 and e.y1 <= box.y1


def test_a_folder_records_names_and_its_figures_use_short_labels(folder, tmp_path,
                                                                  monkeypatch):
    out, agents = folder
    own = json.loads((out / "params.json").read_text())["own_agents"]
    assert own[agents[4]]["name"] == "careful" and "name" not in own[agents[2]]
    made = {}  # every figure plot_results writes, by file name
    save = plots.save

    def keep(fig, base, formats):
        fig.draw_without_rendering()
        made[os.path.basename(base)] = fig
        return save(fig, base, formats)

    monkeypatch.setattr(plots, "save", keep)
    files = plots.plot_results(str(out), kinds=["score", "diff", "time"], formats=["png"],
                               out=str(tmp_path / "figs"))
    assert len(files) == len(made) == 7  # score, diff: both boards and one each; time
    seen = {}  # label -> its looks over all the folder's figures
    for name, fig in made.items():
        texts = [t.get_text() for t in fig.legends[0].get_texts() if t.get_text()]
        assert {"project/agents/mine.py:Mine", "careful",
                "other/agents/mine.py:Mine + mine total"} <= set(texts), name
        assert not any(t.startswith("/") for t in texts)  # no full paths
        assert _inside(fig, fig.legends[0]) and _inside(fig, fig._suptitle), name
        for ax in fig.axes:
            for line in ax.get_lines():
                if not line.get_label().startswith("_"):
                    look = (line.get_color(), line.get_marker())
                    seen.setdefault(line.get_label().removesuffix(" + mine total"),
                                    set()).add(look)
        plots.plt.close(fig)
    assert all(len(s) == 1 for s in seen.values()), seen  # one look per agent everywhere
    looks = [next(iter(s)) for s in seen.values()]
    assert len(set(looks)) == len(looks) == 5  # and every agent its own
    assert seen["basic"] == {agent_style("basic")}
    assert seen["probability"] == {agent_style("probability")}


def test_the_diff_figure_keeps_its_text_inside(folder):
    out, agents = folder
    pairs = SW.load(str(out)).pairs
    six = pairs[pairs.height == 6]
    # against a user's agent: its label in the title and the axis label; text inside
    for labels in (plots.sweep_looks(str(out)), {
            "basic": "the assignment's basic agent, written out in a label far too long "
                     "for one line of a one-column figure", "mine.py:Named": "careful"}):
        fig = plots.diff_figure(six, reference="careful", labels=labels)
        fig.draw_without_rendering()
        assert fig.get_suptitle().startswith("Score difference vs careful")
        legend = fig.legends[0]
        assert _inside(fig, legend), "legend cut off"
        assert _inside(fig, fig._suptitle)
        for t in legend.get_texts():
            assert _inside(fig, t), t.get_text()
        ylabel = fig.axes[0].yaxis.label
        assert _inside(fig, ylabel)
        assert not ylabel.get_window_extent().overlaps(fig._suptitle.get_window_extent())
        plots.plt.close(fig)
    # a folder or SweepResult is labelled by its record; a reference by its full path
    for source in (str(out), SW.load(str(out))):
        fig = plots.diff_figure(source, reference=agents[2])
        title = fig.get_suptitle().replace("\n", " ")
        assert "vs project/agents/mine.py:Mine" in title
        assert "careful" in [t.get_text() for t in fig.legends[0].get_texts()]
        plots.plt.close(fig)


def test_tables_head_columns_with_labels(folder):
    out, agents = folder
    text = table(str(out), where="size=6x6")
    head = text.splitlines()[0]
    assert "| project/agents/mine.py:Mine |" in head and "| careful + total |" in head
    assert str(out.parent) not in text
    text = table(SW.load(str(out)), where={"size": "6x6", "agent": "careful"},
                 labels="careful=C", cols="mine_count")
    assert text.splitlines()[0] == "| density | total unknown | total known |"
    text = table(str(out), where="size=6x6,agent=careful", rows="agent,mine_count",
                 cols="density", labels={agents[4]: "Careful one"})
    assert text.splitlines()[2].startswith("| Careful one / total unknown |")


def test_labels_come_from_the_folder_record(folder, tmp_path):
    out, agents = folder
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in os.listdir(out):
        if os.path.isfile(out / f):
            (copy / f).write_bytes((out / f).read_bytes())
    params = json.loads((copy / "params.json").read_text())
    params["own_agents"][agents[4]]["name"] = "recorded"  # not what the class says
    (copy / "params.json").write_text(json.dumps(params, indent=1) + "\n")
    assert "| recorded |" in table(str(copy), where="size=6x6")


def test_cli_labels_and_their_errors(folder, tmp_path, capsys):
    out, agents = folder
    assert cli.main(["table", str(out), "--where", "size=8x8", "--labels",
                     f"basic=baseline,{agents[3]}=theirs"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "| baseline |" in head and "| theirs + total |" in head
    assert cli.main(["plot", str(out), "--kind", "score", "--format", "png", "--out",
                     str(tmp_path), "--labels", "careful=C", "--reference", "careful"]) == 0
    capsys.readouterr()
    for cmd in (["table", str(out)], ["plot", str(out), "--out", str(tmp_path / "x")]):
        for bad, msg in [("careful", "--labels: expected AGENT=LABEL pairs separated by "
                                     "commas, e.g. basic=baseline,mine.py:Mine=mine; got "
                                     "'careful'"),
                         ("nosuch=x", "--labels: no agent 'nosuch' in this sweep")]:
            with pytest.raises(SystemExit) as e:
                cli.main(cmd + ["--labels", bad])
            assert e.value.code == 2
            err = capsys.readouterr().err
            assert msg in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x").exists()  # refused before any file was written


def test_a_name_recorded_since_does_not_stop_an_older_folder(folder, tmp_path):
    """A folder written before names were recorded resumes (and grows with another
    user's agent) as before: the name is a label, not something that fixes games."""
    out, agents = folder
    copy = tmp_path / "old"
    copy.mkdir()
    for f in os.listdir(out):
        if os.path.isfile(out / f):
            (copy / f).write_bytes((out / f).read_bytes())
    params = json.loads((copy / "params.json").read_text())
    for v in params["own_agents"].values():
        v.pop("name", None)
    (copy / "params.json").write_text(json.dumps(params, indent=1) + "\n")
    kw = dict(densities=[0.1, 0.2], games=20, workers=1, out=str(copy), quiet=True)
    r = SW.sweep(agents, [6, 8], **kw)
    assert r.played_chunks == 0
    assert "| mine.py:Named |" in table(str(copy), where="size=6x6,density=0.1",
                                        rows="density", cols="agent")
    theirs = agents[3].replace(":Mine", ":Named")  # another user's agent: the folder grows
    grown = SW.sweep(agents + [theirs], [6, 8], **kw)
    assert grown.played_chunks > 0
    head = table(str(copy), where="size=6x6,density=0.1", rows="density").splitlines()[0]
    # (two agents named careful: told apart by their paths)
    assert "| careful (project/agents/mine.py:Named) |" in head
    assert "| careful (other/agents/mine.py:Named) |" in head
