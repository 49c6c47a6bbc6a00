"""Users' own agents in the engine: the view they see, the moves they make, the game steps.

A user's agent (Python, batched numpy or Numba; see ``fastsweep/own/``) never touches the
state ``S``, which holds the true board: it sees an int8 view (``VIEW_*`` codes, one per
cell) that these kernels keep next to the state, an info row (``I_*``), the game's guess
order and, for Numba agents, its own memory. Its move is one int64 (``reveal`` /
``safe`` / ``flag`` of a cell index); :func:`user_move` checks it, has the environment
answer it and writes the answer into the view: one cell changes per move, so keeping the
view costs O(1) a move.

The environment makes the opening move for every agent (as for the built-in ones: the
first-click rule places the mines around it), so a user's games pair with the built-in
agents' games. Every legal move acts on a hidden cell and flags are final, so a game
lasts at most H x W moves.

``_play`` is the compiled game loop of a Numba agent: specialised to the user's policy
(``jit.specialise``) like a family's loop, so no Python runs per move.
"""
import numpy as np

from ..engine.board import game_rng
from ..engine.env import _ix, cell_of, clue, flat, hidden_left, ncells, status, w_blank, word
from ..engine.game import (
    P_FIRST_CLICK, P_H, P_MINE_COUNT, P_RULES, P_SEED, P_W, RULES_CLASSIC, blindfold, clock,
    game_over, new_batch_state, open_game, read_trace, record, setup_game, summarize,
)
from ..engine.bits import lowest_bit
from ..engine.env import mines_left, mines_left_known, safe_left
from ..engine.local import drain_local
from ..engine.actions import (
    _act, _blank_inc, _know_flat, act_flat, flag as flag_cell, observe, observe_mine, observed,
)
from ..engine.layout import (
    A_FLAG, A_GUESS, A_REVEAL, C_DET, C_FLAG, C_KMINES, C_MINES, C_OFF, C_ORDER, C_QLEN, C_REV,
    C_P, C_W2, DETONATED, F_PLANE, FIRE_SIZE, FLAGGED, HIDDEN, K, NB_MASK_SHIFT, OUT_BLANK,
    R_CLUE_MINES, R_CLUE_SAFE, R_COUNT_MINES, R_COUNT_SAFE, R_USER, REVEALED,
)
from ..jit import njit, specialise
from .family import MODE_BATCH, MODE_BLIND, MODE_TRACED

# the view: one int8 per cell
VIEW_HIDDEN = -1
VIEW_FLAG = -2  # flagged by the agent
VIEW_DETONATED = -3  # revealed a mine (keep-going rules; a known mine)
VIEW_BLANK = -4  # revealed safe, the (noisy) sensor showed nothing
# 0..8: the clue shown

# a move: the cell index (row * W + col) plus its kind times MOVE_UNIT
MOVE_GUESS = 0  # reveal a cell not known to be safe (counted as a guess)
MOVE_SAFE = 1  # reveal a cell the agent deduced safe (it must never detonate)
MOVE_FLAG = 2  # flag a cell as a mine (final: flags are never removed)
MOVE_SHIFT = 32
MOVE_UNIT = 1 << MOVE_SHIFT

# the info row (int64) an agent is given with the view
I_MOVE = 0  # moves made so far in this game (the opening included)
I_LAST = 1  # the cell of the last move (the opening cell at the agent's first call)
I_MINES = 2  # the mine total when the agent is told it (mine_count=True), else -1
I_GAME = 3  # the game's index
I_RULES = 4  # 0 keep-going, 1 classic
I_FIRST_CLICK = 5  # 0 any, 1 safe, 2 zero
I_H = 6
I_W = 7
I_OVER = 8  # 1 once the game is over (batched and Gymnasium steps)
I_LEN = 9

# what a step returns
STEP_GOING = 0
STEP_OVER = 1
ERR_KIND = -1  # the move's kind is not MOVE_GUESS / MOVE_SAFE / MOVE_FLAG
ERR_CELL = -2  # the cell is off the board
ERR_TAKEN = -3  # the cell is not hidden (revealed, flagged or detonated)
ERR_OVER = -4  # a move after the game ended (batched and Gymnasium steps)


@njit(cache=True, inline="always")
def reveal(cell):
    """The move revealing ``cell`` as a guess (row * W + col)."""
    return np.int64(cell)


@njit(cache=True, inline="always")
def safe(cell):
    """The move revealing ``cell``, which the agent deduced safe."""
    return np.int64(cell) + np.int64(MOVE_SAFE) * MOVE_UNIT


@njit(cache=True, inline="always")
def flag(cell):
    """The move flagging ``cell`` as a mine."""
    return np.int64(cell) + np.int64(MOVE_FLAG) * MOVE_UNIT


@njit(cache=True, inline="always")
def _view_code(out):
    """The view's value for a move's outcome (``actions.act``)."""
    if out == -2:
        return VIEW_FLAG
    if out == -1:
        return VIEW_DETONATED
    if out == OUT_BLANK:
        return VIEW_BLANK
    return out


@njit(cache=True)
def is_over(S, classic):
    """Whether the game is over (no rules drained: a user's agent is its own rules)."""
    return game_over(S, classic) or hidden_left(S) == 0


@njit(cache=True)
def open_user_game(S, params, first, game, view, info, order):
    """The opening move on ``first`` (the game set up by ``game.setup_game``); fill the
    view, the info row and the guess order (cell indices). Returns STEP_OVER or
    STEP_GOING."""
    n = ncells(S)
    view[:] = VIEW_HIDDEN
    open_game(S, first)
    st = status(S, first)
    if st == DETONATED:
        view[first] = VIEW_DETONATED
    else:
        # the opening's outcome: read back from the knowledge (clue, or blank)
        view[first] = _shown(S, first)
    F = flat(S)
    o = S[n, C_ORDER]
    for i in range(n):
        order[i] = cell_of(F, F[o + i])
    info[I_MOVE] = 1
    info[I_LAST] = first
    info[I_MINES] = S[n, C_KMINES] if params[P_MINE_COUNT] != 0 else -1
    info[I_GAME] = game
    info[I_RULES] = params[P_RULES]
    info[I_FIRST_CLICK] = params[P_FIRST_CLICK]
    info[I_H] = params[P_H]
    info[I_W] = params[P_W]
    over = is_over(S, params[P_RULES] == RULES_CLASSIC)
    info[I_OVER] = 1 if over else 0
    return STEP_OVER if over else STEP_GOING


@njit(cache=True)
def _shown(S, c):
    """The value a revealed cell shows (its clue, or VIEW_BLANK)."""
    if w_blank(word(S, c)):
        return VIEW_BLANK
    return clue(S, c)


@njit(cache=True)
def user_move(S, view, info, move, classic):
    """Check move ``move`` and play it: the environment answers, the view and the info
    row take the answer. Returns STEP_GOING, STEP_OVER or an ERR_* code (nothing
    played)."""
    n = ncells(S)
    return _move(flat(S), _ix(n, 0), S, view, info, move, classic, n)


@njit(cache=True, inline="always")
def _move(F, cnt, S, view, info, move, classic, n):
    """:func:`user_move` with the flat state ``F``, row N's flat index ``cnt`` and N held
    by the caller (the game loop keeps them in registers)."""
    kind = move >> MOVE_SHIFT
    cell = move - kind * MOVE_UNIT
    if kind < 0 or kind > MOVE_FLAG:
        return ERR_KIND
    if cell < 0 or cell >= n:
        return ERR_CELL
    # judged on the engine's own state, never on the view: the agent can write its view
    # (a Numba policy's array, or a batched agent's after flipping its writeable flag)
    if status(S, cell) != HIDDEN:
        return ERR_TAKEN
    act = A_GUESS if kind == MOVE_GUESS else (A_REVEAL if kind == MOVE_SAFE else A_FLAG)
    out = act_flat(F, S[cell, F_PLANE], act, R_USER, -1, kind)
    view[cell] = _view_code(out)
    info[I_MOVE] += 1
    info[I_LAST] = cell
    return _end(F, cnt, S, view, info, classic, n)


@njit(cache=True, inline="always")
def _end(F, cnt, S, view, info, classic, n):
    """STEP_OVER if the game just ended (``info[I_OVER]`` set), else STEP_GOING."""
    # the game's end (game.game_over, from the counters: no call, no array passed)
    rev = F[cnt + np.uint64(C_REV)]
    det = F[cnt + np.uint64(C_DET)]
    won = rev == n - F[cnt + np.uint64(C_MINES)]
    if n - rev - F[cnt + np.uint64(C_FLAG)] - det == 0 or (classic and (det > 0 or won)):
        if classic and det == 0:
            _winning_round(S, view)
        info[I_OVER] = 1
        return STEP_OVER
    return STEP_GOING


@njit(cache=True)
def user_rules(S, view, info, classic, mine_count):
    """:func:`play_rules` on state ``S`` (the advisor's steps, from Python)."""
    n = ncells(S)
    return play_rules(flat(S), _ix(n, 0), S, view, info, classic, mine_count, n)


@njit(cache=True)
def play_rules(F, cnt, S, view, info, classic, mine_count, n):
    """The rules every built-in agent runs before its own move, played for a Numba agent
    that asked for them (``NumbaAgent(rules=True)``): the single-clue rules until none
    fires (``local.drain_local``'s loop, the same moves in the same order), then, when
    the agent is told the total, the mine-count rules (``local.apply_mine_count``), and
    again until neither acts. Every cell they flag or reveal is written into the view
    and counted in the info row, so the policy is called only where it decides: about
    30 calls in a 30x30 game at density 0.2 instead of ~900
    (``scripts/bench/own_agents.py``). Returns STEP_OVER or STEP_GOING."""
    while True:
        _drain_into_view(F, cnt, view, info, classic)
        if _end(F, cnt, S, view, info, classic, n) == STEP_OVER:
            return STEP_OVER
        if not (mine_count and _mine_count_into_view(F, cnt, S, view, info, n) > 0):
            return STEP_GOING
        if _end(F, cnt, S, view, info, classic, n) == STEP_OVER:
            return STEP_OVER


@njit(cache=True)
def _drain_into_view(F, cnt, view, info, classic):
    """``local._drain`` with every action's outcome written into the view (a copy of
    its loop: the built-in agents' hot loop stays free of the view); two copies, as
    ``local.drain_local``'s, the hot one with no call in it. Returns the actions made."""
    if observed(F, cnt):
        return _drain_view(F, cnt, view, info, classic, True)
    return _drain_view(F, cnt, view, info, classic, False)


@njit(cache=True, inline="always")
def _drain_view(F, cnt, view, info, classic, full):
    """The loop of :func:`_drain_into_view`; ``full`` is a constant in each copy."""
    w2 = F[cnt + np.uint64(C_W2)]
    off = cnt + np.uint64(C_OFF)
    queue = cnt + np.uint64(K + FIRE_SIZE)
    q = F[cnt + np.uint64(C_QLEN)]
    cells = np.uint64(2 * F[cnt + np.uint64(C_P)])  # (env.cell_of: a word's cell index)
    made = 0
    last = info[I_LAST]  # (kept in registers: the info row is written once, at the end)
    stopped = False
    while q > 0 and not stopped:
        q -= 1
        p = np.uint64(F[queue + np.uint64(q)])
        w = F[p]
        ml = mines_left(w)
        sl = safe_left(w)
        h = ml + sl
        if h == 0 or (sl != 0 and ml != 0):
            continue
        kind = A_FLAG if sl == 0 else A_REVEAL
        why = R_CLUE_MINES if sl == 0 else R_CLUE_SAFE
        hidden = (w >> NB_MASK_SHIFT) & 0xFF
        while hidden != 0:
            d = p + np.uint64(F[off + np.uint64(lowest_bit(hidden))])
            hidden &= hidden - 1
            out, q = _act(F, cnt, w2, d, kind, why, np.int64(p), h, q, full)
            last = F[d + cells]
            view[last] = _view_code(out)
            made += 1
            if out == -1 and classic:
                stopped = True  # (the game is over: the rest of the list stays on it)
                break
    F[cnt + np.uint64(C_QLEN)] = q  # (0 unless stopped)
    info[I_MOVE] += made
    info[I_LAST] = last
    return made


@njit(cache=True)
def _mine_count_into_view(F, cnt, S, view, info, n):
    """``local.apply_mine_count`` with the view kept: every hidden cell flagged when the
    mines left equal the hidden cells, revealed when none is left. Returns the actions."""
    left = mines_left_known(S)
    h = hidden_left(S)
    if h == 0 or (left != 0 and left != h):
        return 0
    kind = A_REVEAL if left == 0 else A_FLAG
    why = R_COUNT_SAFE if left == 0 else R_COUNT_MINES
    done = 0
    for d in range(n):
        if status(S, d) == HIDDEN:
            out = act_flat(F, S[d, F_PLANE], kind, why, -1, h)
            view[d] = _view_code(out)
            info[I_MOVE] += 1
            info[I_LAST] = d
            done += 1
    return done


@njit(cache=True)
def _winning_round(S, view):
    """A classic game just won (every safe cell revealed): the single-clue rules flag
    what they can, as in the built-in agents' loop, where the round of rules that
    reveals the last safe cell runs to its end before the game is over; so a user's
    agent's won games score as the built-in agents' do. (The rules' work list is kept
    through a user's game for this: every cell whose rule fired is still on it.)"""
    drain_local(flat(S), True)
    for c in range(ncells(S)):
        if view[c] == VIEW_HIDDEN and status(S, c) == FLAGGED:
            view[c] = VIEW_FLAG


@njit(cache=True)
def agent_seed(params, game):
    """The seed of a Numba agent's ``np.random`` in game ``game`` (a fourth stream of
    the game's randomness: the same for every run of the game)."""
    return np.uint32(game_rng(np.uint64(params[P_SEED]), game, 3) >> np.uint64(32))


def policy(view, info, order, memory):  # replaced by the user's (jit.specialise)
    raise NotImplementedError


def _play(mode, params, fparams, layout, first_game, out, secs, boards, moves, probs, final,
          info, memory, err, rules, keep):
    """A Numba agent's games (the arguments as ``family._play``'s): ``info`` (I_LEN) is
    the info row, readable by the caller after an exception in the agent; ``memory``
    (int64) the agent's, zeroed at each game's start; ``err`` (int64, 4) receives a
    refused move (code, game, move number, move) and ends the call. The policy is given
    a copy of the info row before each move: what it writes there changes nothing the
    engine reads (nor does what it writes in its view: moves are judged on ``S``).
    ``rules``: the engine plays the built-in agents' rules before every call of the
    policy (:func:`play_rules`); ``keep``: the memory's words zeroed at each game's
    start (the rest is ``blocks.knowledge``'s room, which keeps its own)."""
    S, scratch = new_batch_state(params, mode != MODE_BATCH)
    n = ncells(S)
    F = flat(S)
    cnt = _ix(n, 0)
    view = np.empty(n, np.int8)
    view2 = view.reshape((params[P_H], params[P_W]))
    order = np.empty(n, np.int64)
    seen = np.empty(I_LEN, np.int64)  # the policy's copy of the info row
    classic = params[P_RULES] == RULES_CLASSIC
    mine_count = params[P_MINE_COUNT] != 0
    made = 0
    for i in range(out.shape[0] if mode == MODE_BATCH else 1):
        t0 = clock(secs.shape[0] > 0)
        game = first_game + i
        first = setup_game(S, params, layout, game, scratch)
        if mode == MODE_BLIND:
            blindfold(S, moves)
        memory[:keep] = 0
        np.random.seed(agent_seed(params, game))
        st = open_user_game(S, params, first, game, view, info, order)
        if rules and st == STEP_GOING:
            st = play_rules(F, cnt, S, view, info, classic, mine_count, n)
        while st == STEP_GOING:
            seen[:] = info
            mv = policy(view2, seen, order, memory)
            st = _move(F, cnt, S, view, info, mv, classic, n)
            if st < 0:
                err[0] = st
                err[1] = game
                err[2] = info[I_MOVE]
                err[3] = mv
                return made
            if rules and st == STEP_GOING:
                st = play_rules(F, cnt, S, view, info, classic, mine_count, n)
        if mode == MODE_BATCH:
            record(S, out, secs, boards, i, t0)
        else:
            if mode == MODE_TRACED:
                summarize(S, out, 0)
            made = read_trace(S, moves, final)
    return made


def compile_loop(user_policy, name, digest=None):
    """The compiled game loop of Numba policy ``user_policy``. With ``digest`` (a digest
    of the policy's code and everything it reaches, ``fastsweep.user.reach``), cached on
    disk under a key over this module's closure and the digest, so a sweep's workers and
    later runs load it; without one (code with no readable source), compiled in each
    process. (Inlining the policy into the loop was measured: no faster; a call costs
    about as much as its four arrays' reference counts.)"""
    f = specialise(_play, name, policy=user_policy)
    if not digest:
        return njit(f)
    f.__code_digest__ = digest
    return njit(cache=True)(f)


@njit(cache=True)
def observe_value(S, c, v):
    """A knowledge-only state (no truth behind it: ``own.Knowledge``) learns that
    hidden cell ``c`` now shows view value ``v``."""
    if v >= 0:
        observe(S, c, v)
    elif v == VIEW_FLAG:
        flag_cell(S, c)
    elif v == VIEW_DETONATED:
        observe_mine(S, c)
    elif v == VIEW_BLANK:
        _know_flat(flat(S), S[c, F_PLANE], REVEALED, _blank_inc(word(S, c)))
    S[ncells(S), C_QLEN] = 0


# ---------------------------------------------------------------- many games at once
# (a batched agent and the Gymnasium vector env: one state per slot, SS (B, R, K); a slot
# whose game ends is recorded and starts the next game, so a step costs one call)
SLOT_IDLE = STEP_OVER  # a slot's status once no game is left for it


@njit(cache=True)
def batch_fill(SS, params, layout, scratch, views, infos, orders, out, boards, first_game,
               next_game, end_game, status):
    """Start game ``next_game``, ``next_game + 1``, ... (below ``end_game``) in each idle
    slot (a game over at its opening is recorded at once); return the next game."""
    no_secs = np.zeros(0, np.float64)
    for b in range(SS.shape[0]):
        while status[b] == SLOT_IDLE and next_game < end_game:
            g = next_game
            next_game += 1
            first = setup_game(SS[b], params, layout, g, scratch)
            status[b] = open_user_game(SS[b], params, first, g, views[b], infos[b], orders[b])
            if status[b] == STEP_OVER and out.shape[0] > 0:
                record(SS[b], out, no_secs, boards, g - first_game, 0.0)
    return next_game


@njit(cache=True)
def batch_step(SS, params, layout, scratch, views, infos, orders, moves, out, boards,
               first_game, next_game, end_game, status):
    """Play ``moves[b]`` in every slot in play; record the games that end and start the
    next ones (:func:`batch_fill`). Returns the next game; a refused move leaves its
    ERR_* code in ``status[b]`` and stops (the caller raises)."""
    classic = params[P_RULES] == RULES_CLASSIC
    no_secs = np.zeros(0, np.float64)
    for b in range(SS.shape[0]):
        if status[b] != STEP_GOING:
            continue
        st = user_move(SS[b], views[b], infos[b], moves[b], classic)
        if st < 0:
            status[b] = st
            return next_game
        if st == STEP_OVER:
            status[b] = SLOT_IDLE
            if out.shape[0] > 0:
                record(SS[b], out, no_secs, boards, infos[b, I_GAME] - first_game, 0.0)
    return batch_fill(SS, params, layout, scratch, views, infos, orders, out, boards,
                      first_game, next_game, end_game, status)
