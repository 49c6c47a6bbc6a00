"""Each kernel module's compile-cache key: a hash over its own source and the source of
every kernel module it can see, so an edit re-keys exactly the modules that can see it.

Numba (0.68) checks a cached kernel only against the file that defines it, not against
the callees it linked in from other files. Kernels import kernels only by relative
imports (``from ..engine.env import flat``), so what a module's compiled code can contain
is known from its source: its *import closure*, the modules it imports, what those
import, and so on, with the package ``__init__`` of each (Python runs them too). The
module's kernels are filed under a folder named by a hash of that closure's sources (and
of what else changes machine code: Numba's, llvmlite's and NumPy's versions, the
package's name, the compile options read from the environment); the CPU is in Numba's
own index key. An edit to ``agents/solver/pseq.py`` re-keys ``pseq``, ``lookahead``,
``run_solver`` and whatever imports those, and leaves ``basic`` and ``exact`` cached.

The graph is read from the sources (``ast``), so a kernel import the graph cannot see
would make a key unsound: an absolute import of this package, ``importlib``,
``__import__`` or ``exec`` in a kernel module is refused with :class:`KernelImportError`.
``tests/test_cache_keys.py`` checks the graph against the modules Python really imports.

Example::

    >>> from fastsweep.kernels.cache_keys import module_key, reverse_closure
    >>> len(module_key("engine/env"))
    16
    >>> "agents/solver/run_solver" in reverse_closure("agents/solver/pseq")
    True
"""
from __future__ import annotations

import ast
import hashlib
import os
import re
from functools import lru_cache
from pathlib import Path

KERNELS = Path(__file__).resolve().parent
PACKAGE = __name__.rsplit(".", 1)[0]  # "fastsweep.kernels" (another name under bench_ab)
_TOP = PACKAGE.split(".")[0]
# names that load code the static graph cannot follow
_DYNAMIC = {"importlib", "__import__", "exec", "eval", "runpy"}


class KernelImportError(ImportError):
    """A kernel module imports in a way the cache keys cannot follow."""


def _rel(path: Path) -> str:
    """``agents/solver/pseq`` for .../kernels/agents/solver/pseq.py (``__init__`` kept)."""
    return path.relative_to(KERNELS).with_suffix("").as_posix()


@lru_cache(maxsize=None)
def _sources() -> dict:
    """Every kernel module's source bytes by relative name."""
    return {_rel(p): p.read_bytes() for p in sorted(KERNELS.rglob("*.py"))}


def _target(src, here: str, level: int, module: str | None, name: str | None) -> str:
    """The kernel module a relative import names (``from ..x.y import name``)."""
    parts = here.split("/")[:-1]  # the importing module's package
    if level > 1:
        parts = parts[:len(parts) - (level - 1)]
    if module:
        parts = parts + module.split(".")
    base = "/".join(parts)
    if name and f"{base}/{name}" in src:  # ``from . import pseq``: a submodule
        return f"{base}/{name}"
    if base in src:
        return base
    init = f"{base}/__init__" if base else "__init__"
    if init in src:  # ``from .whatif import x``: the package's own names
        return init
    raise KernelImportError(f"kernels/{here}.py: relative import of {module or name!r} "
                            f"names no kernel module")


@lru_cache(maxsize=4096)
def imports_of(rel: str, source: bytes, src: frozenset) -> frozenset:
    """The kernel modules that module ``rel`` (its ``source``) imports directly, ``src``
    the names of all kernel modules; raises :class:`KernelImportError` for an import the
    graph cannot follow."""
    tree = ast.parse(source, filename=f"kernels/{rel}.py")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                top = (node.module or "").split(".")[0]
                if top == _TOP or top in _DYNAMIC:
                    raise KernelImportError(
                        f"kernels/{rel}.py line {node.lineno}: 'from {node.module} import "
                        f"...': kernel modules import kernels by relative imports only "
                        f"(from ..x import y), so the compile cache keys can follow them")
                continue
            for alias in node.names:
                out.add(_target(src, rel, node.level, node.module, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top == _TOP or top in _DYNAMIC:
                    raise KernelImportError(
                        f"kernels/{rel}.py line {node.lineno}: 'import {alias.name}': kernel "
                        f"modules import kernels by relative imports only and load no "
                        f"module dynamically, so the compile cache keys can follow them")
        elif isinstance(node, ast.Name) and node.id in _DYNAMIC:
            raise KernelImportError(
                f"kernels/{rel}.py line {node.lineno}: {node.id!r} loads code the compile "
                f"cache keys cannot follow; import kernels by relative imports")
    out.discard(rel)
    return frozenset(out)


def _ancestors(rel: str, src: dict) -> set:
    """The package ``__init__`` modules Python runs before module ``rel``."""
    parts = rel.split("/")[:-1]
    out = {"__init__"}
    for i in range(1, len(parts) + 1):
        init = "/".join(parts[:i]) + "/__init__"
        if init in src:
            out.add(init)
    out.discard(rel)
    return out


def graph(src: dict | None = None) -> dict:
    """Each kernel module's direct kernel imports (its package ``__init__``s included)."""
    src = _sources() if src is None else src
    names = frozenset(src)
    return {rel: imports_of(rel, s, names) | _ancestors(rel, src) for rel, s in src.items()}


def closures(src: dict | None = None) -> dict:
    """Each kernel module's import closure: itself and every kernel module it can see."""
    g = graph(src)
    out = {}
    for rel in g:
        seen, todo = {rel}, [rel]
        while todo:
            for nxt in g[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out[rel] = frozenset(seen)
    return out


@lru_cache(maxsize=None)
def _closures() -> dict:
    return closures()


def reverse_closure(rel: str) -> set:
    """The modules whose closure holds ``rel``: what an edit to ``rel`` re-keys."""
    return {m for m, c in _closures().items() if rel in c}


def environment() -> bytes:
    """What besides the sources changes the compiled code (the CPU is in Numba's index)."""
    import llvmlite
    import numba
    import numpy
    from numba.core import config
    opts = [numba.__version__, llvmlite.__version__, numpy.__version__, PACKAGE]
    opts += [str(getattr(config, k, None)) for k in (
        "OPT", "BOUNDSCHECK", "FASTMATH", "DEBUGINFO_DEFAULT", "CPU_NAME", "CPU_FEATURES")]
    return "\0".join(opts).encode()


def keys(src: dict | None = None, env: bytes | None = None) -> dict:
    """Every kernel module's key (for tests and tools: what an edit would re-key)."""
    src = _sources() if src is None else src
    cl = closures(src)
    return {m: _hash(cl[m], src, env) for m in src}


def _hash(modules, src: dict, env: bytes | None) -> str:
    h = hashlib.sha256(environment() if env is None else env)
    for rel in sorted(modules):
        h.update(b"\0" + rel.encode() + b"\0" + hashlib.sha256(src[rel]).digest())
    return h.hexdigest()[:16]


def key_of(modules, src: dict | None = None, env: bytes | None = None) -> str:
    """The key (16 hex digits) of code that can see the closures of ``modules``."""
    cl = _closures() if src is None else closures(src)
    return _hash(set().union(*(cl[m] for m in modules)), _sources() if src is None else src, env)


@lru_cache(maxsize=None)
def module_key(rel: str, *extra: str) -> str:
    """The cache key of module ``rel``'s kernels (with ``extra`` modules' closures: a
    kernel specialised with another module's functions, see ``jit.specialise``)."""
    return key_of((rel, *extra))


def module_of(name: str) -> str | None:
    """``agents/solver/pseq`` for the Python module name ``fastsweep.kernels.agents.
    solver.pseq``; None outside the kernels."""
    if name == PACKAGE:
        return "__init__"
    if not name.startswith(PACKAGE + "."):
        return None
    rel = name[len(PACKAGE) + 1:].replace(".", "/")
    return rel if rel in _sources() else f"{rel}/__init__"


def prune(root: str, keep: int = 8, legacy_days: float = 7.0, fresh_hours: float = 24.0
          ) -> None:
    """Remove a module's cache folders beyond its ``keep`` most recently used (each use
    touches its folder) that were not used in the last ``fresh_hours``, and the
    whole-tree folders of the cache's older layout (``kernels-<hash>`` /
    ``fastsweep-<hash>`` beside ``root``) unused for ``legacy_days``. Best effort: a
    folder another process holds is left.

    Why the fresh ones stay whatever their number: a module holds several live keys at
    once (``family.py``: one per family's specialised loop; ``user.py``: one per user
    agent; two checkouts of different sources), and pruning one of them by count alone
    threw away a family that was in use (the suite recompiled the risk family's loop,
    2026-12-02)."""
    import shutil
    import time
    recent = time.time() - fresh_hours * 3600
    if os.path.isdir(root):
        for dirpath, dirnames, _ in os.walk(root):
            keys = [d for d in dirnames if len(d) == 16 and all(c in "0123456789abcdef" for c in d)]
            if len(keys) > keep:
                keys.sort(key=lambda d: os.path.getmtime(os.path.join(dirpath, d)))
                for d in keys[:-keep]:
                    path = os.path.join(dirpath, d)
                    if os.path.getmtime(path) < recent:
                        shutil.rmtree(path, ignore_errors=True)
            dirnames[:] = [d for d in dirnames if d not in keys]  # not into the key folders
    parent = os.path.dirname(root)
    cutoff = time.time() - legacy_days * 86400
    # only the old layout's own names: <root's name>-<16 hex digits> ("kernels-..." in
    # ~/.cache/fastsweep, "fastsweep-..." in $NUMBA_CACHE_DIR), nothing else there
    legacy = re.compile(re.escape(os.path.basename(root)) + r"-[0-9a-f]{16}")
    for d in os.listdir(parent) if os.path.isdir(parent) else ():
        path = os.path.join(parent, d)
        if (legacy.fullmatch(d) and os.path.isdir(path)
                and os.path.getmtime(path) < cutoff):
            shutil.rmtree(path, ignore_errors=True)
