"""The README's measured numbers come from the committed results (scripts/readme_tables.py)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "scripts"))
import readme_tables  # noqa: E402


def test_readme_tables_match_the_committed_results():
    assert readme_tables.check() == [], "run: python3 scripts/readme_tables.py"


def test_a_changed_number_is_detected(tmp_path):
    with open(os.path.join(readme_tables.ROOT, "README.md")) as f:
        text = f.read()
    blocks = readme_tables.blocks(text)
    assert {"headline", "report", "engine", "inference-calls", "inference-games",
            "sweeps"} <= set(blocks)
    # edit one number of the headline table: check must name that block, sync must undo it
    first_row = next(ln for ln in blocks["headline"].splitlines() if ln.startswith("| 0.1 |"))
    bad = text.replace(first_row, first_row.replace("| 0.1 |", "| 0.1 | 9.999 |", 1), 1)
    p = tmp_path / "README.md"
    p.write_text(bad)
    assert readme_tables.check(str(p)) == ["headline"]
    assert readme_tables.sync(str(p)) == ["headline"]
    assert p.read_text() == text


def test_unknown_block_is_an_error():
    with pytest.raises(KeyError, match="no renderer"):
        readme_tables.render("<!-- results:nosuch -->\nx\n<!-- /results:nosuch -->")
