# bench/: benchmark scripts and the NumPy baseline.
