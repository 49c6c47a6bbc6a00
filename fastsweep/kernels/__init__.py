"""Numba kernels (numpy + numba only). Private: call them through the wrappers in fastsweep."""
