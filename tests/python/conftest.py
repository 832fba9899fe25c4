"""Shared fixtures of the Python package's tests (run by tests/python/*.sh,
which put the build tree's package first on PYTHONPATH and $PSTENCIL in the
environment)."""
import os
import subprocess

import numpy as np
import pytest


def ocean(nz=6, ny=9, nx=11, seed=7, dtype=np.float32, time=True):
    """A small basin as a CF DataArray: random temperatures, a quarter of the
    cells land (NaN), depth in m, latitude and longitude in degrees."""
    import xarray as xr
    rng = np.random.default_rng(seed)
    t = (rng.random((nz, ny, nx)) * 20 - 2).astype(dtype)
    t[rng.random(t.shape) < 0.25] = np.nan
    coords = {
        "depth": ("depth", np.linspace(5.0, 405.0, nz),
                  {"units": "m", "positive": "down", "standard_name": "depth"}),
        "latitude": ("latitude", np.linspace(30.0, 42.0, ny),
                     {"units": "degrees_north", "standard_name": "latitude"}),
        "longitude": ("longitude", np.linspace(-20.0, -5.0, nx),
                      {"units": "degrees_east", "standard_name": "longitude"}),
    }
    dims = ("depth", "latitude", "longitude")
    if time:
        t = t[None]
        dims = ("time",) + dims
        coords["time"] = ("time", np.array(["2024-01-01T00:00"], dtype="datetime64[ns]"),
                          {"standard_name": "time"})
    return xr.DataArray(t, dims=dims, coords=coords, name="thetao",
                        attrs={"units": "degC", "long_name": "sea water temperature",
                               "standard_name": "sea_water_potential_temperature"})


def currents(da):
    """A gyre-like current over the field's grid (m s-1), as a Dataset with the CF
    standard names, and as a dict of arrays."""
    import xarray as xr
    nz, ny, nx = da.shape[-3:]
    k, j, i = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    u = -0.1 * np.cos(np.pi * j / (ny - 1)) * np.sin(np.pi * i / (nx - 1)) * np.exp(-k / 4.0)
    v = 0.1 * np.sin(np.pi * j / (ny - 1)) * np.cos(np.pi * i / (nx - 1)) * np.exp(-k / 4.0)
    dims = da.dims[-3:]
    coords = {d: da.coords[d] for d in dims}
    ds = xr.Dataset({
        "uo": xr.DataArray(u.astype(np.float32), dims=dims, coords=coords,
                           attrs={"standard_name": "eastward_sea_water_velocity",
                                  "units": "m s-1"}),
        "vo": xr.DataArray(v.astype(np.float32), dims=dims, coords=coords,
                           attrs={"standard_name": "northward_sea_water_velocity",
                                  "units": "m s-1"}),
    })
    return ds, {"u": ds["uo"].values.astype(np.float64), "v": ds["vo"].values.astype(np.float64)}


def add_currents(da, path):
    """Append currents(da) (uo, vo over depth, latitude, longitude) to file @p path."""
    ds, _ = currents(da)
    enc = {n: {"_FillValue": np.array(1e20, dtype=np.float32)} for n in ds.data_vars}
    ds.drop_vars(list(ds.coords)).to_netcdf(path, mode="a", encoding=enc)


@pytest.fixture
def cli():
    """Run the program: cli(args...) -> CompletedProcess (text)."""
    exe = os.environ.get("PSTENCIL")
    if not exe:
        pytest.skip("PSTENCIL is not set (run through tests/python/*.sh)")

    def run(*args, check=True):
        p = subprocess.run([exe] + [str(a) for a in args], capture_output=True, text=True)
        if check and p.returncode:
            raise AssertionError("pstencil %s: exit %d\n%s" % (" ".join(map(str, args)),
                                                               p.returncode, p.stderr))
        return p
    return run


def write_nc(da, path):
    """Write @p da as the program reads it: float32/64 with NaN as _FillValue."""
    enc = {da.name: {"_FillValue": np.array(1e20, dtype=da.dtype)}}
    for c in da.coords:
        enc[c] = {"_FillValue": None}
    da.to_dataset().to_netcdf(path, encoding=enc)


def read_nc(path, name="thetao"):
    import xarray as xr
    with xr.open_dataset(path) as ds:
        return ds[name].load()
