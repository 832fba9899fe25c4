#!/usr/bin/env python3
"""A correct, vectorised NumPy (or CuPy) implementation of pstencil's model.

design.md section 1, exactly: only interior ocean cells change; for each the
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
       [--repeat R] [--xp numpy|cupy|auto]
Prints one line: "numpy_baseline: xp=numpy precision=float32 grid=... steps=N
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


def make_stepper(xp, shape, dtype, coeff):
    """Return step(src, dst) for arrays of this shape (dst's faces already equal src's)."""
    D = dtype.type(coeff)
    zero = dtype.type(0.0)
    inner = tuple(s - 2 for s in shape)
    s = xp.empty(inner, dtype)
    n = xp.empty(inner, dtype)
    if xp is np:
        valid = np.empty(inner, bool)
        invalid = np.empty(inner, bool)
        tmp = np.empty(inner, dtype)

    def step(T, out):
        c = T[1:-1, 1:-1, 1:-1]
        nbs = (T[:-2, 1:-1, 1:-1], T[2:, 1:-1, 1:-1],   # k-1, k+1
               T[1:-1, :-2, 1:-1], T[1:-1, 2:, 1:-1],   # j-1, j+1
               T[1:-1, 1:-1, :-2], T[1:-1, 1:-1, 2:])   # i-1, i+1
        s.fill(zero)  # +0.0
        n.fill(zero)
        for nb in nbs:
            if xp is np:
                np.isnan(nb, out=invalid)
                np.logical_not(invalid, out=valid)
                # a NaN neighbour adds +0.0: s + 0.0 == s bitwise (s is never -0.0)
                np.copyto(tmp, nb)
                np.copyto(tmp, zero, where=invalid)
                np.add(s, tmp, out=s)
                np.add(n, valid, out=n, casting="unsafe")
            else:
                v = ~xp.isnan(nb)
                s[...] = s + xp.where(v, nb, zero)
                n[...] = n + v.astype(dtype)
        t1 = n * c
        t2 = s - t1
        t3 = D * t2
        t4 = t3 / n
        new = c + t4
        keep = xp.isnan(c) | (n == zero)  # land and isolated cells keep their value
        o = out[1:-1, 1:-1, 1:-1]
        o[...] = xp.where(keep, c, new)

    return step


def run(xp, T0, steps, coeff):
    a = xp.asarray(T0)
    b = a.copy()  # faces and land never change: copied once, like a Jacobi double buffer
    step = make_stepper(xp, a.shape, a.dtype, coeff)
    sync = (lambda: xp.cuda.Stream.null.synchronize()) if xp is not np else (lambda: None)
    sync()
    t0 = time.perf_counter()
    with np.errstate(invalid="ignore", divide="ignore"):
        for _ in range(steps):
            step(a, b)
            a, b = b, a
    sync()
    dt = time.perf_counter() - t0
    return (a if xp is np else xp.asnumpy(a)), dt


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
        out, dt = run(xp, T0, a.steps, a.coeff)
        times.append(dt)
    ms = [1e3 * t / max(a.steps, 1) for t in times]
    mean = sum(ms) / len(ms)
    sd = (sum((m - mean) ** 2 for m in ms) / (len(ms) - 1)) ** 0.5 if len(ms) > 1 else 0.0
    if a.output:
        save(a.output, out, a.input, a.var)
    print("numpy_baseline: xp=%s precision=%s grid=%dx%dx%d steps=%d repeat=%d ms_per_step=%.4f "
          "std_ms=%.4f total_s=%.4f" % ("cupy" if xp is not np else "numpy", dtype.name, *T0.shape,
                                         a.steps, a.repeat, mean, sd, sum(times) / len(times)))


if __name__ == "__main__":
    main()
