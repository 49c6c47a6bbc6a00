"""The examples in the public docstrings run and print what they say (doctest).

Modules whose examples write files or run sweeps (plots, sweep, sweep_cli) are left to
their own tests."""
import doctest
import importlib

import pytest

MODULES = ["agents", "cli", "debug", "hard", "inference", "influence", "influence_search",
           "noise", "options", "output", "pictures", "positions", "runner", "search_layouts", "stats", "trace",
           "kernels.layout", "sweep.grid", "sweep.grow", "sweep.progress", "sweep.table"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module("fastsweep." + name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
