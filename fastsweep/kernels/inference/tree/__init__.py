"""fastsweep/kernels/inference/tree."""
