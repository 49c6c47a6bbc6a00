"""A user's Numba policy that is wrong (issue 57): an index out of bounds is found by
``check_agent`` (its policy recompiled with bounds checks) and reported in one line
naming the agent, instead of a segfault; a policy Numba cannot type (a float or a tuple
returned, the wrong number of arguments, a body that does not type) is reported in one
line naming the agent, the expected signature and what Numba inferred, Numba's own
message kept as the cause."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

import fastsweep
from fastsweep.user.bounds import bounds_checked
from fastsweep.user.numba_player import SIGNATURE, PolicyTypeError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, FASTSWEEP_NO_VENV="1", PYTHONPATH=os.pathsep.join(
    [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))

OUT_OF_BOUNDS = '''
from numba import njit

import fastsweep
from fastsweep.user.numba_player import I_MOVE


@njit
def _first_hidden(view, order):
    v = view.ravel()
    for c in order:
        if v[c] == -1:
            return c
    return 0


@njit
def writes_past(view, info, order, memory):
    """Writes 10**8 words past its memory's end at its first move."""
    memory[memory.shape[0] + 10**8 * info[I_MOVE]] = 1
    return fastsweep.reveal(_first_hidden(view, order))


@njit
def _peek(v, i):
    return v[i]


@njit
def reads_past(view, info, order, memory):
    """Reads past its view's end, in a function of its own, at its first move."""
    v = view.ravel()
    if _peek(v, v.size + 10**8 * info[I_MOVE]) == 99:
        return fastsweep.reveal(order[0])
    return fastsweep.reveal(_first_hidden(view, order))
'''


def test_check_agent_reports_an_index_out_of_bounds_instead_of_a_segfault(tmp_path):
    """(In a subprocess: played without bounds checks, both policies segfault.)"""
    (tmp_path / "oob_agents.py").write_text(OUT_OF_BOUNDS)
    script = textwrap.dedent('''
        import fastsweep, oob_agents
        for policy in (oob_agents.writes_past, oob_agents.reads_past):
            r = fastsweep.check_agent(policy, games=2, workers=False, raise_on_failure=False)
            print(len(r.failures), r.failures[0] if r.failures else "")
    ''')
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=ENV,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
    lines = r.stdout.splitlines()
    assert len(lines) == 2, r.stdout
    for line, name in zip(lines, ("writes_past", "reads_past")):
        assert line.startswith(f"1 agent '{name}', game 0, move 2: its policy indexed an "
                               "array out of bounds (IndexError: index is out of bounds;"), line
        assert "the rest of the contract was not run" in line


def test_the_bounds_checked_copy_leaves_the_policy_as_it_was():
    @njit
    def at(a, i):
        return a[i]

    @njit
    def policy(a):
        return at(a, a.shape[0])  # one past the end, in a callee

    @njit
    def fine(a):
        return at(a, a.shape[0] - 1)

    with pytest.raises(IndexError, match="index is out of bounds"):
        bounds_checked(policy)(np.arange(3))
    assert bounds_checked(fine)(np.arange(3)) == 2
    assert policy.targetoptions.get("boundscheck") is None  # the user's own: unchanged
    assert policy.py_func.__closure__[0].cell_contents is at
    with pytest.raises(TypeError, match="policy: expected a Numba @njit function"):
        bounds_checked(lambda a: a)


@njit
def returns_float(view, info, order, memory):
    return 1.5


@njit
def returns_tuple(view, info, order, memory):
    return (0, 1)


@njit
def three_args(view, info, order):
    return fastsweep.reveal(order[0])


@njit
def adds_text(view, info, order, memory):
    return fastsweep.reveal(order[0]) + "x"


@pytest.mark.parametrize("policy,said", [
    (returns_float, "its policy returns float64, as Numba infers it; expected "),
    (returns_tuple, "its policy returns Tuple(Literal[int](0), Literal[int](1)) (a (row, col) "
                    "pair is a Python agent's move), as Numba infers it; expected "),
    (three_args, "its policy takes 3 argument(s) (view, info, order); expected 4: "),
    (adds_text, "Numba cannot compile its policy for a game's arguments, "),
])
def test_a_policy_numba_cannot_type_is_one_line(policy, said):
    name = policy.py_func.__name__
    with pytest.raises(PolicyTypeError) as e:
        fastsweep.run(policy, 5, mines=3, games=1)
    text = str(e.value)
    assert text.startswith(f"agent {name!r}: {said}") and SIGNATURE in text, text
    assert "\n" not in text and isinstance(e.value.__cause__, TypingError)
    if policy is adds_text:  # what Numba could not type, and where
        line = adds_text.py_func.__code__.co_firstlineno + 2  # (@njit, def, its return)
        assert text.endswith("found for signature add(int64, Literal[str](x)) (at "
                             f"{os.path.basename(__file__)}, line {line})"), text
    r = fastsweep.check_agent(policy, games=2, workers=False, raise_on_failure=False)
    assert r.failures == [text]  # once, not once per case


def test_the_cli_leads_with_the_line_and_keeps_numbas_message(tmp_path):
    (tmp_path / "typed.py").write_text("from numba import njit\n\n\n@njit\n"
                                       "def policy(view, info, order, memory):\n"
                                       "    return 1.5\n")
    r = subprocess.run([sys.executable, "-m", "fastsweep", "run", "--agent", "typed.py:policy",
                        "--size", "5", "--mines", "3", "--games", "1"], cwd=tmp_path, env=ENV,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 1
    err = r.stderr.splitlines()
    lead = ("fastsweep run: error: agent 'typed.py:policy': its policy returns float64, as "
            "Numba infers it; expected " + SIGNATURE)
    assert err[0].startswith(lead) and err[1] == "Numba's message:", r.stderr[:2000]
    assert "rshift(float64" in r.stderr and err[-1] == err[0]


def test_numba_disable_jit_imports_a_numba_agent_and_says_why_it_cannot_play():
    """Under NUMBA_DISABLE_JIT an @njit policy is plain Python (to call by itself, as the
    own-agent guide shows); fastsweep's engine cannot play without Numba, and says so."""
    script = textwrap.dedent('''
        import sys
        sys.path.insert(0, "examples")
        import fastsweep
        import basic_numba  # (makes a NumbaAgent at import)
        try:
            fastsweep.run(basic_numba.agent, 5, mines=3, games=1)
        except fastsweep.user.AgentError as e:
            print(e)
    ''')
    r = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, env=dict(ENV, NUMBA_DISABLE_JIT="1"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("agent 'my_basic': NUMBA_DISABLE_JIT is set, and fastsweep's "
                               "engine needs Numba to play games"), r.stdout
