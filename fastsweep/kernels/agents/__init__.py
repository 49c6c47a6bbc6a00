"""fastsweep/kernels/agents."""
