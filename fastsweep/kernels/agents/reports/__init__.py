"""fastsweep/kernels/agents/reports."""
