"""Every code block of the README and of the documentation site runs as printed.

Each ```python and ```bash block of README.md and docs/pages/**/*.md is a test case. It
runs verbatim in a fresh folder that looks like the repository root to it (the
repository's files and folders linked there, ``.venv`` the environment running the tests,
``out/`` empty): a Python block by ``exec`` (one
namespace per block), a bash block by ``bash -e`` with the environment's ``bin`` first
on the PATH. A block passes when it raises nothing (bash: exits 0) within its time.

A few blocks are run elsewhere, with checks of what they print (``ELSEWHERE``: the test
that runs them), or not at all (``NOT_RUN``: each with its reason, e.g. a command that
takes hours). Both lists are written out here, not marked on the pages, so a block cannot
leave the suite without a change to this file; a listed block that no longer exists, or a
test named that does not, fails.
"""
from __future__ import annotations

import glob
import os
import re
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^[ \t]*```(python|bash)[^\n]*\n(.*?)^[ \t]*```", re.S | re.M)

# (page, first line of the block) -> the test that runs it, with checks of its output
ELSEWHERE = {
    ("docs/pages/guide/advisor.md", ".venv/bin/fastsweep advise examples/position.txt"):
        "tests/test_advise.py::test_readme_advisor_examples_run_verbatim",
    ("docs/pages/guide/advisor.md", "view = fastsweep.parse_position("):
        "tests/test_advise.py::test_readme_advisor_examples_run_verbatim",
    ("docs/pages/guide/hard-boards.md", "r = fastsweep.hard_board("):
        "tests/test_hard.py::test_readme_examples_run_and_the_cli_output_is_what_it_prints",
    ("docs/pages/guide/hard-boards.md", "f = ScoreObjective("):
        "tests/test_hard.py::test_readme_examples_run_and_the_cli_output_is_what_it_prints",
    ("docs/pages/guide/own-agent.md", "class FirstHidden:"):
        "tests/test_own_agents.py::test_the_readme_section_runs",
    ("docs/pages/guide/own-agent.md", "class Lowest:"):
        "tests/test_own_agents.py::test_the_readme_section_runs",
    ("docs/pages/guide/gymnasium.md", "envs = gym.make_vec("):
        "tests/test_own_agents.py::test_the_readme_section_runs",
    ("docs/pages/studies/influence.md", "r = longest_chain_board("):
        "tests/test_influence.py::test_readme_chain_search_example_runs",
    # the tutorial's steps build on each other: run in order, in one folder
    ("docs/pages/tutorial.md", "cat > my_agent.py"):
        "tests/test_scripts.py::test_the_tutorial_runs_in_order",
    ("docs/pages/tutorial.md", ".venv/bin/fastsweep sweep --agents my_agent.py"):
        "tests/test_scripts.py::test_the_tutorial_runs_in_order",
    ("docs/pages/tutorial.md", ".venv/bin/python -c \"import pandas"):
        "tests/test_scripts.py::test_the_tutorial_runs_in_order",
    ("docs/pages/tutorial.md", ".venv/bin/fastsweep profile --agents my_agent.py"):
        "tests/test_scripts.py::test_the_tutorial_runs_in_order",
}
# (page, first line) -> why it is not run by the suite
NOT_RUN = {
    ("README.md", "python3 scripts/main.py"):
        "the Quick start: scripts/test.py is what CI runs (.ci/run), and scripts/main.py "
        "runs in tests/test_scripts.py::test_main_then_the_headline_study_resumes_it",
    ("docs/pages/tutorial.md", "python3 -m venv .venv"):
        "the install: the suite runs in an installed environment; the Quick start's "
        "scripts install it on a fresh machine (CI runs scripts/test.py)",
    ("docs/pages/guide/installation.md", "python3 scripts/main.py"):
        "the Quick start, as in the README",
    ("docs/pages/guide/command-line.md", ".venv/bin/fastsweep bench --quick"):
        "6 minutes; what it prints and writes is tested with stand-in timings in "
        "tests/test_cli.py::test_bench_announces_compiling_and_writes_only_where_told",
    ("docs/pages/studies/reproduce.md", "python3 scripts/reproduce.py --quick"):
        "every step (hours at full size); each step's script runs in its tiny mode in "
        "tests/test_scripts.py, and --list there too",
    ("docs/pages/studies/benchmarks.md", "NUMBA_CACHE_DIR=$(mktemp -d) perf record"):
        "compiles every kernel into an empty cache (minutes) under Linux perf; "
        "perf_map.py --quick runs in tests/test_scripts.py",
}
TIMEOUT = 600  # seconds a block may take (the longest runs ~30 s warm)


def _first_line(code: str) -> str:
    """The first line of a block that is neither blank, a comment nor an import."""
    for line in code.splitlines():
        s = line.strip()
        if s and not s.startswith("#") and not re.match(r"(import|from) \w", s):
            return s
    return code.strip().splitlines()[0].strip()


def blocks():
    """(page, first line, language, code) of every block, README first."""
    pages = ["README.md"] + sorted(
        os.path.relpath(p, ROOT)
        for p in glob.glob(os.path.join(ROOT, "docs", "pages", "**", "*.md"), recursive=True))
    found = []
    for page in pages:
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            text = f.read()
        for m in FENCE.finditer(text):
            code = textwrap.dedent(m.group(2))  # (a block inside a list is indented)
            found.append((page, _first_line(code), m.group(1), code))
    return found


def _listed(key, table):
    """The entry of ``table`` whose page equals and whose first line starts the block's."""
    page, first = key
    hits = [k for k in table if k[0] == page and first.startswith(k[1])]
    return hits[0] if hits else None


BLOCKS = blocks()
RUN = [b for b in BLOCKS
       if _listed(b[:2], ELSEWHERE) is None and _listed(b[:2], NOT_RUN) is None]


@pytest.fixture
def repo_like(tmp_path, monkeypatch):
    """A fresh folder with the repository's files linked in (the blocks say
    ``examples/...``, ``scripts/...``, ``.venv/bin/...``) and no ``out/``: what a block
    writes stays here."""
    for name in os.listdir(ROOT):
        if name not in ("out", ".git", ".venv", ".pytest_cache"):
            os.symlink(os.path.join(ROOT, name), tmp_path / name)
    os.symlink(sys.prefix, tmp_path / ".venv")  # (the environment running the tests)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    return tmp_path


@pytest.mark.parametrize("page,first,lang,code", RUN,
                         ids=[f"{p}:{f[:40]}" for p, f, _, _ in RUN])
def test_the_block_runs_as_printed(page, first, lang, code, repo_like):
    if lang == "python":
        exec(compile(code, page, "exec"), {"__name__": "__doc_example__"})
        import matplotlib.pyplot as plt
        plt.close("all")
        return
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""),
               PYTHONPATH=os.pathsep.join([ROOT] + [p for p in os.environ.get(
                   "PYTHONPATH", "").split(os.pathsep) if p]))
    r = subprocess.run(["bash", "-e", "-c", code], cwd=repo_like, env=env, text=True,
                       capture_output=True, timeout=TIMEOUT)
    assert r.returncode == 0, f"{page}: {first}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"


def test_every_block_is_run_or_excused():
    """The lists above name blocks that exist, tests that exist and read the page, and
    reasons; and most blocks run here."""
    keys = [b[:2] for b in BLOCKS]
    for table in (ELSEWHERE, NOT_RUN):
        for page, first in table:
            assert any(p == page and f.startswith(first) for p, f in keys), \
                f"listed but not on the page any more: {page}: {first}"
    for (page, _), where in ELSEWHERE.items():
        path, name = where.split("::")
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            src = f.read()
        assert f"def {name}(" in src, where
        # the test reads that page (its path's last parts appear in its source)
        assert os.path.basename(page) in src, (where, page)
    assert all(len(why) > 20 for why in NOT_RUN.values())
    assert len(RUN) >= 2 * len(NOT_RUN)
