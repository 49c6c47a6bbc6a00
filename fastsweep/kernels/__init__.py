"""Numba kernels, in three layers: ``engine/`` (the state, the environment and the
agent's knowledge, the game loop and the single-clue rules), ``inference/`` (frontier,
exact counting, search and estimates) and ``agents/`` (each family's move and its batch
entry points). Kernels import nothing from the package above them, and import each other
by relative imports only.

Compiled kernels are cached on disk per module, in a folder keyed on a hash of the
sources of the module's import closure (``cache_keys.py``): Numba's own cache checks only
the file that defines each function, so an edit to a module that a kernel calls could
otherwise load a stale compiled kernel; a key per module (not one over the whole tree)
makes an edit recompile only the modules that can see it. The folders are
``<root>/<path in kernels>/<key>/``, the root ``$NUMBA_CACHE_DIR/fastsweep`` when
NUMBA_CACHE_DIR is set, else ``~/.cache/fastsweep/kernels`` (``$XDG_CACHE_HOME`` if set);
the path inside the package, not the clone's, so a second clone or worktree of the same
source loads the first one's compiled kernels.
"""
from .jit import cache_dir  # noqa: F401 (the cache's public helper)
