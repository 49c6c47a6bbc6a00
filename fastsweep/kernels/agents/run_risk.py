"""The family of the exact agents that guess by what-ifs or thresholds (``threshold``,
``risk``): the exact family's move (``policies.next_move``: complete deduction, else a
guess), compiled once for both families, with their own guess (``risk.py``). Their own
family because the what-ifs are a third of the exact engine's compile, which
``inference`` and ``probability`` never run.
"""
from ..engine.game import F_PRIOR, F_THRESHOLD, P_VARIANT, P_BUDGET, P_MINE_COUNT, P_RISK_RULES
from ..engine.game import P_RULES, RULES_CLASSIC
from ..jit import njit
from .family import Family
from .policies import GUESS_RISK, GUESS_THRESHOLD, guess_lowest, new_workspace, next_move
from .risk import risk_guess, threshold_guesses


@njit(cache=True)
def guess(S, trp, params, fparams, pcell, approx, logw):
    """The guess of a threshold or risk agent (``pcell``: each hidden cell's mine
    probability, partly approximated if ``approx`` > 0: then the lowest; ``logw``
    unused)."""
    rule = params[P_VARIANT]
    if rule == GUESS_THRESHOLD:
        threshold_guesses(S, trp, pcell, fparams[F_THRESHOLD], approx,
                          params[P_RULES] == RULES_CLASSIC)
    elif rule == GUESS_RISK and approx == 0:
        risk_guess(S, trp, params[P_MINE_COUNT] != 0, fparams[F_PRIOR], params[P_BUDGET],
                   params[P_RISK_RULES], pcell)
    else:
        guess_lowest(S, trp, pcell, approx)


FAMILY = Family("risk", next_move, guess, new_workspace, "1-3 minutes")
play_batch, play_traced, play_blind = FAMILY.entry_points()
