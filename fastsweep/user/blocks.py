"""Building blocks a user's Numba agent calls from its ``@njit`` policy (they are kernels):

* ``single_clue_move(view)``: a move of the single-clue rules, or ``NO_RULE`` (-1);
* ``analyse_view(view, mines, prior, want_prob, prob, ded)``: complete deduction and
  exact mine probabilities (``mines`` -1 when not told: then under ``prior``), into
  ``ded`` (int8 N: 1 safe, 2 mine) and ``prob`` (float64 N); False if no layout agrees;
* ``knowledge_state(view, mines)``: the view as the engine's knowledge-only state (built
  afresh: ~30 us on Expert);
* ``knowledge(view, info, memory)``: the same state kept in the agent's memory across
  the game's moves, adding only the cells that changed (``NumbaAgent(knowledge=True)``
  reserves its room); ``analyse_knowledge(S, mines, prior, want_prob, prob, ded)`` is
  ``analyse_view`` on it.

See ``examples/lowest_numba.py``.
"""
from ..kernels.agents.blocks import (
    NO_RULE, analyse_knowledge, analyse_view, knowledge, knowledge_state, single_clue_move,
)

__all__ = ["NO_RULE", "analyse_knowledge", "analyse_view", "knowledge", "knowledge_state",
           "single_clue_move"]
