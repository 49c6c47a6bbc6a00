"""The documentation site (docs/mkdocs.yml, pages under docs/pages/) builds without a
warning, and the README is a short front page whose links lead to pages that exist."""
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

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
    assert (site / "guide" / "agents.html").exists()
    assert (site / "results" / "headline" / "fig_score.png").exists()
    api = (site / "reference" / "api.html").read_text(encoding="utf-8")
    assert "fastsweep.run" in api and "mine_probabilities" in api
    cli = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    assert "fastsweep sweep" in cli and "--agents" in cli
    _check_offline(site)


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.scripts = [], []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src") and v:
                self.links.append(v)
                if tag == "script" and k == "src":
                    self.scripts.append(v)


def _check_offline(site):
    """The built site works opened from the file system: every local link of every page
    names a file (not a folder, which file:// shows as a listing), no page loads a script
    from the network, and the search index is a script that defines it (the offline
    plugin's), beside the vendored worker shim every page loads."""
    links = folders = 0
    missing, remote = [], []
    for folder, _, names in os.walk(site):
        for name in names:
            if not name.endswith(".html") or name == "404.html":  # (404: a server's page)
                continue
            page = os.path.join(folder, name)
            p = _Links()
            with open(page, encoding="utf-8") as f:
                p.feed(f.read())
            remote += [(page, s) for s in p.scripts if re.match(r"^(https?:)?//", s)]
            for link in p.links:
                if re.match(r"^[a-z][a-z0-9+.-]*:", link) or link.startswith(("#", "//")):
                    continue
                target = link.split("#")[0].split("?")[0]
                if not target:
                    continue
                full = os.path.normpath(os.path.join(folder, target))
                links += 1
                if os.path.isdir(full):
                    folders += 1
                    missing.append((page, link, "a folder"))
                elif not os.path.isfile(full):
                    missing.append((page, link, "missing"))
    assert links > 1000 and not missing, missing[:10]
    assert not remote, remote[:5]
    with open(os.path.join(site, "search", "search_index.js"), encoding="utf-8") as f:
        text = f.read()
    assert text.startswith("var __index = ")
    index = json.loads(text[len("var __index = "):])
    titles = {d["title"] for d in index["docs"]}
    assert "Benchmarking an agent" in titles and len(index["docs"]) > 100
    assert os.path.isfile(os.path.join(site, "assets", "vendor", "iframe-worker-shim.js"))
