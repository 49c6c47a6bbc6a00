"""The reports' agents (``linalg``, ``linalg-plus``, ``bruteforce``,
``linalg-bruteforce``, ``subset``): game loop and batch entry points.

The linalg agents' move is ``linalg_inc.linalg_move`` (the reduced row echelon form of
the clues' equations, and the mine total's when told, kept across moves in the family's
workspace, ``linalg_rows.new_workspace``), else a random guess in the guess order.
``bruteforce`` moves by ``brute_step.brute_move`` (every consistent layout of each
frontier component up to ``max_component`` cells: cells of share 0 / 1 decided, else the
lowest share or an off-frontier cell); ``linalg-bruteforce`` tries ``linalg_move`` first
and the brute-force step when it decides nothing. ``subset`` moves by
``subset.subset_move`` (the subset reduction of the clues' equations), else a random
guess. Everything else is the rules' loop step (``game.settle``), as in ``run_exact.py``.
The game loop and the entry points are ``family.py``'s:
:func:`play_batch`, :func:`play_traced`, :func:`play_blind`. (Tests reach the reductions
on a typed-in view through ``tests/views.py``.)
"""
from ...engine.env import flat
from .brute_step import brute_move
from ...engine.game import P_BUDGET, P_VARIANT, P_MAX_COMPONENT, P_RULES, RULES_CLASSIC
from ...jit import njit
from ..family import Family, no_guess
from .linalg_inc import linalg_move
from .linalg_rows import new_workspace
from ...engine.local import guess_in_order
from .subset import subset_move

# the reductions of the reports' family (``params[P_VARIANT]``; the registry says which
# agent plays which; the numbers of the agent ids they replaced)
REDUCE_LINALG = 3  # RREF, single-variable rows
REDUCE_LINALG_PLUS = 4  # RREF, also rows whose right-hand side is a signed coefficient sum
REDUCE_BRUTEFORCE = 5  # every layout of each small frontier component
REDUCE_LINALG_BRUTEFORCE = 6  # linalg's reduction, else the bruteforce step
REDUCE_SUBSET = 7  # subset reduction of the clues' equations (Patel et al. 2020)


@njit(cache=True)
def move(S, trp, params, fparams, ws, guess):
    """The agent's move once the rules are exhausted: its decisions, else a guess.
    ``trp`` (float64, N or empty) receives the mine probability of a traced guess that
    has one; ``guess``: unused (the family's guesses are its own)."""
    classic = params[P_RULES] == RULES_CLASSIC
    rule = params[P_VARIANT]
    if rule == REDUCE_BRUTEFORCE or rule == REDUCE_LINALG_BRUTEFORCE:
        if (rule == REDUCE_LINALG_BRUTEFORCE
                and linalg_move(S, False, classic, ws, params[P_BUDGET]) != 0):
            return
        brute_move(S, trp, params[P_MAX_COMPONENT], classic)
        return
    if rule == REDUCE_SUBSET:
        acted = subset_move(S, classic)
    else:
        acted = linalg_move(S, rule == REDUCE_LINALG_PLUS, classic, ws, params[P_BUDGET])
    if acted == 0:
        guess_in_order(flat(S))


FAMILY = Family("reports", move, no_guess, new_workspace, "40-80 s")
play_batch, play_traced, play_blind = FAMILY.entry_points()

