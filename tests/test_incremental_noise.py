"""The incremental analysis (kernels/inference/incremental.py) under every noise model:
after every move of many games, its probabilities, deductions, status and approximation
count equal a fresh whole analysis of the same knowledge (``count.analyse`` on
``noisy.soft_rows``), its cached soft rows equal fresh ones, and on small boards the
probabilities equal the brute-force oracle's (tests/naive.py). The games walked here move
by the fresh analysis (deductions first, else the lowest probability), so a fault of the
cache cannot steer the walk away from the positions where it shows."""
import numpy as np
import pytest

from fastsweep.kernels.agents.policies import act_on_boxes
from fastsweep.kernels.engine import game as kg
from fastsweep.kernels.engine.actions import act
from fastsweep.kernels.engine.env import flat, hidden_left, ncells, status, w_blank, w_clue, word
from fastsweep.kernels.engine.layout import (
    A_GUESS, C_QLEN, F_AUX, HIDDEN, R_PROB_GUESS, REVEALED,
)
from fastsweep.kernels.engine.local import drain_local
from fastsweep.kernels.inference import count as kc
from fastsweep.kernels.inference import incremental as ki
from fastsweep.kernels.inference import noisy
from fastsweep.kernels.inference.frontier import CB_C, CB_DED, CB_SIZE
from fastsweep.options import agent_params, make_config
from naive import brute_force_view

NOISES = ["none", "detector:p_neg=0.2,p_pos=0.2", "detector:p_neg=0.3,p_pos=0",
          "reveal:p=0.7", "optimistic:p=0.5", "cautious:p=0.5"]


def _view(S, h, w, soft):
    """The agent's knowledge as a view and likelihood grid for naive.brute_force_view:
    a blank (a revealed cell with no usable clue) is a soft clue that rules nothing out."""
    n = h * w
    view = np.zeros(n, np.int64)
    lik = np.full((n, 9), np.nan)
    for c in range(n):
        st = status(S, c)
        if st == HIDDEN:
            view[c] = -1
        elif st != REVEALED:
            view[c] = -2  # flagged or detonated: a known mine
        elif w_blank(word(S, c)):
            lik[c] = 1.0
        else:
            view[c] = w_clue(word(S, c))
            if soft.shape[0] > 0:
                lik[c] = soft[c]
    return view.reshape(h, w), lik.reshape(h, w, 9)


def _walk(noise, size, density, games, seed, oracle_hidden=0):
    """Walk ``games`` games checking the incremental analysis at every step; returns
    (steps checked, steps checked against the oracle)."""
    cfg = make_config("probability", size, density=density, noise=noise)
    params, fparams = agent_params(cfg, seed)
    model, a, b = params[kg.P_NOISE], fparams[kg.F_NOISE_A], fparams[kg.F_NOISE_B]
    steps = oracle = 0
    for g in range(games):
        S, scratch = kg.new_batch_state(params, False)
        n = ncells(S)
        ws = ki.new_workspace(n)
        kg.open_game(S, kg.setup_game(S, params, np.zeros(0, np.uint8), g, scratch))
        while True:
            if model == 0:
                drain_local(flat(S), False)
            else:
                S[n, C_QLEN] = 0
            if kg.game_over(S, False):
                break
            soft = ki.soft_cache(S, ws, model, a, b)
            fresh = noisy.soft_rows(S, model, a, b)
            np.testing.assert_array_equal(soft, fresh)
            inc = ki.analyse_changed(S, ws, 0.5, 0, soft, model != 0)
            full = kc.analyse(S, kc.Query(False, 0.5, 0, True, kc.METHOD_AUTO, fresh))
            where = f"{noise}, game {g}, step {steps}"
            assert (inc.status, inc.approx) == (full.status, full.approx), where
            if full.status != kc.ST_OK:
                break
            hidden = [c for c in range(n) if status(S, c) == HIDDEN]
            pcell = {c: full.bprob[S[c, F_AUX]] if S[c, F_AUX] >= 0 else full.pu
                     for c in hidden}
            for c in hidden:
                if S[c, F_AUX] >= 0:
                    assert abs(ws[c, ki.W_PROB] - pcell[c]) <= 1e-12, (where, c)
            # deductions: the re-counted boxes carry them all (the others have none)
            ded = {full.box[k, CB_C + j]: full.box[k, CB_DED]
                   for k in range(full.nbox) for j in range(full.box[k, CB_SIZE])}
            got = {inc.box[k, CB_C + j]: inc.box[k, CB_DED]
                   for k in range(inc.nbox) for j in range(inc.box[k, CB_SIZE])}
            assert {c: d for c, d in ded.items() if d} == {c: d for c, d in got.items() if d}, where
            if 0 < len(hidden) <= oracle_hidden:
                view, lik = _view(S, size[0], size[1], soft)
                prob = brute_force_view(view, None, 0.5, likelihood=lik)[2].ravel()
                for c in hidden:
                    assert abs(prob[c] - pcell[c]) <= 1e-12, (where, c, prob[c], pcell[c])
                oracle += 1
            steps += 1
            if act_on_boxes(S, full.box, full.nbox, False) > 0:
                continue
            c = min(hidden, key=lambda c: (pcell[c], c))
            act(S, c, A_GUESS, R_PROB_GUESS, -1, hidden_left(S))
    return steps, oracle


@pytest.mark.parametrize("noise", NOISES)
def test_incremental_equals_a_fresh_analysis_after_every_move(noise):
    steps = 0
    for size, density, games in [((9, 9), 0.2, 6), ((12, 16), 0.3, 3), ((16, 16), 0.15, 2)]:
        steps += _walk(noise, size, density, games, 11)[0]
    assert steps >= 120, steps


@pytest.mark.parametrize("noise", NOISES)
def test_incremental_equals_the_brute_force_oracle(noise):
    # 5x5 boards: the oracle enumerates every layout of up to 14 hidden cells
    steps, oracle = _walk(noise, (5, 5), 0.25, 30, 3, oracle_hidden=14)
    assert oracle >= 40, (steps, oracle)
