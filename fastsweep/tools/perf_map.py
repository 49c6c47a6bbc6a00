"""Linux ``perf``'s view of the compiled kernels (scripts/bench/perf_map.py): perf sees
Numba's machine code as anonymous JIT memory; :func:`write_map` writes the symbol map it
reads for JIT code (``/tmp/perf-<pid>.map``: a line per function, hex address, hex size
up to the next function, name), from :func:`compiled_functions`.
"""
from __future__ import annotations

import sys


def compiled_functions():
    """{address: symbol} of every function in the loaded fastsweep kernels' code."""
    from numba.core.dispatcher import Dispatcher

    libs = {}
    for name, mod in list(sys.modules.items()):
        if not name.startswith("fastsweep") or mod is None:
            continue
        for obj in list(vars(mod).values()):
            if isinstance(obj, Dispatcher):
                for cres in obj.overloads.values():
                    libs[id(cres.library)] = cres.library
    found = {}
    for lib in libs.values():
        module = getattr(lib, "_final_module", None)
        if module is None:  # loaded from the cache: no function list
            continue
        for fn in module.functions:
            if not fn.is_declaration:
                addr = lib.get_pointer_to_function(fn.name)
                if addr:
                    found[addr] = fn.name
    return found


def write_map(found, path):
    """Write ``found`` ({address: symbol}) to ``path`` in perf's map format; returns the
    number of functions (0: nothing found, no file written)."""
    items = sorted(found.items())
    if not items:
        return 0
    with open(path, "w") as fh:
        for i, (addr, name) in enumerate(items):
            gap = items[i + 1][0] - addr if i + 1 < len(items) else 4096
            fh.write(f"{addr:x} {min(gap, 1 << 20):x} {name}\n")
    return len(items)
