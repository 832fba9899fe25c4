#!/usr/bin/env python3
"""A correct, vectorised NumPy (or CuPy) implementation of pstencil's model.

docs/model.md (the default stencil), exactly: only interior ocean cells change; for each the
six neighbours are visited in the order k-1, k+1, j-1, j+1, i-1, i+1, the
non-NaN ones summed starting from +0.0 and counted; then, in the array's
dtype (float32 stays float32), t1 = n*c; t2 = s - t1; t3 = D*t2; t4 = t3/n;
T' = c + t4 (n == 0 keeps c). Jacobi: each step reads the old field and
writes a new one; boundary faces and land are copied.

Every operation is one NumPy ufunc on whole arrays, each rounded once in the
working precision, so the float32 result is bitwise what pstencil's
reference backend computes (bench/run-bench.sh checks it).

Unlike the course's NumPy code it does not tile the field over time (cost is
linear in the step count), uses n*c rather than 6*c, and never updates in
place.

Usage: numpy_baseline.py INPUT.nc [--steps N] [--precision float32|float64]
       [--coeff D] [--var thetao] [--time-index I] [--output OUT.npy|OUT.nc]
       [--repeat R] [--xp numpy|cupy|auto] [--variant simple|masked]
Prints one line: "numpy_baseline: xp=numpy variant=simple precision=float32 grid=... steps=N
ms_per_step=X std_ms=Y total_s=Z"; exit 77 if numpy/netCDF4 are missing.
"""
import argparse
import sys
import time

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.stderr.write("numpy_baseline: numpy is not installed (Debian: python3-numpy)\n")
    sys.exit(77)


def load_field(path, var, tindex, dtype):
    """Read one time record of the temperature as a (depth, lat, lon) array, NaN land."""
    if path.endswith(".npy"):
        return np.ascontiguousarray(np.load(path).astype(dtype))
    try:
        import netCDF4
    except ImportError:
        sys.stderr.write("numpy_baseline: netCDF4 is not installed (Debian: python3-netcdf4)\n")
        sys.exit(77)
    with netCDF4.Dataset(path) as ds:
        if var is None:
            var = "thetao" if "thetao" in ds.variables else None
            if var is None:
                cands = [n for n, v in ds.variables.items()
                         if v.ndim in (3, 4) and getattr(v, "standard_name", "").startswith("sea_water")]
                if len(cands) != 1:
                    sys.exit("numpy_baseline: cannot tell the temperature variable: %s" % cands)
                var = cands[0]
        v = ds.variables[var]
        v.set_auto_maskandscale(True)  # _FillValue / missing_value / valid range -> masked
        a = v[tindex] if v.ndim == 4 else v[:]
        a = np.ma.masked_invalid(a)
        return np.ascontiguousarray(np.ma.filled(a.astype(dtype), np.nan))


def nbs(T):
    """The six neighbours of every interior cell, in the fixed order."""
    return (T[:-2, 1:-1, 1:-1], T[2:, 1:-1, 1:-1],   # k-1, k+1
            T[1:-1, :-2, 1:-1], T[1:-1, 2:, 1:-1],   # j-1, j+1
            T[1:-1, 1:-1, :-2], T[1:-1, 1:-1, 2:])   # i-1, i+1


I = (slice(1, -1),) * 3  # the interior


def simple_stepper(xp, T0, coeff):
    """docs/model.md's model written literally with whole-array operations.

    Every step tests every neighbour for NaN: s = sum of where(isnan(v), 0, v)
    from +0.0, n = the count as a float, then t1..t4 and c + t4, keeping c
    for land and for cells with no ocean neighbour. Exact for any input.
    """
    dtype = T0.dtype
    D = dtype.type(coeff)
    zero = dtype.type(0.0)

    def step(T, out):
        c = T[I]
        s = xp.zeros(c.shape, dtype)  # +0.0
        n = xp.zeros(c.shape, dtype)
        for v in nbs(T):
            ok = ~xp.isnan(v)
            s = s + xp.where(ok, v, zero)
            n = n + ok.astype(dtype)
        t1 = n * c
        t2 = s - t1
        t3 = D * t2
        t4 = t3 / n
        out[I] = xp.where(xp.isnan(c) | (n == zero), c, c + t4)

    a = xp.asarray(T0)
    return step, a, a.copy(), (lambda f: f)


def masked_stepper(xp, T0, coeff):
    """The same arithmetic with the land mask computed once.

    The NaN mask never changes (only non-NaN cells are written; ocean
    temperatures cannot overflow to inf), so the neighbour counts and the
    cells to update are computed once and the field is kept with land stored
    as +0.0: adding a land neighbour's +0.0 leaves s bitwise unchanged (s
    starts at +0.0 and so is never -0.0), which is exactly the sum of
    where(isnan(v), 0, v) without the where. Operations write into
    preallocated arrays (no allocation per step).
    """
    dtype = T0.dtype
    D = dtype.type(coeff)
    zero = dtype.type(0.0)
    land_h = np.isnan(T0)
    land = xp.asarray(land_h)
    inner = tuple(x - 2 for x in T0.shape)
    n = xp.zeros(inner, dtype)  # neighbour count, as a float, constant
    for v in nbs(land):
        n += ~v
    upd = ~land[I] & (n != zero)  # interior ocean cells with an ocean neighbour
    s = xp.empty(inner, dtype)
    t = xp.empty(inner, dtype)
    u = xp.empty(inner, dtype)

    def step(T, out):
        c = T[I]
        s.fill(zero)  # +0.0
        for v in nbs(T):
            xp.add(s, v, out=s)
        xp.multiply(n, c, out=t)   # t1 = n*c
        xp.subtract(s, t, out=t)   # t2 = s - t1
        xp.multiply(D, t, out=t)   # t3 = D*t2
        xp.divide(t, n, out=t)     # t4 = t3/n  (n == 0 cells are not written)
        xp.add(c, t, out=u)        # c + t4
        xp.copyto(out[I], u, where=upd)

    def finish(f):
        np.copyto(f, T0, where=land_h)  # land back to the input's NaN (same bits)
        return f

    a = xp.asarray(np.where(land_h, zero, T0))
    return step, a, a.copy(), finish


def run(xp, T0, steps, coeff, variant):
    """Run the model; returns (final field as a NumPy array, seconds in the step loop)."""
    make = simple_stepper if variant == "simple" else masked_stepper
    # Jacobi double buffer: b starts as a copy, so faces, land and isolated
    # cells (never written) hold their values in both buffers
    step, a, b, finish = make(xp, T0, coeff)
    sync = (lambda: xp.cuda.Stream.null.synchronize()) if xp is not np else (lambda: None)
    sync()
    t0 = time.perf_counter()
    with np.errstate(invalid="ignore", divide="ignore"):
        for _ in range(steps):
            step(a, b)
            a, b = b, a
    sync()
    dt = time.perf_counter() - t0
    out = np.array(a if xp is np else xp.asnumpy(a), copy=True)
    return finish(out), dt


def pick_xp(name):
    if name == "numpy":
        return np
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy
        why = "no CUDA device"
    except Exception as e:  # ImportError, CUDA driver errors
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
    if name == "cupy":
        sys.exit("numpy_baseline: CuPy cannot run: %s" % why)
    return np


def save(path, field, src, var):
    if path.endswith(".npy"):
        np.save(path, field)
        return
    import netCDF4
    with netCDF4.Dataset(path, "w") as ds:
        nz, ny, nx = field.shape
        ds.createDimension("time", 1)
        ds.createDimension("depth", nz)
        ds.createDimension("latitude", ny)
        ds.createDimension("longitude", nx)
        v = ds.createVariable(var or "thetao", field.dtype, ("time", "depth", "latitude", "longitude"),
                              fill_value=np.nan)
        v.set_auto_maskandscale(False)
        v.source = "pstencil bench/numpy_baseline.py from %s" % src
        v[0] = field


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--precision", default="float32", choices=["float32", "float64", "float", "double"])
    ap.add_argument("--coeff", type=float, default=0.1)
    ap.add_argument("--var", default=None)
    ap.add_argument("--time-index", type=int, default=0)
    ap.add_argument("--output", default=None)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--xp", default="numpy", choices=["numpy", "cupy", "auto"])
    ap.add_argument("--variant", default="simple", choices=["simple", "masked"],
                    help="simple: NaN tests every step (exact for any input); "
                         "masked: land mask computed once, no allocation per step")
    a = ap.parse_args()
    if a.steps < 0 or a.repeat < 1:
        ap.error("--steps must be >= 0 and --repeat >= 1")
    dtype = np.dtype(np.float64 if a.precision in ("float64", "double") else np.float32)
    T0 = load_field(a.input, a.var, a.time_index, dtype)
    if T0.ndim != 3 or min(T0.shape) < 1:
        sys.exit("numpy_baseline: expected a 3-D field, got shape %s" % (T0.shape,))
    xp = pick_xp(a.xp)
    times = []
    for _ in range(a.repeat):
        out, dt = run(xp, T0, a.steps, a.coeff, a.variant)
        times.append(dt)
    ms = [1e3 * t / max(a.steps, 1) for t in times]
    mean = sum(ms) / len(ms)
    sd = (sum((m - mean) ** 2 for m in ms) / (len(ms) - 1)) ** 0.5 if len(ms) > 1 else 0.0
    if a.output:
        save(a.output, out, a.input, a.var)
    print("numpy_baseline: xp=%s variant=%s precision=%s grid=%dx%dx%d steps=%d repeat=%d "
          "ms_per_step=%.4f std_ms=%.4f total_s=%.4f" % (
              "cupy" if xp is not np else "numpy", a.variant, dtype.name, *T0.shape,
              a.steps, a.repeat, mean, sd, sum(times) / len(times)))


if __name__ == "__main__":
    main()
