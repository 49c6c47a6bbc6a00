"""The examples in the public docstrings run and print what they say (doctest).

Every module of the package whose source holds an example is checked (found by walking
the package, so a moved or new module cannot be missed); the modules whose examples write
files or run sweeps are left to their own tests (``OWN_TESTS``)."""
import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import fastsweep

OWN_TESTS = {"viz.figures": "test_plots", "sweep": "test_sweep", "cli.sweep": "test_sweep"}


def _modules_with_examples():
    found = []
    for info in pkgutil.walk_packages(fastsweep.__path__, "fastsweep."):
        spec = importlib.util.find_spec(info.name)
        with open(spec.origin, encoding="utf-8") as f:
            if ">>> " not in f.read():
                continue
        name = info.name.removeprefix("fastsweep.")
        if name not in OWN_TESTS:
            found.append(name)
    return sorted(found)


MODULES = _modules_with_examples()


def test_the_walk_finds_the_modules():
    assert {"options", "studies.hard", "kernels.engine.layout", "sweep.grid"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module("fastsweep." + name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
