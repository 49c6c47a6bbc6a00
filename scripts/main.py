"""Quick start, command 1: set up .venv if needed and run the main study.

The main study is the assignment's headline figure (scripts/studies/headline.py): mean
score vs mine density on a 30x30 board for the basic, inference and probability agents,
the last two with and without the mine total, each point to a 95% CI half-width <= 0.005.
It writes out/headline/ (summary.csv, pairs.csv, figures, run.json; --out DIR
elsewhere). Re-running resumes finished work.

Usage: python3 scripts/main.py [--quick] [--workers N] [--out DIR] [--quiet]
"""
import importlib.util
import os

from _bootstrap import ROOT, ensure_venv

if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    os.chdir(ROOT)
    # the study's main() on this command line (its run.json records this command, as
    # typed: runpy would have put the study's path in sys.argv[0])
    spec = importlib.util.spec_from_file_location(
        "headline", os.path.join(ROOT, "scripts", "studies", "headline.py"))
    headline = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(headline)
    headline.main()
