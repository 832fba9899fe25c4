"""pstencil from Python: run any stencil of the library on an xarray DataArray
or a NumPy array, in this process, on the caller's memory (docs/python.md).

    import pstencil, xarray as xr
    da = xr.open_dataset("ocean.nc")["thetao"]
    out = pstencil.run(da, steps=100)  # any stencil=..., its options as keywords
    pstencil.stencils()                # every stencil, its options and ranges
    pstencil.tune(da, threads=2)       # store this machine's fastest tiling for da's grid

The binding is cffi in API mode over libpstencil-job (job/pstencil_job.h).
"""
from ._errors import (BackendError, BlowUpError, CancelledError, Error, FileError,
                      InternalError, InvalidError, NoMemoryError)
from ._job import backends, options, run_array, stencils, tune_array
from ._xr import (find_axes, ocean, ocean_dataset, register_accessor as _register_accessor, run,
                  tune, validate)

__all__ = ["run", "run_array", "tune", "tune_array", "validate", "ocean", "ocean_dataset", "backends", "stencils", "options", "find_axes",
           "Error", "InvalidError", "BlowUpError", "NoMemoryError", "FileError",
           "BackendError", "CancelledError", "InternalError"]

_register_accessor()
