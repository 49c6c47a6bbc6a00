"""Numba kernels (see layout.py for the state, env.py for the environment and knowledge).

Compiled kernels are cached on disk in a folder keyed on a hash of these modules' sources
(and Numba's version), so an edit to any kernel module, even one that only changes a
constant another module reads, can never load a stale compiled kernel: Numba's own cache
checks only the file that defines each function. The folder is
``$NUMBA_CACHE_DIR/fastsweep-<hash>`` when NUMBA_CACHE_DIR is set, else
``~/.cache/fastsweep/kernels-<hash>`` (``$XDG_CACHE_HOME`` if set).
"""
import hashlib
import importlib
import os
from pathlib import Path

import numba
from numba.core import config as _config


def source_hash() -> str:
    """Hash of every kernel module's source and the Numba version (16 hex digits)."""
    h = hashlib.sha256(numba.__version__.encode())
    for p in sorted(Path(__file__).parent.glob("*.py")):
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        return os.path.join(base, f"fastsweep-{source_hash()}")
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(home, "fastsweep", f"kernels-{source_hash()}")


# Numba picks each function's cache folder when the function is decorated: set ours,
# import (decorate, nothing compiles yet) every kernel module, and give the setting back,
# so the user's own Numba functions keep their cache folder. Every module, found by
# name: one imported later would cache in __pycache__, checked only against its own file.
_saved = _config.CACHE_DIR
_config.CACHE_DIR = cache_dir()
try:
    for _p in sorted(Path(__file__).parent.glob("*.py")):
        if _p.stem != "__init__":
            importlib.import_module(f"{__name__}.{_p.stem}")
finally:
    _config.CACHE_DIR = _saved
