"""Users' own agents (``fastsweep.user``): Python, batched and Numba agents play the same
games as the built-in agents they copy, see only what they may know, get exact inference
on what they observed, and every bad agent or move gets one clear error.
"""
import os
import re
import runpy
import subprocess
import sys

import numpy as np
import pytest

import fastsweep
from fastsweep.kernels.engine import layout as kl
from fastsweep.user import AgentError, Observation
from fastsweep.user.observation import Knowledge, _Game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples"))

from basic_python import Basic  # noqa: E402

COLS = ["flagged", "detonated", "revealed", "guesses", "moves", "won", "score",
        "wrong_flags", "safe_detonations"]
RULES = [dict(), dict(mine_count=True), dict(rules="classic"),
         dict(rules="classic", mine_count=True)]


def first_hidden(obs):
    """The next hidden cell of the game's guess order (the built-in random guess)."""
    cell = next(c for c in obs.order if obs.view.flat[c] == -1)
    return divmod(int(cell), obs.view.shape[1])


@pytest.mark.parametrize("kw", RULES, ids=["kg", "kg-total", "classic", "classic-total"])
def test_python_basic_plays_the_built_in_basic_games(kw):
    mine = fastsweep.run(Basic(), (7, 9), density=0.2, games=80, seed=3, **kw)
    ref = fastsweep.run("basic", (7, 9), density=0.2, games=80, seed=3, **kw)
    assert mine[COLS].equals(ref[COLS])
    assert (mine.agent == "Basic").all() and (mine.game == ref.game).all()


@pytest.mark.parametrize("kw", RULES, ids=["kg", "kg-total", "classic", "classic-total"])
def test_numba_basic_plays_the_built_in_basic_games(kw):
    """Both ways: the engine playing the rules (``rules=True``) and the rules by hand."""
    from basic_numba import agent, agent_by_hand
    assert agent.rules and not agent_by_hand.rules
    for size, games in (((30, 30), 200), ((5, 6), 200)):
        ref = fastsweep.run("basic", size, density=0.2, games=games, seed=5, **kw)
        for own in (agent, agent_by_hand):
            mine = fastsweep.run(own, size, density=0.2, games=games, seed=5, **kw)
            assert mine[COLS].equals(ref[COLS]), (own.name, size, kw)


def test_the_rules_the_engine_plays_for_a_numba_agent_are_traced_and_in_its_view():
    """``rules=True``: the rules' moves carry the rules' reasons in the trace, the policy
    is called only where no rule applies (it sees every rule's outcome in its view), and
    a bad ``rules`` is refused naming it."""
    from numba import njit

    @njit
    def guess_checked(view, info, order, memory):
        v = view.ravel()
        h, w = view.shape
        memory[1] += 1  # calls
        for c in range(h * w):  # no single-clue rule may apply where the policy is called
            if v[c] >= 0:
                hid, known = 0, 0
                for r in range(max(c // w - 1, 0), min(c // w + 2, h)):
                    for cc in range(max(c % w - 1, 0), min(c % w + 2, w)):
                        hid += v[r * w + cc] == -1
                        known += v[r * w + cc] == -2 or v[r * w + cc] == -3
                if hid > 0 and (v[c] == known or v[c] - known == hid):
                    return fastsweep.reveal(-1)  # (refused: the test fails naming it)
        while v[order[memory[0]]] != -1:
            memory[0] += 1
        return fastsweep.reveal(order[memory[0]])

    agent = fastsweep.NumbaAgent(guess_checked, memory=1, rules=True, name="checked")
    for seed in range(3):
        t = fastsweep.play(agent, 12, mines=20, seed=seed, mine_count=True)
        ref = fastsweep.play("basic", 12, mines=20, seed=seed, mine_count=True)
        cols = ["action", "row", "col", "outcome"]
        assert t.moves[cols].equals(ref.moves[cols])
        ruled = (t.moves.action != "guess").to_numpy()  # the rules' moves: the same reasons
        assert ruled.sum() > 10 and (t.moves.why[ruled] == ref.moves.why[ruled]).all()
        assert (t.moves.ref[ruled] == ref.moves.ref[ruled]).all()
    df = fastsweep.run(agent, 16, density=0.15, games=100, seed=1, rules="classic")
    ref = fastsweep.run("basic", 16, density=0.15, games=100, seed=1, rules="classic")
    assert df[COLS].equals(ref[COLS])
    with pytest.raises(TypeError, match=r"rules: expected True .* got str 'yes'"):
        fastsweep.NumbaAgent(guess_checked, rules="yes")


class FirstHiddenBatch:
    """first_hidden for a batch (numpy)."""

    def act_batch(self, obs):
        b = obs.view.shape[0]
        hidden = obs.view.reshape(b, -1) == -1
        first = np.take_along_axis(hidden, obs.order, axis=1).argmax(axis=1)
        assert not obs.view.flags.writeable and obs.active.any()
        return fastsweep.reveal(obs.order[np.arange(b), first])


@pytest.mark.parametrize("rules", ["keep-going", "classic"])
def test_a_batched_agent_plays_the_games_of_its_single_game_form(rules):
    a = fastsweep.run(FirstHiddenBatch(), 6, mines=7, games=300, seed=2, rules=rules)
    b = fastsweep.run(first_hidden, 6, mines=7, games=300, seed=2, rules=rules)
    assert a[COLS].equals(b[COLS])
    t = fastsweep.play(FirstHiddenBatch(), 6, mines=7, seed=2, game=4, rules=rules)
    assert t.result["moves"] == b.moves[4] and t.result["flagged"] == b.flagged[4]


class Recorder:
    """Keeps every observation (and checks what an agent is told)."""

    def __init__(self):
        self.seen = []
        self.infos = []

    def reset(self, info):
        self.infos.append(info)

    def act(self, obs):
        self.seen.append(obs)
        return first_hidden(obs)


def test_an_observation_holds_only_what_the_agent_may_know():
    rec = Recorder()
    fastsweep.run(rec, (5, 6), mines=6, games=3, seed=9, mine_count=True)
    assert [i.game for i in rec.infos] == [0, 1, 2] and rec.infos[0].mines == 6
    assert set(Observation.__slots__) == {"view", "mines", "move", "last", "_game"}
    assert set(_Game.__slots__) == {"info", "order_src", "_rng", "_knowledge", "log"}
    n = 30
    for obs in rec.seen:
        assert obs.view.shape == (5, 6) and obs.view.dtype == np.int8
        assert not obs.view.flags.writeable and not obs.order.flags.writeable
        with pytest.raises(ValueError):
            obs.view[0, 0] = 0
        assert obs.mines == 6 and obs.rules == "keep-going" and obs.first_click == "any"
        assert sorted(obs.order.tolist()) == list(range(n))
        k = obs.knowledge
        truth = kl.regions(5, 6)["TRUTH"]
        assert not k._S.ravel()[truth[0]:truth[0] + truth[1]].any()  # no board behind it
    moves = [o.move for o in rec.seen]
    assert moves[0] == 1 and all(b == a + 1 for a, b in zip(moves, moves[1:]) if b != 1)
    # a detonation shows as -3 (keep-going), then counts as a known mine
    assert any((o.view == -3).any() for o in rec.seen)
    # the rng: seeded from (seed, game), the same in every run
    a = Recorder()
    fastsweep.run(a, (5, 6), mines=6, games=1, seed=9)
    assert a.seen[0].rng.integers(1 << 30) == np.random.default_rng([9, 0]).integers(1 << 30)


def test_the_guess_order_is_the_built_in_agents_one():
    rec = Recorder()
    fastsweep.run(rec, 6, mines=5, games=1, seed=4)
    t = fastsweep.play("basic", 6, mines=5, seed=4)
    first = rec.seen[0].last
    assert (first[0], first[1]) == (t.moves.row[0], t.moves.col[0])
    assert rec.seen[0].order[0] == t.moves.cell_index[0]


class Checker:
    """Compares obs.knowledge with the public inference API on every move."""

    checked = 0

    def act(self, obs):
        p = obs.knowledge.mine_probabilities()
        assert np.allclose(p, fastsweep.mine_probabilities(obs), atol=1e-12)
        safe, mine = obs.knowledge.deduce()
        s2, m2 = fastsweep.deduce(obs)
        assert (safe == s2).all() and (mine == m2).all()
        Checker.checked += 1
        hidden = obs.view == -1
        if (safe & hidden).any():
            return fastsweep.Safe(*np.argwhere(safe & hidden)[0])
        if (mine & hidden).any():
            return fastsweep.Flag(*np.argwhere(mine & hidden)[0])
        return first_hidden(obs)


@pytest.mark.parametrize("kw", RULES[:2], ids=["no-total", "total"])
def test_knowledge_agrees_with_the_inference_api_move_by_move(kw):
    df = fastsweep.run(Checker(), (6, 7), mines=9, games=25, seed=1, **kw)
    assert Checker.checked > 300
    assert (df.safe_detonations == 0).all() and (df.wrong_flags == 0).all()


def test_the_inference_api_reads_detonations_and_blanks():
    v = np.array([[1, -3, -1], [1, 1, -1]], np.int8)
    p = fastsweep.mine_probabilities(v, mines=1)
    assert p[0, 1] == 1.0 and p[0, 2] == 0.0 and p[1, 2] == 0.0
    blank = np.array([[-4, -1], [-1, -1]], np.int8)  # revealed, nothing shown
    p = fastsweep.mine_probabilities(blank, mines=1)
    assert np.allclose(p[blank == -1], 1 / 3) and p[0, 0] == 0.0


def test_numba_blocks_agree_with_the_inference_api():
    from fastsweep.user.blocks import NO_RULE, analyse_view, single_clue_move
    rng = np.random.default_rng(0)
    checked = 0
    for g in range(40):
        t = fastsweep.play("probability", (5, 6), mines=7, seed=int(rng.integers(1 << 30)),
                           mine_count=True)
        k = int(rng.integers(1, len(t.moves)))
        v = np.full(30, -1, np.int8)
        for m in t.moves.itertuples():
            if m.move > k:
                break
            v[m.cell_index] = -2 if m.out == -2 else (-3 if m.out == -1 else m.out)
        v = v.reshape(5, 6)
        for mines in (-1, 7):
            prob = np.zeros(30)
            ded = np.zeros(30, np.int8)
            assert analyse_view(v, mines, 0.5, True, prob, ded)
            ref = fastsweep.mine_probabilities(v, None if mines < 0 else mines)
            assert np.allclose(prob.reshape(5, 6), ref, atol=1e-12)
            checked += 1
        move = single_clue_move(v)
        if move != NO_RULE:
            kind, cell = divmod(int(move), 1 << 32)
            safe, mine = fastsweep.deduce(v)
            assert (safe if kind == 1 else mine).ravel()[cell]
    assert checked == 80


# ---- bad agents and bad moves --------------------------------------------------------

def _raises(obs):
    if obs.move > 2:
        return {}["boom"]
    return first_hidden(obs)


@pytest.mark.parametrize("move, says", [
    ((0, 99), "off the 5x5 board"), ((float("nan"), 1), "must be integers"),
    ("a1", "a move is (row, col)"), ((True, 1), "must be integers"),
    ((1, 2, 3), "a move is (row, col)"), (None, "a move is (row, col)")])
def test_an_illegal_move_is_refused_naming_agent_game_and_move(move, says):
    def bad(obs):
        return move
    with pytest.raises(ValueError, match=f"agent 'bad', game 0, move 2: returned .*{re.escape(says)}"):
        fastsweep.run(bad, 5, mines=3)


def test_a_revealed_cell_or_a_raising_agent_is_named():
    def again(obs):
        return obs.last
    with pytest.raises(ValueError, match=r"agent 'again', game 0, move 2: returned \(.*not hidden"):
        fastsweep.run(again, 5, mines=3)
    with pytest.raises(AgentError, match=r"agent '_raises', game 0, move 4: raised KeyError") as e:
        fastsweep.run(_raises, 5, mines=3)
    assert isinstance(e.value.__cause__, KeyError)


def test_bad_agents_and_batches_are_refused_clearly():
    with pytest.raises(ValueError, match="'basic' is a built-in agent's"):
        fastsweep.run(type("basic", (), {"act": lambda self, obs: (0, 0)})(), 5, mines=3)
    with pytest.raises(TypeError, match="an object with act"):
        fastsweep.run(42, 5, mines=3)
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        fastsweep.run("nosuch", 5, mines=3)
    with pytest.raises(ValueError, match="no file"):
        fastsweep.run("nowhere/agent.py:A", 5, mines=3)
    with pytest.raises(ValueError, match="has no attribute 'Nope'"):
        fastsweep.run("basic_python:Nope", 5, mines=3)

    class Shape:
        def act_batch(self, obs):
            return np.zeros(3, np.int64)

    class Floats:
        def act_batch(self, obs):
            return np.zeros(obs.view.shape[0])

    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        fastsweep.run(Shape(), 5, mines=3, games=4)
    with pytest.raises(ValueError, match="dtype float64"):
        fastsweep.run(Floats(), 5, mines=3, games=4)


def test_a_numba_agents_bad_move_is_named():
    from numba import njit

    @njit
    def bad_numba(view, info, order, memory):
        return fastsweep.reveal(order[0])  # the opening cell: already revealed

    with pytest.raises(ValueError, match=r"agent 'bad_numba', game 0, move 2: returned "
                                         r"\(\d, \d\).*not hidden"):
        fastsweep.run(bad_numba, 5, mines=3, first_cell="random")


# ---- everywhere an agent goes --------------------------------------------------------

def test_a_trace_of_your_agent_reads(tmp_path):
    t = fastsweep.play(Basic(), 6, mines=5, seed=2, mine_count=True)
    assert t.moves.reason.iloc[0].startswith("opening move")
    assert t.moves.reason.iloc[1:].str.startswith("your agent's").all()
    assert "deduced safe" in " ".join(t.moves.reason) and "flag" in " ".join(t.moves.reason)


def test_sweep_pairs_your_agent_and_refuses_changed_code(tmp_path):
    src = tmp_path / "agent_file.py"
    src.write_text("def mine(obs):\n"
                   "    c = next(c for c in obs.order if obs.view.flat[c] == -1)\n"
                   "    return divmod(int(c), obs.view.shape[1])\n")
    path = f"{src}:mine"
    out = tmp_path / "out"
    r = fastsweep.sweep(["basic", path], sizes=[6], mines=[5], games=40, mine_count=[False],
                        out=str(out), workers=2, quiet=True)
    assert set(r.summary.agent) == {"basic", path}
    import json
    own = json.loads((out / "params.json").read_text())["own_agents"]
    assert own[path]["source"] == path and len(own[path]["digest"]) == 16
    again = fastsweep.sweep(["basic", path], sizes=[6], mines=[5], games=40,
                            mine_count=[False], out=str(out), workers=1, quiet=True)
    assert again.summary.mean_score.tolist() == r.summary.mean_score.tolist()
    src.write_text(src.read_text() + "# changed\n")  # a comment: the same code
    from fastsweep.agents import USER_AGENTS
    del USER_AGENTS[path]
    import sys as _sys
    del _sys.modules["agent_file"]  # (a file agent is imported under its file's name)
    assert fastsweep.sweep(["basic", path], sizes=[6], mines=[5], games=40, mine_count=[False],
                           out=str(out), workers=1, quiet=True).played_chunks == 0
    src.write_text(src.read_text().replace("    return", "    c = int(c)\n    return"))
    from fastsweep.agents import USER_AGENTS
    del USER_AGENTS[path]  # (a new process would load the changed file)
    del _sys.modules["agent_file"]
    with pytest.raises(ValueError, match="played by other code"):
        fastsweep.sweep(["basic", path], sizes=[6], mines=[5], games=40, mine_count=[False],
                        out=str(out), workers=1, quiet=True)
    with pytest.raises(ValueError, match="fresh: 'basic' is not one of your agents"):
        fastsweep.sweep(["basic", path], sizes=[6], mines=[5], games=40, mine_count=[False],
                        out=str(out), workers=1, quiet=True, fresh=["basic"])
    # asked to, the changed agent's games are set aside and played again; basic's kept
    renewed = fastsweep.sweep(["basic", path], sizes=[6], mines=[5], games=40,
                              mine_count=[False], out=str(out), workers=1, quiet=True,
                              fresh=[path])
    assert renewed.reused_chunks > 0 and renewed.played_chunks > 0
    assert renewed.summary.mean_score.tolist() == r.summary.mean_score.tolist()  # same play
    own2 = json.loads((out / "params.json").read_text())["own_agents"][path]["digest"]
    assert own2 != own[path]["digest"]
    back = fastsweep.load(str(out))  # every record checks against the new digest
    assert back.summary.mean_score.tolist() == r.summary.mean_score.tolist()


def test_the_cli_plays_and_checks_an_agent_by_path(tmp_path):
    env = dict(os.environ, FASTSWEEP_NO_VENV="1")
    agent = os.path.join(ROOT, "examples", "basic_python.py") + ":Basic"
    run = subprocess.run([sys.executable, "-m", "fastsweep", "run", "--agent", agent,
                          "--size", "6", "--mines", "5", "--games", "20"],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert f"agent {agent}" in run.stdout and "games            20" in run.stdout
    bad = tmp_path / "bad.py"
    bad.write_text("def cheat(obs):\n    import fastsweep\n"
                   "    c = next(c for c in obs.order if obs.view.flat[c] == -1)\n"
                   "    return fastsweep.Safe(*divmod(int(c), obs.view.shape[1]))\n")
    chk = subprocess.run([sys.executable, "-m", "fastsweep", "check-agent", f"{bad}:cheat",
                          "--games", "5", "--no-workers"], capture_output=True, text=True,
                         env=env, cwd=tmp_path)
    assert chk.returncode == 1 and "FAIL" in chk.stdout and "(Safe) was a mine" in chk.stdout


def test_check_agent_passes_good_agents_and_lists_failures():
    r = fastsweep.check_agent(Basic(), games=6)
    assert r.passed and r.games == 36 and r.us_per_move > 0

    def cheat(obs):
        return fastsweep.Safe(*first_hidden(obs))
    r = fastsweep.check_agent(cheat, games=6, workers=False, raise_on_failure=False)
    assert not r.passed and any("(Safe) was a mine" in f for f in r.failures)
    with pytest.raises(AssertionError, match="failed"):
        fastsweep.check_agent(cheat, games=6, workers=False)


@pytest.mark.parametrize("example", ["basic_python.py", "batched_numpy.py", "basic_numba.py"])
def test_the_examples_run(example, capsys):
    runpy.run_path(os.path.join(ROOT, "examples", example), run_name="__main__")
    out = capsys.readouterr().out
    assert out and "False" not in out, out


@pytest.mark.slow
def test_the_lowest_probability_example_runs(capsys):
    runpy.run_path(os.path.join(ROOT, "examples", "lowest_numba.py"), run_name="__main__")
    assert "win rate" in capsys.readouterr().out


def test_the_readme_section_runs(capsys):
    """The examples of the site's "Your own agent" and "Gymnasium" pages (once the README's
    "Your own agent" section) run and print what they say."""
    pytest.importorskip("gymnasium")
    guide = os.path.join(ROOT, "docs", "pages", "guide")
    blocks = []
    for page in ("own-agent.md", "gymnasium.md"):
        text = open(os.path.join(guide, page)).read()
        found = re.findall(r"```python\n(.*?)```", text, re.S)
        # (gymnasium.md: its first block; tests/test_doc_examples.py runs the others)
        blocks += [(page, b) for b in (found[:1] if page == "gymnasium.md" else found)]
    assert len(blocks) == 3
    for page, code in blocks:
        exec(compile(code, f"docs/pages/guide/{page}", "exec"), {})
    out = capsys.readouterr().out.split("\n")
    assert out[0].startswith("FirstHidden ") and 0 <= float(out[1]) <= 1
    assert out[2] == "(64, 9, 9)"


@pytest.mark.slow
def test_dask_workers_import_your_agent_by_path(tmp_path):
    pytest.importorskip("dask.distributed")
    path = os.path.join(ROOT, "examples", "basic_python.py") + ":Basic"
    kw = dict(sizes=[5], mines=[4], games=12, mine_count=[False], quiet=True, seed=3)
    d = fastsweep.sweep(["basic", path], workers=2, backend="dask", **kw)
    p = fastsweep.sweep(["basic", path], workers=1, **kw)
    assert d.summary.mean_score.tolist() == p.summary.mean_score.tolist()
    assert d.summary.mean_score.iloc[0] == d.summary.mean_score.iloc[1]  # basic's games
    with pytest.raises(ValueError, match="no import path, so Dask's workers cannot load it"):
        fastsweep.sweep(["basic", Basic()], workers=2, backend="dask", **kw)


@pytest.mark.parametrize("which", ["python", "numba", "numba-rules"])
def test_the_advisor_plays_your_agent_as_the_game_does(which):
    from fastsweep.advisor.manual import guess_order
    if which == "python":
        agent = Basic()
    elif which == "numba":
        from basic_numba import agent_by_hand as agent
    else:
        from basic_numba import agent
    kw = dict(first_cell="corner", first_click="safe", mine_count=True)
    for seed in (3, 4):
        t = fastsweep.play(agent, 6, mines=5, seed=seed, **kw)
        g = fastsweep.ManualGame([[-1] * 6] * 6, mines=5, agent=agent,
                                 order=guess_order(6, 6, seed))
        asked = []
        while g.pending() is not None:
            r, c = g.pending()["cell"]
            asked.append((r, c))
            g.answer(-1 if t.mines[r, c] else int(t.clues[r, c]))
        reveals = t.moves[t.moves.action != "flag"]
        assert asked == list(zip(reveals.row, reveals.col))
    a = fastsweep.advise([[1, -1, -1], [1, -1, -1], [-1, -1, -1]], mines=2, agent=agent)
    assert a.reason == "your agent's guess" and a.action == "guess"


def test_the_contracts_batch_check_finds_each_fault():
    from fastsweep.options import make_config
    from fastsweep.runner import play_chunk
    from fastsweep.user.check import batch_problems
    from fastsweep.kernels.engine import game as kg
    cfg = make_config("basic", 6, mines=8, rules="classic")
    out, _, (fst, fmine) = play_chunk(cfg, 1, 0, 50, keep_boards=True)
    assert batch_problems(cfg, out, fst, fmine) == []
    faults = {"a flag on a safe cell": (kg.OUT_WRONG_FLAGS, 1),
              "(Safe) was a mine": (kg.OUT_SAFE_DETONATIONS, 1),
              "flag count disagrees": (kg.OUT_FLAGGED, 99),
              "did not resolve exactly one cell": (kg.OUT_MOVES, 99)}
    for says, (col, value) in faults.items():
        bad = out.copy()
        bad[7, col] = value
        found = batch_problems(cfg, bad, fst, fmine)
        assert any(says in p and p.startswith("game 7") for p in found), (says, found)
    lost = fst.copy()
    lost[3, lost[3] == kl.REVEALED] = kl.HIDDEN
    assert any("game 3" in p for p in batch_problems(cfg, out, lost, fmine))


def test_one_setting_gets_a_comparison_with_paired_win_rates(tmp_path):
    import json
    import pandas as pd
    from fastsweep.viz.figures import plot_results
    out = tmp_path / "cmp"
    r = fastsweep.sweep(["basic", "probability", Basic()], sizes=[8], mines=[10],
                        mine_count=[False], games=120, out=str(out), workers=1, quiet=True)
    p = r.pairs.set_index(["agent_a", "agent_b"])
    # Basic plays basic's very games: no game differs, and the intervals say what 120
    # games without a difference show (the rule of three), not [0, 0]
    same = p.loc[("basic", "Basic")]
    assert same.differ == 0 and same.win_differ == 0
    assert same.mean_diff == 0 and same.win_diff == 0
    for lo, hi in (("ci_low", "ci_high"), ("win_diff_low", "win_diff_high")):
        assert same[lo] == -same[hi] and same[hi] == pytest.approx(1 - 0.025 ** (1 / 120),
                                                                  rel=0.02)
    s = r.summary.set_index("agent")
    want = s.win_rate["probability"] - s.win_rate["basic"]
    assert p.loc[("basic", "probability"), "win_diff"] == pytest.approx(want)
    assert p.loc[("basic", "probability"), "win_diff_low"] < want
    files = plot_results(str(out), formats=("png",), reference="probability")
    assert str(out / "fig_compare.png") in files
    t = pd.read_csv(out / "compare.csv")
    assert t.agent.tolist() == ["basic", "probability", "Basic"]
    assert t.win_diff.iloc[0] == pytest.approx(-want) and np.isnan(t.win_diff.iloc[1])
    # a record's per-game wins are checked like its scores
    chunks = next(out.glob("chunks*"))
    lines = chunks.read_text().splitlines()
    rec = json.loads(lines[0])
    lab = next(iter(rec["ws"]))
    rec["ws"][lab][0] = 1 - rec["ws"][lab][0]
    chunks.write_text("\n".join([json.dumps(rec)] + lines[1:]) + "\n")
    with pytest.raises(ValueError, match="per-game wins"):
        fastsweep.load(str(out))


def test_a_python_agents_own_reasons_are_in_its_trace():
    def explained(obs):
        r, c = first_hidden(obs)
        return fastsweep.Guess(r, c, why=f"my rule {obs.move}")
    t = fastsweep.play(explained, 5, mines=3, seed=1)
    assert t.moves.reason.iloc[1:].tolist() == [f"my rule {m}" for m in range(1, len(t.moves))]
    with pytest.raises(ValueError, match="why must be a string"):
        fastsweep.run(lambda obs: fastsweep.Flag(0, 0, why=1), 5, mines=3)


def test_per_game_files_of_an_agent_named_by_path(tmp_path):
    path = os.path.join(ROOT, "examples", "basic_python.py") + ":Basic"
    out = tmp_path / "pg"
    fastsweep.sweep(["basic", path], sizes=[5], mines=[4], games=10, mine_count=[False],
                    out=str(out), per_game=True, workers=1, quiet=True)
    names = [p.name for p in (out / "per_game").iterdir()]
    assert names and all("/" not in n and ":" not in n for n in names)
    import pandas as pd
    rows = pd.concat(pd.read_csv(out / "per_game" / n) for n in names)
    assert set(rows.agent) == {"basic", path} and len(rows) == 20


def test_bench_times_your_agent_beside_basic(capsys):
    from fastsweep.tools.bench import main
    from basic_numba import agent
    df = main(repeats=1, quick=True, compile_times=False, agents=[agent])
    mine = df[df.metric == "my_basic keep-going"]
    assert len(mine) == 5 and (mine.games_per_s > 0).all()
    assert "my_basic: 9x9 / 10 mines" in capsys.readouterr().out


def test_the_knowledge_kept_in_memory_is_the_view_s_knowledge_at_every_move():
    """``blocks.knowledge`` (kept across the game's moves, adding the changed cells) gives
    the analyses of ``knowledge_state`` built afresh from the view, at every call of the
    policy, under both rules, with and without the total (keep-going: detonated cells
    too); the agent's own memory words are left alone; without ``knowledge=True`` the
    block refuses, naming what to do."""
    from numba import njit
    from fastsweep.user.blocks import analyse_knowledge, analyse_view, knowledge

    @njit
    def both_ways(view, info, order, memory):
        h, w = view.shape
        n = h * w
        if memory[0] != info[I_GAME_] + 1:  # the agent's own word: set once a game
            memory[0] = info[I_GAME_] + 1
        p1, p2 = np.empty(n), np.empty(n)
        d1, d2 = np.zeros(n, np.int8), np.zeros(n, np.int8)
        ok1 = analyse_knowledge(knowledge(view, info, memory), info[2], 0.4, True, p1, d1)
        ok2 = analyse_view(view, info[2], 0.4, True, p2, d2)
        if ok1 != ok2 or np.any(d1 != d2) or np.any(np.abs(p1 - p2) > 1e-12):
            raise AssertionError("knowledge() disagrees with knowledge_state()")
        if memory[0] != info[I_GAME_] + 1:
            raise AssertionError("knowledge() wrote the agent's own memory")
        v = view.ravel()
        for c in order:  # a guess in the guess order (detonations included)
            if v[c] == -1:
                return fastsweep.reveal(c)
        return fastsweep.reveal(0)

    agent = fastsweep.NumbaAgent(both_ways, memory=1, knowledge=True, name="both")
    for kw in RULES:
        df = fastsweep.run(agent, (6, 7), mines=9, games=40, seed=4, **kw)
        assert (df.moves > 1).all()
    bare = fastsweep.NumbaAgent(both_ways, memory=1, name="bare")
    with pytest.raises(AgentError, match=r"agent 'bare', game 0, move 2: raised "
                       r"ValueError: knowledge\(view, info, memory\): the memory has no "
                       r"room .* NumbaAgent\(policy, knowledge=True\)"):
        fastsweep.run(bare, 5, mines=3, games=1)


I_GAME_ = 3  # (numba_player.I_GAME, as a global the policy above reads)
