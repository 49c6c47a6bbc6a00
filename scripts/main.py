"""Quick start, command 1: set up .venv if needed and run the main study.

The main study is the assignment's headline figure (scripts/headline.py): mean score vs
mine density on a 30x30 board for the basic, inference and probability agents, the last
two with and without the mine total, each point to a 95% CI half-width <= 0.005. It writes
out/headline/ (summary.csv, pairs.csv, figures; --out DIR elsewhere). Re-running resumes
finished work.

Usage: python3 scripts/main.py [--quick] [--workers N] [--out DIR] [--quiet]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _bootstrap import ROOT, ensure_venv  # noqa: E402

if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    os.chdir(ROOT)
    import headline

    headline.main(sys.argv[1:])
