"""The exact-inference family (``inference``, ``probability``).

The agent's move is ``policies.next_move`` (complete deduction, else a guess) with its
workspace, the incremental analysis's cache, kept across moves and games; its guess by
mine probability is the lowest (``policies.guess_by_probability``). The game loop and the
entry points are ``family.py``'s.
"""
from .family import Family
from .policies import guess_by_probability, new_workspace, next_move


FAMILY = Family("exact", next_move, guess_by_probability, new_workspace, "1-3 minutes")
play_batch, play_traced, play_blind = FAMILY.entry_points()
