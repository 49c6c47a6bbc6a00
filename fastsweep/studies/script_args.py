"""The command line the study and benchmark scripts share (scripts/studies/,
scripts/bench/), and the provenance each writes beside its results.

:func:`parser` gives every script the same options: ``--out DIR`` (default
``out/<script>``, with ``--quick`` ``out/<script>-quick``: out/ is not tracked by git;
the committed results/ are written only by scripts/reproduce.py, which passes
``--out``), ``--quick`` (a tiny run of seconds that checks the script end to end,
figures included; its numbers mean nothing) and
``--workers N`` (processes; the numbers do not depend on it). :func:`parse` reads them
and starts the clock; :func:`write_run` writes ``<out>/run.json``: the command, the
date, the machine, the Python / Numba / NumPy versions, the git commit (and whether the
working tree had changes), the seconds since :func:`parse`, and the script's own facts.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

from ..config import check_seed

ROOT = Path(__file__).resolve().parents[2]  # the checkout (when not installed elsewhere)


def parser(name, doc, *, out=True, quick="a tiny run of seconds (checks the script; "
           "its numbers mean nothing)", workers=True, seed=None):
    """An ArgumentParser for script ``name`` (its description: the first paragraph of
    ``doc``) with the shared options: ``--out`` unless ``out`` is False, ``--quick``
    unless ``quick`` is None (else its help), ``--workers`` unless ``workers`` is
    False, and ``--seed`` with default ``seed`` when one is given."""
    ap = argparse.ArgumentParser(prog=name, description=doc.strip().split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.set_defaults(script=name, out=None, quick=False, workers=1, has_out=bool(out))
    if out:
        ap.add_argument("--out", metavar="DIR", default=None,
                        help=f"output folder (default out/{name}, with --quick "
                             f"out/{name}-quick; results/ is written only by "
                             f"scripts/reproduce.py)")
    if quick is not None:
        ap.add_argument("--quick", action="store_true", help=quick)
    if workers:
        ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes (default: all cores; the numbers do not depend on it)")
    if seed is not None:
        ap.add_argument("--seed", type=int, default=seed, help=f"root seed (default {seed})")
    return ap


def parse(ap, argv=None):
    """Parse ``argv`` (default: the command line), check ``--workers``, make the output
    folder and start the clock of :func:`write_run`."""
    a = ap.parse_args(argv)
    if a.workers < 1:
        ap.error(f"--workers: must be at least 1, got {a.workers}")
    if getattr(a, "seed", None) is not None:  # (the library's check, as --seed of the CLI)
        try:
            check_seed(a.seed)
        except ValueError as e:
            ap.error(f"--{e}")
    a.argv = list(sys.argv[1:] if argv is None else argv)
    a.started = time.perf_counter()
    if a.has_out:
        a.out = a.out or os.path.join("out", a.script + ("-quick" if a.quick else ""))
        os.makedirs(a.out, exist_ok=True)
    return a


def command(argv) -> str:
    """The command line as typed from the checkout's root: ``python3 <script> <argv>``
    (the script as run: scripts/main.py runs the headline study as itself)."""
    script = os.path.abspath(sys.argv[0])
    if script.startswith(str(ROOT) + os.sep):
        script = os.path.relpath(script, ROOT)
    return shlex.join(["python3", script, *argv])


def _git(*args):
    try:
        r = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                           timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def provenance() -> dict:
    """Where and with what a run happens: date, machine, versions, git commit."""
    import numba
    import numpy

    import fastsweep
    from fastsweep.tools.bench import machine

    commit = _git("rev-parse", "HEAD") if (ROOT / ".git").exists() else None
    changed = _git("status", "--porcelain", "--untracked-files=no") if commit else None
    return {"date": datetime.datetime.now().isoformat(timespec="seconds"),
            "machine": machine(), "cpus": os.cpu_count(), "platform": platform.platform(),
            "python": platform.python_version(), "numba": numba.__version__,
            "numpy": numpy.__version__, "fastsweep": fastsweep.__version__,
            "git_commit": commit, "git_changes": None if changed is None else bool(changed)}


def write_run(a, **facts) -> str:
    """Write ``<a.out>/run.json`` (the command, options, seconds since :func:`parse`,
    :func:`provenance` and ``facts``); returns its path."""
    rec = {"script": a.script, "command": command(a.argv), "quick": a.quick,
           "workers": a.workers, "seconds": round(time.perf_counter() - a.started, 1),
           **provenance(), **facts}
    path = os.path.join(a.out, "run.json")
    with open(path, "w") as f:
        json.dump(rec, f, indent=1, default=str)
        f.write("\n")
    return path


def figures_main(argv, name, doc, study, draw_all, names=None):
    """The command line of a figure script ``name``: ``--data`` (the study's folder, its
    CSVs; default results/<study>, the committed results), ``--out`` (where the figures
    go) and, if the script has several figures, ``--only`` (a comma list of ``names``);
    draws them with ``draw_all(data, names, out)`` and writes run.json."""
    ap = parser(name, doc, quick=None, workers=False)
    ap.add_argument("--data", metavar="DIR", default=os.path.join("results", study),
                    help=f"the study's folder, read only (default results/{study})")
    if names:
        ap.add_argument("--only", default=",".join(names),
                        help=f"comma list of figures: {', '.join(names)}")
    a = parse(ap, argv)
    only = a.only.split(",") if names else None
    bad = [n for n in only or [] if n not in names]
    if bad:
        ap.error(f"--only: unknown figures {bad}; known: {', '.join(names)}")
    for f in draw_all(a.data, only, a.out):
        print("wrote", f)
    print("wrote", write_run(a, data=a.data))
