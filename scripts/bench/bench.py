"""Benchmark of the game engine (basic agent); writes results/bench.csv.

Usage: python scripts/bench.py [--repeats 5] [--quick] [--out FILE]
(`fastsweep bench` with the repository's table as the default --out; `fastsweep bench`
itself only prints unless given --out.)
"""

import os as _os
import sys as _sys

_sys.path.insert(0, _os.path.dirname(_os.path.abspath(__file__)))
from _bootstrap import ensure_venv  # noqa: E402

if __name__ == "__main__":
    ensure_venv(__file__)  # re-runs this script inside .venv (made on first use)

import os
import sys

from fastsweep.cli.main import main

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "bench.csv")

if __name__ == "__main__":
    args = sys.argv[1:]
    if not any(a == "--out" or a.startswith("--out=") for a in args):
        args += ["--out", os.path.normpath(OUT)]
    sys.exit(main(["bench", *args]))
