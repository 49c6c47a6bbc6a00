"""Gymnasium steps (``fastsweep.gym``): a user's game played one action at a time, the
reward computed in the same compiled call, and N games stepped in one call with
auto-reset.

An action is a cell index (reveal it, as a guess) or, with flags on (a mask of 2N
entries), ``N + cell`` (flag it). The action mask (int8, 1 = legal) is kept next to the
view: a move changes one cell, so keeping it costs O(1) a move. The moves themselves are
:func:`user.user_move`'s, on games set up by ``game.setup_game`` and opened by
:func:`user.open_user_game` (the environment's opening move), so game i is the same
board and luck as for every agent of ``fastsweep.run``.

With ``open_zeros`` a revealed 0 opens its hidden neighbours, recursively (the classic
game's flood fill), in the same call: each a ``MOVE_SAFE`` user move (the caller refuses
the option under a sensor that can show a false 0).

A game over at its opening (a classic game whose first click may hit a mine, or a board
with at most one safe cell) still makes an episode: its one step is a no-op (reward 0)
that ends it, so episode j of vector slot b stays game ``first + b + j * N``. A game
over has a mask of all ones: the step that follows (that no-op, or a next-step
auto-reset) ignores its action, and a mask of all zeros gives a -inf masking policy NaN.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..engine.game import (
    OUT_FLAGGED, OUT_MINES, OUT_WON, OUT_WRONG_FLAGS, P_RULES, RULES_CLASSIC, setup_game,
    summarize,
)
from ..engine.layout import (
    C_DET, C_OFF, C_ORDER, C_P, C_QLEN, C_W2, C_WORDS, C_WRONG_FLAG, F_PLANE, FIRE_SIZE, HIDDEN, K,
    NB_FIRE_BITS, NB_ML, NB_NOTREV, NB_SL,
)
from ..engine.env import ncells, status
from ..jit import njit
from .user import (
    ERR_CELL, ERR_TAKEN, I_GAME, I_W, MOVE_FLAG, MOVE_SAFE, MOVE_UNIT, STEP_GOING, STEP_OVER,
    VIEW_DETONATED, open_user_game, user_move,
)

# the rewards (float64, RW_LEN), set by the caller
RW_REVEAL = 0  # a safe cell revealed
RW_MINE = 1  # a mine revealed (a detonation)
RW_FLAG = 2  # a mine flagged
RW_WRONG_FLAG = 3  # a safe cell flagged
RW_WIN = 4  # added to the last move's reward of a game that ends with no detonation
RW_ILLEGAL = 5  # a masked-out action (illegal_action "ignore" or "end")
RW_LEN = 6

# the vector env's settings (int64, M_LEN)
M_STRIDE = 0  # the step from a slot's game to its next (the number of slots)
M_SAME_STEP = 1  # 1: same-step auto-reset (0: next-step)
M_OPEN_ZEROS = 2  # 1: a revealed 0 opens its hidden neighbours
M_ILLEGAL = 3  # ILLEGAL_*: what a masked-out action does
M_MAX_STEPS = 4  # steps after which an episode is truncated (0: never)
M_LEN = 5

# what a masked-out action (its cell not hidden) does (one out of range is refused)
ILLEGAL_RAISE = 0  # refused: nothing is played, the caller raises
ILLEGAL_IGNORE = 1  # nothing is played; reward RW_ILLEGAL
ILLEGAL_END = 2  # nothing is played; reward RW_ILLEGAL, and the episode ends (not won)

# a vector slot's status
SLOT_PLAYING = 0
SLOT_NOOP = 2  # its game was over at the opening: its next step ends the episode
SLOT_ENDED = 3  # its episode ended at the last step (next-step auto-reset: the coming
#                 step starts its next game and ignores its action)


@njit(cache=True)
def open_zeros(S, view, info, mask, cell, classic, stack):
    """``cell`` was just revealed and shows 0: reveal its hidden neighbours, and those of
    each neighbour that shows 0 in turn (``stack``: int64 scratch of N entries; each cell
    is pushed once, when revealed). Returns (STEP_GOING or STEP_OVER, cells revealed)."""
    n = view.shape[0]
    w = info[I_W]
    h = n // w
    stack[0] = cell
    top = 1
    opened = 0
    while top > 0:
        top -= 1
        p = stack[top]
        r0 = p // w
        c0 = p - r0 * w
        for r in range(max(r0 - 1, 0), min(r0 + 2, h)):
            for c in range(max(c0 - 1, 0), min(c0 + 2, w)):
                q = r * w + c
                # (judged on the engine's state: a cell not hidden, flags included, is
                # refused and skipped whatever the view says)
                st = user_move(S, view, info, np.int64(q) + np.int64(MOVE_SAFE) * MOVE_UNIT,
                               classic)
                if st < 0:
                    continue
                opened += 1
                mask[q] = 0
                if mask.shape[0] > n:
                    mask[n + q] = 0
                if st == STEP_OVER:
                    return st, opened
                if view[q] == 0:
                    stack[top] = q
                    top += 1
    return STEP_GOING, opened


@njit(cache=True)
def start_game(S, params, layout, scratch, game, view, info, order, mask, open0, stack):
    """Set up and open game ``game`` (with ``open0``, the opening's 0 opens its
    neighbours); fill the view, info row, guess order and mask. Returns SLOT_PLAYING, or
    SLOT_NOOP for a game over at its opening (its mask all 1: its step is a no-op)."""
    first = setup_game(S, params, layout, game, scratch)
    st = open_user_game(S, params, first, game, view, info, order)
    mask[:] = 1  # every cell is hidden but the opening's (reveal and flag actions)
    if st != STEP_OVER:
        mask[first] = 0
        if mask.shape[0] > view.shape[0]:
            mask[view.shape[0] + first] = 0
        if open0 and view[first] == 0:
            st, _ = open_zeros(S, view, info, mask, first, params[P_RULES] == RULES_CLASSIC,
                               stack)
    if st == STEP_OVER:
        mask[:] = 1
        return SLOT_NOOP
    return SLOT_PLAYING


@njit(cache=True, inline="always")
def action_error(S, mask, action):
    """0 if ``action`` is legal, else ERR_CELL (out of range) or ERR_TAKEN (its cell is
    not hidden). Judged on the engine's state ``S``, not on the mask: with ``copy=False``
    the learner holds the mask buffer and can write ones into it."""
    if action < 0 or action >= mask.shape[0]:
        return ERR_CELL
    n = ncells(S)
    if status(S, action - n if action >= n else action) != HIDDEN:
        return ERR_TAKEN
    return 0


@njit(cache=True, inline="always")
def play_action(S, view, info, mask, action, rewards, classic, open0, stack):
    """Play legal ``action`` (with ``open0``, a revealed 0 opens its neighbours, each
    cell opened earning the reveal reward); returns (STEP_GOING or STEP_OVER, reward).
    A game over gets a mask of all ones (the step that follows ignores its action)."""
    n = view.shape[0]
    flag = action >= n
    cell = action - n if flag else action
    wrong = S[n, C_WRONG_FLAG]
    move = np.int64(cell) + (np.int64(MOVE_FLAG) * MOVE_UNIT if flag else np.int64(0))
    st = user_move(S, view, info, move, classic)
    if flag:
        r = rewards[RW_WRONG_FLAG] if S[n, C_WRONG_FLAG] > wrong else rewards[RW_FLAG]
    else:
        r = rewards[RW_MINE] if view[cell] == VIEW_DETONATED else rewards[RW_REVEAL]
    mask[cell] = 0
    if mask.shape[0] > n:
        mask[n + cell] = 0
    if open0 and st == STEP_GOING and not flag and view[cell] == 0:
        st, opened = open_zeros(S, view, info, mask, cell, classic, stack)
        r += opened * rewards[RW_REVEAL]
    if st == STEP_OVER:
        mask[:] = 1
        if S[n, C_DET] == 0:
            r += rewards[RW_WIN]
    return st, r


@njit(cache=True)
def step_one(S, view, info, mask, action, rewards, classic, open0, stack, out):
    """One env's step: (code, reward). Code STEP_GOING / STEP_OVER (the game's results
    then in ``out[0]``, ``game.OUT_*``), or ERR_CELL / ERR_TAKEN (nothing played)."""
    e = action_error(S, mask, action)
    if e != 0:
        return e, 0.0
    st, r = play_action(S, view, info, mask, action, rewards, classic, open0, stack)
    if st == STEP_OVER:
        summarize(S, out, 0)
    return st, r


@njit(cache=True)
def end_game(S, out, finished):
    """The episode ends on a step that played nothing (the no-op step of a game over at
    its opening; ``finished`` False: an illegal action ended it, or it was cut short): the
    game's results into ``out[0]`` (a game not finished is not won)."""
    summarize(S, out, 0)
    if not finished:
        out[0, OUT_WON] = 0


# ---------------------------------------------------------------- N games in one call
# A slot's state is ~33 KB (10x10; ~90 KB for 16x30), so 1024 slots do not stay in the
# CPU's caches from one step to the next, and a move's dozen dependent loads (the cell's
# row, its plane words, the truth word, the fire table's entries) each waited for
# memory: 3/4 of a step's time at 1024 slots. The step therefore prefetches them for the
# slots a few places ahead (AHEAD), in the order they depend on each other, so that each
# move finds its words in the cache (2x faster at 1024 slots of 10x10).
AHEAD = 8  # slots ahead whose fire-table entries are prefetched (their words at 2x)
RESET_AHEAD = 2  # set-ups ahead whose regions are prefetched


@intrinsic
def prefetch(typingctx, arr, idx):
    """Hint the CPU to fetch ``arr[idx]`` into the cache (LLVM's ``llvm.prefetch``: a
    read, kept close); no effect on the program's results."""
    if not isinstance(arr, types.Array) or not isinstance(idx, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32]),
            "llvm.prefetch.p0")
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


@njit(cache=True, inline="always")
def _word_of(SF, base, actions, b, n):
    """The flat index (in all slots' flat state ``SF``) of slot b's action's plane word."""
    a = actions[b]
    cell = a - n if a >= n else a
    return base + np.uint64(SF[base + np.uint64(cell * K + F_PLANE)])


@njit(cache=True, inline="always")
def _warm_words(SF, actions, status, b, n, slot, cnt, w2, P):
    """Prefetch slot b's action's plane neighbourhood, its truth word and the top of its
    work list (its cell's row and counters were prefetched by the checking pass)."""
    if status[b] == SLOT_PLAYING:
        base = np.uint64(b) * slot
        p = _word_of(SF, base, actions, b, n)
        one = np.uint64(1)
        for r in (p - w2, p, p + w2):
            prefetch(SF, r - one)
            prefetch(SF, r + one)
        prefetch(SF, p + P)
        prefetch(SF, base + cnt + np.uint64(K + FIRE_SIZE + SF[base + cnt + np.uint64(C_QLEN)]))


@njit(cache=True, inline="always")
def _warm_fire(SF, actions, status, b, n, slot, cnt, P):
    """Prefetch the fire-table entries slot b's move will read: its cell's word once
    revealed, each neighbour's word less a safe or a mine neighbour."""
    if status[b] == SLOT_PLAYING:
        base = np.uint64(b) * slot
        p = _word_of(SF, base, actions, b, n)
        fire = base + cnt + np.uint64(K)
        prefetch(SF, fire + np.uint64(((SF[p] & ~NB_NOTREV) + SF[p + P]) & NB_FIRE_BITS))
        for k in range(8):
            w = SF[p + np.uint64(np.int64(SF[base + cnt + np.uint64(C_OFF + k)]))]
            prefetch(SF, fire + np.uint64((w - NB_SL) & NB_FIRE_BITS))
            prefetch(SF, fire + np.uint64((w - NB_ML) & NB_FIRE_BITS))


@njit(cache=True, inline="always")
def _warm_setup(SS, SF, b, n, slot, cnt):
    """Prefetch what setting up slot b's next game writes: its plane, truth, template,
    guess order and counters."""
    base = np.uint64(b) * slot
    for j in range(base + np.uint64(SS[b, n, C_WORDS]), base + np.uint64(SS[b, n, C_ORDER] + n),
                   np.uint64(16)):
        prefetch(SF, j)
    prefetch(SF, base + cnt)
    prefetch(SF, base + cnt + np.uint64(16))


@njit(cache=True)
def vec_start(SS, params, layout, scratch, slots, settings, stack):
    """Start game ``next_game[b]`` in every slot b (then ``next_game[b] += stride``).
    ``slots``: (views, infos, orders, masks, status, next_game, steps), one row a slot."""
    views, infos, orders, masks, status, next_game, steps = slots
    open0 = settings[M_OPEN_ZEROS] != 0
    for b in range(SS.shape[0]):
        g = next_game[b]
        next_game[b] = g + settings[M_STRIDE]
        steps[b] = 0
        status[b] = start_game(SS[b], params, layout, scratch, g, views[b], infos[b],
                               orders[b], masks[b], open0, stack)


@njit(cache=True, inline="always")
def _ended(S, out, games, score, b, game, finished):
    """Slot b's episode of game ``game`` ended: its results into ``out[b]``
    (``game.OUT_*``; a game not ``finished`` is not won), its index and score (as
    ``runner.scores``) into ``games[b]`` and ``score[b]``."""
    summarize(S, out, b)
    if not finished:
        out[b, OUT_WON] = 0
    games[b] = game
    m = out[b, OUT_MINES]
    score[b] = (out[b, OUT_FLAGGED] - out[b, OUT_WRONG_FLAGS]) / m if m > 0 else 1.0


@njit(cache=True)
def vec_step(SS, params, layout, scratch, slots, actions, rewards, settings, res, work):
    """Step every slot: play ``actions[b]`` where a game is in play (a slot over at its
    opening ends its episode, a slot that ended at the last step starts its next game:
    their actions are ignored). ``slots`` as :func:`vec_start`'s; ``settings`` the
    ``M_*`` row; ``res``: (rew, term, trunc, illegal, out, games, score, final_views),
    written for every slot: the reward, whether the episode ended (terminated, or
    truncated after ``M_MAX_STEPS`` steps), whether the action was masked out (under
    ILLEGAL_IGNORE / ILLEGAL_END) and, for an episode that ended, its results
    (``out[b]``, ``games[b]``, ``score[b]``; zeros elsewhere); with same-step auto-reset
    its final view goes to ``final_views[b]`` and the slot's next game starts at once.
    ``work``: (todo, stack), int64 (B,) and (N,) scratch. Returns -1, or the first slot
    whose action is refused (out of range, or masked out under ILLEGAL_RAISE): nothing
    is played then."""
    views, infos, orders, masks, status, next_game, steps = slots
    rew, term, trunc, illegal, out, games, score, final_views = res
    todo, stack = work
    stride = settings[M_STRIDE]
    same_step = settings[M_SAME_STEP] != 0
    open0 = settings[M_OPEN_ZEROS] != 0
    mode = settings[M_ILLEGAL]
    max_steps = settings[M_MAX_STEPS]
    B = SS.shape[0]
    n = views.shape[1]
    SF = SS.reshape(SS.size)
    slot = np.uint64(SS.shape[1] * SS.shape[2])
    cnt = np.uint64(n * K)  # row N, the counters
    for b in range(B):  # check every action first; prefetch its cell's row, the counters
        illegal[b] = False
        if status[b] == SLOT_PLAYING:
            a = actions[b]
            e = action_error(SS[b], masks[b], a)
            if e != 0:
                if e == ERR_CELL or mode == ILLEGAL_RAISE:
                    return b
                illegal[b] = True
                continue
            base = np.uint64(b) * slot
            prefetch(SF, base + np.uint64((a - n if a >= n else a) * K))
            prefetch(SF, base + cnt)
            prefetch(SF, base + cnt + np.uint64(16))
    classic = params[P_RULES] == RULES_CLASSIC
    w2 = np.uint64(SS[0, n, C_W2])
    P = np.uint64(SS[0, n, C_P])
    for b in range(min(2 * AHEAD, B)):
        _warm_words(SF, actions, status, b, n, slot, cnt, w2, P)
    for b in range(min(AHEAD, B)):
        _warm_fire(SF, actions, status, b, n, slot, cnt, P)
    nt = 0  # slots to set up a game in (todo[:nt])
    for b in range(B):
        if b + 2 * AHEAD < B:
            _warm_words(SF, actions, status, b + 2 * AHEAD, n, slot, cnt, w2, P)
        if b + AHEAD < B:
            _warm_fire(SF, actions, status, b + AHEAD, n, slot, cnt, P)
        s = status[b]
        r = 0.0
        done = False
        cut = False
        if s == SLOT_ENDED:
            todo[nt] = b
            nt += 1
        else:
            finished = True
            if s == SLOT_PLAYING:
                if illegal[b]:
                    r = rewards[RW_ILLEGAL]
                    done = mode == ILLEGAL_END
                    finished = False
                else:
                    st, r = play_action(SS[b], views[b], infos[b], masks[b], actions[b],
                                        rewards, classic, open0, stack)
                    done = st == STEP_OVER
                steps[b] += 1
                if not done and max_steps > 0 and steps[b] >= max_steps:
                    cut = True
                    finished = False
            else:  # SLOT_NOOP
                done = True
            if done or cut:
                _ended(SS[b], out, games, score, b, infos[b, I_GAME], finished and not cut)
                masks[b, :] = 1
                if same_step:
                    final_views[b, :] = views[b, :]
                    todo[nt] = b
                    nt += 1
                else:
                    status[b] = SLOT_ENDED
        rew[b] = r
        term[b] = done
        trunc[b] = cut
        if not (done or cut):
            out[b, :] = 0
            games[b] = 0
            score[b] = 0.0
    for j in range(nt):
        if j + RESET_AHEAD < nt:
            _warm_setup(SS, SF, todo[j + RESET_AHEAD], n, slot, cnt)
        b = todo[j]
        g = next_game[b]
        next_game[b] = g + stride
        steps[b] = 0
        status[b] = start_game(SS[b], params, layout, scratch, g, views[b], infos[b],
                               orders[b], masks[b], open0, stack)
    return -1
