"""MkDocs hooks of the documentation site (docs/mkdocs.yml).

* The figures the pages show live at the repository root (``results/``, ``examples/``),
  where the studies write them: they are added to the site under the same paths, so a
  page links to ``../results/headline/fig_score.png`` and nothing is copied into docs/.
* ``reference/cli.md`` is rendered at build time from the command line's own ``--help``
  (:func:`fastsweep.reference.cli_markdown`), so it cannot drift from the parser.
"""
from __future__ import annotations

import os
import sys

from mkdocs.structure.files import File

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOWN = (".png", ".gif", ".svg", ".jpg")


def on_files(files, config):
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from fastsweep.reference import cli_markdown

    for top in ("results", "examples"):
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith(SHOWN):
                    rel = os.path.relpath(os.path.join(folder, name), ROOT)
                    files.append(File(rel.replace(os.sep, "/"), ROOT, config["site_dir"],
                                      config["use_directory_urls"]))
    files.append(File.generated(config, "reference/cli.md", content=cli_markdown()))
    return files
