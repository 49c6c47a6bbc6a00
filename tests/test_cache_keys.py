"""The compile cache's keys (fastsweep/kernels/cache_keys.py): an edit to a kernel module
re-keys exactly the modules that can see it, the graph the keys are read from is the one
Python imports, and an import the graph cannot see is refused.
"""
import json
import os
import time
import subprocess
import sys

import pytest

import fastsweep.kernels.cache_keys as ck
from fastsweep.kernels.jit import cache_dir, kernel_cache_path

# In a fresh interpreter, import each kernel module alone (the package ``fastsweep``
# stubbed, so its public API does not import every kernel) and record which kernel
# modules Python ran: the real import closure, independent of the keys' ast reading.
_PROBE = r"""
import importlib, json, pathlib, sys, types
root = pathlib.Path(sys.argv[1])
kernels = root / "fastsweep" / "kernels"
names = sorted(".".join(p.relative_to(kernels).with_suffix("").parts)
               for p in kernels.rglob("*.py"))
out = {}
for name in names:
    for k in [k for k in sys.modules if k == "fastsweep" or k.startswith("fastsweep.")]:
        del sys.modules[k]
    stub = types.ModuleType("fastsweep")
    stub.__path__ = [str(root / "fastsweep")]
    sys.modules["fastsweep"] = stub
    mod = "fastsweep.kernels" + ("" if name == "__init__" else "." + name.replace(".__init__", ""))
    importlib.import_module(mod)
    seen = []
    for k, m in sys.modules.items():
        if k.startswith("fastsweep.kernels") and m is not None:
            f = pathlib.Path(m.__file__).relative_to(kernels).with_suffix("")
            seen.append(f.as_posix())
    out[name.replace(".", "/")] = sorted(seen)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """Each kernel module's closure as Python imports it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(ck.__file__)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path_factory.mktemp("cache")))
    out = subprocess.run([sys.executable, "-c", _PROBE, os.path.dirname(root)], env=env,
                         capture_output=True, text=True, check=True).stdout
    return {k: set(v) for k, v in json.loads(out).items()}


def test_the_keys_graph_is_the_one_python_imports(imported):
    closures = ck.closures()
    assert set(imported) == set(closures) and len(closures) > 60
    for rel, seen in imported.items():
        assert set(closures[rel]) == seen, rel


def test_an_edit_rekeys_exactly_its_reverse_import_closure(imported):
    """For every kernel module: a one-line edit changes the key of exactly the modules
    that import it, directly or not (read from what Python imported)."""
    src = dict(ck._sources())
    env = b"test"
    before = ck.keys(src, env)
    for edited in src:
        after = ck.keys(dict(src, **{edited: src[edited] + b"\n# an edit\n"}), env)
        rekeyed = {m for m in src if after[m] != before[m]}
        assert rekeyed == {m for m, seen in imported.items() if edited in seen}, edited


def test_a_pseq_edit_leaves_basic_and_exact_cached():
    rekeyed = ck.reverse_closure("agents/solver/pseq")
    assert "agents/solver/run_solver" in rekeyed
    assert not rekeyed & {"agents/run_basic", "agents/run_exact", "agents/policies",
                          "agents/family", "engine/game", "inference/count"}


def test_a_pseq_edit_rekeys_the_solvers_guess_and_no_family_loop_or_move():
    """One game loop for every family (``family._play``, the move passed as a first-class
    function): an edit to pseq re-keys the solver family's guess module, not the loop,
    the exact engine's move or another family's kernels."""
    from fastsweep.kernels.agents import run_basic, run_exact, run_risk
    from fastsweep.kernels.agents.solver import run_solver
    fams = (run_basic, run_exact, run_risk, run_solver)
    assert len({f.FAMILY.kernels()[0] for f in fams}) == 1  # one loop
    assert run_exact.FAMILY.move is run_risk.FAMILY.move  # one exact move
    src = dict(ck._sources())
    edited = dict(src, **{"agents/solver/pseq": src["agents/solver/pseq"] + b"#\n"})
    for fam in fams:
        for mod in fam.FAMILY.modules():
            changed = ck.key_of((mod,), src, b"") != ck.key_of((mod,), edited, b"")
            assert changed == (mod == "agents/solver/run_solver"), (fam.FAMILY.name, mod)
    paths = {kernel_cache_path(k.py_func) for k in run_solver.FAMILY.kernels()}
    assert all(p.startswith(cache_dir()) for p in paths)


@pytest.mark.parametrize("line, what", [
    (b"from fastsweep.kernels.engine.env import flat\n", "relative imports only"),
    (b"import fastsweep.kernels.engine.env\n", "relative imports only"),
    (b"import importlib\n", "load no module dynamically"),
    (b"m = __import__('fastsweep')\n", "'__import__'"),
    (b"from .nowhere import x\n", "names no kernel module"),
])
def test_an_import_the_keys_cannot_follow_is_refused(line, what):
    src = dict(ck._sources())
    src["agents/run_basic"] = src["agents/run_basic"] + line
    with pytest.raises(ck.KernelImportError, match=what) as err:
        ck.graph(src)
    assert "kernels/agents/run_basic.py" in str(err.value)


def test_the_environment_is_in_the_key():
    src = ck._sources()
    assert ck.key_of(("engine/env",), src, b"numba 1") != ck.key_of(("engine/env",), src, b"numba 2")


def test_prune_keeps_the_most_recently_used_keys(tmp_path):
    root = tmp_path / "fastsweep" / "kernels"
    mod = root / "engine" / "env"
    keys = [f"{i:016x}" for i in range(12)]
    for i, k in enumerate(keys):
        (mod / k).mkdir(parents=True)
        os.utime(mod / k, (1000 + i, 1000 + i))
    legacy_old = tmp_path / "fastsweep" / ("kernels-" + "a" * 16)
    legacy_new = tmp_path / "fastsweep" / ("kernels-" + "b" * 16)
    other = tmp_path / "fastsweep" / "kernels-notes"  # not the old layout's: left alone
    for d in (legacy_old, legacy_new, other):
        d.mkdir()
    os.utime(legacy_old, (1000, 1000))
    os.utime(other, (1000, 1000))
    ck.prune(str(root), keep=8)
    assert sorted(p.name for p in mod.iterdir()) == keys[4:]
    assert not legacy_old.exists() and legacy_new.exists() and other.exists()


def test_prune_keeps_every_key_used_recently(tmp_path):
    # family.py holds one live key per family: none of them is pruned while in use
    mod = tmp_path / "kernels" / "agents" / "family"
    now = time.time()
    keys = [f"{i:016x}" for i in range(12)]
    for i, k in enumerate(keys):
        (mod / k).mkdir(parents=True)
        age = 3600 * (i + 1) if i < 10 else 86400 * 3  # ten used in the last 11 hours
        os.utime(mod / k, (now - age, now - age))
    ck.prune(str(tmp_path / "kernels"), keep=8)
    assert sorted(p.name for p in mod.iterdir()) == keys[:10]
