"""Where an agent's kernel time goes, by compiled function, with Linux ``perf``.

perf sees Numba's machine code as anonymous JIT memory. This script plays Expert games
(classic, mine total told) with one agent, then writes ``/tmp/perf-<pid>.map``, the
symbol map perf reads for JIT code: every function of every compiled fastsweep kernel,
at its address. It prints the CLOCK_MONOTONIC window of the timed games, to pass to
``perf report --time`` so that the compile and import are left out.

Cached kernels are loaded as object code without their function list, so compile into
an empty cache (several minutes, once per run):

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -k mono -F 1000 -o la.data \\
        .venv/bin/python scripts/perf_map.py --agent lookahead --games 1500

then run the ``perf report ... --time START,END`` command it prints. A function's size
in the map is the gap to the next address, so a sample in an unnamed helper is charged
to the function before it.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _bootstrap import ROOT, ensure_venv  # noqa: E402

if __name__ == "__main__":
    ensure_venv(__file__)  # re-runs this script inside .venv (made on first use)


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
    number of functions."""
    items = sorted(found.items())
    with open(path, "w") as fh:
        for i, (addr, name) in enumerate(items):
            gap = items[i + 1][0] - addr if i + 1 < len(items) else 4096
            fh.write(f"{addr:x} {min(gap, 1 << 20):x} {name}\n")
    return len(items)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", default="lookahead")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=100)
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    import fastsweep

    kw = dict(mines=99, rules="classic", mine_count=True)
    fastsweep.run(a.agent, (16, 30), games=2, seed=1, **kw)  # compile outside the window
    t0 = time.clock_gettime(time.CLOCK_MONOTONIC)
    df = fastsweep.run(a.agent, (16, 30), games=a.games, seed=a.seed, **kw)
    t1 = time.clock_gettime(time.CLOCK_MONOTONIC)
    n = write_map(compiled_functions(), f"/tmp/perf-{os.getpid()}.map")
    print(f"{a.agent}: {a.games} Expert games in {t1 - t0:.2f} s "
          f"({a.games / (t1 - t0):.0f} games/s, {df.won.mean():.1%} won)")
    if n == 0:
        print("no function map: the kernels came from the cache (set NUMBA_CACHE_DIR to "
              "an empty folder)")
    else:
        print(f"{n} functions mapped; the timed games' profile, if perf wrote la.data:\n"
              f"perf report -i la.data --no-children --sort dso,sym --time {t0:.6f},{t1:.6f}")


if __name__ == "__main__":
    main()
