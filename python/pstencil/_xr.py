"""xarray front end: find the axes as the program does for files
(docs/file-conventions.md), convert the coordinates to the job's units, run,
and give back a DataArray with the input's coordinates and attributes."""
import math

import numpy as np

from . import _job
from ._errors import InvalidError

# the rules of io/ps_nc_read.c (axis_role) and io/ (ps_dataset_coords)
_LAT_UNITS = {"degrees_north", "degree_north", "degree_n", "degrees_n", "degreen", "degreesn"}
_LON_UNITS = {"degrees_east", "degree_east", "degree_e", "degrees_e", "degreee", "degreese"}
_Z_UNITS = {"m", "meter", "meters", "metre", "metres", "km", "dbar", "decibar", "pa", "hpa",
            "bar", "level", "layer", "sigma_level"}
_T_NAMES = ["time", "t", "time_counter", "ocean_time", "Time"]
_Z_NAMES = ["depth", "deptht", "depthu", "depthv", "depthw", "lev", "level", "z", "nav_lev",
            "Depth", "DEPTH", "zt", "s_rho", "sigma"]
_Y_NAMES = ["lat", "latitude", "nav_lat", "y", "Latitude", "LAT", "LATITUDE", "rlat",
            "yt_ocean"]
_X_NAMES = ["lon", "longitude", "nav_lon", "x", "Longitude", "LON", "LONGITUDE", "rlon",
            "xt_ocean"]
_ROLES = ("time", "depth", "latitude", "longitude")
_DEPTH_SCALE = {"m": 1.0, "meter": 1.0, "meters": 1.0, "metre": 1.0, "metres": 1.0,
                "cm": 0.01, "centimeter": 0.01, "centimeters": 0.01, "centimetre": 0.01,
                "centimetres": 0.01, "km": 1000.0, "kilometer": 1000.0, "kilometers": 1000.0,
                "kilometre": 1000.0, "kilometres": 1000.0}


def _attr(var, name):
    v = var.attrs.get(name) if var is not None else None
    return v.strip() if isinstance(v, str) else None


def axis_role(da, dim):
    """'time', 'depth', 'latitude', 'longitude' or None for dimension @p dim:
    its coordinate's axis, standard_name, units, positive, then its name."""
    var = da.coords[dim] if dim in da.coords and da.coords[dim].dims == (dim,) else None
    if var is not None:
        axis = (_attr(var, "axis") or "").upper()
        if axis in ("T", "Z", "Y", "X"):
            return {"T": "time", "Z": "depth", "Y": "latitude", "X": "longitude"}[axis]
        sn = _attr(var, "standard_name") or ""
        if sn == "time":
            return "time"
        if sn in ("latitude", "grid_latitude"):
            return "latitude"
        if sn in ("longitude", "grid_longitude"):
            return "longitude"
        if (sn in ("depth", "height", "altitude", "sea_water_pressure")
                or sn.startswith("ocean_") or sn.startswith("model_level")):
            return "depth"
        units = _attr(var, "units") or ""
        if units.lower() in _LAT_UNITS:
            return "latitude"
        if units.lower() in _LON_UNITS:
            return "longitude"
        if " since " in units or np.issubdtype(var.dtype, np.datetime64) or var.dtype == object:
            return "time"
        if (_attr(var, "positive") or "").lower() in ("up", "down"):
            return "depth"
        if units.lower() in _Z_UNITS and dim.lower() in [n.lower() for n in _Z_NAMES]:
            return "depth"
    for role, names in (("time", _T_NAMES), ("depth", _Z_NAMES), ("latitude", _Y_NAMES),
                        ("longitude", _X_NAMES)):
        if dim in names:
            return role
    return None


def find_axes(da):
    """{role: dim} for the DataArray's dimensions; InvalidError naming what is missing."""
    roles = {}
    for dim in da.dims:
        role = axis_role(da, dim)
        if role is None:
            raise InvalidError("dimension '%s' of %s is not time, depth, latitude or longitude "
                               "(give its coordinate an axis, standard_name or units "
                               "attribute; docs/file-conventions.md)" % (dim, _name(da)))
        if role in roles:
            raise InvalidError("dimensions '%s' and '%s' of %s are both %s"
                               % (roles[role], dim, _name(da), role))
        roles[role] = dim
    missing = [r for r in _ROLES[1:] if r not in roles]
    if missing:
        raise InvalidError("%s has no %s dimension (dimensions: %s)"
                           % (_name(da), " or ".join(missing), ", ".join(map(str, da.dims))))
    return roles


def _name(da):
    return "DataArray '%s'" % da.name if da.name is not None else "the DataArray"


def _coord_values(da, dim, role):
    """Coordinate @p role of dimension @p dim in the job's units, as the program reads
    a file's (depth m positive down, degrees north, degrees east unwrapped)."""
    if dim not in da.coords:
        raise InvalidError("%s: dimension '%s' has no coordinate variable (index values only)"
                           % (role, dim))
    var = da.coords[dim]
    v = np.asarray(var.values, dtype=np.float64).reshape(-1)
    if not np.all(np.isfinite(v)):
        raise InvalidError("%s: coordinate '%s' has a non-finite value" % (role, dim))
    sn = _attr(var, "standard_name") or ""
    if sn in ("grid_latitude", "grid_longitude"):
        raise InvalidError("%s: coordinate '%s' is on a rotated-pole grid (standard_name %s)"
                           % (role, dim, sn))
    units = (_attr(var, "units") or "").lower()
    if role == "depth":
        if units not in _DEPTH_SCALE:
            raise InvalidError("depth: coordinate '%s' has %s; pstencil needs a length "
                               "(m, cm or km)" % (dim, "units '%s'" % units if units
                                                  else "no units"))
        v = v * _DEPTH_SCALE[units]
        positive = (_attr(var, "positive") or "").lower()
        if positive == "up" or (positive != "down" and v.size and np.all(v <= 0)
                                and np.any(v < 0)):
            v = -v
        return v
    allowed = _LAT_UNITS if role == "latitude" else _LON_UNITS
    if units not in allowed and units not in ("degrees", "degree"):
        raise InvalidError("%s: coordinate '%s' has %s; pstencil needs degrees"
                           % (role, dim, "units '%s'" % units if units else "no units"))
    if role == "latitude":
        if np.any(np.abs(v) > 90):
            raise InvalidError("latitude: coordinate '%s' has a value outside [-90, 90]" % dim)
        return v
    # unwrapped: a step of more than 180 degrees is a wrap across 360
    out = v.copy()
    for i in range(1, out.size):
        d = v[i] - v[i - 1]
        if abs(d) > 180:
            d -= 360.0 * round(d / 360.0)
        out[i] = out[i - 1] + d
    return out


def _seconds(value):
    return np.timedelta64(int(round(value * 1e9)), "ns")


def _time_at(t0, seconds):
    if isinstance(t0, np.datetime64):
        return t0 + _seconds(seconds)
    import datetime
    return t0 + datetime.timedelta(seconds=float(seconds))


def _attrs_from_report(rep):
    a = {"pstencil_stencil": rep["stencil"], "pstencil_precision": rep["precision"],
         "pstencil_mode": rep["mode"], "pstencil_seconds_per_step": rep["seconds_per_step"],
         "pstencil_backend": rep["backend"], "pstencil_device": rep["device"] or "",
         "pstencil_steps": rep["steps"], "pstencil_checksum": rep["checksum"],
         "pstencil_step_s": rep["step_s"],
         "pstencil_seconds_per_model_step": rep["step_s"] / rep["steps"] if rep["steps"] else 0.0}
    for k, v in rep["options"].items():
        a["pstencil_" + k] = "auto" if v is None else v
    if rep["step_times"] is not None:
        a["pstencil_step_times"] = rep["step_times"]
    return a


_METHODS = {"content": "sum", "volume": "sum", "mean": "mean", "min": "minimum",
            "max": "maximum"}


def _reduction_coords(rep, tname, units):
    """The reductions of every record as coordinates over time, named and described
    as the program's output names them (NAME_content, NAME_volume, NAME_mean, ...)."""
    import xarray as xr

    out = {}
    metric = rep["volume_weights"] == "m3"
    for name, red in rep["reductions"].items():
        for key, method in _METHODS.items():
            a = {"cell_methods": "area: depth: %s where sea" % method,
                 "long_name": "%s of %s over the ocean cells%s" % (
                     key, name, " (each weighing its volume)" if metric else
                     " (each weighing 1)")}
            if key == "volume":
                a["units"] = "m3" if metric else "1"
            elif units:
                a["units"] = units + " m3" if key == "content" and metric else units
            out["%s_%s" % (name, key)] = xr.Variable((tname,), red[key], a)
    return out


_MPS = ("m s-1", "m/s", "m s**-1", "m.s-1", "meter second-1", "meters/second", "m s^-1")


def _velocity_arrays(ds, info, da, roles, spatial, time_index):
    """The stencil's inputs from Dataset @p ds: each the variable with one of its
    standard names (the preferred first), on the field's dimensions, at the field's
    time index when it has as many records, else its only one; in m s-1."""
    if info is None or not info["inputs"]:
        raise InvalidError("velocity=: the stencil takes no currents")
    out = {}
    for name, spec in info["inputs"].items():
        var = None
        for sn in spec["standard_names"]:
            hits = [v for v in ds.data_vars.values() if v.attrs.get("standard_name") == sn]
            if len(hits) > 1:
                raise InvalidError("velocity=: several variables have standard_name %s: %s"
                                   % (sn, ", ".join(str(h.name) for h in hits)))
            if hits:
                var = hits[0]
                break
        if var is None:
            if spec["required"]:
                raise InvalidError("velocity=: no variable with standard_name %s (the %s)"
                                   % (" or ".join(spec["standard_names"]), spec["help"]))
            continue
        units = str(var.attrs.get("units", "")).strip()
        if units not in _MPS:
            raise InvalidError("velocity=: %s has units '%s'; give m s-1 (or pass the file "
                               "path, whose units are converted)" % (var.name, units))
        tdim = roles.get("time")
        extra = [d for d in var.dims if d not in spatial]
        if extra:
            t = extra[0]
            n = var.sizes[t]
            nf = da.sizes[tdim] if tdim is not None and tdim in da.dims else None
            if len(extra) > 1 or not (n == 1 or n == nf):
                raise InvalidError("velocity=: %s has dimensions %s, not the field's %s "
                                   "(and one time axis of 1 record or the field's)"
                                   % (var.name, var.dims, spatial))
            var = var.isel({t: time_index if n == nf and n > 1 else 0})
        if set(var.dims) != set(spatial):
            raise InvalidError("velocity=: %s has dimensions %s, not the field's %s"
                               % (var.name, var.dims, spatial))
        out[name] = np.asarray(var.transpose(*spatial).values, dtype=np.float64)
    return out


def run(data, coords=None, *, time_index=0, with_report=False, **kw):
    """Run a stencil on @p data: an xarray.DataArray (axes found as for a file,
    docs/file-conventions.md) or a 3-D NumPy array (depth, latitude, longitude)
    with @p coords = (depth m, latitude degrees north, longitude degrees east).

    Keywords: steps, stencil, backend ("auto"), precision (None: float64 data
    runs in double, else float), mode, split, output_every, progress, inplace,
    time_steps, velocity (the currents of a stencil that takes them: a file path, a
    Dataset whose variables carry their CF standard names, in m s-1, on the field's
    dimensions, or a dict {"u": array, "v": array[, "w": array]}) and any option of
    the program or the stencil (kh=500, dt="auto").
    Returns a DataArray over (depth, latitude, longitude) in the input's names,
    with its coordinates and attributes and the run's record as pstencil_*
    attributes; with output_every, over (time, ...) with CF time and step
    coordinates and the reductions of every record (NAME_content, NAME_volume,
    NAME_mean, NAME_min, NAME_max over time, as the program's output has them).
    with_report=True returns (DataArray, report dict); its "reductions" hold them
    for every record in any case.
    """
    import xarray as xr

    known = _job.stencils()  # once a call; in the registry's order, the default first
    if isinstance(data, xr.Dataset):
        return _run_dataset(data, coords, time_index, with_report, kw, known)
    return _run_field(data, coords, time_index, with_report, kw, known)


def _run_field(data, coords, time_index, with_report, kw, known):
    """run() on a DataArray or a NumPy array; @p known is _job.stencils()."""
    import xarray as xr

    extra_attrs = kw.pop("_field_attrs", {})
    if not isinstance(data, xr.DataArray):
        arr = np.asarray(data)
        if arr.ndim != 3:
            raise InvalidError("a NumPy field must be 3-D (depth, latitude, longitude); "
                               "this one has %d dimensions" % arr.ndim)
        dims = ("depth", "latitude", "longitude")
        cvars = {}
        if coords is not None:
            for dim, values, units in zip(dims, coords, ("m", "degrees_north", "degrees_east")):
                if values is not None:
                    cvars[dim] = xr.Variable((dim,), np.asarray(values), {"units": units})
        if "depth" in cvars:
            cvars["depth"].attrs["positive"] = "down"
        data = xr.DataArray(arr, dims=dims, coords=cvars, name="thetao")
    elif coords is not None:
        raise InvalidError("coords= is for a NumPy field; a DataArray carries its own")
    roles = find_axes(data)
    da = _record(data, roles, time_index)
    t0 = np.datetime64("1970-01-01T00:00:00", "ns")
    tcoord = None
    if "time" in roles:
        tdim = roles["time"]
        if tdim in da.coords:
            tcoord = da.coords[tdim]
            t0 = tcoord.values[()]
            if isinstance(t0, np.ndarray):
                t0 = t0.item()
            if not isinstance(t0, np.datetime64) and not hasattr(t0, "calendar"):
                try:
                    t0 = np.datetime64(t0, "ns")
                except (TypeError, ValueError):
                    t0 = np.datetime64("1970-01-01T00:00:00", "ns")
    spatial = (roles["depth"], roles["latitude"], roles["longitude"])
    da3 = da.transpose(*spatial)
    crd, why = _job_coords(da3, spatial)
    stencil = kw.get("stencil")
    info = known.get(stencil or next(iter(known), ""))
    if crd is None and info is not None and info["needs_coordinates"]:
        raise InvalidError("stencil %s needs the grid's coordinates: %s" % (stencil, why))
    values = da3.data
    if not isinstance(values, np.ndarray):
        values = np.asarray(values)
    if isinstance(kw.get("velocity"), xr.Dataset):
        kw["velocity"] = _velocity_arrays(kw["velocity"], info, data, roles, spatial,
                                          time_index)
    if kw.get("fields"):
        kw["fields"] = {n: _spatial_values(f, roles, spatial, time_index)
                        for n, f in kw["fields"].items()}
        kw.setdefault("var", da.name or "thetao")
    out, rep = _job.run_array(values, crd, **kw)

    keep = {k: v for k, v in da3.coords.items() if set(v.dims) <= set(spatial)}
    dt = rep["seconds_per_step"] or 1.0
    tname = roles.get("time", "time")

    def wrap(values, name, own_attrs):
        attrs = dict(own_attrs)
        attrs.update(_attrs_from_report(rep))
        attrs["pstencil_checksum"] = rep["checksums"].get(name, rep["checksum"])
        if kw.get("output_every") is not None:
            steps = np.asarray(rep["record_steps"], dtype=np.float64)
            times = [_time_at(t0, s * dt) for s in steps]
            tattrs = dict(tcoord.attrs) if tcoord is not None else {"standard_name": "time"}
            c = dict(keep)
            c[tname] = xr.Variable((tname,), np.array(times), tattrs)
            c["step"] = xr.Variable((tname,), steps, {"units": "1", "long_name": "model steps "
                                                      "since the initial state"})
            red = dict(rep, reductions={name: rep["reductions"][name]})
            c.update(_reduction_coords(red, tname, own_attrs.get("units")))
            return xr.DataArray(values, dims=(tname,) + spatial, coords=c, name=name,
                                attrs=attrs)
        res = xr.DataArray(values, dims=spatial, coords=keep, name=name, attrs=attrs)
        return res.assign_coords({tname: _time_at(t0, rep["steps"] * dt)})

    if isinstance(out, dict):
        names = list(out)
        res = xr.Dataset({n: wrap(out[n], n, da.attrs if i == 0 else extra_attrs.get(n, {}))
                          for i, n in enumerate(names)})
    else:
        res = wrap(out, da.name, da.attrs)
    if with_report:
        return res, rep
    return res


def tune(data=None, coords=None, *, time_index=0, **kw):
    """Tune the openmp backend for @p data's grid (pstencil.tune_array(), which
    takes None, a file path or a NumPy array): an xarray.DataArray is reduced to
    its record @p time_index over (depth, latitude, longitude), its coordinates
    converted as run() does. Returns tune_array()'s dict."""
    import xarray as xr

    if not isinstance(data, xr.DataArray):
        return _job.tune_array(data, coords, **kw)
    if coords is not None:
        raise InvalidError("coords= is for a NumPy field; a DataArray carries its own")
    roles = find_axes(data)
    spatial = (roles["depth"], roles["latitude"], roles["longitude"])
    da3 = _record(data, roles, time_index).transpose(*spatial)
    crd, _ = _job_coords(da3, spatial)  # None: a stencil that needs them says so
    return _job.tune_array(np.asarray(da3.data), crd, **kw)


def _record(da, roles, time_index):
    """Record @p time_index of @p da when it has a time axis (roles: find_axes())."""
    if "time" not in roles:
        return da
    n = da.sizes[roles["time"]]
    if not -n <= time_index < n:
        raise InvalidError("--time-index: %d is outside 0..%d (%d records)"
                           % (time_index, n - 1, n))
    return da.isel({roles["time"]: time_index})


def _job_coords(da3, spatial):
    """(depth, latitude, longitude) of @p da3 in the job's units, and None; or None and
    why they are unusable."""
    try:
        return tuple(_coord_values(da3, d, r) for d, r in zip(spatial, _ROLES[1:])), None
    except InvalidError as e:
        return None, str(e)


def _spatial_values(f, roles, spatial, time_index):
    """A further field of run(fields=...) as an array over the first field's spatial
    dimensions: a DataArray on the same dimension names (its record @p time_index when
    it has a time axis), or an array already in (depth, latitude, longitude) order."""
    import xarray as xr

    if not isinstance(f, xr.DataArray):
        return np.asarray(f)
    if "time" in roles and roles["time"] in f.dims:
        f = f.isel({roles["time"]: time_index})
    if set(f.dims) != set(spatial):
        raise InvalidError("field %s has dimensions %s, not the first field's %s"
                           % (f.name, f.dims, spatial))
    return np.asarray(f.transpose(*spatial).data)


_TEMPERATURE = ("sea_water_potential_temperature", "sea_water_temperature",
                "sea_water_conservative_temperature")


def _run_dataset(ds, coords, time_index, with_report, kw, known):
    """run() on a Dataset: the variables of tracers= (a list, or "a,b"; default: var=,
    else the one temperature variable by standard_name, else the only 3-D/4-D
    variable), the first read as the field, the others stepped beside it; the currents
    from the Dataset itself for a stencil that takes them, unless velocity= says
    otherwise. Returns a Dataset of the fields; @p known is _job.stencils()."""
    if coords is not None:
        raise InvalidError("coords= is for a NumPy field; a Dataset carries its own")
    names = kw.pop("tracers", None)
    if isinstance(names, str):
        names = [n for n in names.split(",")]
    if not names:
        if kw.get("var"):
            names = [kw["var"]]
        else:
            temps = [n for n, v in ds.data_vars.items()
                     if v.attrs.get("standard_name") in _TEMPERATURE]
            if len(temps) != 1:
                temps = [n for n, v in ds.data_vars.items() if v.ndim in (3, 4)]
            if len(temps) != 1:
                raise InvalidError("the Dataset has %s; name the fields with tracers=[...]"
                                   % ("no temperature variable" if not temps else
                                      "several candidates: " + ", ".join(map(str, temps))))
            names = temps
    for n in names:
        if n not in ds.data_vars:
            raise InvalidError("tracers=: the Dataset has no variable %s (it has %s)"
                               % (n, ", ".join(map(str, ds.data_vars))))
    if kw.get("var") and kw["var"] != names[0]:
        raise InvalidError("var=%s contradicts tracers=, whose first variable is %s"
                           % (kw["var"], names[0]))
    kw["var"] = names[0]
    info = known.get(kw.get("stencil") or next(iter(known), ""))
    if kw.get("velocity") is None and info is not None and info["inputs"]:
        kw["velocity"] = ds
    if len(names) > 1:
        kw["fields"] = {n: ds[n] for n in names[1:]}
        kw["_field_attrs"] = {n: dict(ds[n].attrs) for n in names[1:]}
    import xarray as xr

    out, rep = _run_field(ds[names[0]], None, time_index, True, dict(kw), known)
    if not isinstance(out, xr.Dataset):
        out = out.to_dataset()
    out.attrs = dict(ds.attrs)
    if with_report:
        return out, rep
    return out


def validate(data, backends=None, *, steps=10, reference="reference", **kw):
    """Run @p data on each backend of @p backends (default: every backend that runs
    here) and compare each with @p reference: {backend: {checksum, equal (bitwise),
    max_abs_diff} or {error}}. Exact mode results are expected to be bitwise equal."""
    if backends is None:
        backends = [n for n, b in _job.backends().items() if b.get("devices")]
    kw.setdefault("progress", False)
    ref, rep0 = run(data, backend=reference, steps=steps, with_report=True, **kw)
    out = {reference: {"checksum": rep0["checksum"], "equal": True, "max_abs_diff": 0.0}}
    a = np.asarray(ref.values, dtype=np.float64)
    for b in backends:
        if b == reference:
            continue
        try:
            got, rep = run(data, backend=b, steps=steps, with_report=True, **kw)
        except Exception as e:  # a backend that cannot run is part of the answer
            out[b] = {"error": "%s: %s" % (type(e).__name__, e)}
            continue
        g = np.asarray(got.values, dtype=np.float64)
        both = ~(np.isnan(a) & np.isnan(g))
        diff = float(np.max(np.abs(a[both] - g[both]))) if both.any() else 0.0
        out[b] = {"checksum": rep["checksum"], "equal": rep["checksum"] == rep0["checksum"],
                  "max_abs_diff": 0.0 if math.isnan(diff) else diff}
    return out


_OCEAN_VARS = {
    "thetao": {"units": "degrees_C", "long_name": "Temperature",
               "standard_name": "sea_water_potential_temperature"},
    "so": {"units": "1e-3", "long_name": "Sea water salinity",
           "standard_name": "sea_water_salinity"},
}


def _ocean_coords(depth, lat, lon):
    return {
        "depth": ("depth", depth, {"units": "m", "positive": "down", "axis": "Z",
                                   "standard_name": "depth"}),
        "latitude": ("latitude", lat, {"units": "degrees_north", "axis": "Y",
                                       "standard_name": "latitude"}),
        "longitude": ("longitude", lon, {"units": "degrees_east", "axis": "X",
                                         "standard_name": "longitude"}),
    }


def ocean(scale=1.0, seed=1, time_index=0, var="thetao"):
    """The built-in ocean as a DataArray (depth, latitude, longitude) with CF
    coordinates: the synthetic stand-in for the course's file that `pstencil gen`
    writes (scale multiplies the horizontal resolution: 222 x 241 at 1); @p var
    "thetao" (temperature) or "so" (salinity, the same land)."""
    import xarray as xr
    if var not in _OCEAN_VARS:
        raise InvalidError("the built-in ocean has %s, not %s" % (" and ".join(_OCEAN_VARS), var))
    field, depth, lat, lon = _job.ocean_array(scale, seed, time_index, var)
    attrs = dict(_OCEAN_VARS[var], source="pstencil built-in ocean (synthetic)")
    return xr.DataArray(field, dims=("depth", "latitude", "longitude"),
                        coords=_ocean_coords(depth, lat, lon), name=var, attrs=attrs)


def ocean_dataset(scale=1.0, seed=1, time_index=0):
    """The built-in ocean as a Dataset: thetao and so (ocean()), and the currents uo
    and vo (m s-1, NaN on land) that `pstencil gen` writes beside them, so a stencil
    that moves the fields with the currents runs on it as on the generated file."""
    import xarray as xr
    das = {v: ocean(scale, seed, time_index, v) for v in _OCEAN_VARS}
    t = das["thetao"]
    u, v = _job.ocean_currents(t.sizes["depth"], t.sizes["latitude"], t.sizes["longitude"],
                               t["depth"].values, t["latitude"].values, t["longitude"].values)
    land = np.isnan(t.values)
    u[land] = np.nan
    v[land] = np.nan
    dims = ("depth", "latitude", "longitude")
    das["uo"] = xr.DataArray(u.astype(np.float32), dims=dims, coords=t.coords, name="uo",
                             attrs={"units": "m s-1", "standard_name":
                                    "eastward_sea_water_velocity",
                                    "long_name": "Eastward velocity (gyre)"})
    das["vo"] = xr.DataArray(v.astype(np.float32), dims=dims, coords=t.coords, name="vo",
                             attrs={"units": "m s-1", "standard_name":
                                    "northward_sea_water_velocity",
                                    "long_name": "Northward velocity (gyre)"})
    return xr.Dataset(das, attrs={"source": "pstencil built-in ocean (synthetic)"})


def register_accessor():
    """da.pstencil.run(...) / da.pstencil.validate(...) (when xarray is installed)."""
    try:
        import xarray as xr
    except ImportError:
        return

    @xr.register_dataarray_accessor("pstencil")
    class _Accessor:
        def __init__(self, obj):
            self._obj = obj

        def run(self, **kw):
            """pstencil.run(this DataArray, **kw)."""
            return run(self._obj, **kw)

        def validate(self, **kw):
            """pstencil.validate(this DataArray, **kw)."""
            return validate(self._obj, **kw)

    @xr.register_dataset_accessor("pstencil")
    class _DatasetAccessor:
        def __init__(self, obj):
            self._obj = obj

        def run(self, **kw):
            """pstencil.run(this Dataset, **kw): its fields (tracers=) stepped together."""
            return run(self._obj, **kw)
