"""The incremental analysis (kernels/incremental.py) plays exactly the games the full
re-analysis plays: per-game results against a reference stored before it existed, and
against the full path (forced by a negative budget) on other boards."""
import numpy as np
import pytest

from fastsweep.agents import AGENTS as REGISTRY, kernels_for
from fastsweep.options import agent_params, make_config
from fastsweep.kernels.engine import game as kg
from incremental_ref import AGENTS, CASES, PATH, TRACE_GAMES, compute, key, trace_moves

REF = np.load(PATH)


@pytest.mark.parametrize("case", [c[0] for c in CASES])
@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("mc", [False, True])
def test_games_match_stored_reference(case, agent, mc):
    out = compute(case, agent, mc)
    assert (out[:, kg.OUT_APPROX] == 0).all()
    ref = REF[key(case, agent, mc)]
    # columns added after the reference was stored (the noise counters) are 0 here
    assert (out[:, ref.shape[1]:] == 0).all()
    np.testing.assert_array_equal(out[:, :ref.shape[1]], ref)


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("mc", [False, True])
def test_traces_match_stored_reference(agent, mc):
    for g in range(TRACE_GAMES):
        mv, pr = trace_moves(agent, mc, g)
        np.testing.assert_array_equal(mv, REF[f"trace__{agent}__{int(mc)}__{g}__moves"])
        np.testing.assert_array_equal(pr, REF[f"trace__{agent}__{int(mc)}__{g}__prob"])


def _play(cfg, seed, games, budget):
    params, fparams = agent_params(cfg, seed)
    params[kg.P_BUDGET] = budget  # < 0: full re-analysis at every step (internal switch)
    layout = np.zeros(0, np.uint8)
    out = np.zeros((games, kg.OUT_LEN), np.int64)
    kernels_for(cfg.agent).play_batch(params, fparams, layout, 0, out, np.zeros(0),
                                      np.zeros((2, 0, 0), np.int8))
    return out


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("mc", [False, True])
def test_incremental_equals_full_reanalysis(agent, mc):
    games = 0
    for size, density, rules, prior in [((8, 8), 0.35, "keep-going", 0.5),
                                        ((24, 24), 0.45, "keep-going", 0.5),
                                        ((13, 17), 0.6, "keep-going", 0.2),
                                        ((16, 16), 0.16, "classic", 0.5),
                                        ((10, 30), 0.25, "keep-going", 0.7)]:
        own = {"prior": prior} if "prior" in REGISTRY[agent].options else {}
        cfg = make_config(agent, size, density=density, rules=rules, mine_count=mc, **own)
        n = 30 if size[0] * size[1] > 500 else 120
        inc = _play(cfg, 77, n, 0)
        full = _play(cfg, 77, n, -1)
        np.testing.assert_array_equal(inc, full)
        games += n
    assert games >= 400


@pytest.mark.parametrize("noise", ["detector:p_neg=0.2,p_pos=0.2", "detector:p_neg=0.3,p_pos=0",
                                   "reveal:p=0.7", "optimistic:p=0.5", "cautious:p=0.5"])
@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("mc", [False, True])
def test_incremental_equals_full_reanalysis_under_noise(noise, agent, mc):
    """Noise-aware agents (soft clues), and the rule agents' blanks and dropped clues:
    the same games as the whole analysis at every step (forced by a negative budget)."""
    games = 0
    for size, density, rules in [((9, 9), 0.2, "keep-going"), ((12, 16), 0.3, "classic"),
                                 ((16, 16), 0.15, "keep-going")]:
        cfg = make_config(agent, size, density=density, rules=rules, mine_count=mc,
                          noise=noise)
        n = 6 if size[0] * size[1] > 200 else 30
        np.testing.assert_array_equal(_play(cfg, 5, n, 0), _play(cfg, 5, n, -1))
        games += n
    assert games == 66
