"""Quick start, command 2: set up .venv if needed and run the test suite.

Usage: python3 scripts/test.py [pytest arguments]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _bootstrap import ROOT, ensure_venv  # noqa: E402

if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    import pytest

    os.chdir(ROOT)
    sys.exit(pytest.main(["tests", *sys.argv[1:]]))
