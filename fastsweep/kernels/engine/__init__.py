"""fastsweep/kernels/engine."""
