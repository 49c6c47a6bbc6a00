"""The play-by-play of one game: same game as the batch, readable moves and boards."""
import subprocess
import sys


from fastsweep import play, run
from fastsweep.trace import LEGEND


def test_trace_is_the_batch_game():
    df = run("basic", (16, 30), mines=99, seed=3, games=6, rules="classic")
    for g in range(6):
        t = play("basic", (16, 30), mines=99, seed=3, game=g, rules="classic")
        r = df.iloc[g]
        assert t.result["flagged"] == r.flagged and t.result["detonated"] == r.detonated
        assert t.result["moves"] == r.moves == len(t.moves)
        assert t.result["guesses"] == r.guesses == (t.moves.action == "guess").sum()


def test_trace_moves_are_consistent():
    t = play("basic", (9, 9), mines=10, seed=1)
    mv = t.moves
    assert mv.move.tolist() == list(range(1, len(mv) + 1))
    assert mv.cell_index.is_unique and len(mv) == 81  # keep-going resolves every cell once
    flags = mv[mv.action == "flag"]
    assert t.mines.ravel()[flags.cell_index].all()
    assert (mv.outcome[mv.action == "reveal"] != "detonated").all()
    clue_rows = mv[mv.outcome.str.startswith("clue")]
    assert (clue_rows.outcome.str[5:].astype(int).to_numpy()
            == t.clues.ravel()[clue_rows.cell_index]).all()
    assert mv.reason.iloc[0].startswith("opening move")
    assert mv.reason[mv.action == "flag"].str.contains("all mines").all()


def test_board_text_legend():
    t = play("basic", (4, 6), mines=5, seed=2)
    assert t.board(0, coords=False) == "\n".join(" ".join("?" * 6) for _ in range(4))
    assert t.board(0).splitlines() == ["  0 1 2 3 4 5"] + [f"{r} ? ? ? ? ? ?" for r in range(4)]
    end = t.board(coords=False)
    assert set(end.replace(" ", "").replace("\n", "")) <= set("012345678F*")
    assert end.count("F") == t.result["flagged"] and end.count("*") == t.result["detonated"]
    text = t.text(every=5)
    assert text.count("\n\n") >= 2 and t.summary() in text and LEGEND in text


def test_cli_play_prints_trace():
    r = subprocess.run([sys.executable, "-m", "fastsweep", "play", "--agent", "basic", "--size",
                        "16x30", "--mines", "99", "--seed", "3", "--rules", "classic",
                        "--every", "50"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    t = play("basic", (16, 30), mines=99, seed=3, rules="classic")
    assert t.moves.reason.iloc[-1] in r.stdout
    assert r.stdout.strip().endswith(t.summary())


def test_cli_run_summary():
    r = subprocess.run([sys.executable, "-m", "fastsweep", "run", "--agent", "basic", "--size",
                        "10", "--density", "0.2", "--games", "500"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    df = run("basic", 10, density=0.2, games=500)
    assert f"{df.score.mean():.4f}" in r.stdout
    for word in ("games", "mean score", "95% CI", "win rate", "guesses per game", "games per second"):
        assert word in r.stdout
