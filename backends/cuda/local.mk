# The cuda plugin (only this links the CUDA runtime).
