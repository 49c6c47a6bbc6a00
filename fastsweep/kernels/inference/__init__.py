"""fastsweep/kernels/inference."""
