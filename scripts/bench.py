"""Benchmark of the game engine (basic agent); writes results/bench.csv.

Usage: python scripts/bench.py [--repeats 5] [--quick]   (same as `fastsweep bench`)
"""
import sys

from fastsweep.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
