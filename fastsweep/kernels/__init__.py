"""Numba kernels, in three layers: ``engine/`` (the state, the environment and the
agent's knowledge, the game loop and the single-clue rules), ``inference/`` (frontier,
exact counting, search and estimates) and ``agents/`` (each family's move and its batch
entry points). Kernels import nothing from the package above them.

Compiled kernels are cached on disk in a folder keyed on a hash of every kernel module's
source, at any depth (and Numba's version), so an edit to any kernel module, even one that
only changes a constant another module reads, can never load a stale compiled kernel:
Numba's own cache checks only the file that defines each function. Inside that folder
each module's kernels are filed under the module's path relative to this package, not
under the clone's absolute path as Numba's locators do, so a second clone or worktree of
the same source loads the first one's compiled kernels instead of compiling again. The
folder is ``$NUMBA_CACHE_DIR/fastsweep-<hash>`` when NUMBA_CACHE_DIR is set, else
``~/.cache/fastsweep/kernels-<hash>`` (``$XDG_CACHE_HOME`` if set).
"""
import importlib
import pkgutil

from .jit import cache_dir, source_hash  # noqa: F401 (the cache's public helpers)

# Decorate (nothing compiles yet) every kernel module now, found by walking the package,
# so tests and tools that inspect the dispatchers see them all.
for _m in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
    importlib.import_module(_m.name)
