"""Developers' tools: speed benchmarks (:mod:`.bench`, the ``fastsweep bench`` command),
the map of compiled kernels and their sizes (:mod:`.perf_map`) and a readable dump of a
game state for debugging (:mod:`.debug`)."""
