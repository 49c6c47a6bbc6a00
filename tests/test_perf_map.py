"""fastsweep.tools.perf_map (scripts/bench/perf_map.py): the symbol map perf reads for the
kernels' JIT code (a line per function: hex address, hex size up to the next function,
name)."""
from fastsweep.tools.perf_map import write_map


def test_the_map_is_sorted_and_each_size_reaches_the_next_function(tmp_path):
    path = tmp_path / "perf-1.map"
    n = write_map({0x7000: "b", 0x1000: "a", 0x7010 + (2 << 20): "c"}, path)
    assert n == 3
    assert path.read_text().splitlines() == [
        "1000 6000 a",
        "7000 100000 b",  # a gap over 1 MB is not code of b's: capped
        f"{0x7010 + (2 << 20):x} 1000 c",
    ]


def test_no_functions_no_file(tmp_path):
    assert write_map({}, tmp_path / "perf-2.map") == 0
    assert not (tmp_path / "perf-2.map").exists()
