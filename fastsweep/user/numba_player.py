"""Numba agents: a user's ``@njit`` policy played by a compiled game loop (no Python per
move). The policy's signature::

    policy(view, info, order, memory) -> move

``view`` int8 (H, W) (the codes of ``Observation.view``; kept by the loop, read it and do
not write it), ``info`` int64 (the ``I_*`` row: moves made, last cell, mine total or -1,
game, rules, first click, H, W), ``order`` int64 (N) the game's guess order, ``memory``
int64 (the agent's own, zeroed at each game's start and kept across its moves). It returns
a move code: ``fastsweep.reveal(cell)``, ``safe(cell)`` or ``flag(cell)`` of a flat cell
index (row * W + col). ``np.random`` inside the policy is seeded per game from (seed,
game), so its games are reproducible. The building blocks in
``fastsweep.user.blocks`` (single-clue rules, complete deduction, exact probabilities
on the view) are callable from it.
"""
from __future__ import annotations

import inspect
import numbers
import os
import re

import numpy as np
from numba import config as numba_config
from numba import types as nt
from numba.core.errors import NumbaError

from ..kernels.agents import blocks as kb
from ..kernels.agents import user as ku
from ..kernels.agents.family import MODE_BATCH, MODE_BLIND, MODE_TRACED
from ..kernels.engine import game as kg
from ..kernels.jit import compile_notice
from .moves import ERRORS, describe
from .reach import code_digest
from .python_player import AgentError, _where

I_MOVE, I_LAST, I_MINES, I_GAME = ku.I_MOVE, ku.I_LAST, ku.I_MINES, ku.I_GAME
I_RULES, I_FIRST_CLICK, I_H, I_W = ku.I_RULES, ku.I_FIRST_CLICK, ku.I_H, ku.I_W

_NO_SECS = np.zeros(0, np.float64)
_NO_BOARDS = np.zeros((2, 0, 0), np.int8)
_NO_MOVES = np.zeros((0, 6), np.int32)
_NO_FINAL = np.zeros((0, 0), np.int32)


# the arguments a game gives a policy, as Numba types them; and how the messages say them
POLICY_ARGS = (nt.Array(nt.int8, 2, "C"), nt.Array(nt.int64, 1, "C"),
               nt.Array(nt.int64, 1, "C"), nt.Array(nt.int64, 1, "C"))
SIGNATURE = ("policy(view: int8 (H, W), info: int64 (9,), order: int64 (H*W,), memory: "
             "int64 (...)) -> int64 move code")
MOVE_HINT = ("return fastsweep.reveal(cell), safe(cell) or flag(cell) of a flat cell index "
             "(row * W + col)")


class PolicyTypeError(AgentError, TypeError):
    """Numba cannot compile a user's policy for the arguments a game gives it; the
    message is one line naming the agent, the expected signature and what Numba inferred
    (Numba's own message is the exception's cause)."""


def _numba_summary(e, policy) -> str:
    """The gist of Numba's typing error ``e``: its first line of substance, the signature
    it tried, and where in the user's policy file (Numba's message runs to 100 lines)."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(e))  # (Numba's highlighting)
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    body = [x for x in lines if not x.startswith(("Failed in ", "During: ", "File ", "<source",
                                                   "^", "There are ", "- Of which"))]
    what = body[0] if body else lines[0] if lines else type(e).__name__
    tried = next((x[3:].strip() for x in lines if x.startswith(">>> ")), "")
    if tried and tried not in what:
        what = f"{what.rstrip(':')} {tried}"
    src = getattr(getattr(policy, "py_func", None), "__code__", None)
    at = ""
    if src is not None:  # (Numba shows the file relative to the working folder)
        base = os.path.basename(src.co_filename)
        for m in re.finditer(r'File "([^"]+)", line (\d+)', text):
            if os.path.basename(m.group(1)) == base:
                at = f" (at {base}, line {m.group(2)})"
                break
    return what + at


def policy_type_problem(policy, name) -> str | None:
    """What is wrong with the types of Numba policy ``policy`` (agent ``name``), as one
    line: the number of its arguments, the typing of its code for a game's arguments
    (``POLICY_ARGS``), or its return type (an integer move code); None if nothing is.
    Compiles the policy for those arguments (the game loop would)."""
    py = policy.py_func
    try:
        params = list(inspect.signature(py).parameters.values())
        inspect.signature(py).bind(*range(4))
    except TypeError:
        names = ", ".join(q.name for q in params)
        return (f"agent {name!r}: its policy takes {len(params)} argument(s) ({names}); "
                f"expected 4: {SIGNATURE}")
    except ValueError:  # (no signature to read)
        pass
    try:
        policy.compile(POLICY_ARGS)
    except NumbaError as e:
        return (f"agent {name!r}: Numba cannot compile its policy for a game's arguments, "
                f"{SIGNATURE}: {_numba_summary(e, policy)}")
    res = policy.overloads.get(POLICY_ARGS)
    ret = res.signature.return_type if res is not None else None
    if ret is not None and not isinstance(ret, nt.Integer):
        pair = (" (a (row, col) pair is a Python agent's move)"
                if isinstance(ret, nt.BaseTuple) else "")
        return (f"agent {name!r}: its policy returns {ret}{pair}, as Numba infers it; "
                f"expected {SIGNATURE}: {MOVE_HINT}")
    return None


class NumbaAgent:
    """A Numba policy as an agent: ``NumbaAgent(policy, memory=4, name=None, rules=False,
    knowledge=False)``.

    ``memory``: int64 words of memory per cell of the board (the policy gets
    ``memory * H * W + 16``). ``knowledge=True``: room after them for
    ``fastsweep.user.blocks.knowledge``, the knowledge-only state kept across the game's
    moves for exact inference (its analyses then cost what the built-in agents' do,
    not twice that). ``rules=True``: the engine plays the rules every built-in
    agent runs first (the single-clue rules; with the mine total told, the mine-count
    rules) after the opening and after each of the policy's moves, writing what they do
    into the view, and calls the policy only when neither applies: an agent that keeps
    those rules plays at the built-in agents' speed (its policy is called for the
    guesses, not for the ~900 rule moves of a 30x30 game). Handing the ``@njit``
    function itself to ``run`` is the same as ``NumbaAgent(policy)``.

    >>> import fastsweep
    >>> from numba import njit
    >>> @njit
    ... def first_hidden(view, info, order, memory):
    ...     flat = view.ravel()
    ...     for c in order:
    ...         if flat[c] == -1:
    ...             return fastsweep.reveal(c)
    ...     return fastsweep.reveal(0)
    >>> fastsweep.run(first_hidden, 5, mines=3, games=2).agent.tolist()
    ['first_hidden', 'first_hidden']
    >>> ruled = fastsweep.NumbaAgent(first_hidden, rules=True, name="ruled")
    >>> a = fastsweep.run(ruled, 9, mines=10, games=20, seed=3)
    >>> b = fastsweep.run("basic", 9, mines=10, games=20, seed=3)
    >>> bool((a.score == b.score).all())  # the built-in basic agent's games
    True
    """

    def __init__(self, policy, memory: int = 4, name: str | None = None,
                 rules: bool = False, knowledge: bool = False):
        if not hasattr(policy, "py_func") and not (numba_config.DISABLE_JIT
                                                   and callable(policy)):
            raise TypeError(f"policy: expected a Numba @njit function, got "
                            f"{type(policy).__name__}")
        if (not isinstance(memory, numbers.Integral) or isinstance(memory, bool)
                or not 0 <= memory <= 1024):
            raise ValueError(f"memory: int64 words per cell, an integer in [0, 1024], got "
                             f"{memory!r}")
        if name is not None and not (isinstance(name, str) and name):
            raise TypeError(f"name: expected a non-empty str (the agent's name in results), "
                            f"got {type(name).__name__} {name!r:.40}")
        for arg, value, what in (
                ("rules", rules, "the engine plays the single-clue and mine-count rules "
                 "before each call of the policy"),
                ("knowledge", knowledge, "the memory has room for "
                 "fastsweep.user.blocks.knowledge")):
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{arg}: expected True ({what}) or False, got "
                                f"{type(value).__name__} {value!r:.40}")
        self.policy = policy
        self.memory = int(memory)
        self.rules = bool(rules)
        self.knowledge = bool(knowledge)
        self.name = name or getattr(policy, "py_func", policy).__name__
        self._loop = None
        self._digest = None  # of its code and what it reaches (set with the loop)

    def player(self, name):
        return NumbaPlayer(self, name)

    def new_memory(self, h, w):
        """(the policy's memory for an h x w board, the words zeroed at each game's
        start): ``memory * H * W + 16`` words of its own, then, with ``knowledge=True``,
        the room of ``fastsweep.user.blocks.knowledge`` (see ``kernels/agents/blocks``)."""
        own = self.memory * h * w + 16
        if not self.knowledge:
            return np.zeros(own, np.int64), own
        words, rows = kb.knowledge_words(h, w)
        memory = np.zeros(own + words, np.int64)
        memory[-3:] = rows, kb.KNOWLEDGE_MAGIC, own
        return memory, own + 1


class NumbaPlayer:
    """The entry points of a Numba agent (as a compiled family's)."""

    def __init__(self, agent: NumbaAgent, name: str):
        self.agent = agent
        self.name = name

    def loop(self):
        a = self.agent
        if numba_config.DISABLE_JIT:  # (its @njit is a plain function then: it imports)
            raise AgentError(f"agent {self.name!r}: NUMBA_DISABLE_JIT is set, and "
                             "fastsweep's engine needs Numba to play games: call your policy "
                             "by itself to debug it (see the own-agent guide), and play it "
                             "without NUMBA_DISABLE_JIT")
        if a._loop is None:
            a._digest = code_digest(a.policy)
            a._loop = ku.compile_loop(a.policy, "user", a._digest)
        return a._loop

    def _call(self, mode, params, fparams, layout, first_game, out, secs, boards, moves,
              probs, final):
        loop = self.loop()
        info = np.zeros(ku.I_LEN, np.int64)
        memory, keep = self.agent.new_memory(int(params[kg.P_H]), int(params[kg.P_W]))
        err = np.zeros(4, np.int64)
        try:
            with compile_notice(loop, f"your agent {self.name!r} (its game loop)", "5-20 s",
                                cached=self.agent._digest is not None):
                made = loop(mode, params, fparams, layout, first_game, out, secs, boards,
                            moves, probs, final, info, memory, err, self.agent.rules,
                            keep)
        except NumbaError as e:  # the loop did not compile: what of the policy is wrong
            problem = policy_type_problem(self.agent.policy, self.name)
            if problem is None:
                raise AgentError(f"agent {self.name!r}: its game loop did not compile: "
                                 f"{type(e).__name__}: {e}") from e
            raise PolicyTypeError(problem) from e
        except Exception as e:
            raise AgentError(f"{_where(self.name, int(info[ku.I_GAME]), int(info[ku.I_MOVE]))}"
                             f": raised {type(e).__name__}: {e}") from e
        if err[0] < 0:
            w = int(params[kg.P_W])
            raise ValueError(f"{_where(self.name, int(err[1]), int(err[2]))}: returned "
                             f"{describe(int(err[3]), w)}, which is refused: "
                             f"{ERRORS[int(err[0])]}")
        return made

    def play_batch(self, params, fparams, layout, first_game, out, secs, boards):
        self._call(MODE_BATCH, params, fparams, layout, first_game, out, secs, boards,
                   _NO_MOVES, _NO_SECS, _NO_FINAL)

    def play_traced(self, params, fparams, layout, game, moves, probs, final, out):
        self._call(MODE_TRACED, params, fparams, layout, game, out, _NO_SECS, _NO_BOARDS,
                   moves, probs, final)

    def play_blind(self, params, fparams, layout, game, moves):
        return self._call(MODE_BLIND, params, fparams, layout, game,
                          np.zeros((1, kg.OUT_LEN), np.int64), _NO_SECS, _NO_BOARDS, moves,
                          _NO_SECS, _NO_FINAL)
