"""Every agent plays exactly the reference games (tests/reference_games.py): per-game
results of 4 configurations x 12-40 games and one traced game's moves per configuration,
recorded with the engine before the family contract. A restructuring of the engine must
not change a single game."""
import os

import pandas as pd
import pytest

from fastsweep import AGENTS

from reference_games import CONFIGS, games, trace_digest

DATA = os.path.join(os.path.dirname(__file__), "data", "reference", "games")
WANT_GAMES = pd.read_csv(DATA + "_games.csv")
WANT_TRACES = pd.read_csv(DATA + "_traces.csv")


def test_the_reference_covers_every_agent():
    assert set(WANT_GAMES.agent) == set(AGENTS) == set(WANT_TRACES.agent)


@pytest.mark.parametrize("agent", list(AGENTS))
def test_same_games_as_the_reference(agent):
    for k in range(len(CONFIGS)):
        got = games(agent, k).reset_index(drop=True)
        want = WANT_GAMES[(WANT_GAMES.agent == agent) & (WANT_GAMES.config == k)]
        want = want.reset_index(drop=True)[got.columns]
        pd.testing.assert_frame_equal(got, want, check_dtype=False, obj=f"{agent} config {k}")
        row = WANT_TRACES[(WANT_TRACES.agent == agent) & (WANT_TRACES.config == k)].iloc[0]
        assert trace_digest(agent, k) == (row.moves, row.digest), f"{agent} config {k}"


NOISE_GAMES = pd.read_csv(os.path.join(os.path.dirname(DATA), "noise_games.csv"))
NOISE_TRACES = pd.read_csv(os.path.join(os.path.dirname(DATA), "noise_traces.csv"))


@pytest.mark.parametrize("agent", list(AGENTS))
def test_same_games_under_noise_as_the_reference(agent):
    """Every agent under every noise model (tests/reference_noise.py: the engine before
    issue 47's incremental analysis of soft clues)."""
    import reference_noise as rn
    assert set(NOISE_GAMES.agent) == set(AGENTS)
    for k in range(len(rn.CONFIGS)):
        got = rn.games(agent, k).reset_index(drop=True)
        want = NOISE_GAMES[(NOISE_GAMES.agent == agent) & (NOISE_GAMES.config == k)]
        want = want.reset_index(drop=True)[got.columns]
        pd.testing.assert_frame_equal(got, want, check_dtype=False,
                                      obj=f"{agent} config {k} ({rn.CONFIGS[k]['noise']})")
        row = NOISE_TRACES[(NOISE_TRACES.agent == agent) & (NOISE_TRACES.config == k)].iloc[0]
        assert rn.trace_digest(agent, k) == (row.moves, row.digest), f"{agent} config {k}"
