"""Quick start, command 1: set up .venv if needed and run the main study.

Usage: python3 scripts/main.py [options of the study]
"""
import os
import runpy
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _bootstrap import ROOT, ensure_venv  # noqa: E402

if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    os.chdir(ROOT)
    from fastsweep.cli import main

    sys.exit(main(["run", "--agent", "basic", "--size", "30", "--density", "0.2",
                   "--games", "10000", *sys.argv[1:]]))
