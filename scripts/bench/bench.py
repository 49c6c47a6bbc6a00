"""Benchmark of the game engine (basic agent: games per second on five boards) and of the
first call of each agent family (cold: compiling into an empty cache; warm: loading the
cache), as ``fastsweep bench`` (``fastsweep.tools.bench``). Writes ``OUT/bench.csv`` and
run.json; the committed results/bench/ is made by scripts/reproduce.py (default
``--out``: out/bench/).

Usage: python3 scripts/bench/bench.py [--repeats 5] [--out DIR] [--quick]
  --quick   seconds: one short run a board, no first-call timings (the cold compiles take
            minutes)
"""
import os

from fastsweep.tools.bench import main as bench_main
from fastsweep.studies.script_args import parse, parser, write_run


def main(argv=None):
    ap = parser("bench", __doc__, workers=False, quick="seconds: one short run a board, no "
                "first-call timings")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs a board (median)")
    a = parse(ap, argv)
    if a.repeats < 1:
        ap.error(f"--repeats: must be at least 1, got {a.repeats}")
    out = os.path.join(a.out, "bench.csv")
    bench_main(repeats=1 if a.quick else a.repeats, out=out, quick=a.quick,
               compile_times=not a.quick)
    print("wrote", write_run(a, repeats=a.repeats))


if __name__ == "__main__":
    main()
