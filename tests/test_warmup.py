"""fastsweep.warm: the families' kernels compiled (or loaded) ahead of a batch of work."""
import pytest

import fastsweep
from fastsweep.warmup import _stages, is_cold


def test_the_engine_families_start_once_the_engine_is_cached():
    stages = _stages(["basic", "probability", "linalg", "risk", "lookahead"], 2)
    first = {a for group in stages[0] for a in group}
    second = {a for group in stages[1] for a in group}
    assert first == {"basic", "probability", "linalg"} and second == {"risk", "lookahead"}
    assert all(len(stage) <= 2 for stage in stages)
    assert ["probability"] in stages[0]  # the heaviest alone on its core
    assert _stages(["basic"], 4) == [[["basic"]]]


def test_warm_loads_the_kernels_into_this_process():
    fastsweep.warm(["basic"], processes=1)
    assert not is_cold("basic")
    assert fastsweep.warm(["basic"]) < 5  # a second call loads nothing new


@pytest.mark.parametrize("processes", [0, -1, 1.5, True, "2"])
def test_bad_processes_are_refused(processes):
    with pytest.raises(ValueError, match="processes: a positive integer"):
        fastsweep.warm(["basic"], processes=processes)


def test_an_unknown_agent_is_named():
    with pytest.raises(KeyError, match="nosuch"):
        fastsweep.warm(["nosuch"])
