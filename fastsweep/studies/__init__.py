"""fastsweep/studies."""
