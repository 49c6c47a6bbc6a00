"""A user's Numba agent's game loop is cached on disk, keyed on the agent's code and
everything it reaches (fastsweep/user/reach.py): a sweep's workers and a second run
compile nothing, and an edit to a helper module the agent imports compiles it again.
"""
import importlib
import json
import os
import subprocess
import sys
import textwrap

from fastsweep.user.reach import code_digest

HELPER = """
from numba import njit
STEP = 1

@njit
def nudge(x):
    return x + STEP
"""
AGENT = """
import numpy as np
from numba import njit
import fastsweep
import helper_mod
from helper_mod import nudge

LIMIT = 3

@njit
def first_hidden(view, info, order, memory):
    v = view.ravel()
    i = nudge(-1)
    while v[order[i]] != -1:
        i = helper_mod.nudge(i)
    return fastsweep.reveal(order[i])


@njit
def same_reach(view, info, order, memory):
    v = view.ravel()
    i = nudge(-1)
    while v[order[i]] != -1:
        i = helper_mod.nudge(i)
    return fastsweep.reveal(order[i])
"""


def _load(tmp_path, helper=HELPER, agent=AGENT):
    (tmp_path / "helper_mod.py").write_text(helper)
    (tmp_path / "agent_mod.py").write_text(agent)
    sys.path.insert(0, str(tmp_path))
    try:
        for m in ("helper_mod", "agent_mod"):
            sys.modules.pop(m, None)
        importlib.invalidate_caches()
        return importlib.import_module("agent_mod").first_hidden
    finally:
        sys.path.remove(str(tmp_path))


def test_the_digest_follows_the_code_the_agent_reaches(tmp_path):
    base = code_digest(_load(tmp_path))
    assert base is not None and base == code_digest(_load(tmp_path))
    changed = {
        "helper edit": dict(helper=HELPER + "# an edit\n"),
        "helper constant": dict(helper=HELPER.replace("STEP = 1", "STEP = 2")),
        "agent edit": dict(agent=AGENT.replace("LIMIT = 3", "LIMIT = 4")),
    }
    for what, kw in changed.items():
        assert code_digest(_load(tmp_path, **kw)) != base, what
    assert code_digest(_load(tmp_path)) == base  # back as it was: the same key
    # another policy of the same module that reaches the same names: its own key
    assert code_digest(importlib.import_module("agent_mod").same_reach) != base


_RUN = """
import json, sys
sys.path.insert(0, sys.argv[1])
import fastsweep
from agent_mod import first_hidden
agent = fastsweep.NumbaAgent(first_hidden)
r = fastsweep.sweep([agent], 6, densities=[0.2], games=40, workers=2, out=sys.argv[2],
                    quiet=True)
loop = agent.player("first_hidden").loop()
print(json.dumps({"hits": sum(loop.stats.cache_hits.values()),
                  "misses": sum(loop.stats.cache_misses.values())}))
"""


def test_a_two_worker_sweep_compiles_the_loop_once(tmp_path):
    (tmp_path / "helper_mod.py").write_text(HELPER)
    (tmp_path / "agent_mod.py").write_text(AGENT)
    counts = []  # (the first run may load the loop too: an earlier run of this test)
    for run in ("a", "b"):
        out = subprocess.run([sys.executable, "-c", _RUN, str(tmp_path), str(tmp_path / run)],
                             capture_output=True, text=True, check=True).stdout
        counts.append(json.loads(out.strip().splitlines()[-1]))
    assert counts[1] == {"hits": 1, "misses": 0}, counts


CACHED_POLICY = """
from numba import njit

@njit(cache=True)
def policy(view, info, order, memory):
    v = view.ravel()
    for c in order:
        if v[c] == -1:
            return c
    return 0
"""


def test_a_cache_true_agent_by_path_plays_after_its_file_was_imported(tmp_path):
    """Numba's own cache (``@njit(cache=True)``) records the module name a kernel was
    compiled in: a file agent is imported under its file's name, so the cache the user's
    own ``import mine`` wrote loads in a sweep's workers (it failed at move 1 with
    "No module named 'mine'")."""
    (tmp_path / "mine.py").write_text(CACHED_POLICY)
    warm = ("import numpy as np, mine; mine.policy(np.full((3, 3), -1, np.int8), "
            "np.zeros(20, np.int64), np.arange(9), np.zeros(4, np.int64))")
    subprocess.run([sys.executable, "-c", warm], cwd=tmp_path, check=True)
    assert any(f.endswith(".nbi") for f in os.listdir(tmp_path / "__pycache__"))
    out = tmp_path / "s"
    r = subprocess.run([sys.executable, "-m", "fastsweep", "sweep", "--agents",
                        f"{tmp_path / 'mine.py'}:policy,basic", "--size", "6", "--density",
                        "0.15", "--games", "40", "--workers", "2", "--quiet", "--out", str(out)],
                       capture_output=True, text=True, cwd=os.getcwd())
    assert r.returncode == 0, r.stderr[-2000:]
    assert (out / "summary.csv").exists()


def test_a_cache_true_agent_whose_module_name_is_taken_is_refused_with_the_fix(tmp_path):
    from fastsweep.user.resolve import load

    (tmp_path / "json.py").write_text(CACHED_POLICY)  # 'json' is the standard library's
    import pytest

    with pytest.raises(ValueError, match=r"json.py:policy' is compiled with @njit\(cache=True\)"
                                         r" and the module name 'json' is taken.*rename the file"):
        load(f"{tmp_path / 'json.py'}:policy")
