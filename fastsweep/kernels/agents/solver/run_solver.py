"""The strongest classic solvers (``pseq``, ``lookahead``): game loop and batch entry
points.

Their move is ``policies.deduce`` (complete deduction from every clue and the mine total,
one whole analysis a move, as ``probability`` with the total), and when nothing is
certain their own guess: ``pseq.pseq_guess`` or ``lookahead.lookahead_guess``. An
analysis over the work budget falls back to the lowest (approximate) probability, as
``probability`` does. The family's entry points are made from its move by
``family.make_family``: :func:`play_batch`, :func:`play_traced`, :func:`play_blind`.
(Tests reach the guesses on a typed-in view through ``tests/views.py``.)
"""
from ...engine.env import flat
from ...engine.game import P_VARIANT
from ...jit import njit
from ..family import make_family
from ...engine.local import guess_in_order
from .lookahead import lookahead_guess
from ..policies import NEED_GUESS, NEED_ORDER, deduce, guess_lowest, new_workspace
from .pseq import pseq_guess

# the solver family's guess rules (``params[P_VARIANT]``; the registry says which agent
# plays which; the numbers of the agent ids they replaced)
GUESS_PSEQ = 10  # Tu et al.'s P, S, E, Q filters
GUESS_LOOKAHEAD = 11  # endgame search, 50/50s, two-move look-ahead


@njit(cache=True, inline="always")  # (inlined into the entry point: see policies.make_next_move)
def agent_move(S, trp, params, fparams, ws):
    """Deductions, else the agent's guess (``trp``: see ``run_exact.run_game``)."""
    need, pcell, approx, logw = deduce(S, params, fparams, True, ws)
    if need == NEED_ORDER:
        guess_in_order(flat(S))
    elif need == NEED_GUESS:
        if approx > 0:
            guess_lowest(S, trp, pcell, approx)
        elif params[P_VARIANT] == GUESS_PSEQ:
            pseq_guess(S, trp, params, fparams, pcell)
        else:
            lookahead_guess(S, trp, params, fparams, pcell, logw)


# (the workspace: its soft rows under noise, see policies.deduce)
FAMILY = make_family("solver", agent_move, new_workspace, "3-5 minutes")
play_batch, play_traced, play_blind = FAMILY.entry_points()

