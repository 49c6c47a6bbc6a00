"""``check_agent``: the contract every built-in agent passes, run on any agent (in the
spirit of scikit-learn's ``check_estimator``): legal moves, games that end, soundness of
what the agent claims (flags on mines, ``Safe`` reveals that never detonate), the same
games for the same seed (twice, in any batch split, on 1 and 2 workers), no truth read
(each traced game replayed on a zeroed board gives the same moves), readable move
reasons, and its time per move. :func:`batch_problems` is the batch check the built-in
contract tests (``tests/test_agent_contract.py``) run too.

A Numba agent is first played with its policy recompiled with bounds checks
(:func:`fastsweep.user.bounds.bounds_checked`): compiled code does not check indices, so a
policy that reads or writes past an array's end would corrupt memory or crash the
process (a segfault) in the contract's runs; checked, it raises ``IndexError``, reported
as one failure naming the agent, the game and the move, and the rest of the contract is
not run. Then (Linux) every case is played once in a forked child: an agent that ends
the process without a Python error (``os._exit``, a segfault in its own C calls) is
reported with its case and first fatal game (:mod:`fastsweep.sweep.run.postmortem`) instead
of taking the checker with it.
"""
from __future__ import annotations

import dataclasses
import time
from typing import NamedTuple

import numpy as np

from ..kernels.engine import game as kg
from ..kernels.engine import layout as kl

# (size, mines, options): small boards of every shape, both rules, told the total or not
CASES = [((5, 5), 3, {}), ((1, 9), 2, {}), ((8, 8), 10, {"mine_count": True}),
         ((9, 9), 10, {"rules": "classic"}), ((6, 7), 12, {"rules": "classic", "mine_count": True}),
         ((16, 30), 99, {"rules": "classic", "mine_count": True})]


class CheckReport(NamedTuple):
    """What :func:`check_agent` found: ``failures`` (one message each; empty: passed),
    ``games`` played, ``moves`` made and ``us_per_move`` (the agent's time a move, the
    engine's included), per case."""

    agent: str
    failures: list
    games: int
    moves: int
    us_per_move: float

    @property
    def passed(self) -> bool:
        return not self.failures


class AgentCheckError(AssertionError):
    """An agent failed :func:`check_agent`; the message lists every failure, one a line."""


def batch_problems(cfg, out, fst, fmine) -> list:
    """The contract's problems with a batch's results ``out`` (``play_chunk``) and final
    boards ``fst`` (statuses) / ``fmine`` (mines), one message each; [] when sound."""
    n = cfg.cells
    p = []
    flagged, detonated = fst == kl.FLAGGED, fst == kl.DETONATED
    revealed, hidden = fst == kl.REVEALED, fst == kl.HIDDEN
    is_mine = fmine == 1

    def bad(mask, what):
        if np.any(mask):
            p.append(f"game {int(np.flatnonzero(mask)[0])}: {what}")

    bad(out[:, kg.OUT_WRONG_FLAGS] != 0, "a flag on a safe cell (the flag claims a mine)")
    bad(out[:, kg.OUT_SAFE_DETONATIONS] != 0, "a cell revealed as deduced safe (Safe) was a mine")
    bad((flagged & ~is_mine).any(1), "a flag on a safe cell (final board)")
    bad((detonated & ~is_mine).any(1) | (revealed & is_mine).any(1), "a cell's final status "
        "disagrees with the board")
    bad(is_mine.sum(1) != cfg.mines, f"the board does not hold {cfg.mines} mines")
    if cfg.layout is not None:
        bad((fmine != cfg.layout[None, :]).any(1), "the board is not the given layout")
    bad(out[:, kg.OUT_FLAGGED] != flagged.sum(1), "the flag count disagrees with the board")
    bad(out[:, kg.OUT_DETONATED] != detonated.sum(1), "the detonation count disagrees")
    bad(out[:, kg.OUT_REVEALED] != revealed.sum(1), "the reveal count disagrees")
    bad(out[:, kg.OUT_MOVES] != n - hidden.sum(1), "a move did not resolve exactly one cell")
    bad(out[:, kg.OUT_GUESSES] < 1, "the opening is not counted as a guess")
    bad(out[:, kg.OUT_DETONATED] > out[:, kg.OUT_GUESSES], "more detonations than guesses")
    bad(out[:, kg.OUT_GUESSES] > out[:, kg.OUT_MOVES], "more guesses than moves")
    bad(out[:, kg.OUT_WON] != (out[:, kg.OUT_DETONATED] == 0), "won disagrees with detonations")
    if cfg.rules != "classic":
        bad(hidden.any(1), "keep-going rules: the game ended with a hidden cell")
        bad((flagged | detonated) != is_mine, "keep-going rules: a mine neither flagged nor "
            "detonated")
    else:
        bad(out[:, kg.OUT_DETONATED] > 1, "classic rules: play went on after a detonation")
        won = out[:, kg.OUT_WON] == 1
        bad(won & ~(revealed | is_mine).all(1), "classic rules: won before every safe cell was "
            "revealed")
        bad(won & (out[:, kg.OUT_REVEALED] != n - cfg.mines), "classic rules: a won game's "
            "reveal count is not the safe cells'")
    first = cfg.first_cell_index()
    if cfg.first_click != "any" and first >= 0:
        bad(fst[:, first] != kl.REVEALED, "the safe opening is not revealed")
    return p


def _case(name, size, mines, kw, games, seed, failures):
    """Play one case every way the contract asks; append its failures; return (games,
    moves, seconds)."""
    from ..options import make_config
    from ..runner import play_chunk
    from ..trace import play
    cfg = make_config(name, size, mines=mines, **kw)
    where = f"{size[0]}x{size[1]}, {mines} mines, {kw or 'keep-going'}"
    try:
        play_chunk(cfg, seed, 0, 1, timing=False)  # (compiles, once: not in the timing)
        t0 = time.perf_counter()
        out, _, (fst, fmine) = play_chunk(cfg, seed, 0, games, keep_boards=True, timing=False)
    except Exception as e:  # the agent's own error, with its game and move
        failures.append(f"{where}: {type(e).__name__}: {e}")
        return 0, 0, 0.0
    secs = time.perf_counter() - t0
    failures += [f"{where}: {m}" for m in batch_problems(cfg, out, fst, fmine)]
    again, _, _ = play_chunk(cfg, seed, 0, games, timing=False)
    if not np.array_equal(out, again):
        failures.append(f"{where}: the same seed gave other games (the agent's play must "
                        "depend only on what it observes and on obs.rng / np.random, seeded "
                        "per game)")
    cut = games // 3 or 1
    parts = np.vstack([play_chunk(cfg, seed, a, b - a, timing=False)[0]
                       for a, b in ((0, cut), (cut, games)) if b > a])
    if not np.array_equal(out, parts):
        failures.append(f"{where}: games split into two batches differ from one batch (the "
                        "agent keeps something across games: reset it in reset(info))")
    for g in range(min(2, games)):
        t = play(name, size, mines=mines, seed=seed, game=g, **kw)
        row = {k: int(out[g, c]) for k, c in (("flagged", kg.OUT_FLAGGED),
                                              ("moves", kg.OUT_MOVES))}
        if {k: int(t.result[k]) for k in row} != row:
            failures.append(f"{where}: game {g} traced (fastsweep.play) differs from the batch")
        if t.moves.reason.str.startswith("reason ").any():
            failures.append(f"{where}: game {g}: a move's reason has no text")
        blind = _blind_moves(cfg, seed, g, t)
        if blind is not None and not np.array_equal(blind, t.moves.cell_index.to_numpy()):
            failures.append(f"{where}: game {g} replayed on a board with no mines behind it "
                            "(answers from the record) made other moves: the agent reads "
                            "something besides what it observed")
    return games, int(out[:, kg.OUT_MOVES].sum()), secs


def _out_of_bounds(name, games, seed) -> str | None:
    """A Numba agent's every case played with its policy bounds-checked (the first games
    of each: as many as the contract plays): the failure line of the first index out of
    bounds, or of a policy that does not compile (:class:`PolicyTypeError`: the contract's
    runs would only repeat it), or None (also for other agents, and for other errors,
    which the contract's own runs report)."""
    from ..agents import USER_AGENTS
    from ..kernels.agents.user import compile_loop
    from ..options import make_config
    from ..runner import play_chunk
    from .bounds import bounds_checked
    from .numba_player import NumbaAgent, NumbaPlayer, PolicyTypeError
    from .python_player import AgentError

    info = USER_AGENTS.get(name)
    if info is None or not isinstance(info.player, NumbaPlayer):
        return None
    own = info.player.agent
    checked = NumbaAgent(bounds_checked(own.policy), memory=own.memory, name=own.name,
                         rules=own.rules, knowledge=own.knowledge)
    checked._loop = compile_loop(checked.policy, "user_bounds")  # (this process only)
    USER_AGENTS[name] = dataclasses.replace(info, player=NumbaPlayer(checked, name))
    try:
        for size, mines, kw in CASES:
            try:
                play_chunk(make_config(name, size, mines=mines, **kw), seed, 0, games,
                           timing=False)
            except PolicyTypeError as e:
                return str(e)
            except AgentError as e:
                if not isinstance(e.__cause__, IndexError):
                    return None
                where = str(e).split(": raised ")[0]
                return (f"{where}: its policy indexed an array out of bounds (IndexError: "
                        f"{e.__cause__}; found with bounds checks on, which check_agent "
                        "turns on: compiled without them, this reads or writes memory that "
                        "is not the array's: wrong play, or a crash (segfault)); the rest "
                        "of the contract was not run")
            except Exception:
                return None
    finally:
        USER_AGENTS[name] = info
    return None


def _process_killer(name, games, seed) -> str | None:
    """A failure if the agent ends the process without a Python error (``os._exit``, a
    segmentation fault) in any case: the cases are first played in a forked child, and a
    child that dies is narrowed to its case and first fatal game (Linux only: it forks),
    so the checker reports the agent instead of dying with it."""
    import sys

    if not sys.platform.startswith("linux"):
        return None
    from ..options import make_config
    from ..sweep.run.postmortem import first_fatal, replay
    cases = [(f"{size[0]}x{size[1]}, {mines} mines, {kw or 'keep-going'}",
              make_config(name, size, mines=mines, **kw)) for size, mines, kw in CASES]
    if replay([(cfg, seed, 0, games) for _, cfg in cases]) is None:
        return None
    for where, cfg in cases:
        hit = first_fatal(cfg, seed, 0, games)
        if hit is not None:
            return (f"{where}: agent {name!r}, game {hit[0]}: the process {hit[1]} (found "
                    "by playing the cases in a child process first; the rest of the "
                    "contract is not run)")
    return ("the agent ended a child process without a Python error when its cases were "
            "played together, but in no case alone (state kept across games?)")


def _blind_moves(cfg, seed, game, t):
    from ..agents import kernels_for
    from ..options import agent_params
    params, fparams = agent_params(cfg, seed)
    n = cfg.cells
    moves = np.zeros((n, 6), np.int32)
    moves[:len(t.moves), 2] = t.moves.out.to_numpy()
    layout = cfg.layout if cfg.layout is not None else np.zeros(0, np.uint8)
    made = kernels_for(cfg.agent).play_blind(params, fparams, layout, game, moves)
    return moves[:made, 1]


def check_agent(agent, games: int = 20, seed: int = 0, workers: bool = True,
                raise_on_failure: bool = True) -> CheckReport:
    """Run the agent contract on ``agent`` (a built-in name, an import path or an agent
    object) over small boards of both rules, told the mine total or not: ``games`` games
    a case; ``workers``: also check that a sweep on 1 and on 2 worker processes gives
    the same numbers. A Numba agent is played with bounds checks on first (see the
    module's doc). Raises :class:`AgentCheckError` listing every failure (or returns
    the report with them if not ``raise_on_failure``).

    >>> import fastsweep
    >>> def first_hidden(obs):
    ...     cell = next(c for c in obs.order if obs.view.flat[c] == -1)
    ...     return divmod(int(cell), obs.view.shape[1])
    >>> fastsweep.check_agent(first_hidden, games=4, workers=False).passed
    True
    """
    from ..config import check_flag, check_games, check_seed
    from .resolve import resolve_agent
    # bad arguments are the caller's error, not failures of the agent's contract
    games, seed = check_games(games), check_seed(seed)
    workers = check_flag(workers, "workers")
    raise_on_failure = check_flag(raise_on_failure, "raise_on_failure")
    name = resolve_agent(agent)
    failures = []
    total_games = total_moves = 0
    secs = 0.0
    oob = _out_of_bounds(name, games, seed)
    if oob:  # (the contract's unchecked runs would read or write out of bounds too, or
        # fail to compile in each case)
        failures.append(oob)
    else:
        killer = _process_killer(name, games, seed)
        if killer:
            failures.append(killer)
    for size, mines, kw in CASES if not failures else ():
        g, m, s = _case(name, size, mines, kw, games, seed, failures)
        total_games, total_moves, secs = total_games + g, total_moves + m, secs + s
    if workers and not failures:
        from ..sweep import sweep
        runs = [sweep([name], sizes=[(6, 6)], mines=[5], games=max(games, 8), seed=seed,
                      workers=w, chunk_games=4, quiet=True).summary for w in (1, 2)]
        cols = ["mean_score", "win_rate", "games"]
        if not runs[0][cols].equals(runs[1][cols]):
            failures.append("a sweep on 1 and on 2 worker processes gave other numbers")
    report = CheckReport(name, failures, total_games, total_moves,
                         1e6 * secs / max(total_moves, 1))
    if failures and raise_on_failure:
        raise AgentCheckError(f"agent {name!r} failed {len(failures)} check(s):\n  "
                              + "\n  ".join(failures))
    return report
