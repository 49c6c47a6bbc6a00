"""The solver study's table (fastsweep.studies.solver_table, scripts/studies/
solver_study.py) pairs agents by chunk records, which are kept in git (the per-game rows
are not): checked against per-game pairing."""
import glob
import json
import os

import numpy as np
import pandas as pd

import fastsweep
from fastsweep.studies import solver_table as study

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "solver")
TABLE = os.path.join(OUT, "table.csv")


def test_chunk_pairing_agrees_with_per_game_pairing(tmp_path):
    wins, per_game = {}, {}
    for agent in ("probability", "basic"):
        out = str(tmp_path / agent)
        fastsweep.sweep([agent], [(6, 6)], mines=[6], rules="classic", mine_count=[True],
                        games=230, seed=7, workers=1, out=out, per_game=True, quiet=True,
                        chunk_games=20)
        wins[agent] = study.chunk_wins(out, 230)
        per_game[agent] = pd.concat(pd.read_csv(f) if f.endswith(".csv") else
                                    pd.read_parquet(f)
                                    for f in sorted(os.listdir(os.path.join(out, "per_game")))
                                    for f in [os.path.join(out, "per_game", f)])
    # 11 chunks of 20 games and a last one of 10, each with its win count
    assert sorted(wins["basic"]) == list(range(12))
    assert [wins["basic"][k][0] for k in range(12)] == [20] * 11 + [10]
    for agent, g in per_game.items():
        assert sum(w for _, w in wins[agent].values()) == int(g.won.sum())
        won = g[g.won.astype(bool)]  # guesses after the opening in won games
        gw, gn = study.guesses_won(str(tmp_path / agent))
        assert gn == len(won) > 0 and abs(gw - (won.guesses - 1).mean()) < 1e-12
    d, h = study.paired(wins["probability"], wins["basic"])
    m = per_game["probability"][["game", "won"]].merge(per_game["basic"][["game", "won"]],
                                                       on="game")
    diff = m.won_x.astype(float) - m.won_y.astype(float)
    assert len(m) == 230
    assert abs(d - 100 * diff.mean()) < 1e-9  # the same games: the same mean difference
    per_game_h = 100 * 1.96 * diff.std(ddof=1) / len(diff) ** 0.5
    assert d > 0 and 0.4 * per_game_h < h < 2.5 * per_game_h  # chunk-based: noisier
    # only the chunks of the first 50 games: 0 and 1 (chunk 2 would have to hold 10)
    assert sorted(study.chunk_wins(str(tmp_path / "basic"), 50)) == [0, 1]
    assert np.isnan(study.paired({0: (20, 3)}, {0: (20, 1)})[0])  # one chunk: no interval


def test_every_committed_run_is_finished():
    """A row committed half-grown (its params asking for more games than its summary
    holds) drops out of the table: name it, rather than fail on a row count."""
    unfinished = []
    for path in sorted(glob.glob(os.path.join(OUT, "runs", "*", "*"))):
        with open(os.path.join(path, "params.json")) as f:
            want = json.load(f)["games"]
        s = pd.read_csv(os.path.join(path, "summary.csv")).iloc[0]
        with open(os.path.join(path, "chunks.jsonl")) as f:
            lines = sum(1 for _ in f)
        if int(s.games) != want:
            unfinished.append(f"{path}: {int(s.games)} of {want} games ({lines} chunk lines)")
    assert len(glob.glob(os.path.join(OUT, "runs", "*", "*"))) >= 18
    assert unfinished == [], "finish these runs before committing them"


def test_the_committed_table_follows_from_the_committed_records():
    """results/solver/table.csv (and so the README's block) is what the committed chunk
    records give: a fresh clone recomputes the same win rates, intervals and pairings."""
    committed = pd.read_csv(TABLE)
    again = study.table(OUT)
    assert len(again) == len(committed) >= 18
    cols = ["games", "win_rate", "win_low", "win_high", "guesses_won", "minus_pseq",
            "minus_pseq_ci", "minus_probability", "minus_probability_ci"]
    assert list(again.agent) == list(committed.agent)
    np.testing.assert_allclose(again[cols].to_numpy(float), committed[cols].to_numpy(float),
                               atol=1e-4, equal_nan=True)


def test_a_cut_last_chunk_is_not_paired_with_a_whole_one():
    """A 10^5-game folder ends with a cut chunk; the 10^6-game folder's chunk of that
    index holds more games: pairing uses only chunks of equal size."""
    long = {0: (10, 4), 1: (10, 6), 2: (10, 9)}
    short = {0: (10, 3), 1: (10, 5), 2: (4, 0)}
    d, _ = study.paired(long, short)
    assert abs(d - 100 * (1 + 1) / 20) < 1e-12


def test_committed_records_keep_their_digests():
    """Reading a folder back checks every record's digest against its params.json: the
    digests of folders written before ``corner_opening`` became the default (risk's
    records it off, the look-ahead's zero rows too) still hold, and the table's figures
    are the folders' own."""
    for key, agent in (("9x9-zero", "lookahead"), ("9x9-zero", "pseq"),
                       ("9x9-zero", "probability"), ("expert-safe", "risk")):
        path = os.path.join(OUT, "runs", key, agent)
        s = fastsweep.load(path).summary.iloc[0]
        committed = pd.read_csv(os.path.join(path, "summary.csv")).iloc[0]
        assert int(s.games) == int(committed.games) and s.win_rate == committed.win_rate
