"""The tutorial's outputs: runs the bash blocks of docs/pages/tutorial.md in order, as a
reader would, in a scratch folder that looks like the repository root (the repository's
files linked in, this environment as .venv, no out/), after the first (the install: this
environment is installed already). Writes each block's printed output to
``OUT/outputs.json`` (the page shows them: scripts/studies/readme_tutorial.py) and copies
the figures the page shows (``fig_diff.png``, ``fig_scaling.png``) into OUT. A block that
fails stops the script with its output: the tutorial is broken.

Usage: python3 scripts/studies/tutorial.py [--quick] [--out DIR]
  --quick   the same run (the tutorial is small: about a minute with the kernels cached)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from fastsweep.studies.script_args import parse, parser, provenance, write_run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "docs", "pages", "tutorial.md")
FENCE = re.compile(r"^```bash\n(.*?)^```", re.S | re.M)
FIGURES = {"fig_diff.png": os.path.join("out", "tutorial"),
           "fig_scaling.png": os.path.join("out", "tutorial-profile")}


def blocks(page=PAGE) -> list[str]:
    """The page's bash blocks after the install block, in order."""
    with open(page, encoding="utf-8") as f:
        found = FENCE.findall(f.read())
    assert found and found[0].startswith("python3 -m venv"), "the first block installs"
    return found[1:]


def run_blocks(where) -> list[dict]:
    """Run every block in ``where``; returns (block's first line, its output) records."""
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""), MPLBACKEND="Agg")
    out = []
    for code in blocks():
        r = subprocess.run(["bash", "-e", "-c", code], cwd=where, env=env, text=True,
                           capture_output=True, timeout=900)
        if r.returncode != 0:
            raise SystemExit(f"tutorial: the block\n{code}\nfailed:\n{r.stdout}\n{r.stderr}")
        first = next(s for s in code.splitlines() if s.strip())
        out.append({"first": first, "output": r.stdout})
    return out


def main(argv=None):
    ap = parser("tutorial", __doc__, quick="the same run", workers=False)
    a = parse(ap, argv)
    with tempfile.TemporaryDirectory() as tmp:
        for name in os.listdir(ROOT):
            if name not in ("out", ".git", ".venv", ".pytest_cache"):
                os.symlink(os.path.join(ROOT, name), os.path.join(tmp, name))
        os.symlink(sys.prefix, os.path.join(tmp, ".venv"))
        steps = run_blocks(tmp)
        for fig, folder in FIGURES.items():
            shutil.copyfile(os.path.join(tmp, folder, fig), os.path.join(a.out, fig))
    with open(os.path.join(a.out, "outputs.json"), "w") as f:
        json.dump({"date": provenance()["date"], "machine": provenance()["machine"],
                   "steps": steps}, f, indent=1)
        f.write("\n")
    print("wrote", write_run(a, steps=len(steps)))


if __name__ == "__main__":
    main()
