"""An agent cannot corrupt a game (issue 57, part 1): whatever a user's agent writes into
what it can reach (its view, its info row, a batched agent's observation arrays made
writeable), the engine judges every move on its own state, refuses a move on a taken
cell with the agent, game and move named, and records the games as they were played.
"""
import numpy as np
import pytest
from numba import njit

import fastsweep


@njit
def first_hidden(view, info, order, memory):
    v = view.ravel()
    for c in order:
        if v[c] == -1:
            return fastsweep.reveal(c)
    return fastsweep.reveal(order[0])


@njit
def rewrites_its_view(view, info, order, memory):
    """Marks the cell it last played hidden again, then plays it once more."""
    if info[1] >= 0 and memory[0] == 0:
        memory[0] = 1
        view.ravel()[info[1]] = -1
        return fastsweep.reveal(info[1])
    return first_hidden(view, info, order, memory)


@njit
def first_hidden_scribbling(view, info, order, memory):
    """first_hidden's moves, after scribbling over its info row."""
    for k in range(info.shape[0]):
        info[k] = -(10 ** 12)
    return first_hidden(view, info, order, memory)


REFUSED = r"agent 'rewrites_its_view', game 0, move 2: returned .* refused.*not hidden"


def test_a_numba_policy_that_rewrites_its_view_is_refused_not_believed():
    with pytest.raises(ValueError, match=REFUSED):
        fastsweep.run(rewrites_its_view, 8, mines=10, games=20)
    with pytest.raises(ValueError, match=REFUSED):
        fastsweep.play(rewrites_its_view, 8, mines=10)


def test_check_agent_reports_a_policy_that_rewrites_its_view():
    report = fastsweep.check_agent(rewrites_its_view, games=3, workers=False,
                                   raise_on_failure=False)
    assert not report.passed
    assert any("not hidden" in str(f) for f in report.failures), report.failures


def test_what_a_policy_writes_in_its_info_row_changes_nothing():
    kw = dict(mines=10, games=30, seed=4)
    a = fastsweep.run(first_hidden, 8, **kw)
    b = fastsweep.run(first_hidden_scribbling, 8, **kw)
    cols = [c for c in a.columns if c not in ("agent", "seconds")]
    assert (a[cols].to_numpy() == b[cols].to_numpy()).all()
    # and the games are possible ones: never more detonations than mines, nor more
    # cells revealed than safe cells
    assert (b.detonated <= 10).all() and (b.revealed <= 64 - 10).all()


class ScribblingBatch:
    """A batched agent that makes its observation's arrays writeable and writes them."""

    name = "scribbler"

    def __init__(self, replay_taken):
        self.replay_taken = replay_taken

    def act_batch(self, obs):
        moves = np.zeros(len(obs.active), np.int64)
        for arr in (obs.view, obs.game, obs.move, obs.last):
            arr.flags.writeable = True
        for b in np.flatnonzero(obs.active):
            v = obs.view[b].ravel()
            if self.replay_taken and obs.move[b] > 1:
                v[obs.last[b]] = -1  # a taken cell dressed as hidden
                moves[b] = obs.last[b]
            else:
                moves[b] = next(c for c in obs.order[b] if v[c] == -1)
        obs.game[:] = 10 ** 9  # the engine records games by its own index
        obs.move[:] = -7
        return moves


def test_a_batched_agent_that_writes_its_observation_is_refused_or_ignored():
    with pytest.raises(ValueError, match=r"agent 'scribbler', game \d+, move \d+.*not hidden"):
        fastsweep.run(ScribblingBatch(True), 8, mines=10, games=12)
    kw = dict(mines=10, games=30, seed=4)
    a = fastsweep.run(first_hidden, 8, **kw)
    b = fastsweep.run(ScribblingBatch(False), 8, **kw)
    cols = [c for c in a.columns if c not in ("agent", "seconds")]
    assert (a[cols].to_numpy() == b[cols].to_numpy()).all()


class FirstHidden:
    """A Python agent class, passed uninstantiated."""

    def act(self, obs):
        c = next(c for c in obs.order if obs.view.flat[c] == -1)
        return divmod(int(c), obs.view.shape[1])


class NeedsArgs(FirstHidden):
    def __init__(self, depth):
        self.depth = depth


def test_a_class_passed_for_an_agent_is_instantiated_or_refused():
    a = fastsweep.run(FirstHidden, 6, mines=5, games=4, seed=1)
    b = fastsweep.run(FirstHidden(), 6, mines=5, games=4, seed=1)
    assert a.agent[0] == "FirstHidden" and (a.score == b.score).all()
    with pytest.raises(TypeError, match=r"agent: got the class NeedsArgs, which needs "
                                        r"arguments; pass an instance \(NeedsArgs\(...\)\)"):
        fastsweep.run(NeedsArgs, 6, mines=5, games=4)


def test_an_agent_file_that_exits_at_import_is_named(tmp_path):
    src = tmp_path / "exits.py"
    src.write_text("import sys\nsys.exit(2)\ndef agent(obs):\n    return 0, 0\n")
    with pytest.raises(ValueError, match=r"agent: '.*exits.py:agent': importing .* called "
                                         r"sys.exit\(2\): an agent's module must not exit"):
        fastsweep.run(f"{src}:agent", 5, mines=3, games=2)


class FlagsEverything:
    """Flags every hidden cell: resolves the board with no detonation and no reveal."""

    name = "flags_everything"

    def act(self, obs):
        cell = next(c for c in obs.order if obs.view.flat[c] == -1)
        return fastsweep.Flag(*divmod(int(cell), obs.view.shape[1]))


@pytest.mark.parametrize("rules", ["classic", "keep-going"])
def test_a_game_ended_by_flagging_safe_cells_is_not_won(rules):
    """Won means every safe cell revealed with no detonation, not 'no detonation': an
    agent that flags every cell resolves the board without revealing it."""
    df = fastsweep.run(FlagsEverything(), 9, mines=10, games=5, rules=rules)
    assert (df.wrong_flags > 0).all() and not df.won.any(), df[["won", "wrong_flags"]]
    # every mine not detonated (keep-going: the opening may hit one) is flagged, and found
    assert (df.score == (df.mines - df.detonated) / df.mines).all(), df[["score", "detonated"]]


class WritesKnowledgeShape:
    name = "writes_knowledge_shape"

    def act(self, obs):
        obs.knowledge.shape = (1, 1)  # the kernels' buffers follow the real shape
        return first_cell(obs)


def first_cell(obs):
    cell = next(c for c in obs.order if obs.view.flat[c] == -1)
    return divmod(int(cell), obs.view.shape[1])


def test_the_knowledge_s_shape_is_read_only():
    with pytest.raises(fastsweep.AgentError, match=r"agent 'writes_knowledge_shape', game 0, "
                                                   r"move 2: raised AttributeError"):
        fastsweep.run(WritesKnowledgeShape(), 9, mines=10, games=1)


class _Unreadable(tuple):
    def __len__(self):
        raise RuntimeError("no length")


@pytest.mark.parametrize("move, said", [
    (lambda obs: _Unreadable((0, 0)), "returned a _Unreadable that cannot be read as a move: "
                                      "RuntimeError: no length"),
    (lambda obs: (_ for _ in ()).throw(GeneratorExit), "raised GeneratorExit")])
def test_a_move_whose_methods_raise_is_named(move, said):
    with pytest.raises((ValueError, fastsweep.AgentError),
                       match=r"game 0, move 2: " + said):
        fastsweep.run(move, 9, mines=10, games=1)


@pytest.mark.parametrize("name", ["a,b", "a\nb", "evil:X", "x|y", " padded"])
def test_an_agent_name_that_cannot_be_written_back_is_refused(name):
    agent = FirstHidden()
    agent.name = name
    with pytest.raises(ValueError, match=r"agent: your agent's name .* use letters"):
        fastsweep.run(agent, 5, mines=3)


def test_hostile_knowledge_and_agent_arguments_are_one_line():
    with pytest.raises(ValueError, match=r"prior: must be a number strictly between 0 and 1"):
        fastsweep.run("probability", 5, mines=3, prior=10 ** 400)
    with pytest.raises(TypeError, match=r"name: expected a non-empty str"):
        fastsweep.NumbaAgent(first_hidden, name=5)
