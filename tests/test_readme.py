"""The measured numbers of the README and of the site's pages (docs/pages/) come from the
committed results
(scripts/studies/readme_tables.py, run as a subprocess: a script, not a module of the
package)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "studies", "readme_tables.py")


def _tables(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def test_readme_tables_match_the_committed_results():
    r = _tables()
    assert (r.returncode, r.stdout.strip()) == (0, "differ: none"), \
        r.stdout + r.stderr + "\nrun: python3 scripts/studies/readme_tables.py --write"


def _documents():
    """README.md and every page of the site: the files the script checks by default."""
    found = [os.path.join(ROOT, "README.md")]
    for folder, _, names in os.walk(os.path.join(ROOT, "docs", "pages")):
        found += [os.path.join(folder, n) for n in names if n.endswith(".md")]
    return found


def test_a_changed_number_is_detected(tmp_path):
    texts = {}
    for path in _documents():
        with open(path) as f:
            texts[path] = f.read()
    everything = "\n".join(texts.values())
    for block in ("headline", "report", "engine", "inference-calls", "inference-games",
                  "sweeps", "provenance", "solver", "agent-speed"):
        assert f"<!-- results:{block} -->" in everything  # (on some page, or the README)
    text = next(t for t in texts.values() if "<!-- results:headline -->" in t)
    # edit one number of the headline table: the check must name that block, --write must
    # undo it
    start = text.index("<!-- results:headline -->")
    first_row = next(ln for ln in text[start:].splitlines() if ln.startswith("| 0.1 |"))
    bad = text.replace(first_row, first_row.replace("| 0.1 |", "| 0.1 | 9.999 |", 1), 1)
    p = tmp_path / "page.md"
    p.write_text(bad)
    r = _tables("--readme", str(p))
    assert (r.returncode, r.stdout.strip()) == (1, "differ: headline")
    r = _tables("--readme", str(p), "--write")
    assert (r.returncode, r.stdout.strip()) == (0, "rewrote: headline")
    assert p.read_text() == text


def test_unknown_block_is_an_error(tmp_path):
    p = tmp_path / "README.md"
    p.write_text("<!-- results:nosuch -->\nx\n<!-- /results:nosuch -->\n")
    r = _tables("--readme", str(p))
    assert r.returncode != 0 and "no renderer" in r.stderr
