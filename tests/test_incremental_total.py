"""The incremental analysis with the mine total (agents/policies.py,
``_deduce_or_guess_changed``): after every move of many games, what the agent acts on
equals what a fresh whole analysis with the total (``count.analyse``) acts on, cell by
cell and in the same order, and the probabilities it guesses by equal the fresh ones
(on small boards: the brute-force oracle's, tests/naive.py).

The agent's rule under test: the analysis without the total re-counts only the changed
components; when ``count.total_free`` holds (and nothing was approximated) its deductions
are acted on, else (or when nothing is certain and the agent guesses by probability) the
whole analysis with the total runs. The walks move by the fresh analysis (deductions
first, else the lowest probability), so a fault of the cache cannot steer the walk away
from the positions where it shows."""
import numpy as np
import pytest

from fastsweep.kernels.engine import game as kg
from fastsweep.kernels.engine.actions import act
from fastsweep.kernels.engine.env import flat, hidden_left, mines_left_known, ncells, status
from fastsweep.kernels.engine.layout import A_GUESS, A_FLAG, A_REVEAL, F_AUX, HIDDEN
from fastsweep.kernels.engine.layout import R_DEDUCE_MINE, R_DEDUCE_SAFE, R_PROB_GUESS
from fastsweep.kernels.engine.local import drain_local
from fastsweep.kernels.inference import count as kc
from fastsweep.kernels.inference import incremental as ki
from fastsweep.kernels.inference.frontier import CB_C, CB_DED, CB_SIZE
from fastsweep.kernels.agents.policies import act_on_boxes
from fastsweep.options import agent_params, make_config
from naive import brute_force_view
from test_incremental_noise import _view

NONE = np.zeros((0, 9), np.float64)


def _acts(box, nbox):
    """The (cell, deduction) pairs ``policies.act_on_boxes`` acts on, in its order."""
    return [(int(box[b, CB_C + j]), int(box[b, CB_DED])) for b in range(nbox)
            if box[b, CB_DED] for j in range(box[b, CB_SIZE])]


def _walk(size, density, rules, games, seed, oracle_hidden=0):
    """Walk ``games`` games checking the incremental rule at every step; returns (steps,
    steps where the total was free and the incremental deductions were used, steps
    checked against the oracle)."""
    cfg = make_config("probability", size, density=density, rules=rules, mine_count=True)
    params, _ = agent_params(cfg, seed)
    classic = rules == "classic"
    steps = used = oracle = 0
    for g in range(games):
        S, scratch = kg.new_batch_state(params, False)
        n = ncells(S)
        ws = ki.new_workspace(n)
        kg.open_game(S, kg.setup_game(S, params, np.zeros(0, np.uint8), g, scratch))
        while True:
            drain_local(flat(S), classic)
            if kg.game_over(S, classic):
                break
            inc = ki.analyse_changed(S, ws, 0.5, 0, NONE, False)
            full = kc.analyse(S, kc.Query(True, 0.5, 0, True, kc.METHOD_AUTO, NONE))
            where = f"{size} {density} {rules}, game {g}, step {steps}"
            assert inc.status == full.status == kc.ST_OK, where
            hidden = [c for c in range(n) if status(S, c) == HIDDEN]
            pcell = {c: full.bprob[S[c, F_AUX]] if S[c, F_AUX] >= 0 else full.pu
                     for c in hidden}
            want = _acts(full.box, full.nbox)
            if inc.approx == 0 and kc.total_free(inc.smin, inc.smax, inc.u, inc.mleft):
                # what the agent acts on without the whole analysis: the same cells, in
                # the same order, and the total decides no unconstrained cell
                assert _acts(inc.box, inc.nbox) == want, where
                assert full.uded == 0, where
                used += 1
            if 0 < len(hidden) <= oracle_hidden:
                view, _ = _view(S, size[0], size[1], NONE)
                mines = mines_left_known(S) + int((view == -2).sum())
                safe, mine, prob = brute_force_view(view, mines)
                prob = prob.ravel()
                for c in hidden:
                    assert abs(prob[c] - pcell[c]) <= 1e-12, (where, c, prob[c], pcell[c])
                    d = 1 if safe.ravel()[c] else (2 if mine.ravel()[c] else 0)
                    ded = full.box[S[c, F_AUX], CB_DED] if S[c, F_AUX] >= 0 else full.uded
                    assert d == ded, (where, c)
                oracle += 1
            steps += 1
            acted = act_on_boxes(S, full.box, full.nbox, classic)
            if acted < 0:
                continue
            if full.uded:
                for c in hidden:
                    if status(S, c) == HIDDEN and S[c, F_AUX] < 0:
                        mine = full.uded == 2
                        act(S, c, A_FLAG if mine else A_REVEAL,
                            R_DEDUCE_MINE if mine else R_DEDUCE_SAFE, -1, 0)
                        acted += 1
            if acted > 0:
                continue
            c = min(hidden, key=lambda c: (pcell[c], c))
            act(S, c, A_GUESS, R_PROB_GUESS, -1, hidden_left(S))
    return steps, used, oracle


@pytest.mark.parametrize("size, density, rules, games", [
    ((9, 9), 0.15, "keep-going", 20), ((12, 16), 0.3, "classic", 6),
    ((16, 16), 0.45, "keep-going", 2), ((13, 17), 0.6, "keep-going", 2),
    ((16, 30), 0.2, "classic", 6),
])
def test_incremental_with_the_total_equals_a_fresh_analysis(size, density, rules, games):
    steps, used, _ = _walk(size, density, rules, games, 19)
    assert steps >= 25 and used >= 5, (steps, used)


def test_incremental_with_the_total_equals_the_brute_force_oracle():
    # 5x5 boards: the oracle enumerates every layout of up to 14 hidden cells
    steps, used, oracle = _walk((5, 5), 0.3, "keep-going", 30, 3, oracle_hidden=14)
    assert oracle >= 40, (steps, used, oracle)
