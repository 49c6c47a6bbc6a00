"""Quick start, command 1: set up .venv if needed and run the main study.

The main study is the assignment's headline figure (scripts/studies/headline.py): mean
score vs mine density on a 30x30 board for the basic, inference and probability agents,
the last two with and without the mine total, each point to a 95% CI half-width <= 0.005.
It writes out/headline/ (summary.csv, pairs.csv, figures, run.json; --out DIR
elsewhere). Re-running resumes finished work.

Usage: python3 scripts/main.py [--quick] [--workers N] [--out DIR] [--quiet]
"""
import os
import runpy

from _bootstrap import ROOT, ensure_venv

if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    os.chdir(ROOT)
    # the study runs as its own script would, with this command line (its run.json
    # records this command)
    runpy.run_path(os.path.join(ROOT, "scripts", "studies", "headline.py"), run_name="__main__")
