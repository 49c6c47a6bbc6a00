"""Where an agent's kernel time goes, by compiled function, with Linux ``perf``.

perf sees Numba's machine code as anonymous JIT memory. This script plays games with one
agent (Expert classic with the total told, unless ``--board``, ``--rules``,
``--mine-count``, ``--noise`` say otherwise), then writes ``/tmp/perf-<pid>.map``, the
symbol map perf reads for JIT code: every function of every compiled fastsweep kernel,
at its address (``fastsweep.tools.perf_map``). It prints the CLOCK_MONOTONIC window of the
timed games, to pass to ``perf report --time`` so that the compile and import are left
out.

Cached kernels are loaded as object code without their function list, so compile into
an empty cache (several minutes, once per run):

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -k mono -F 1000 -o la.data \\
        .venv/bin/python scripts/bench/perf_map.py --agent lookahead --games 1500

then run the ``perf report ... --time START,END`` command it prints. A function's size
in the map is the gap to the next address, so a sample in an unnamed helper is charged
to the function before it. ``--quick``: a few basic games (seconds; no map when the
kernels came from the cache).
"""
import os
import time

from fastsweep.tools.perf_map import compiled_functions, write_map
from fastsweep.studies.script_args import parse, parser


def main(argv=None):
    ap = parser("perf_map", __doc__, out=False, workers=False,
                quick="seconds: 5 Expert games of basic")
    ap.add_argument("--agent", default="lookahead")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--board", default="16x30:99",
                    help="HxW:density or HxW:mines (default 16x30:99, Expert)")
    ap.add_argument("--rules", default="classic", help="classic (default) or keep-going")
    ap.add_argument("--mine-count", choices=("yes", "no"), default="yes",
                    help="whether the agent is told the total (default yes)")
    ap.add_argument("--noise", default=None,
                    help="a noise spec as in sweep, e.g. detector:p_neg=0.2,p_pos=0.2")
    a = parse(ap, argv)
    if a.quick:
        a.agent, a.games = "basic", 5
    import fastsweep
    from fastsweep.tools.ab import parse_board

    size, mines, density = parse_board(a.board)
    kw = dict(mines=mines, density=density, rules=a.rules, mine_count=a.mine_count == "yes")
    if a.noise:
        kw["noise"] = a.noise
    fastsweep.run(a.agent, size, games=2, seed=1, **kw)  # compile outside the window
    t0 = time.clock_gettime(time.CLOCK_MONOTONIC)
    df = fastsweep.run(a.agent, size, games=a.games, seed=a.seed, **kw)
    t1 = time.clock_gettime(time.CLOCK_MONOTONIC)
    n = write_map(compiled_functions(), f"/tmp/perf-{os.getpid()}.map")
    print(f"{a.agent}: {a.games} games of {a.board} {a.rules} in {t1 - t0:.2f} s "
          f"({a.games / (t1 - t0):.0f} games/s, {df.won.mean():.1%} won)")
    if n == 0:
        print("no function map: the kernels came from the cache (set NUMBA_CACHE_DIR to "
              "an empty folder)")
    else:
        print(f"{n} functions mapped; the timed games' profile, if perf wrote la.data:\n"
              f"perf report -i la.data --no-children --sort dso,sym --time {t0:.6f},{t1:.6f}")


if __name__ == "__main__":
    main()
