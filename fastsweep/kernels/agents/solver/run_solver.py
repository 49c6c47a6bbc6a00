"""The strongest classic solvers (``pseq``, ``lookahead``): game loop and batch entry
points.

Their move is ``policies.deduce_then_guess`` (complete deduction from every clue and the
mine total, one whole analysis a move, as ``probability`` with the total; compiled once,
with the exact engine), and when nothing is certain their own guess, :func:`guess`:
``pseq.pseq_guess`` or ``lookahead.lookahead_guess``. An analysis over the work budget
falls back to the lowest (approximate) probability, as ``probability`` does. The game
loop and the entry points are ``family.py``'s: :func:`play_batch`, :func:`play_traced`,
:func:`play_blind`.
(Tests reach the guesses on a typed-in view through ``tests/views.py``.)
"""
from ...engine.game import P_VARIANT
from ...jit import njit
from ..family import Family
from .lookahead import lookahead_guess
from ..policies import deduce_then_guess, guess_lowest, new_workspace
from .pseq import pseq_guess

# the solver family's guess rules (``params[P_VARIANT]``; the registry says which agent
# plays which; the numbers of the agent ids they replaced)
GUESS_PSEQ = 10  # Tu et al.'s P, S, E, Q filters
GUESS_LOOKAHEAD = 11  # endgame search, 50/50s, two-move look-ahead


@njit(cache=True)
def guess(S, trp, params, fparams, pcell, approx, logw):
    """The solver agents' guess when nothing is certain (``pcell``: each hidden cell's
    mine probability, approximated if ``approx`` > 0: then the lowest; ``logw``: the
    analysis's log number of layouts)."""
    if approx > 0:
        guess_lowest(S, trp, pcell, approx)
    elif params[P_VARIANT] == GUESS_PSEQ:
        pseq_guess(S, trp, params, fparams, pcell)
    else:
        lookahead_guess(S, trp, params, fparams, pcell, logw)


# (the workspace: its soft rows under noise, see policies.deduce)
FAMILY = Family("solver", deduce_then_guess, guess, new_workspace, "2-4 minutes")
play_batch, play_traced, play_blind = FAMILY.entry_points()
