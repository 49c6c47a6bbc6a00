"""Every route of the what-ifs against each other, for the tests (tests/
test_whatif_deductions.py): a kernel here, not in the test module, so that its compiled
code is keyed on the kernels' source like theirs (a test module's cached kernel kept
stale callees); no agent imports it."""
from ...engine.actions import observe, observe_mine, restore_knowledge, save_knowledge
from ...engine.env import ncells
from ...engine.env import status as cell_status
from ...engine.layout import HIDDEN
from ...jit import njit
from ..count import query
from .base import OUT_MINE, outcome_table, value_range
from .ded import decided_after, ded_base, ded_scratch, whole_counts
from .joint import outcomes_decided


@njit(cache=True)
def whatif_routes(S, told, prior, got, want, joint, out, ref):
    """Every hidden cell's what-ifs by each route, to check them against each other. For
    each hidden cell c and outcome v (0..8 within c's value range, MINE): ``got[c, v]`` = (decided, safe,
    whole analysis taken) by ``whatif.ded.decided_after``, ``want[c, v]`` = (decided,
    safe) by a whole analysis of the what-if (-9: not asked); ``joint`` and ``out``:
    :func:`outcomes_decided`'s, ``ref``: ``whatif.base.outcome_table``'s. Returns whether the
    position's own count was exact (``ded_base``'s ok)."""
    qd = query(told, prior, 0, False)
    base = ded_base(S, qd)
    touched, buf = ded_scratch(S, base)
    outcome_table(S, query(told, prior, 0, True), ref, True)
    outcomes_decided(S, query(told, prior, 0, True), out, joint, base, True)
    got[:] = -9
    want[:] = -9
    for c in range(ncells(S)):
        if cell_status(S, c) != HIDDEN:
            continue
        lo, hi = value_range(S, c)
        for v in range(OUT_MINE + 1):
            if v != OUT_MINE and not lo <= v <= hi:
                continue
            d, sd, whole = decided_after(S, qd, base, c, v, touched, buf)
            got[c, v, 0], got[c, v, 1], got[c, v, 2] = d, sd, whole
            save_knowledge(S, buf)
            if v == OUT_MINE:
                observe_mine(S, c)
            else:
                observe(S, c, v)
            want[c, v, 0], want[c, v, 1] = whole_counts(S, qd)
            restore_knowledge(S, buf)
    return base.ok
