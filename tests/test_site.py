"""The documentation site (docs/mkdocs.yml, pages under docs/pages/) builds without a
warning, and the README is a short front page whose links lead to pages that exist."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")


def _readme():
    with open(README, encoding="utf-8") as f:
        return f.read()


def _links(text):
    """The README's relative link targets (anchors and query strings dropped)."""
    out = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # (a URL, or an anchor of the README itself)
        out.append(target.split("#")[0].split("?")[0])
    return out


def test_the_readme_is_a_front_page():
    assert len(_readme().splitlines()) <= 250


def test_every_readme_link_leads_to_a_file():
    links = _links(_readme())
    assert any(t.startswith("docs/pages/") for t in links)
    missing = [t for t in links if not os.path.exists(os.path.join(ROOT, t))]
    assert not missing, f"README links to files that do not exist: {missing}"


def test_every_page_is_in_the_navigation():
    with open(os.path.join(ROOT, "docs", "mkdocs.yml"), encoding="utf-8") as f:
        config = f.read()
    pages = os.path.join(ROOT, "docs", "pages")
    for folder, _, names in os.walk(pages):
        for n in names:
            if n.endswith(".md"):
                rel = os.path.relpath(os.path.join(folder, n), pages).replace(os.sep, "/")
                assert f": {rel}" in config, f"{rel} is not in docs/mkdocs.yml's nav"


def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install -e .[docs])")
    pytest.importorskip("material", reason="mkdocs-material is not installed (.[docs])")
    pytest.importorskip("mkdocstrings_handlers.python",
                        reason="mkdocstrings[python] is not installed (.[docs])")
    site = tmp_path / "site"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]),
        NO_MKDOCS_2_WARNING="1")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                        os.path.join(ROOT, "docs", "mkdocs.yml"), "-d", str(site)],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "WARNING" not in r.stderr, r.stderr
    # the pages the README links to, the figures from results/, the API and the CLI page
    assert (site / "guide" / "agents" / "index.html").exists()
    assert (site / "results" / "headline" / "fig_score.png").exists()
    api = (site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert "fastsweep.run" in api and "mine_probabilities" in api
    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "fastsweep sweep" in cli and "--agents" in cli
