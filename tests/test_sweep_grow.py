"""Growing a sweep folder: more games, another ci, more boards and members reuse the
finished chunks and give exactly the summary of a fresh sweep; changes that would mix
different games are refused with the parameter named; folders of format 1 (chunks by
board index, paired sums instead of per-game scores) still resume, grow and load."""
import importlib
import json
import os
from collections import Counter

import numpy as np
import pytest

SW = importlib.import_module("fastsweep.sweep")

GRID = dict(agents=["basic"], sizes=[8, (6, 9)], densities=[0.15, 0.35], chunk_games=25,
            seed=7, quiet=True, workers=1)


def _same(r1, r2):
    core = list(SW.TIMING_COLUMNS)
    assert r1.summary.drop(columns=core).equals(r2.summary.drop(columns=core))
    assert r1.pairs.equals(r2.pairs)


def _same_but_intervals(old, new):
    """A folder without per-game values (format 1) gives the same summaries as the sweep
    that wrote it, but its intervals are the normal approximation's (the method stated
    for such chunks): Gaffke's bound needs each game's score."""
    from fastsweep import stats
    spans = ["ci_low", "ci_high", "ci_half"]
    core = list(SW.TIMING_COLUMNS) + spans
    assert old.summary.drop(columns=core).equals(new.summary.drop(columns=core))
    s = old.summary
    h = [stats.half_width(n, sd) for n, sd in zip(s.games, s.std_score)]
    assert np.allclose(s.ci_half, h) and np.allclose(s.ci_high - s.mean_score, h)
    pcore = spans + ["differ"]  # (its records keep each game's win: those are the same)
    assert old.pairs.drop(columns=pcore).equals(new.pairs.drop(columns=pcore))
    p = old.pairs
    assert (p.differ == -1).all()
    assert np.allclose(p.ci_half, [stats.half_width(n, sd) for n, sd in
                                   zip(p.games, p.std_diff)])


def _lines(out):
    return [json.loads(x) for x in (out / "chunks.jsonl").read_text().splitlines()]


def _member_chunks(out):
    """(board, chunk, games, member) of every member-chunk played into the folder."""
    return Counter((r.get("key", r.get("b")), r["k"], r["games"], m)
                   for r in _lines(out) for m in r["m"])


def test_more_games_equals_a_fresh_sweep_and_plays_only_new_chunks(tmp_path):
    out = tmp_path / "o"
    first = SW.sweep(games=110, out=str(out), **GRID)
    assert first.reused_chunks == 0 and first.played_chunks == 4 * 5  # 4 boards x 5 chunks
    grown = SW.sweep(games=220, out=str(out), **GRID)
    # chunks 0-3 of each board are reused; the cut last chunk (10 games) is not a chunk
    # of the grown sweep, which plays chunks 4-8 (25 games each)
    assert (grown.reused_chunks, grown.played_chunks) == (16, 20)
    _same(grown, SW.sweep(games=220, **GRID))
    stored = json.loads((out / "params.json").read_text())
    assert len(stored.pop("summaries")) == 16  # (the digest of summary.csv and pairs.csv)
    assert stored == grown.params  # the grown sweep
    assert grown.params["games"] == 220
    assert max(_member_chunks(out).values()) == 1  # no member-chunk played twice
    again = SW.sweep(games=220, out=str(out), **GRID)
    assert again.played_chunks == 0 and again.reused_chunks == 36
    # fewer games than the folder holds: a prefix of its chunks, as a fresh sweep
    _same(SW.sweep(games=55, out=str(out), **GRID), SW.sweep(games=55, **GRID))
    _same(SW.load(str(out)), SW.sweep(games=55, **GRID))


def test_tighter_ci_reuses_finished_chunks(tmp_path):
    out = tmp_path / "o"
    ci = dict(min_games=40, max_games=2000)
    loose = SW.sweep(ci=0.05, out=str(out), **ci, **GRID)
    n_loose = len(_lines(out))
    assert loose.played_chunks == n_loose
    tight = SW.sweep(ci=0.015, out=str(out), **ci, **GRID)
    fresh = SW.sweep(ci=0.015, **ci, **GRID)
    _same(tight, fresh)
    assert tight.reused_chunks == n_loose  # every finished chunk of the loose run counts
    assert 0 < tight.played_chunks <= fresh.played_chunks - n_loose + 4  # 4: speculation
    assert tight.played_chunks == len(_lines(out)) - n_loose
    assert max(_member_chunks(out).values()) == 1
    assert (tight.summary.games > loose.summary.games).all()
    assert json.loads((out / "params.json").read_text())["ci"] == 0.015


def test_more_densities_sizes_and_members_equal_a_fresh_sweep(tmp_path):
    out = tmp_path / "o"
    SW.sweep(games=60, out=str(out), **dict(GRID, mine_count=[False]))
    bigger = dict(GRID, agents=["basic", "inference"], sizes=[8, (6, 9), 7],
                  densities=[0.15, 0.25, 0.35], rules=["keep-going", "classic"])
    grown = SW.sweep(games=60, out=str(out), **bigger)
    _same(grown, SW.sweep(games=60, **bigger))
    # the 4 old boards x 3 chunks of basic without the total were reused, nothing replayed
    assert grown.reused_chunks == 12
    assert max(_member_chunks(out).values()) == 1
    assert len(grown.summary) == 3 * 3 * 2 * 4  # sizes x densities x rules x members
    # the old, smaller command now lacks part of the folder: refused, folder unchanged
    before = {f: (out / f).read_bytes() for f in os.listdir(out)}
    with pytest.raises(ValueError, match=r"holds densities 0.25 that this run lacks; a sweep "
                                         r"folder only grows"):
        SW.sweep(games=60, out=str(out), **dict(bigger, densities=[0.15, 0.35]))
    with pytest.raises(ValueError, match=r"holds agents inference \+ total that this run"):
        SW.sweep(games=60, out=str(out),
                 **dict(bigger, mine_count={"basic": [False, True], "inference": [False]}))
    assert {f: (out / f).read_bytes() for f in os.listdir(out)} == before


@pytest.mark.parametrize("change,name", [
    (dict(seed=8), "seed"), (dict(first_cell="center"), "first_cell"),
    (dict(first_click="zero"), "first_click"), (dict(prior=0.3), "prior"),
    (dict(budget=1000), "budget"), (dict(chunk_games=20), "chunk_games")])
def test_changes_that_mix_games_are_refused_naming_the_parameter(tmp_path, change, name):
    out = tmp_path / "o"
    # the prior and the budget on an agent that reads them (basic refuses both)
    grid = dict(GRID, agents=["probability"]) if name in ("prior", "budget") else GRID
    SW.sweep(games=30, out=str(out), **grid)
    before = {f: (out / f).read_bytes() for f in os.listdir(out)}
    with pytest.raises(ValueError) as e:
        SW.sweep(games=60, out=str(out), **dict(grid, **change))
    msg = str(e.value)
    assert f"different parameters ({name}) that fix its games ({name} " in msg
    assert "\n" not in msg
    assert {f: (out / f).read_bytes() for f in os.listdir(out)} == before


def _to_format_1(out):
    """Rewrite a folder as format 1 wrote it: records by board index with paired sums
    ``p`` (B - A over the chunk) and no per-game scores; no CI method in params.json."""
    p = json.loads((out / "params.json").read_text())
    keys = [SW.grid.board_key(bd) for bd in SW.grid.from_params(p)[1]]
    labels = [f"{a}:{int(mc)}" for a, mc in p["members"]]
    lines = []
    for r in _lines(out):
        r.pop("id")  # (format 1 had no digests)
        xs = r.pop("xs")
        have = [lab for lab in labels if lab in r["m"]]
        r["p"] = {}
        for i, a in enumerate(have):
            for c in have[i + 1:]:
                d = np.array(xs[c]) - np.array(xs[a])
                r["p"][f"{a}|{c}"] = [int(d.sum()), int((d * d).sum())]
        r = dict(b=keys.index(r.pop("key")), **r)
        lines.append(json.dumps(r) + "\n")
    (out / "chunks.jsonl").write_text("".join(lines))
    p["format"] = 1
    del p["ci_method"]
    (out / "params.json").write_text(json.dumps(p, indent=1) + "\n")


def test_format_1_folder_resumes_loads_and_grows(tmp_path):
    out = tmp_path / "o"
    grid = dict(GRID, agents=["basic", "inference"], mine_count=[False])
    whole = SW.sweep(games=110, out=str(out), **grid)
    _to_format_1(out)
    _same_but_intervals(SW.load(str(out)), whole)
    assert SW.load(str(out)).ci_method == whole.ci_method
    resumed = SW.sweep(games=110, out=str(out), **grid)
    assert resumed.played_chunks == 0
    _same_but_intervals(resumed, whole)
    assert json.loads((out / "params.json").read_text())["format"] == 1  # not rewritten
    # grow: a new member needs the old members' games, which format 1 did not keep: they
    # are replayed once with it (and must agree with their records), then filed by key
    bigger = dict(grid, agents=["basic", "inference", "probability"], densities=[0.15, 0.35, 0.5])
    n0 = len(_lines(out))
    grown = SW.sweep(games=110, out=str(out), **bigger)
    _same(grown, SW.sweep(games=110, **bigger))
    lines = _lines(out)
    assert all("key" in r and "b" not in r for r in lines)
    assert all(set(r["m"]) == {"basic:0", "inference:0", "probability:0"} for r in lines[n0:])
    assert json.loads((out / "params.json").read_text())["format"] == SW.FORMAT
    _same(SW.load(str(out)), grown)
    # growing again needs no replay: every chunk now has per-game scores
    n1 = len(lines)
    both = dict(bigger, mine_count=[False, True])
    more = SW.sweep(games=110, out=str(out), **both)
    _same(more, SW.sweep(games=110, **both))
    assert all(set(r["m"]) == {"basic:1", "inference:1", "probability:1"}
               for r in _lines(out)[n1:])
    assert more.played_chunks == len(_lines(out)) - n1 == 6 * 5


def test_a_replay_that_disagrees_with_the_folder_is_refused(tmp_path):
    """If the engine changed since a folder was written, its games would differ: a
    replayed member's sums must equal its record, or the run stops naming the chunk."""
    out = tmp_path / "o"
    SW.sweep(games=50, out=str(out), **GRID)
    _to_format_1(out)
    lines = _lines(out)
    # a board's first chunk, which a resumed run replays before adding chunks (moves: an
    # edited x1 would break the record's own consistency and be refused before that)
    first = next(r for r in lines if r["k"] == 0)
    first["m"]["basic:0"]["moves"] += 1
    k = 0
    (out / "chunks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(ValueError, match=rf"chunk {k} of board .* gave basic:0 other games "
                                         r"than the folder's record"):
        SW.sweep(games=50, out=str(out), **dict(GRID, agents=["basic", "inference"]))


def test_growing_a_folder_with_a_changed_engine_is_refused(tmp_path, monkeypatch):
    """Before new chunks join a folder, each board's first recorded chunk is replayed: an
    engine whose games differ (here: one more guess in every game) is refused before
    anything is written, and the same engine grows the folder as usual."""
    out = tmp_path / "o"
    SW.sweep(games=50, out=str(out), **GRID)
    before = (out / "chunks.jsonl").read_text()
    execute = importlib.import_module("fastsweep.sweep.run.execute")
    from fastsweep.kernels.engine import game as kg
    real = execute._play

    def changed(cfg, seed, first, games):
        res, secs, extra = real(cfg, seed, first, games)
        res = res.copy()
        res[:, kg.OUT_GUESSES] += 1
        return res, secs, extra

    monkeypatch.setattr(execute, "_play", changed)
    with pytest.raises(ValueError, match=r"replaying chunk 0 of board \S+ gave basic:0 other "
                                         r"games than the folder's record \(guess differ\): "
                                         r"the engine changed"):
        SW.sweep(games=100, out=str(out), **GRID)
    assert (out / "chunks.jsonl").read_text() == before  # nothing was added
    monkeypatch.setattr(execute, "_play", real)
    grown = SW.sweep(games=100, out=str(out), **GRID)
    _same(grown, SW.sweep(games=100, **GRID))


def _edit_params(out, **changes):
    """Rewrite a folder's params.json with ``changes`` (a folder of an older version)."""
    p = json.loads((out / "params.json").read_text())
    p.update(changes)
    (out / "params.json").write_text(json.dumps(p, indent=1) + "\n")


LOOK = dict(agents=["lookahead"], sizes=[5], mines=[4], rules="classic", mine_count=[True],
            chunk_games=10, seed=3, quiet=True, workers=1)


def test_an_option_none_of_the_folders_agents_takes_does_not_stop_it_growing(tmp_path):
    """``corner_opening`` (on by default since 2026-11-27) shapes only the look-ahead's
    games: a folder of other agents written with it off grows under the default, its
    records reused; a look-ahead folder written with it off is refused, and grows with its
    own value."""
    out = tmp_path / "basic"
    with pytest.raises(ValueError, match=r"corner_opening: agent 'basic' does not read this "
                                         r"option; it reads size, layout"):
        SW.sweep(games=30, out=str(out), corner_opening=False, **GRID)
    # a folder written before options were checked against the agents (2026-11-28)
    SW.sweep(games=30, out=str(out), **GRID)
    _edit_params(out, corner_opening=False)
    grown = SW.sweep(games=60, out=str(out), **GRID)
    assert grown.reused_chunks > 0
    _same(grown, SW.sweep(games=60, out=str(tmp_path / "fresh"), **GRID))
    la = tmp_path / "la"
    SW.sweep(games=20, out=str(la), corner_opening=False, **LOOK)
    before = {f: (la / f).read_bytes() for f in os.listdir(la)}
    with pytest.raises(ValueError, match=r"different parameters \(corner_opening\) that fix "
                                         r"its games \(corner_opening False there, True here\)"):
        SW.sweep(games=40, out=str(la), **LOOK)
    assert {f: (la / f).read_bytes() for f in os.listdir(la)} == before
    r = SW.sweep(games=40, out=str(la), corner_opening=False, **LOOK)
    assert r.reused_chunks == 2 and r.played_chunks == 2


def test_a_folder_from_before_an_option_existed_was_played_without_it(tmp_path):
    """No ``corner_opening`` key in params.json (written before the option existed): the
    look-ahead played without the rule, its neutral value, not today's default."""
    la = tmp_path / "la"
    SW.sweep(games=20, out=str(la), corner_opening=False, **LOOK)
    p = json.loads((la / "params.json").read_text())
    del p["corner_opening"]
    (la / "params.json").write_text(json.dumps(p, indent=1) + "\n")
    with pytest.raises(ValueError, match=r"corner_opening False there, True here"):
        SW.sweep(games=40, out=str(la), **LOOK)
    assert SW.sweep(games=40, out=str(la), corner_opening=False, **LOOK).reused_chunks == 2
    assert SW.grid.from_params(p)[0]["corner_opening"] is False


def test_records_with_the_old_digest_are_still_read(tmp_path):
    """Format 3 (2026-11-27..29) digested a record's identity, not its numbers, and before
    2026-11-27 that digest held every later option away from neutral, taken by its agents
    or not (``endgame`` on a basic sweep): such records still read, the folder grows under
    the default (basic ignores ``endgame``), and growing it rewrites every record with a
    digest of its content (format 4)."""
    from fastsweep.sweep.folder.integrity import identity_id, record_id
    out = tmp_path / "o"
    SW.sweep(games=30, out=str(out), **GRID)
    _edit_params(out, endgame=500, format=3)  # as written before basic refused the option
    p = json.loads((out / "params.json").read_text())
    lines = _lines(out)
    assert all(r["id"] == record_id(p, r) for r in lines)
    assert all(identity_id(p, r) != identity_id(p, r, legacy=True) for r in lines)
    (out / "chunks.jsonl").write_text("".join(
        json.dumps(dict(r, id=identity_id(p, r, legacy=True))) + "\n" for r in lines))
    want = SW.sweep(games=30, out=str(tmp_path / "fresh"), **GRID).summary
    core = list(SW.TIMING_COLUMNS)
    assert SW.load(str(out)).summary.drop(columns=core).equals(want.drop(columns=core))
    grown = SW.sweep(games=60, out=str(out), **GRID)
    assert grown.reused_chunks > 0 and grown.played_chunks > 0
    p4 = json.loads((out / "params.json").read_text())
    assert p4["format"] == SW.FORMAT == 5
    assert all(r["id"] == record_id(p4, r) for r in _lines(out))
    edited = dict(lines[0], id=record_id(dict(p4, seed=8), lines[0]))  # another seed: refused
    (out / "chunks.jsonl").write_text(json.dumps(edited) + "\n")
    with pytest.raises(ValueError, match="written by a sweep with other parameters"):
        SW.load(str(out))
