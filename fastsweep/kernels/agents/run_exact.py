"""The exact-inference family (``inference``, ``probability``): game loop and batch
entry points.

The agent's move is ``policies.next_move`` (complete deduction, else a guess) with its
workspace, the incremental analysis's cache, kept across moves and games. Its game loop
and entry points are made in ``family.py``.
"""
from .family import make_family
from .policies import new_workspace, next_move


FAMILY = make_family("exact", next_move, new_workspace, "1-3 minutes")
play_batch, play_traced, play_blind = FAMILY.entry_points()
