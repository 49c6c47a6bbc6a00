"""Faults and hostile input: a sweep folder trusts nothing it did not write, one run owns
a folder at a time, and every bad argument is one clear error naming it."""
import json
import multiprocessing as mp
import os
import subprocess
import sys

import numpy as np
import pytest

import fastsweep
from fastsweep.cli import main as cli
from fastsweep.sweep.folder import integrity
from fastsweep.sweep.folder.lock import FolderLock

SMALL = dict(agents=["basic"], sizes=8, densities=[0.2], mine_count=[False, True], games=60,
             chunk_games=20, workers=1, quiet=True)


def small(out, **kw):
    return fastsweep.sweep(**{**SMALL, "out": str(out), **kw})


def lines(out):
    with open(os.path.join(out, "chunks.jsonl")) as f:
        return f.read().splitlines()


def write_lines(out, ls):
    with open(os.path.join(out, "chunks.jsonl"), "w") as f:
        f.write("".join(v + "\n" for v in ls))


# ---- the store trusts nothing it did not write ------------------------------------------

@pytest.mark.parametrize("field, value", [("seed", 7), ("prior", 0.3), ("budget", 5)])
def test_edited_params_json_is_refused(tmp_path, field, value):
    """Edit what fixes the games in params.json and re-run with the edited value: the
    records (digests of seed 0's games) are refused, never reported as the new run's."""
    out = tmp_path / "s"
    who = {"agents": ["probability"]}  # an agent that reads the prior and the budget
    small(out, **who)
    p = out / "params.json"
    params = json.loads(p.read_text())
    params[field] = value
    p.write_text(json.dumps(params))
    with pytest.raises(ValueError, match=r"chunks.jsonl line 1: chunk record refused: "
                                         r"written by a sweep with other parameters"):
        small(out, **who, **{field: value})


def test_edited_games_or_densities_never_mix(tmp_path):
    """Edits of the grid or game count in params.json: records are filed by board and
    chunk, so the result equals a fresh sweep with the edited arguments."""
    out = tmp_path / "s"
    small(out)
    p = out / "params.json"
    params = json.loads(p.read_text())
    params["densities"], params["games"] = [0.3], 80
    p.write_text(json.dumps(params))
    got = small(out, densities=[0.3], games=80).summary
    want = fastsweep.sweep(**{**SMALL, "densities": [0.3], "games": 80}).summary
    cols = ["density", "mine_count", "games", "mean_score", "win_rate"]
    assert got[cols].equals(want[cols])


def _m(rec):
    return rec["m"][next(iter(rec["m"]))]


def _xs(rec):
    return rec["xs"][next(iter(rec["xs"]))]


@pytest.mark.parametrize("edit, text", [
    (lambda r: r.update(k=-1), "chunk index, first game or game count missing or invalid"),
    (lambda r: r.update(first=r["first"] + 1), "do not match the board's chunks"),
    (lambda r: r.update(games=0), "missing or invalid"),
    (lambda r: r["m"][next(iter(r["m"]))].update(x1=-5), "x1, x2, wins missing or not non"),
    (lambda r: r.update(key=5), "missing or invalid"),
    (lambda r: r.update(m={}), "no member results"),
    # forged or damaged numbers (issue 46): each refused with its line
    (lambda r: _m(r).update(x1=_m(r)["x1"] * 100), "sums inconsistent with 20 games"),
    (lambda r: _m(r).update(x1=_m(r)["x1"] - 1), "do not add up to its sums"),
    (lambda r: _xs(r).__setitem__(0, float(_xs(r)[0])), r"scores \(xs\) of .*not 20 integers"),
    (lambda r: _xs(r).__setitem__(0, 10 ** 30), r"scores \(xs\) of .*not 20 integers"),
    (lambda r: _m(r).update(wins="many"), "x1, x2, wins missing or not non-negative"),
    (lambda r: _m(r).update(wins=21), "sums inconsistent with 20 games"),
    (lambda r: _m(r).pop("sec"), "sec is None, not a number of seconds"),
    (lambda r: _m(r).update(sec="slow"), "sec is 'slow', not a number of seconds"),
    (lambda r: _m(r).update(sec=float("nan")), "sec is nan, not a number of seconds"),
    (lambda r: _m(r).update(moves=-1), "moves is -1, not a non-negative integer"),
    (lambda r: r["ws"][next(iter(r["ws"]))].__setitem__(0, 2), r"per-game wins \(ws\) not 0/1"),
    (lambda r: r.pop("id"), r"no digest \(id\), but the folder's params.json says format 5"),
    (lambda r: _m(r).update(det=_m(r)["det"] + 1), "edited since"),  # (in range: the digest)
])
def test_malformed_records_are_refused_with_file_and_line(tmp_path, edit, text):
    out = tmp_path / "s"
    small(out)
    ls = lines(out)
    rec = json.loads(ls[1])
    edit(rec)
    ls[1] = json.dumps(rec)
    write_lines(out, ls)
    with pytest.raises(ValueError, match=rf"chunks.jsonl line 2: chunk record refused: .*{text}"):
        small(out)
    with pytest.raises(ValueError, match="line 2"):
        fastsweep.load(str(out))  # reading a folder back checks it the same way


def test_an_edited_seed_with_stripped_digests_is_refused(tmp_path):
    """params.json edited to seed 5 and the digests stripped, then a run with seed 5: the
    folder says format 5, whose records all carry digests, so seed 0's games are never
    reported as seed 5's."""
    out = tmp_path / "s"
    small(out)
    p = out / "params.json"
    p.write_text(json.dumps(dict(json.loads(p.read_text()), seed=5)))
    recs = [json.loads(x) for x in lines(out)]
    write_lines(out, [json.dumps({k: v for k, v in r.items() if k != "id"}) for r in recs])
    with pytest.raises(ValueError, match=r"line 1: chunk record refused: no digest"):
        small(out, seed=5)
    with pytest.raises(ValueError, match=r"line 1: chunk record refused: no digest"):
        fastsweep.load(str(out))


def test_unparsable_line_names_file_and_line(tmp_path):
    out = tmp_path / "s"
    small(out)
    ls = lines(out)
    ls.insert(1, "{not json")
    write_lines(out, ls)
    with pytest.raises(ValueError, match=r"chunks.jsonl line 2: not a chunk record"):
        small(out)


def test_duplicate_chunk_with_other_numbers_is_an_error(tmp_path):
    out = tmp_path / "s"
    small(out)
    ls = lines(out)
    rec = json.loads(ls[0])
    lab = next(iter(rec["m"]))
    # another game of the chunk, consistent in itself and with a valid digest (as a buggy
    # writer could leave it): only the comparison of the two records can catch it
    xs = rec["xs"][lab]
    i = next(i for i, x in enumerate(xs) if x > 0)
    xs[i] -= 1
    rec["m"][lab].update(x1=sum(xs), x2=sum(x * x for x in xs))
    rec["id"] = integrity.record_id(json.loads((out / "params.json").read_text()), rec)
    write_lines(out, ls + [json.dumps(rec)])
    with pytest.raises(ValueError, match=rf"lines 1 and 4: two records of chunk {rec['k']} "):
        small(out)


def test_identical_duplicate_is_harmless(tmp_path):
    out = tmp_path / "s"
    first = small(out).summary
    ls = lines(out)
    write_lines(out, ls + [ls[0]])
    again = small(out).summary
    assert again.drop(columns="us_per_game").equals(first.drop(columns="us_per_game"))


def test_format1_board_index_outside_the_grid_is_refused(tmp_path):
    out = tmp_path / "s"
    small(out)
    ls = lines(out)
    rec = json.loads(ls[0])
    rec.pop("key"), rec.pop("id")
    rec["b"] = -1
    write_lines(out, [json.dumps(rec)] + ls[1:])
    with pytest.raises(ValueError, match=r"line 1: a chunk of board -1, outside the folder's grid"):
        small(out)


# ---- one run per folder ---------------------------------------------------------------------

def test_a_held_folder_is_refused_and_a_dead_owners_lock_is_free(tmp_path):
    out = tmp_path / "s"
    lock = FolderLock(str(out)).acquire()
    with pytest.raises(ValueError, match=r"is in use by another sweep \(pid \d+ on "):
        small(out)
    assert not out.exists()  # refused before anything was written
    lock.release()
    assert not os.path.exists(lock.path)  # released: the file goes too
    # a lock file left by a process that is gone (a crash), or half-written, holds no OS
    # lock: the next run takes it, whatever the file says
    p = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                       capture_output=True, text=True)
    import socket
    for text in (json.dumps({"pid": int(p.stdout), "host": socket.gethostname()}), "", "{"):
        with open(lock.path, "w") as f:
            f.write(text)
        r = small(out, games=120 if text else 60)
        assert int(r.summary.games.sum()) == (120 if text else 60) * 2
        assert not os.path.exists(lock.path)  # released on exit


def test_a_lock_held_by_another_process_is_refused_whatever_its_file_holds(tmp_path):
    """The OS lock decides, not the file's contents: a live owner that has not written its
    details yet (an empty file) is in use, never stale."""
    out = tmp_path / "s"
    path = FolderLock(str(out)).path
    code = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT);"
            "fcntl.flock(fd, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code, path], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ValueError, match=r"is in use by another sweep \(starting now\)"):
            small(out)
    finally:
        holder.kill()
        holder.wait()
    assert int(small(out).summary.games.sum()) == 120  # the owner died: free


def test_a_symlink_alias_takes_the_same_lock(tmp_path):
    real = tmp_path / "real"
    alias = tmp_path / "alias"
    real.mkdir()
    alias.symlink_to(real, target_is_directory=True)
    lock = FolderLock(str(real)).acquire()
    try:
        assert FolderLock(str(alias)).path == lock.path
        with pytest.raises(ValueError, match="is in use by another sweep"):
            small(alias)
    finally:
        lock.release()


def _race(out, seed, q, go):
    go.wait()  # released together
    try:
        r = fastsweep.sweep(**{**SMALL, "out": out, "seed": seed, "games": 200})
        q.put(("ok", seed, r.summary.mean_score.tolist()))
    except ValueError as e:
        q.put(("refused", seed, str(e)))


@pytest.mark.slow
@pytest.mark.parametrize("alias", [False, True])
def test_sweeps_started_together_never_mix(tmp_path, alias):
    """Three sweeps (seeds 0, 1, 2) released at the same moment on one new folder (with
    ``alias``: one of them through a symlink to it), three times: exactly one owns the
    folder, the others are refused (in use, or a folder of another seed), and the folder
    holds exactly the owner's sweep (no finished work lost, nothing mixed)."""
    import warnings
    fastsweep.sweep(**{**SMALL, "games": 20})  # (compiled before the fork)
    ctx = mp.get_context("fork")
    for trial in range(3):
        real = tmp_path / f"s{trial}"
        other = real
        if alias:
            real.mkdir()
            other = tmp_path / f"alias{trial}"
            other.symlink_to(real, target_is_directory=True)
        q, go = ctx.Queue(), ctx.Barrier(3)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (no "taking over" of a live run's lock)
            ps = [ctx.Process(target=_race, args=(str(other if s == 1 else real), s, q, go))
                  for s in (0, 1, 2)]
            for p in ps:
                p.start()
            for p in ps:
                p.join(120)
        res = sorted(q.get(timeout=5) for _ in ps)
        ok = [r for r in res if r[0] == "ok"]
        assert len(ok) == 1, res
        for r in res:
            if r[0] == "refused":
                assert ("in use by another sweep" in r[2]
                        or "different parameters (seed)" in r[2]), r
        seed = json.loads((real / "params.json").read_text())["seed"]
        assert seed == ok[0][1]
        back = fastsweep.load(str(real)).summary.mean_score.tolist()
        assert back == ok[0][2]
        fresh = fastsweep.sweep(**{**SMALL, "seed": seed, "games": 200})
        assert back == fresh.summary.mean_score.tolist()
        keys = [(r["key"], r["k"]) for r in map(json.loads, lines(real))]
        assert len(keys) == len(set(keys))  # no chunk recorded twice


# ---- faults while writing -------------------------------------------------------------------

def test_a_write_error_keeps_finished_chunks_and_resumes(tmp_path, monkeypatch):
    """A full disk (simulated: the second batch of records fails to write) is one OSError
    naming the folder; the first batch is kept, and re-running resumes to the result of an
    uninterrupted run."""
    from fastsweep.sweep.folder import store
    out = tmp_path / "s"
    real = store._Store._append
    calls = {"n": 0}

    def flaky(self, results):
        calls["n"] += 1
        if calls["n"] > 1:
            raise OSError(28, "No space left on device")
        return real(self, results)
    kw = dict(sizes=30, games=400)  # 20 chunks: more than one batch
    monkeypatch.setattr(store._Store, "_append", flaky)
    with pytest.raises(OSError, match=r"out: cannot write to .*No space left on device"):
        small(out, **kw)
    monkeypatch.setattr(store._Store, "_append", real)
    kept = len(lines(out))
    assert 1 <= kept < 20  # failed while appending chunks, not at the end
    r = small(out, **kw)
    assert r.reused_chunks == kept and r.played_chunks == 20 - kept
    want = fastsweep.sweep(**{**SMALL, **kw}).summary
    cols = ["mine_count", "games", "mean_score", "win_rate", "mean_guesses"]
    assert r.summary[cols].equals(want[cols])


# ---- hostile arguments: one error naming the argument ---------------------------------------

HOSTILE = [
    (lambda t: fastsweep.sweep(["basic"], 8, densities="0:1:1e-9", games=10), "density",
     "at most 1,000 per axis"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.2], games=10**12), "games",
     r"\[1, 10,000,000\]"),
    (lambda t: fastsweep.run("basic", 8, density=0.2, games=10**12), "games", "10,000,000"),
    (lambda t: fastsweep.play("basic", 8, density=0.2, game=2**64), "game", "2\\*\\*62"),
    (lambda t: fastsweep.run("probability", 8, density=0.2, budget=2**63), "budget", "2\\*\\*24"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.2], ci=1e-300), "ci", "1e-6"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities="0.1:nan:0.1", games=10), "density",
     "finite"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.1, 0.1], games=10), "densities",
     "given twice"),
    (lambda t: fastsweep.sweep(["basic"], [9, 9], densities=[0.1], games=10), "sizes",
     "given twice"),
    (lambda t: fastsweep.sweep(["basic", "basic"], 9, densities=[0.1], games=10), "agents",
     "given twice"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.2], games=10, workers=1000),
     "workers", "per core"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.2], games=10, workers=1,
                               out=str(t)), "out", "is a file"),
    # issue 46: folders, timeouts
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.2], games=10, out=5), "out",
     "expected a folder's path"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.2], games=10, out=""), "out",
     "expected a folder's path"),
    (lambda t: fastsweep.load(None), "path", "expected a folder's path"),
    (lambda t: fastsweep.load(5), "path", "expected a folder's path"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.2], games=10, backend="dask",
                               scheduler="tcp://127.0.0.1:1", timeout=float("inf")),
     "timeout", r"seconds in \(0, 86400\]"),
    (lambda t: fastsweep.sweep(["basic"], 8, densities=[0.2], games=10, timeout=True),
     "timeout", "seconds in"),
]


@pytest.mark.parametrize("i", range(len(HOSTILE)))
def test_hostile_arguments(tmp_path, i):
    f, name, text = HOSTILE[i]
    target = tmp_path / "afile"
    target.write_text("x")
    with pytest.raises(ValueError, match=rf"^{name}: .*{text}"):
        f(target)


def test_first_cell_as_an_array_is_a_cell():
    t = fastsweep.play("basic", 8, density=0.2, first_cell=np.array([1, 2]))
    assert t.config.first_cell == (1, 2)


@pytest.mark.parametrize("argv, flag", [
    (["run", "--agent", "basic", "--size", "8", "--density", "0.2", "--games", str(10**12)],
     "--games"),
    (["play", "--agent", "basic", "--size", "8", "--density", "0.2", "--game", str(2**64)],
     "--game"),
    (["sweep", "--agents", "basic", "--size", "8", "--density", "0:1:1e-9", "--games", "10"],
     "--density"),
])
def test_cli_hostile_arguments_are_one_line(capsys, argv, flag):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1, err
    assert flag in err and "Traceback" not in err


@pytest.mark.parametrize("content, text", [
    ("{not json", "is not valid JSON"),
    ('["a", "list"]', "does not describe a fastsweep sweep"),
    ('{"tool": "someone else"}', "does not describe a fastsweep sweep"),
])
def test_foreign_params_json_is_refused(tmp_path, content, text):
    out = tmp_path / "s"
    out.mkdir()
    (out / "params.json").write_text(content)
    with pytest.raises(ValueError, match=rf"params.json {text}"):
        small(out)
    with pytest.raises(ValueError, match=text):
        fastsweep.load(str(out))


SIGINT_RUN = """
import signal, sys, fastsweep
# a user's Ctrl-C on a normal process: a test run started in the background (nohup, &)
# passes SIGINT on ignored, and the sweep would never see it
signal.signal(signal.SIGINT, signal.default_int_handler)
fastsweep.sweep(["basic", "inference"], 30, densities=[0.1, 0.2, 0.3], mine_count=[False],
                games=1500, chunk_games=25, workers=2, quiet=True, out=sys.argv[1])
"""


@pytest.mark.slow
def test_sigint_at_random_points_loses_nothing(tmp_path):
    """Ctrl-C at random times (seeded) in a two-worker sweep: every resume ends with the
    summary of an uninterrupted run."""
    import signal
    import time
    rng = np.random.default_rng(12)
    want = fastsweep.sweep(["basic", "inference"], 30, densities=[0.1, 0.2, 0.3],
                           mine_count=[False], games=1500, chunk_games=25, workers=2,
                           quiet=True).summary
    cols = ["agent", "density", "games", "mean_score", "win_rate", "mean_guesses"]
    cut = []
    for trial in range(5):
        out = str(tmp_path / f"s{trial}")
        p = subprocess.Popen([sys.executable, "-c", SIGINT_RUN, out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        # random times counted from the first finished chunk, not from the start: on a
        # loaded machine the start-up alone can outlast a fixed delay
        records = os.path.join(out, "chunks.jsonl")
        t0 = time.time()
        while p.poll() is None and time.time() - t0 < 60 and not (
                os.path.exists(records) and os.path.getsize(records) > 0):
            time.sleep(0.05)
        # chunks are recorded in batches as workers return them: the first batch is often
        # a good part of the sweep, so the interrupt follows it closely (0-0.1 s)
        time.sleep(float(rng.uniform(0.0, 0.1)))
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
        assert "Traceback" not in err or "KeyboardInterrupt" in err, err
        r = fastsweep.sweep(["basic", "inference"], 30, densities=[0.1, 0.2, 0.3],
                            mine_count=[False], games=1500, chunk_games=25, workers=2,
                            quiet=True, out=out)
        assert r.summary[cols].equals(want[cols]), trial
        assert not os.path.exists(os.path.join(str(tmp_path), f".s{trial}.lock"))
        cut.append((r.reused_chunks, r.played_chunks))
    # some interrupt landed mid-sweep (not before the first or after the last chunk)
    assert any(reused > 0 and played > 0 for reused, played in cut), cut


# ---- the main process killed ----------------------------------------------------------------

_LONG = """
import sys, fastsweep
fastsweep.sweep(["probability"], 16, densities=[0.2], games=100_000, chunk_games=50,
                workers=2, out=sys.argv[1], quiet=True)
"""


def _children(pid):
    kids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return kids


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl: Linux")
@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_workers_die_with_the_main_process(tmp_path, sig):
    """Kill a sweep's main process while its pool plays: its workers exit too (they held
    memory and the pipes for minutes); after SIGTERM the lock is released like after
    Ctrl-C, the process ends as SIGTERM ends it, and the folder resumes."""
    import signal
    import time
    out = tmp_path / "s"
    proc = subprocess.Popen([sys.executable, "-c", _LONG, str(out)])
    try:
        deadline = time.monotonic() + 300
        while not ((out / "chunks.jsonl").exists() and lines(out)):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        workers = _children(proc.pid)
        assert len(workers) >= 2, workers
        proc.send_signal(getattr(signal, sig))
        assert proc.wait(60) == -getattr(signal, sig)
        deadline = time.monotonic() + 10
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, workers)), [w for w in workers if _alive(w)]
    finally:
        if proc.poll() is None:
            proc.kill()
    if sig == "SIGTERM":
        assert not os.path.exists(FolderLock(str(out)).path)
    r = fastsweep.sweep(["probability"], 16, densities=[0.2], games=100, chunk_games=50,
                        workers=1, out=str(out), quiet=True)  # (free lock after SIGKILL too)
    assert r.reused_chunks > 0


def test_a_read_only_file_system_is_one_line_naming_out(tmp_path, monkeypatch):
    """(simulated: the lock file cannot be created, errno 30)"""
    import errno
    from fastsweep.sweep.folder import lock

    def ro(*a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(lock.os, "open", ro)
    with pytest.raises(OSError, match=r"^out: cannot write to .*s \(its lock file .*: "
                                      r"Read-only file system\)$"):
        small(tmp_path / "s")
