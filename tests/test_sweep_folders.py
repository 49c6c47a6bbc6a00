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
        from fastsweep.sweep.results.table import table
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


# ---- what decides an agent's moves is digested ------------------------------------------

HELPER2 = '''"""Helpers."""
def pick(obs):
    c = next(c for c in obs.order if obs.view.flat[c] == -1)
    return divmod(int(c), obs.view.shape[1])
'''
AGENT2 = '''"""An agent whose moves a helper module decides."""
import helper2_mod


class Picker:
    def act(self, obs):
        return helper2_mod.pick(obs)
'''
GROW = """
import sys
sys.path.insert(0, {where!r})
import fastsweep
try:
    r = fastsweep.sweep([{path!r}, "basic"], out={out!r}, fresh={fresh!r}, **{grid!r})
    print("reused", r.reused_chunks, "played", r.played_chunks)
except ValueError as e:
    print("refused:", e)
"""


def test_a_helper_modules_change_is_refused_and_a_comment_is_not(tmp_path):
    """The digest covers the agent's module and the user modules it imports, without
    comments and docstrings; a refusal says what changed and how to start afresh."""
    (tmp_path / "helper2_mod.py").write_text(HELPER2)
    (tmp_path / "agent2_mod.py").write_text(AGENT2)
    path, out = f"{tmp_path / 'agent2_mod.py'}:Picker", tmp_path / "out"

    def grow(fresh=()):
        return python(GROW.format(where=str(tmp_path), path=path, out=str(out), fresh=fresh,
                                  grid=GRID), tmp_path).stdout
    assert "reused 0 played" in grow()
    code = json.loads((out / "params.json").read_text())["own_agents"][path]["code"]
    assert sorted(code) == ["agent2_mod.py", "helper2_mod"]
    # comments, docstrings and blank lines only: the same code, so the folder resumes
    (tmp_path / "helper2_mod.py").write_text(
        HELPER2.replace('"""Helpers."""', '"""Helpers, documented."""\n\n# a comment')
        .replace("    return divmod", "    # the next hidden cell\n    return divmod"))
    (tmp_path / "agent2_mod.py").write_text(
        AGENT2.replace("        return", "\n        # pick\n        return"))
    assert "played 0" in grow()
    # a change of code in the helper the agent imports: refused, saying how to go on
    (tmp_path / "helper2_mod.py").write_text(HELPER2.replace("in obs.order", "in obs.order[::-1]"))
    said = grow()
    assert (f"refused: out: {out} holds games of your agent {path!r} played by other code"
            in said and "changed: helper2_mod)" in said), said
    assert f"play its games afresh with fresh={path!r} (fresh=True: all of your agents " \
           "whose code changed), restore that code, or choose a new folder" in said
    assert "played" in grow(fresh=True) and "played 0" in grow()
    # the same refusal on the command line, in its flags
    (tmp_path / "helper2_mod.py").write_text(HELPER2)
    p = cli(["sweep", "--agents", f"{path},basic", "--size", "5", "--mines", "4",
             "--games", "20", "--mine-count", "no", "--workers", "1", "--quiet",
             "--out", str(out)], cwd=tmp_path)
    err = p.stderr.strip().splitlines()[-1]
    assert p.returncode == 2 and f"play its games afresh with --fresh {path} (--fresh: all" \
        in err, p.stderr
    p = cli(["sweep", "--agents", f"{path},basic", "--size", "5", "--mines", "4",
             "--games", "20", "--mine-count", "no", "--workers", "1", "--quiet",
             "--out", str(out), "--fresh"], cwd=tmp_path)
    assert p.returncode == 0 and "chunk(s) reused" in p.stdout, p.stderr


SCRIPT = '''import sys
import fastsweep
import helper2_mod

STEP = 1


class Mine:
    def act(self, obs):
        return helper2_mod.pick(obs)


r = fastsweep.sweep([Mine(), "basic"], 5, mines=[4], games=GAMES, mine_count=[False],
                    workers=1, quiet=True, out=sys.argv[1])
print("played", r.played_chunks)
'''


def test_an_agent_of_the_running_script_counts_by_its_own_code(tmp_path):
    """An agent defined in the script that runs the sweep (``__main__``) counts by its
    own code and what it names, not by the whole script: the script's sweep arguments
    change and the folder grows; its agent's code changes and the folder is refused."""
    from fastsweep.user.code_id import agent_code

    (tmp_path / "helper2_mod.py").write_text(HELPER2)
    script, out = tmp_path / "study.py", str(tmp_path / "out")
    env = dict(os.environ, PYTHONPATH=ROOT, FASTSWEEP_NO_VENV="1")

    def run(text):
        script.write_text(text)
        return subprocess.run([sys.executable, str(script), out], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600)
    assert run(SCRIPT.replace("GAMES", "20")).returncode == 0
    code = json.loads((tmp_path / "out" / "params.json").read_text())["own_agents"]["Mine"]
    assert sorted(code["code"]) == ["Mine (in study.py)", "helper2_mod"]
    grown = run(SCRIPT.replace("GAMES", "40"))  # other arguments: the same agent
    assert grown.returncode == 0 and "played" in grown.stdout, grown.stderr
    edited = run(SCRIPT.replace("GAMES", "40").replace("return helper2_mod", "x = 1\n"
                                                        "        return helper2_mod"))
    assert edited.returncode == 1 and "changed: Mine (in study.py))" in edited.stderr
    # at a prompt (no file to read): its compiled code, comments aside
    digests = set()
    for body in ("return (0, 0)", "return (0, 0)  # a comment"):
        ns = {"__name__": "__main__"}
        exec(f"class Mine:\n    def act(self, obs):\n        {body}\n", ns)
        digests.add(agent_code(ns["Mine"]())[0])
    assert len(digests) == 1 and len(digests.pop()) == 16


def test_a_folder_that_digested_the_file_alone_says_so(tmp_path):
    """Folders written before this digest hold the agent file's bytes' digest: growing one
    is refused (what the file imports was never checked), saying the file is unchanged and
    how to play its games afresh."""
    from fastsweep.agents import USER_AGENTS
    from fastsweep.user.resolve import file_digest, load

    path = os.path.join(ROOT, "examples", "basic_python.py") + ":Basic"
    out = tmp_path / "old"
    try:
        fastsweep.sweep([path], out=str(out), **GRID)
        p = json.loads((out / "params.json").read_text())
        p["own_agents"][path] = dict(source=path, digest=file_digest(load(path)))
        (out / "params.json").write_text(json.dumps(p))
        with pytest.raises(ValueError, match=r"the folder digested its file alone, written "
                                             r"before fastsweep digested what an agent imports: "
                                             r"the file is unchanged.*play its games afresh "
                                             r"with fresh="):
            fastsweep.sweep([path], out=str(out), **GRID)
        r = fastsweep.sweep([path], out=str(out), fresh=True, **GRID)
        assert r.played_chunks > 0 and fastsweep.load(str(out)).summary.games.tolist() == [20]
    finally:
        USER_AGENTS.pop(path, None)
