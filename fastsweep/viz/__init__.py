"""fastsweep/viz."""
