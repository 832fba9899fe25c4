"""The Python API beyond bitwise results: the no-copy rule, errors as
exceptions carrying the program's text, callbacks, the listings and the
accessor."""
import gc
import os
import re
import threading
import time

import numpy as np
import pytest
import xarray as xr

import pstencil
from conftest import currents, ocean, write_nc


def field(nz=6, ny=9, nx=11, dtype=np.float32):
    return np.ascontiguousarray(ocean(nz, ny, nx, dtype=dtype, time=False).values)


def test_no_copy_of_a_contiguous_input_of_the_working_precision():
    for dtype, precision in ((np.float32, "float"), (np.float64, "double")):
        a = field(dtype=dtype)
        keep = a.copy()
        out, rep = pstencil.run_array(a, steps=3, backend="reference", progress=False)
        assert rep["precision"] == precision
        assert not rep["input_copied"]
        assert rep["input_address"] == a.__array_interface__["data"][0]
        assert rep["result_address"] == out.__array_interface__["data"][0]
        assert np.array_equal(a, keep, equal_nan=True), "the input was changed"


def test_one_documented_copy_otherwise():
    a = field(dtype=np.float64)
    _, rep = pstencil.run_array(a, steps=1, precision="float", progress=False)
    assert rep["input_copied"]
    b = np.asfortranarray(field())
    _, rep = pstencil.run_array(b, steps=1, progress=False)
    assert rep["input_copied"]
    with pytest.raises(ValueError, match="inplace=True needs a C-contiguous float32"):
        pstencil.run_array(b, steps=1, inplace=True, progress=False)


def test_inplace_steps_the_callers_buffer():
    a = field()
    want, _ = pstencil.run_array(a, steps=4, backend="reference", progress=False)
    addr = a.__array_interface__["data"][0]
    out, rep = pstencil.run_array(a, steps=4, backend="reference", inplace=True,
                                  progress=False)
    assert out is a and rep["input_address"] == rep["result_address"] == addr
    assert a.tobytes() == want.tobytes()


def test_dataarray_input_read_in_place():
    da = ocean(time=False)
    _, rep = pstencil.run(da, steps=2, progress=False, with_report=True)
    assert not rep["input_copied"]
    assert rep["input_address"] == da.values.__array_interface__["data"][0]


def test_bad_option_value_is_the_programs_message(cli, tmp_path):
    da = ocean()
    write_nc(da, tmp_path / "in.nc")
    for args, kw in ((["--coeff", "7"], {"coeff": 7}),
                     (["--steps", "-3"], {"steps": -3}),
                     (["--mode", "quick"], {"mode": "quick"}),
                     (["--stencil", "nope"], {"stencil": "nope"}),
                     (["--precision", "half"], {"precision": "half"}),
                     (["--kh", "-1", "--stencil", "hdiff"], {"kh": -1, "stencil": "hdiff"})):
        p = cli("run", tmp_path / "in.nc", "-o", tmp_path / "o.nc", "--no-progress", *args,
                check=False)
        assert p.returncode == 2, p.stderr
        m = re.search(r"pstencil: error: (.*)", p.stderr, re.S)
        assert m, p.stderr
        with pytest.raises(ValueError) as e:
            pstencil.run(da, progress=False, **kw)
        assert isinstance(e.value, pstencil.InvalidError)
        assert isinstance(e.value, pstencil.Error)
        assert str(e.value) == m.group(1).strip(), args


def test_error_classes():
    a = field()
    with pytest.raises(pstencil.BackendError, match="unknown backend 'nope'"):
        pstencil.run_array(a, backend="nope", progress=False)
    with pytest.raises(pstencil.InvalidError, match="needs the grid's coordinates"):
        pstencil.run_array(a, stencil="hdiff", progress=False)
    with pytest.raises(pstencil.InvalidError, match="3-D"):
        pstencil.run_array(a[0], progress=False)
    with pytest.raises(pstencil.BlowUpError, match="blew up"):
        pstencil.run_array(a, stencil="diffusion7", coeff=50, allow_unstable=True, steps=200,
                           backend="reference", progress=False)
    da = ocean().rename({"depth": "weird"})
    da["weird"].attrs = {}
    with pytest.raises(pstencil.InvalidError, match="dimension 'weird'"):
        pstencil.run(da, progress=False)


def test_exception_in_a_callback_stops_the_run_and_is_raised():
    class Boom(Exception):
        pass

    seen = []

    def progress(done, total, elapsed):
        seen.append(done)
        raise Boom("from progress")
    a = field(12, 40, 40)
    with pytest.raises(Boom) as e:
        pstencil.run_array(a, steps=400, progress=progress, backend="reference")
    assert len(seen) == 1
    assert e.value.pstencil_report["interrupted"]


def test_progress_reaches_the_total():
    calls = []
    pstencil.run_array(field(), steps=40, progress=lambda d, t, s: calls.append((d, t)))
    assert calls and calls[-1] == (40, 40)
    assert all(t == 40 for _, t in calls) and len(calls) <= 21


def test_a_watched_run_keeps_its_steps_in_long_calls():
    """Watching the progress (which the binding always does) must not cut a run
    into calls of a few steps, which would cut the backend's fused sweeps. The
    first call is 1/20 of the run; each next one is as many steps as take 0.25 s
    at the pace so far (the elapsed seconds the callback gets), in whole
    multiples of 48 (core/ps_driver.c). How many calls that makes depends on
    the machine's load, so the rule is checked call by call; a run of
    milliseconds goes in two."""
    calls = []
    steps = 960
    pstencil.run_array(field(), steps=steps,
                       progress=lambda d, t, s: calls.append((d, s)))
    assert calls[0][0] == steps // 20 and calls[-1][0] == steps, calls
    cap = steps // 20
    for (done, spent), (nxt, _) in zip(calls, calls[1:]):
        if spent > 0:
            want = 0.25 / (spent / done)
            cap = (int(want) // 48 * 48 if want >= 48 else
                   int(want) // 16 * 16 if want >= 16 else max(1, int(want)))
        assert nxt - done == min(cap, steps - done), (calls, done, cap)
    if calls[0][1] * 20 < 0.25:
        assert len(calls) == 2, calls


def test_gil_released_while_stepping():
    """Another thread runs Python while the job steps (the GIL is released). Held
    through the C call, this thread could run only inside the job's callbacks: 20
    progress calls and 21 cancel polls here; released, it ticks every millisecond."""
    a = field(30, 160, 160)
    ticks = []
    started = threading.Event()
    done = threading.Event()

    def work():
        started.set()
        pstencil.run_array(a, steps=200, backend="reference", progress=False)
        done.set()
    t = threading.Thread(target=work)
    t.start()
    started.wait()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    assert len(ticks) > 200, "the main thread ran %d times during the run" % len(ticks)


def test_listings():
    s = pstencil.stencils()
    assert "diffusion7" in s and "hdiff" in s
    assert s["hdiff"]["needs_coordinates"] and not s["diffusion7"]["needs_coordinates"]
    assert s["diffusion7"]["land_sum"] and not s["hdiff"]["land_sum"]
    assert s["diffusion7"]["options"]["coeff"]["default"] == 0.1
    o = s["diffusion7"]["options"]["coeff"]
    assert o["min"] <= o["default"] <= o["max"] and o["help"]
    assert s["hdiff"]["options"]["dt"]["auto"]
    b = pstencil.backends()
    assert b["reference"]["built"] and b["reference"]["devices"]
    assert "steps" in pstencil.options() and "output-every" in pstencil.options()


def test_accessor_and_validate():
    da = ocean()
    a = da.pstencil.run(steps=3, backend="reference", progress=False)
    b = pstencil.run(da, steps=3, backend="reference", progress=False)
    assert a.values.tobytes() == b.values.tobytes()
    assert a.attrs["pstencil_checksum"] == b.attrs["pstencil_checksum"]
    assert a.coords.to_dataset().identical(b.coords.to_dataset())
    v = da.pstencil.validate(steps=3, backends=["reference", "openmp"])
    assert v["openmp"]["equal"] and v["openmp"]["max_abs_diff"] == 0.0


def test_nothing_kept_after_runs():
    """Repeated runs do not grow the process (jobs and buffers freed)."""
    a = field(20, 100, 100)

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    for _ in range(3):
        pstencil.run_array(a, steps=2, progress=False)
    gc.collect()
    r0 = rss()
    for _ in range(20):
        pstencil.run_array(a, steps=2, progress=False)
    gc.collect()
    assert rss() - r0 < 4 * a.nbytes, "RSS grew by %d bytes" % (rss() - r0)


def test_tqdm_draws_the_progress_when_installed(monkeypatch):
    """progress=None: a tqdm bar (tqdm.auto) fed by the job's progress callback."""
    import sys
    import types
    bars = []

    class Bar:
        def __init__(self, total, **kw):
            self.total, self.n, self.closed = total, 0, False
            bars.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True
    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = Bar
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    pstencil.run_array(field(), steps=30)
    assert len(bars) == 1 and bars[0].total == 30 and bars[0].n == 30 and bars[0].closed


def test_python_values_become_option_text():
    """A tuple split, a flag, a float option: the same run as their text forms."""
    a = field(8, 20, 20)
    want, _ = pstencil.run_array(a, steps=5, coeff="0.15", backend="reference",
                                 progress=False)
    got, rep = pstencil.run_array(a, steps=5, coeff=0.15, split=(2, 1, 2),
                                  allow_unstable=True, backend="reference", progress=False)
    assert rep["boxes"] == 4
    assert got.tobytes() == want.tobytes()


def test_every_error_path_of_the_python_side(tmp_path):
    """The checks made in Python before the job: each raises an Error subclass naming
    the problem."""
    da = ocean()
    hd = {"stencil": "hdiff", "steps": 1, "progress": False}
    cases = []
    bad = da.copy()
    bad["latitude"] = bad.latitude.copy(data=np.linspace(80.0, 100.0, bad.sizes["latitude"]))
    cases.append((bad, hd, pstencil.InvalidError, "outside \\[-90, 90\\]"))
    bad = da.copy()
    bad["depth"] = bad.depth.copy(data=np.arange(6.0))
    bad["depth"].attrs = {"units": "dbar", "positive": "down"}
    cases.append((bad, hd, pstencil.InvalidError, "depth: coordinate 'depth' has units 'dbar'"))
    bad = da.copy()
    bad["longitude"].attrs = {"standard_name": "grid_longitude", "units": "degrees"}
    cases.append((bad, hd, pstencil.InvalidError, "rotated-pole"))
    bad = da.copy()
    bad["latitude"] = bad.latitude.copy(data=np.full(bad.sizes["latitude"], np.nan))
    cases.append((bad, hd, pstencil.InvalidError, "non-finite"))
    cases.append((da.drop_vars("longitude"), hd, pstencil.InvalidError,
                  "dimension 'longitude' has no coordinate variable"))
    cases.append((da, {"time_index": 3}, pstencil.InvalidError, "time-index: 3 is outside 0..0"))
    cases.append((da.isel(depth=0), {}, pstencil.InvalidError, "has no depth dimension"))
    two = da.rename({"latitude": "lat"})
    two["lat"].attrs = {"units": "degrees_east"}
    cases.append((two, {}, pstencil.InvalidError, "are both longitude"))
    for data, kw, cls, msg in cases:
        with pytest.raises(cls, match=msg):
            pstencil.run(data, **kw)
    with pytest.raises(pstencil.InvalidError, match="coords= is for a NumPy field"):
        pstencil.run(da, coords=(1, 2, 3))
    with pytest.raises(pstencil.InvalidError, match="must be 3-D"):
        pstencil.run(np.zeros((2, 3)))
    with pytest.raises(pstencil.InvalidError, match="has 4 values for 6 cells"):
        pstencil.run_array(field(), coords=(np.arange(4.0), None, None))
    with pytest.raises(pstencil.InvalidError, match="time_index 9 is out of range"):
        pstencil.ocean(scale=0.1, time_index=9)
    with pytest.raises(pstencil.InvalidError, match="--precision"):
        pstencil.run_array(field(), precision="half")
    # the program's file: written from memory, refused when it exists without force
    out = tmp_path / "o.nc"
    pstencil.run(da, steps=2, output=str(out), progress=False)
    assert out.exists()
    with pytest.raises(pstencil.FileError) as e:
        pstencil.run(da, steps=2, output=str(out), progress=False)
    assert isinstance(e.value, OSError) and "exists" in str(e.value)


def test_a_callback_exception_stops_only_its_own_run():
    """Two threads, a job each: the exception of one's callback stops that run only,
    even when the other run started later (and is the innermost of the process)."""
    a = field(20, 100, 100)
    want, _ = pstencil.run_array(a, steps=40, backend="reference", progress=False)
    got = {}
    boom_in = threading.Event()
    fine_in = threading.Event()

    def boom(done, total, s):
        boom_in.set()
        fine_in.wait(10)
        raise RuntimeError("mine")

    def fine(done, total, s):
        fine_in.set()

    def work(name, progress):
        try:
            got[name] = pstencil.run_array(a, steps=40, backend="reference",
                                           progress=progress)[0]
        except RuntimeError as e:
            got[name] = e
    t1 = threading.Thread(target=work, args=("boom", boom))
    t1.start()
    boom_in.wait(10)
    t2 = threading.Thread(target=work, args=("fine", fine))
    t2.start()
    t1.join()
    t2.join()
    assert isinstance(got["boom"], RuntimeError) and str(got["boom"]) == "mine"
    assert isinstance(got["fine"], np.ndarray) and got["fine"].tobytes() == want.tobytes()


def test_velocity_from_a_file_a_dataset_and_a_dict_agree(tmp_path, cli):
    da = ocean(dtype=np.float64, time=False)
    ds, arrays = currents(da)
    vel = tmp_path / "vel.nc"
    ds.to_netcdf(vel)
    ds_cm = ds.copy()
    for n in ("uo", "vo"):
        ds_cm[n] = ds[n] * 100.0
        ds_cm[n].attrs = dict(ds[n].attrs, units="cm s-1")
    vel_cm = tmp_path / "vel_cm.nc"
    ds_cm.to_netcdf(vel_cm)
    kw = dict(stencil="tracer", steps=4, backend="reference", progress=False,
              with_report=True)
    a, ra = pstencil.run(da, velocity=str(vel), **kw)
    b, rb = pstencil.run(da, velocity=ds, **kw)
    c, rc = pstencil.run(da, velocity=arrays, **kw)
    assert "vel.nc, variable uo, record 0" in ra["inputs"]["u"]
    assert rb["inputs"]["v"] == "the caller's memory"
    assert rc["inputs"]["w"] == "not given"
    assert ra["checksum"] == rb["checksum"] == rc["checksum"]
    assert not np.array_equal(a.values, da.values, equal_nan=True), "nothing moved"
    # the program on the same file and currents: bitwise the same
    src = tmp_path / "in.nc"
    write_nc(da, src)
    p = cli("run", src, "--stencil", "tracer", "-n", 4, "-b", "reference", "-p", "double",
            "--velocity", vel, "-o", tmp_path / "out.nc")
    assert ra["checksum"] in p.stdout
    # cm s-1 in a file is converted; in a Dataset it is refused
    d, rd = pstencil.run(da, velocity=str(vel_cm), **kw)
    assert "converted from cm s-1 to m s-1" in rd["inputs"]["u"]
    assert np.allclose(d.values, a.values, rtol=1e-6, equal_nan=True)
    with pytest.raises(pstencil.InvalidError, match="has units 'cm s-1'"):
        pstencil.run(da, velocity=ds_cm, **kw)


def test_velocity_refusals():
    da = ocean(dtype=np.float64, time=False)
    _, arrays = currents(da)
    kw = dict(stencil="tracer", steps=1, backend="reference", progress=False)
    with pytest.raises(pstencil.Error, match="needs the eastward current"):
        pstencil.run(da, **kw)
    holes = dict(arrays)
    holes["u"] = arrays["u"].copy()
    ocean_cell = np.argwhere(~np.isnan(da.values))[0]
    holes["u"][tuple(ocean_cell)] = np.nan
    with pytest.raises(pstencil.Error, match=r"u \(.*the caller's memory\) is missing at "
                       r"ocean cell \(level %d, row %d, column %d\)" % tuple(ocean_cell)):
        pstencil.run(da, velocity=holes, **kw)
    with pytest.raises(pstencil.Error, match="stencil tracer has other inputs|input 'q' given"):
        pstencil.run(da, velocity=dict(arrays, q=arrays["u"]), **kw)
    assert pstencil.stencils()["tracer"]["inputs"]["u"]["standard_names"][0] == \
        "eastward_sea_water_velocity"


def test_a_dataset_of_several_fields_in_and_out(tmp_path, cli):
    """A Dataset with temperature, salinity and the currents: tracers= steps both with
    the Dataset's own currents; each field bitwise its own run and the program's
    --tracers run on the same file; the result is a Dataset of both, each with its
    reductions; another land is refused."""
    ds = pstencil.ocean_dataset(scale=0.1)
    assert set(ds.data_vars) == {"thetao", "so", "uo", "vo"}
    assert np.array_equal(np.isnan(ds.thetao.values), np.isnan(ds.so.values))
    kw = dict(stencil="tracer", steps=4, backend="reference", progress=False,
              output_every=2)
    out, rep = pstencil.run(ds, tracers=["thetao", "so"], with_report=True, **kw)
    assert isinstance(out, xr.Dataset) and list(out.data_vars) == ["thetao", "so"]
    assert rep["fields"] == ["thetao", "so"]
    assert out.so.attrs["standard_name"] == "sea_water_salinity"
    assert "so_content" in out.so.coords and "thetao_mean" in out.thetao.coords
    t1, rt = pstencil.run(ds, with_report=True, **kw)          # the temperature found
    s1, rs = pstencil.run(ds, tracers="so", with_report=True, **kw)
    assert isinstance(t1, xr.Dataset) and list(t1.data_vars) == ["thetao"]
    assert rep["checksums"]["thetao"] == rt["checksum"]
    assert rep["checksums"]["so"] == rs["checksum"]
    assert out.so.values.tobytes() == s1.so.values.tobytes()
    assert np.array_equal(out.so_max.values, s1.so.coords["so_max"].values)
    assert rep["checksums"]["so"] != rep["checksums"]["thetao"]
    # the program on the generated file: the same bits (float32 both)
    gen = tmp_path / "g.nc"
    cli("gen", "--scale", 0.1, "-o", gen)
    p = cli("run", gen, "--stencil", "tracer", "-n", 4, "-b", "reference",
            "--tracers", "thetao,so", "-o", tmp_path / "o.nc")
    assert "so %s" % rep["checksums"]["so"] in p.stdout, p.stdout
    # arrays: run_array(fields=) returns a dict
    res, r2 = pstencil.run_array(ds.thetao.values, None, stencil="diffusion7", steps=3,
                                 backend="reference", progress=False,
                                 fields={"so": ds.so.values})
    assert list(res) == ["thetao", "so"] and r2["fields"] == ["thetao", "so"]
    alone, _ = pstencil.run_array(ds.so.values, None, stencil="diffusion7", steps=3,
                                  backend="reference", progress=False)
    assert res["so"].tobytes() == alone.tobytes()
    # refusals
    bad = ds.copy()
    so = ds.so.values.copy()
    so[0, 0, :] = np.where(np.isnan(so[0, 0, :]), 35.0, np.nan)
    bad["so"] = (ds.so.dims, so, ds.so.attrs)
    with pytest.raises(pstencil.InvalidError, match="every field needs the same land"):
        pstencil.run(bad, tracers=["thetao", "so"], **kw)
    with pytest.raises(pstencil.InvalidError, match="no variable salt"):
        pstencil.run(ds, tracers=["thetao", "salt"], **kw)
    with pytest.raises(pstencil.InvalidError, match="several candidates|name the fields"):
        pstencil.run(ds.drop_vars("thetao"), **kw)


def test_tune_measures_ranks_and_stores_like_the_program(tmp_path, monkeypatch):
    """pstencil.tune() is ps_job_tune(): a dry run stores nothing; a real one stores
    its chosen tiling under the key `pstencil run` then reads; every candidate's result
    is bitwise the same; bad requests and a stop from the callback store nothing."""
    if "openmp" not in pstencil.backends(probe=False):
        pytest.skip("no openmp backend")
    cache = tmp_path / "tune" / "openmp-tune.txt"
    monkeypatch.setenv("PSTENCIL_TUNE_FILE", str(cache))
    da = ocean(8, 14, 40)
    calls = []
    r = pstencil.tune(da, threads=2, steps=4, rounds=2, dry_run=True,
                      progress=lambda d, t: calls.append((d, t)))
    assert not cache.exists() and not r["stored"]
    assert len(calls) == 2 * len(r["candidates"]) and calls[-1][0] == calls[-1][1]
    medians = [c["median_ms"] for c in r["candidates"]]
    assert medians == sorted(medians) and r["rule"]["rule"] and r["chosen"] is r["candidates"][0]
    assert r["grid"] == (8, 14, 40) and r["threads"] == 2 and len(r["chosen"]["ms"]) == 2
    assert "2 threads; 8x14x40; float32" in r["key"]
    # the same from a NumPy array with its coordinates, and stored
    values = np.ascontiguousarray(da.values[0])
    crd = tuple(da.coords[d].values for d in ("depth", "latitude", "longitude"))
    r2 = pstencil.tune(values, crd, threads=2, steps=4, rounds=1)
    assert r2["stored"] and r2["path"] == str(cache) and r2["key"] == r["key"]
    line = [x for x in cache.read_text().splitlines() if not x.startswith("#")]
    assert line == ["%s\t%d\t%d\t%.4f" % (r2["key"], r2["chosen"]["fused"],
                                         max(r2["chosen"]["tile_rows"], 1),
                                         r2["chosen"]["median_ms"])]
    before = cache.read_bytes()
    with pytest.raises(pstencil.InvalidError, match="--output"):
        pstencil.tune(da, output=str(tmp_path / "o.nc"))
    with pytest.raises(pstencil.BackendError, match="no fast path"):
        pstencil.tune(da, stencil="smooth2", kernel="fast")

    def stop(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        pstencil.tune(da, threads=1, steps=2, rounds=1, progress=stop)
    assert cache.read_bytes() == before
    assert not (tmp_path / "o.nc").exists()
