"""Per-cell results of an analysis, for the public API (``fastsweep.inference``)."""

from .count import ST_OK, analyse
from ..engine.env import ncells
from ..engine.env import status as cell_status
from .frontier import CB_DED
from ..jit import njit
from ..engine.layout import F_AUX, HIDDEN, REVEALED


@njit(cache=True)
def cell_results(S, q, prob, ded):
    """Per-cell results of :func:`analyse` (query ``q``) for the public API: ``prob``
    (float64 N) and
    ``ded`` (int8 N: 0 undetermined or not hidden, 1 safe, 2 mine). Returns
    (status, approx, log of the total weight, (undecided components, largest standard
    error, smallest effective sample size)), see :func:`analyse`."""
    n = ncells(S)
    a = analyse(S, q)
    summary = (a.status, a.approx, a.logw, (a.undecided, a.est[0], a.est[1]))
    if a.status != ST_OK:
        return summary
    box, bprob = a.box, a.bprob
    for c in range(n):
        st = cell_status(S, c)
        ded[c] = 0
        if st != HIDDEN:
            prob[c] = 0.0 if st == REVEALED else 1.0
            continue
        b = S[c, F_AUX]
        if b >= 0:
            prob[c] = bprob[b]
            ded[c] = box[b, CB_DED]
        else:
            prob[c] = a.pu
            ded[c] = a.uded
        # exact zero / one where deduced (the float can differ in the last bit)
        if ded[c] == 1:
            prob[c] = 0.0
        elif ded[c] == 2:
            prob[c] = 1.0
    return summary
