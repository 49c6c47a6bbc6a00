"""Debugging aids for the kernels' state arrays (plain Python; never on a hot path)."""
from __future__ import annotations

import numpy as np

from ..kernels.engine import layout as kl

_ST = {kl.HIDDEN: "?", kl.REVEALED: None, kl.FLAGGED: "F", kl.DETONATED: "*"}
_COUNTERS = ("C_REV", "C_FLAG", "C_DET", "C_GUESS", "C_KMINES", "C_GPTR", "C_QLEN",
             "C_APPROX", "C_AGENT_CACHE", "C_MINES", "C_WRONG_FLAG", "C_SAFE_DET",
             "C_SENSOR", "C_TRACE")


def _field(w, shift, mask):
    return (int(w) >> shift) & mask


def describe_state(S) -> str:
    """A state (``kernels.env.new_state``) as text: counters, the agent's knowledge
    (status, observed clue, mines-left / safe-left / hidden-neighbour mask of each word)
    and, apart, the environment's truth (mines and true clues).

    >>> from fastsweep.kernels.engine import actions, env
    >>> S = env.new_state(2, 3); env.add_mine(S, 5)
    >>> actions.observe(S, 0, 0)
    >>> print(describe_state(S).splitlines()[2])
    knowledge (status/clue, ML, SL, hidden mask):
    """
    S = np.asarray(S)
    F = S.reshape(-1)
    n = int(F[-1])
    cnt = n * kl.K
    w2, p, words = int(F[cnt + kl.C_W2]), int(F[cnt + kl.C_P]), int(F[cnt + kl.C_WORDS])
    w = w2 - 2
    h = n // w
    lines = [f"{h}x{w} board, {n} cells; plane at {words}, truth at {words + p}",
             "counters: " + ", ".join(f"{c[2:].lower()}={int(F[cnt + getattr(kl, c)])}"
                                      for c in _COUNTERS)]
    lines.append("knowledge (status/clue, ML, SL, hidden mask):")
    for r in range(h):
        row = []
        for c in range(w):
            x = int(F[S[r * w + c, kl.F_PLANE]])
            st = _field(x, kl.NB_ST_SHIFT, kl.NB_ST_MASK)
            shown = _ST[st] or str(_field(x, kl.NB_CLUE_SHIFT, kl.NB_CLUE_MASK))
            ml = _field(x, kl.NB_ML_SHIFT, kl.NB_FIELD) - kl.NB_BIAS
            sl = _field(x, kl.NB_SL_SHIFT, kl.NB_FIELD) - kl.NB_BIAS
            mask = _field(x, kl.NB_MASK_SHIFT, kl.NB_MASK)
            q = "q" if x & kl.NB_QUEUED else " "
            row.append(f"{shown}{q}{ml:+d}/{sl:+d}/{mask:02x}")
        lines.append("  " + " ".join(row))
    lines.append("truth (mine *, else true clue):")
    for r in range(h):
        row = []
        for c in range(w):
            t = int(F[S[r * w + c, kl.F_PLANE] + p])
            clue = ((t & ~kl.T_MINE) + kl.T_ROUND) >> kl.NB_CLUE_SHIFT
            row.append("*" if t & kl.T_MINE else str(clue))
        lines.append("  " + " ".join(row))
    return "\n".join(lines)
