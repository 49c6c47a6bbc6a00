"""fastsweep/kernels/agents/solver."""
