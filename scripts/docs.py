"""Build the documentation site into out/site/ (open out/site/index.html).

Like the other scripts it makes or reuses .venv with the package's extras (the docs extra
among them: mkdocs, mkdocs-material, mkdocstrings) and runs there; then it runs
``mkdocs build --strict -f docs/mkdocs.yml -d out/site`` (a warning is an error: a broken
link or a docstring mkdocstrings cannot render fails the build). ``--out DIR`` builds
elsewhere; ``--serve`` serves the site with live reload instead (``mkdocs serve``).

Usage: python3 scripts/docs.py [--out DIR] [--serve]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

from _bootstrap import ROOT, ensure_venv  # (this folder's)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "site"),
                    help="the folder the site is built into (default: out/site/)")
    ap.add_argument("--serve", action="store_true",
                    help="serve the site with live reload (mkdocs serve) instead of building")
    a = ap.parse_args(argv)
    config = os.path.join(ROOT, "docs", "mkdocs.yml")
    if a.serve:
        cmd = [sys.executable, "-m", "mkdocs", "serve", "-f", config]
    else:
        cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config,
               "-d", os.path.abspath(a.out)]
    r = subprocess.run(cmd, cwd=ROOT)
    if r.returncode == 0 and not a.serve:
        print(f"site: {os.path.join(os.path.abspath(a.out), 'index.html')}")
    return r.returncode


if __name__ == "__main__":
    ensure_venv(__file__)
    sys.exit(main())
