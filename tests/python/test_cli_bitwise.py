"""pstencil.run() is bitwise what `pstencil run` writes, for every stencil,
both precisions and every backend that runs here, and keeps the input's
coordinates and attributes; its reductions are the program's."""
import math

import numpy as np
import pytest
import xarray as xr

import pstencil
from conftest import add_currents, ocean, read_nc, write_nc

STENCILS = [n for n, s in pstencil.stencils().items()]
BACKENDS = [n for n, b in pstencil.backends().items() if b.get("devices")]
STEPS = 7


def same_bits(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    d = tmp_path_factory.mktemp("bitwise")
    da = ocean()
    write_nc(da, d / "in.nc")
    add_currents(da, d / "in.nc")  # for the stencils that take currents
    return da, d


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("precision", ["float", "double"])
@pytest.mark.parametrize("stencil", STENCILS)
def test_bitwise_cli(case, cli, stencil, precision, backend):
    da, d = case
    out = d / ("%s_%s_%s.nc" % (stencil, precision, backend))
    cli("run", d / "in.nc", "-o", out, "--stencil", stencil, "--precision", precision,
        "--backend", backend, "--steps", STEPS, "--no-progress", "--force")
    want = read_nc(out).isel(time=-1)
    # the currents of a stencil that takes them: the same file's uo and vo
    vel = str(d / "in.nc") if pstencil.stencils()[stencil]["inputs"] else None
    got = pstencil.run(da, stencil=stencil, precision=precision, backend=backend,
                       steps=STEPS, progress=False, velocity=vel)
    assert got.dtype == want.dtype
    assert same_bits(got.values, want.values), "%s %s %s differs from the program" % (
        stencil, precision, backend)
    assert got.attrs["pstencil_backend"] == backend
    assert got.attrs["pstencil_stencil"] == stencil
    for c in ("depth", "latitude", "longitude"):
        assert same_bits(got[c].values, da[c].values)
        assert got[c].attrs == da[c].attrs


def test_records_and_time_as_the_cli(case, cli):
    """output_every: the records, steps and CF times are the program's."""
    da, d = case
    out = d / "records.nc"
    cli("run", d / "in.nc", "-o", out, "--stencil", "hdiff", "--kh", "500", "--dt", "auto",
        "--steps", "10", "--output-every", "4", "--backend", "reference", "--no-progress",
        "--force")
    want = read_nc(out)
    got = pstencil.run(da, stencil="hdiff", kh=500, dt="auto", steps=10, output_every=4,
                       backend="reference", progress=False)
    assert got.dims == want.dims
    assert same_bits(got.values, want.values)
    with xr.open_dataset(out) as ds:  # the file's step: a variable of its own
        assert list(got["step"].values) == list(ds["step"].values) == [0, 4, 8, 10]
    # the file holds days since the input's date as doubles, decoded to ns by xarray
    lag = np.abs(got["time"].values - want["time"].values).astype("timedelta64[ns]")
    assert (lag <= np.timedelta64(1, "us")).all(), lag
    with xr.open_dataset(out) as ds:
        assert got.attrs["pstencil_seconds_per_step"] == ds.attrs["pstencil_seconds_per_step"]


def test_reductions_as_the_cli(case, cli):
    """The reductions of every record (the report's and the coordinates over time)
    are bitwise the program's NAME_content, _volume, _mean, _min and _max; a NumPy
    field without coordinates weighs every cell 1."""
    da, d = case
    out = d / "reductions.nc"
    cli("run", d / "in.nc", "-o", out, "--stencil", "hdiff", "--precision", "double",
        "--steps", "6", "--output-every", "3", "--backend", "reference", "--no-progress",
        "--force")
    got, rep = pstencil.run(da, stencil="hdiff", precision="double", steps=6, output_every=3,
                            backend="reference", progress=False, with_report=True)
    red = rep["reductions"]["thetao"]
    assert list(red["step"]) == [0, 3, 6]
    assert rep["volume_weights"] == "m3"
    with xr.open_dataset(out) as ds:
        for key in ("content", "volume", "mean", "min", "max"):
            want = ds["thetao_" + key].values
            assert same_bits(red[key], want), key
            assert same_bits(got["thetao_" + key].values, want), key
            assert got["thetao_" + key].attrs["cell_methods"] == ds["thetao_" + key].attrs[
                "cell_methods"]
    f = da.isel(time=0).values
    _, rep = pstencil.run(f, steps=2, backend="reference", progress=False, with_report=True)
    red = rep["reductions"]["thetao"]
    assert rep["volume_weights"].startswith("1 per cell")
    assert list(red["volume"]) == [float(np.count_nonzero(~np.isnan(f)))] * 2
    assert red["content"][0] == math.fsum(f[~np.isnan(f)].astype(np.float64))


def test_numpy_input_with_coordinates(case, cli):
    """A NumPy array plus coordinates runs as the same field from a file."""
    da, d = case
    out = d / "np.nc"
    cli("run", d / "in.nc", "-o", out, "--stencil", "hdiff", "--steps", "5",
        "--backend", "reference", "--no-progress", "--force")
    want = read_nc(out).isel(time=-1)
    f = da.isel(time=0)
    got = pstencil.run(f.values, coords=(f.depth.values, f.latitude.values,
                                         f.longitude.values),
                       stencil="hdiff", steps=5, backend="reference", progress=False)
    assert same_bits(got.values, want.values)


def test_axes_found_in_any_order_and_by_name(case, cli):
    """Dimensions in another order, named only (no attributes) for depth: found
    as the program finds them; the result is (depth, latitude, longitude)."""
    da, d = case
    out = d / "order.nc"
    cli("run", d / "in.nc", "-o", out, "--steps", "3", "--backend", "reference",
        "--no-progress", "--force")
    want = read_nc(out).isel(time=-1)
    perm = da.isel(time=0).transpose("longitude", "depth", "latitude")
    perm = perm.rename({"latitude": "lat", "longitude": "lon"})
    for c in ("lat", "lon"):
        perm[c].attrs = {}
    got = pstencil.run(perm, steps=3, backend="reference", progress=False)
    assert got.dims == ("depth", "lat", "lon")
    assert same_bits(got.values, want.values)
    assert got.attrs["units"] == "degC"


def test_builtin_ocean_is_the_programs(tmp_path, cli):
    """pstencil.ocean() is the field and axes `pstencil gen` writes, and a run
    on it is bitwise the program's run of that file."""
    cli("gen", "-o", tmp_path / "g.nc", "--scale", "0.2", "--seed", "3")
    with xr.open_dataset(tmp_path / "g.nc") as ds:
        want = ds["thetao"].isel(time=2).load()
    got = pstencil.ocean(scale=0.2, seed=3, time_index=2)
    assert same_bits(got.values, want.values)
    for c in ("depth", "latitude", "longitude"):
        assert np.allclose(got[c].values, want[c].values, rtol=0, atol=1e-9), c
    cli("run", tmp_path / "g.nc", "--time-index", "2", "-o", tmp_path / "r.nc", "--steps", "4",
        "--backend", "reference", "--no-progress")
    r = pstencil.run(got, steps=4, backend="reference", progress=False)
    assert same_bits(r.values, read_nc(tmp_path / "r.nc").isel(time=-1).values)


@pytest.mark.parametrize("variant", ["lon_wraps", "depth_km", "heights_up", "degrees"])
def test_coordinates_converted_as_the_program(tmp_path, cli, variant):
    """hdiff reads the grid's coordinates: units, positive and a longitude wrap
    are converted as the program converts a file's."""
    da = ocean(nx=9).isel(time=0)
    lon, depth = da.longitude, da.depth
    if variant == "lon_wraps":
        lon = lon.copy(data=(np.linspace(170.0, 190.0, 9) + 180) % 360 - 180)
    elif variant == "depth_km":
        depth = depth.copy(data=depth.values / 1000)
        depth.attrs["units"] = "km"
    elif variant == "heights_up":
        depth = depth.copy(data=-depth.values)
        depth.attrs["positive"] = "up"
    else:
        lon.attrs["units"] = "degrees"
        del lon.attrs["standard_name"]
        lon.attrs["axis"] = "X"
    da = da.assign_coords(longitude=lon, depth=depth)
    write_nc(da, tmp_path / "in.nc")
    cli("run", tmp_path / "in.nc", "-o", tmp_path / "out.nc", "--stencil", "hdiff",
        "--steps", "4", "--backend", "reference", "--no-progress")
    want = read_nc(tmp_path / "out.nc").isel(time=-1)
    got = pstencil.run(da, stencil="hdiff", steps=4, backend="reference", progress=False)
    assert same_bits(got.values, want.values), variant
