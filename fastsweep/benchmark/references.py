"""The reference agents' committed games: a user's card reuses them instead of replaying.

The repository commits each suite's boards' sweep folders under
``results/benchmark/<name>-v<version>/boards/`` (the reference cards' games). A card for
another agent needs the same games of the references to pair with; since a game is fixed
by the suite alone (seed, board, chunk index), the committed records are those games. So
:func:`seed_boards` copies a board's records into the card's boards folder before its
sweep runs, and the sweep (which plays a chunk only for the members that lack it) plays
the new agent alone. The sweep checks the copied folder's parameters against the run's as
for any folder it grows; a copy never touches the committed files.
"""
from __future__ import annotations

import os
import shutil


def committed_boards(suite: dict) -> str | None:
    """The repository's boards folder of ``suite``'s reference games, or None (an
    installed package without the repository's ``results/``)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(root, "results", "benchmark",
                        f"{suite['name']}-v{suite['version']}", "boards")
    return path if os.path.isdir(path) else None


def resolve_references(references, suite: dict) -> str | None:
    """The folder to take the references' games from: ``"auto"`` the committed one (None
    when there is none), ``None`` replay them, or a folder (must exist)."""
    if references is None:
        return None
    if isinstance(references, str) and references == "auto":
        return committed_boards(suite)
    path = os.fspath(references)
    if not os.path.isdir(path):
        raise ValueError(f"references: {path!r} is not a folder; give the boards folder of a "
                         "suite's reference games (results/benchmark/<suite>-v<N>/boards), "
                         "'auto' for the committed one, or None to replay them")
    return path


MARK = "references.txt"  # in a seeded board folder: where its references' games came from


def seed_boards(source: str | None, board_key: str, folder: str | None) -> str | None:
    """Copy board ``board_key``'s records from ``source`` into ``folder`` when ``folder``
    holds no games yet. Returns where the folder's references' games came from (also for a
    folder seeded by an earlier run, which the copy marks), or None: played in the run."""
    if folder is None:
        return None
    mark = os.path.join(folder, MARK)
    if os.path.isfile(mark):
        with open(mark) as f:
            return f.read().strip() or None
    src = None if source is None else os.path.join(source, board_key)
    if src is None or not os.path.isfile(os.path.join(src, "params.json")) or os.path.exists(
            os.path.join(folder, "params.json")):
        return None
    os.makedirs(folder, exist_ok=True)
    for name in ("params.json", "chunks.jsonl"):
        if os.path.isfile(os.path.join(src, name)):
            shutil.copyfile(os.path.join(src, name), os.path.join(folder, name))
    where = os.path.relpath(source)
    where = os.path.abspath(source) if where.startswith("..") else where
    with open(mark, "w") as f:
        f.write(where + "\n")
    return where
