"""Sweep folders of users' agents (issue 57, part 2): a folder is data, read in a new
process without its agents' code and without importing anything it names; what decides
an agent's moves is digested (its code and the user modules it imports, not comments);
a folder without chunk records is checked against its params.json, or refused.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import fastsweep

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HELPER = """
def first_hidden(obs):
    c = next(c for c in obs.order if obs.view.flat[c] == -1)
    return divmod(int(c), obs.view.shape[1])
"""
AGENT = """
import helper_mod
from numba import njit
import fastsweep


class Mine:
    name = "mine"

    def act(self, obs):
        return helper_mod.first_hidden(obs)


class ByPath:
    def act(self, obs):
        return helper_mod.first_hidden(obs)


@njit
def my_numba(view, info, order, memory):
    v = view.ravel()
    for c in order:
        if v[c] == -1:
            return fastsweep.reveal(c)
    return fastsweep.reveal(0)
"""
# what the agents' files become once the folder is written: importing them is visible
TRAP = """
import os, sys
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "IMPORTED"), "a").write(
    __name__ + "\\n")
print("IMPORTED " + __name__, file=sys.stderr, flush=True)
raise RuntimeError("this folder's agents must not be imported to read it")
"""
GRID = dict(sizes=5, mines=[4], games=20, mine_count=[False], workers=1, quiet=True)


def python(code, cwd, check=True):
    """Run ``code`` in a new interpreter that imports this checkout's fastsweep."""
    env = dict(os.environ, PYTHONPATH=ROOT, FASTSWEEP_NO_VENV="1")
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=600)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def cli(args, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT, FASTSWEEP_NO_VENV="1")
    return subprocess.run([sys.executable, "-m", "fastsweep", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


WRITE = """
import sys
sys.path.insert(0, {where!r})
import fastsweep
from agent_mod import Mine, my_numba
r = fastsweep.sweep([Mine(), my_numba, {path!r}, "basic"], out={out!r}, **{grid!r})
print(sorted(r.summary.agent))
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder written by agent objects (a Python one, a Numba policy), an agent by
    path and a built-in one; then the agents' modules are replaced by ones that mark
    and refuse being imported."""
    where = tmp_path_factory.mktemp("agents")
    (where / "helper_mod.py").write_text(HELPER)
    (where / "agent_mod.py").write_text(AGENT)
    path = f"{where / 'agent_mod.py'}:ByPath"
    out = where / "out"
    python(WRITE.format(where=str(where), path=path, out=str(out), grid=GRID), where)
    for name in ("helper_mod.py", "agent_mod.py"):
        (where / name).write_text(TRAP)
    return where, out, path


def test_a_folder_of_your_agents_reads_in_a_new_process_without_their_code(folder):
    where, out, path = folder
    p = python(f"""
        import sys
        sys.path.insert(0, {str(where)!r})  # the trapped modules are importable
        import fastsweep
        from fastsweep.sweep.table import table
        from fastsweep.viz.figures import plot_results
        r = fastsweep.load({str(out)!r})
        print(sorted(r.summary.agent), r.summary.games.tolist())
        print(table({str(out)!r}), end="")
        print(plot_results({str(out)!r}, kinds=["score"], formats=["png"]))
        print("user modules:", [m for m in sys.modules
                                if m in ("agent_mod", "helper_mod")
                                or m.startswith("fastsweep_user_")])
        """, where)
    assert f"{sorted(['basic', 'mine', 'my_numba', path])} [20, 20, 20, 20]" in p.stdout
    assert "| density | mine | my_numba |" in p.stdout and "fig_score.png" in p.stdout
    assert "user modules: []" in p.stdout
    assert not (where / "IMPORTED").exists(), (where / "IMPORTED").read_text()


@pytest.mark.parametrize("command", [["table", "--ci"], ["plot", "--format", "png",
                                                         "--kind", "score,diff"]])
def test_table_and_plot_read_it_from_the_command_line(folder, command):
    where, out, path = folder
    p = cli([command[0], str(out), *command[1:]], cwd=where)
    assert p.returncode == 0, p.stderr
    assert ("mine" in p.stdout) if command[0] == "table" else ("wrote" in p.stdout)
    assert not (where / "IMPORTED").exists(), (where / "IMPORTED").read_text()


def test_a_folder_naming_an_agent_it_does_not_describe_is_refused_unimported(folder,
                                                                            tmp_path):
    """An import path in params.json's agents without an own_agents entry (an edit) is
    refused when read, not imported."""
    where, out, path = folder
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("summary.csv", "pairs.csv", "chunks.jsonl"):
        (copy / name).write_text((out / name).read_text())
    p = json.loads((out / "params.json").read_text())
    del p["own_agents"][path]
    (copy / "params.json").write_text(json.dumps(p))
    r = python(f"""
        import fastsweep
        try:
            fastsweep.load({str(copy)!r})
        except ValueError as e:
            print(e)
        """, where)
    assert f"params.json names agent {path!r}, neither built in nor one of its own_agents" \
        in r.stdout
    assert not (where / "IMPORTED").exists()


def test_growing_it_says_which_code_it_imports_before_importing(folder, tmp_path):
    """A run on an existing folder that imports an agent by path says so first (here
    the import fails: the module refuses it, after the line)."""
    where, out, path = folder
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("params.json", "chunks.jsonl"):
        (copy / name).write_text((out / name).read_text())
    r = cli(["sweep", "--agents", f"basic,{path}", "--size", "5", "--mines", "4",
             "--games", "20", "--mine-count", "no", "--workers", "1", "--quiet",
             "--out", str(copy)], cwd=where)
    said = f"sweep: {copy} holds a sweep; importing your agents' code to play them: " \
           f"{path} from {where / 'agent_mod.py'}"
    assert said in r.stderr and "IMPORTED" in r.stderr, r.stderr
    assert r.stderr.index(said) < r.stderr.index("IMPORTED")
    assert r.returncode == 2 and "importing" in r.stderr.splitlines()[-1]
    (where / "IMPORTED").unlink()


def test_a_folder_grows_by_your_agent(tmp_path):
    """A user's agent added to a folder is a new member, as a built-in agent is (it was
    refused: own_agents counted as a parameter fixing the games)."""
    out = tmp_path / "g"
    fastsweep.sweep(["basic"], out=str(out), **GRID)
    from fastsweep.agents import USER_AGENTS

    def careful(obs):
        c = next(c for c in obs.order if obs.view.flat[c] == -1)
        return divmod(int(c), obs.view.shape[1])
    try:
        r = fastsweep.sweep(["basic", careful], out=str(out), **GRID)
        assert r.reused_chunks > 0 and sorted(r.summary.agent) == ["basic", "careful"]
        assert list(json.loads((out / "params.json").read_text())["own_agents"]) == ["careful"]
    finally:
        USER_AGENTS.pop("careful", None)
