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


def test_a_card_pairs_with_the_references_and_is_the_same_on_1_and_2_workers(tmp_path):
    a = benchmark("basic", "classic", games=60, workers=1, out=str(tmp_path / "a"))
    b = benchmark("basic", "classic", games=60, workers=2)
    strip = ("date", "workers", "us_per_game", "git_commit", "git_changes", "seconds")

    def results(c):
        return json.dumps([{k: v for k, v in r.items() if k not in strip}
                           for r in c["boards"]], sort_keys=True)
    assert results(a) == results(b)  # same games, same numbers, any worker count
    assert a["games_overridden"] and a["hash"] == suites.suite_hash(suites.get_suite("classic"))
    expert = a["boards"][2]
    assert expert["board"] == "expert" and expert["games"] == 60
    assert set(expert["versus"]) == {"probability", "pseq", "lookahead"}
    for v in expert["versus"].values():
        assert v["low"] <= v["diff"] <= v["high"] and v["games"] == 60
    assert any(p["agent"] == "pseq" and p["value"] == 39.616 for p in expert["published"])
    text = card_markdown(a)
    assert "not comparable" in text and "39.616" in text
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
    assert "| a | 40.00 [39.00, 41.00] |" in text and "| b |" in text
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
    assert "| b | 40.00" in out
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    code, _, err = run_cli(capsys, "benchmark", "compare", paths[0], str(bad))
    assert code == 2 and "not a benchmark card" in err
    code, _, err = run_cli(capsys, "benchmark", "basic", "--games", "5")
    assert code == 2 and "--out" in err
    code, _, err = run_cli(capsys, "benchmark", "basic", "--suite", "nope", "--out",
                           str(tmp_path / "x"))
    assert code == 2 and "unknown suite" in err
