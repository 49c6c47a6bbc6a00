"""The benchmark's suites (frozen, hashed, versioned) and cards (paired differences,
published figures, the games a claim needs, identical for any worker count)."""
import json
import os

import pytest

from fastsweep.benchmark import benchmark, suites
from fastsweep.benchmark.card import card_markdown, games_needed

# the frozen definitions' hashes: a change of a suite is a new version, never an edit of
# one of these (this test fails if a definition is edited in place)
FROZEN = {("classic", 1): "d02387317a8a0ba0", ("assignment", 1): "4fee3bac508ea4a7"}


def test_every_suite_version_is_frozen():
    for (name, version), h in FROZEN.items():
        assert suites.suite_hash(suites.get_suite(name, version)) == h, (name, version)
    listed = {(n, v) for n, vs in suites.SUITES.items() for v in vs}
    assert listed == set(FROZEN), "a new suite version needs its hash here"


def test_the_hash_sees_every_field():
    s = suites.get_suite("classic")
    h = suites.suite_hash(s)
    for change in (lambda d: d["boards"][0].update(mines=11), lambda d: d.update(games=1),
                   lambda d: d["references"].append("basic"),
                   lambda d: d["published"][0].update(value=40.0)):
        t = suites.get_suite("classic")
        change(t)
        assert suites.suite_hash(t) != h
    assert suites.suite_hash(suites.get_suite("classic@1")) == h


@pytest.mark.parametrize("name,match", [("nope", "unknown suite"), ("classic@x", "whole number"),
                                        ("classic@9", "versions 1"), ("", "suite's name")])
def test_bad_suite_names_are_named(name, match):
    with pytest.raises(ValueError, match=match):
        suites.get_suite(name)


def test_games_needed():
    assert games_needed(0.5, 0.5) == 38416
    assert games_needed(0.25, 1.0) == 2401
    with pytest.raises(ValueError):
        games_needed(0.5, 0)


def _digest_of_committed():
    """sha256 of the committed reference records (a card must never change them)."""
    import hashlib
    from fastsweep.benchmark.references import committed_boards
    root = committed_boards(suites.get_suite("classic"))
    assert root is not None, "the repository's results/benchmark/classic-v1/boards is missing"
    h = hashlib.sha256()
    for board in sorted(os.listdir(root)):
        for name in ("params.json", "chunks.jsonl"):
            with open(os.path.join(root, board, name), "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def test_a_card_pairs_with_the_references_and_is_the_same_on_1_and_2_workers(tmp_path):
    before = _digest_of_committed()
    # one card replays the references' games on 1 worker, the other reuses the committed
    # records of them on 2: the same games, so the same numbers (only the times differ)
    a = benchmark("basic", "classic", games=60, workers=1, out=str(tmp_path / "a"),
                  references=None)
    b = benchmark("basic", "classic", games=60, workers=2)
    strip = ("us_per_game",)

    def results(c):
        return json.dumps([{k: v for k, v in r.items() if k not in strip}
                           for r in c["boards"]], sort_keys=True)
    assert results(a) == results(b)  # same games, same numbers, any worker count
    assert a["results_digest"] == b["results_digest"]
    assert a["references_from"] == "played in this run"
    assert "results/benchmark/classic-v1/boards" in b["references_from"]
    assert _digest_of_committed() == before  # the committed records were copied, not grown
    assert a["games_overridden"] and a["hash"] == suites.suite_hash(suites.get_suite("classic"))
    expert = a["boards"][2]
    assert expert["board"] == "expert" and expert["games"] == 60
    assert set(expert["versus"]) == {"probability", "pseq", "lookahead"}
    for v in expert["versus"].values():
        assert v["low"] <= v["diff"] <= v["high"] and v["games"] == 60
    assert any(p["agent"] == "pseq" and p["value"] == 39.616 for p in expert["published"])
    text = card_markdown(a)
    assert "not comparable" in text and "39.616" in text
    assert a["results_digest"] in text and "Stopping rule: a fixed 60 games" in text
    # 60 games cannot pin a difference to half a point: the card says so for every pair
    assert len(a["claims"]) == 9 and all("beyond these games" in c for c in a["claims"])
    assert os.path.exists(tmp_path / "a" / "card.json")
    assert os.path.exists(tmp_path / "a" / "boards" / "expert")


def _card(**kw):
    base = dict(card=1, suite="classic", version=1, hash="h", games=10, games_overridden=True,
                measure="win_rate", label="classic@1 #h", agent="a",
                boards=[dict(board="expert", value=40.0, low=39.0, high=41.0)])
    base.update(kw)
    return base


def test_compare_refuses_cards_of_other_suites_or_games():
    from fastsweep.benchmark.card import compare
    text = compare([_card(), _card(agent="b")])
    assert "| board | a | b |" in text
    assert "| expert | 40.00 [39.00, 41.00] | 40.00 [39.00, 41.00] |" in text
    for bad in (dict(hash="other"), dict(version=2), dict(games=20), dict(suite="assignment")):
        with pytest.raises(ValueError, match="not on the same games"):
            compare([_card(), _card(agent="b", **bad)])


def test_cli_benchmark_compare_and_its_errors(capsys, tmp_path):
    from cli_helper import run_cli
    paths = []
    for name in ("a", "b"):
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(_card(agent=name)))
        paths.append(str(p))
    code, out, err = run_cli(capsys, "benchmark", "compare", *paths)
    assert code in (0, None), err
    assert "| board | a | b |" in out
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    code, _, err = run_cli(capsys, "benchmark", "compare", paths[0], str(bad))
    assert code == 2 and "not a benchmark card" in err
    code, _, err = run_cli(capsys, "benchmark", "basic", "--games", "5")
    assert code == 2 and "--out" in err
    code, _, err = run_cli(capsys, "benchmark", "basic", "--suite", "nope", "--out",
                           str(tmp_path / "x"))
    assert code == 2 and "unknown suite" in err
    code, _, err = run_cli(capsys, "benchmark", "basic", "--games", "5", "--references",
                           str(tmp_path / "none"), "--out", str(tmp_path / "x"))
    assert code == 2 and "references:" in err and "is not a folder" in err


def test_claims_say_what_the_games_support():
    from fastsweep.benchmark.card import claims
    card = _card(boards=[dict(board="expert", value=35.0, low=34.5, high=35.5, versus={
        "pseq": dict(diff=3.8, low=3.3, high=4.3, games=40000, std=0.25,
                     games_for_half_point=9604),
        "lookahead": dict(diff=0.2, low=-0.3, high=0.7, games=40000, std=0.25,
                          games_for_half_point=9604)})], agent="mine")
    said = claims(card)
    assert said[0].startswith("expert: no difference shown between mine and lookahead")
    # a 0.2-point difference with a paired std of 0.25 a game needs (1.96*0.25/0.002)^2
    assert f"{games_needed(0.25, 0.2):,} paired games" in said[0] and "beyond" not in said[0]
    assert said[1] == ("expert: pseq wins more often than mine by 3.80 points [3.30, 4.30] on "
                       "40,000 paired games")


def test_the_results_digest_sees_results_not_the_machine():
    from fastsweep.benchmark.card import results_digest
    a = _card(boards=[dict(board="expert", value=40.0, low=39.0, high=41.0, us_per_game=5.0)])
    b = dict(a, machine="other", date="later", workers=7,
             boards=[dict(a["boards"][0], us_per_game=9.0)])
    assert results_digest(a) == results_digest(b)
    c = dict(a, boards=[dict(a["boards"][0], value=40.01)])
    assert results_digest(c) != results_digest(a)


def test_a_card_on_dask_is_the_same_card(tmp_path):
    pytest.importorskip("distributed")
    a = benchmark("basic", "classic", games=30, workers=2)
    b = benchmark("basic", "classic", games=30, workers=2, backend="dask",
                  out=str(tmp_path / "d"))
    assert a["results_digest"] == b["results_digest"]


@pytest.mark.parametrize("games", [1, 2.5, "100", True, -3])
def test_a_bad_game_count_is_named(games):
    with pytest.raises(ValueError, match="games: a whole number of games a board"):
        benchmark("basic", "classic", games=games)


def test_references_must_be_a_folder():
    with pytest.raises(ValueError, match="references: .* is not a folder"):
        benchmark("basic", "classic", games=5, references="/no/such/folder")


def test_compare_figure(tmp_path, capsys):
    from cli_helper import run_cli
    root = os.path.join(os.path.dirname(__file__), "..", "results", "benchmark", "classic-v1")
    paths = [os.path.join(root, a, "card.json") for a in ("probability", "pseq")]
    code, out, err = run_cli(capsys, "benchmark", "compare", *paths, "--figure",
                             str(tmp_path / "cmp"))
    assert code in (0, None), err
    assert (tmp_path / "cmp.png").stat().st_size > 10_000 and (tmp_path / "cmp.pdf").exists()
    assert "| board | probability | pseq |" in out
    code, _, err = run_cli(capsys, "benchmark", "basic", "--figure", "x", "--out",
                           str(tmp_path / "y"))
    assert code == 2 and "figure: only" in err


def test_same_games_sees_one_changed_game(tmp_path):
    import shutil
    from fastsweep.benchmark.identity import same_games
    root = os.path.join(os.path.dirname(__file__), "..")
    committed = os.path.join(root, "results", "benchmark", "classic-v1", "boards")
    copy = tmp_path / "boards" / "beginner"
    copy.mkdir(parents=True)
    shutil.copyfile(os.path.join(committed, "beginner", "chunks.jsonl"), copy / "chunks.jsonl")
    games, same = same_games(str(tmp_path / "boards"), committed)
    assert games == 3 * 40_000 and same
    lines = (copy / "chunks.jsonl").read_text().splitlines()
    rec = json.loads(lines[5])
    member = sorted(rec["xs"])[0]
    rec["xs"][member][0] = 1 - rec["xs"][member][0] if rec["xs"][member][0] <= 1 else 0
    lines[5] = json.dumps(rec)
    (copy / "chunks.jsonl").write_text("\n".join(lines) + "\n")
    assert same_games(str(tmp_path / "boards"), committed) == (games, False)
