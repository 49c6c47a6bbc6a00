"""Board kernels: the per-game random generator, the guess order and mine placement.

Everything here is Numba-only (numpy + numba imports) and works on flat arrays:
cell ``c`` of an H x W board is ``r * W + col``.

Randomness has no global state: each game's generator is a SplitMix64 stream whose
state is derived from (root seed, game index) alone, so a game is the same whatever
batch, process or machine plays it.
"""
import numpy as np

from ..jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def _mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def game_rng(seed, game, stream):
    """Initial generator state (uint64) for stream ``stream`` of game ``game``."""
    s = _mix64(np.uint64(seed) ^ np.uint64(0x6A09E667F3BCC908))
    s = _mix64(s + np.uint64(game) * _GOLDEN)
    return _mix64(s ^ (np.uint64(stream) * np.uint64(0xD1B54A32D192ED03)))


@njit(cache=True, inline="always")
def rand_below(st, n):
    """(new state, uniform integer in [0, n)); 53-bit float scaling, bias < n * 2**-53.

    The state is a scalar passed in and out, never an array: no allocation, no
    reference counting in the hot loops.
    """
    st = st + _GOLDEN
    u = np.float64(_mix64(st) >> _S11) * _INV53
    return st, np.int64(u * n)


@njit(cache=True)
def shuffle(st, a, start, k):
    """Uniform random permutation of ``a[start:start + k]`` in place (Fisher-Yates); new
    state. (Unsigned indices: no negative-index fix-up in the loop.)"""
    base = np.uint64(start)
    for i in range(k - 1, 0, -1):
        st, j = rand_below(st, i + 1)
        x = base + np.uint64(i)
        y = base + np.uint64(j)
        t = a[x]
        a[x] = a[y]
        a[y] = t
    return st


@njit(cache=True)
def choose(st, pool, k, m):
    """Move a uniform random m-subset of ``pool[:k]`` to ``pool[:m]`` (partial
    Fisher-Yates); new state. The caller has checked m <= k."""
    for i in range(m):
        st, r = rand_below(st, k - i)
        x = np.uint64(i)
        y = np.uint64(i + r)
        t = pool[x]
        pool[x] = pool[y]
        pool[y] = t
    return st
