"""Create or reuse the project's virtual environment (.venv) and re-run inside it.

Used by scripts/main.py, test.py, reproduce.py, bench_ab.py and docs.py so that each works
on a fresh machine with only python3: it makes .venv, pip-installs the package with its
test, dask and docs extras (again only when setup.cfg or pyproject.toml changed; docs
because a test builds the documentation site), then re-executes
the calling script with the environment's interpreter. With ``FASTSWEEP_NO_VENV=1`` in
the environment it does nothing: the script runs in the interpreter it was started with
(the tests run the scripts so, in the environment the tests run in).
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
MARKER = VENV / ".fastsweep-install"


def _python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _spec_hash() -> str:
    h = hashlib.sha256()
    for name in ("setup.cfg", "pyproject.toml"):
        h.update((ROOT / name).read_bytes())
    return h.hexdigest()


def ensure_venv(script: str) -> None:
    """Return if already running inside .venv with an up-to-date install; else set it up
    and re-execute ``script`` there (this call then does not return)."""
    if os.environ.get("FASTSWEEP_NO_VENV") == "1":
        return
    inside = Path(sys.prefix).resolve() == VENV.resolve()
    fresh = MARKER.exists() and MARKER.read_text() == _spec_hash()
    if inside and fresh:
        return
    if not _python().exists():
        print(f"[setup] creating virtual environment {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    if not fresh:
        print("[setup] installing fastsweep and its dependencies (pip install -e .[test,dask,docs])",
              flush=True)
        subprocess.run([str(_python()), "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
                       check=True)
        subprocess.run([str(_python()), "-m", "pip", "install", "--quiet", "-e",
                        f"{ROOT}[test,dask,docs]"], check=True)
        MARKER.write_text(_spec_hash())
    os.chdir(ROOT)
    os.execv(str(_python()), [str(_python()), script, *sys.argv[1:]])
