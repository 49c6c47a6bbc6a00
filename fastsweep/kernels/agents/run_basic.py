"""The basic agent's family: its move is the random guess in the game's guess order
(``local.guess_in_order``); everything else is the rules' loop step, made for every
family in ``family.py``. Nothing here imports the exact inference engine, so running the
basic agent compiles only the engine and the local rules.
"""
from ..engine.env import flat
from ..engine.local import guess_in_order
from ..jit import njit
from .family import Family, no_guess, no_workspace


@njit(cache=True)
def move(S, trp, params, fparams, ws, guess):
    """The basic agent's move once its rules are exhausted: a random guess."""
    guess_in_order(flat(S))


FAMILY = Family("basic", move, no_guess, no_workspace, "15-30 s")
play_batch, play_traced, play_blind = FAMILY.entry_points()
