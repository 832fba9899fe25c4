"""The job API (job/pstencil_job.h) over NumPy arrays: no xarray here.

Every C call goes through cffi in API mode, which releases the GIL for the
call; the callbacks (progress, records, cancel, notes) take it back. A Python
exception raised in a callback, KeyboardInterrupt included, cannot cross the
C frames: it is kept, the next cancel poll stops the job (PS_ECANCELED) and
run_array() raises it once the job is freed.
"""
import logging
import math
import threading
import time

import numpy as np

from ._errors import error_for
from ._native import ffi, lib

_log = logging.getLogger("pstencil")

#: the cancel codes the binding returns (ps_py_cancel_reason() names them)
_CANCEL_SIGINT = 2
_CANCEL_EXCEPTION = 1

_DTYPES = {"float": np.float32, "double": np.float64}


def _text(p):
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else None


def _detail():
    return _text(lib.ps_error_detail()) or ""


def _check(status, blew_up=False):
    if status:
        raise error_for(status, _detail(), blew_up)


def _value_text(name, value):
    """The text form of a Python option value (None: the option is a flag)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    if isinstance(value, (list, tuple)):
        sep = "x" if name == "split" and len(value) == 3 else ","
        return sep.join(_value_text(name, v) for v in value)
    return str(value)


def option_name(pyname):
    """The job's option name for a Python keyword (output_every -> output-every)."""
    return pyname.replace("_", "-")


def precision_of(precision, dtype):
    """'float' or 'double': @p precision (any name the library takes), else the
    array's dtype (float64: double)."""
    if precision is None:
        return "double" if np.dtype(dtype) == np.float64 else "float"
    p = ffi.new("ps_precision *")
    if lib.ps_precision_parse(str(precision).encode(), p) == 0:
        return "double" if p[0] == lib.PS_FLOAT64 else "float"
    # refused: the message a job gives for the option (the program's)
    j = ffi.new("ps_job **")
    _check(lib.ps_job_create(j))
    try:
        _check(lib.ps_job_set(j[0], b"precision", str(precision).encode()))
    finally:
        lib.ps_job_destroy(j[0])
    raise error_for(-1, _detail())


class _State:
    """What the callbacks of one run share with run_array()."""

    def __init__(self, progress, record_shape, dtype, every):
        self.progress = progress
        self.exc = None
        self.notes = []
        self.steps = []
        self.records = []
        self.xrecords = {}  # field index (1..) -> the records of that field
        self.reductions = []  # (step, [(content, volume, mean, min, max, cells) per field])
        self.job = None
        self.record_shape = record_shape
        self.dtype = dtype
        self.every = every


@ffi.def_extern(onerror=lambda et, ev, tb: _void_failed(ev, tb))
def ps_py_progress(user, done, total, elapsed):
    st = ffi.from_handle(user)
    if st.progress is not None:
        st.progress(done, total, elapsed)


@ffi.def_extern(onerror=lambda et, ev, tb: _callback_failed(ev, tb))
def ps_py_record_field(user, step, i, field):
    st = ffi.from_handle(user)
    if st.every is None:
        return 0
    n = field.grid.nz * field.grid.ny * field.grid.nx
    buf = ffi.buffer(field.data, n * np.dtype(st.dtype).itemsize)
    st.xrecords.setdefault(i, []).append(
        np.frombuffer(buf, dtype=st.dtype).reshape(st.record_shape).copy())
    return 0


@ffi.def_extern(onerror=lambda et, ev, tb: _callback_failed(ev, tb))
def ps_py_record(user, step, field):
    st = ffi.from_handle(user)
    if st.job is not None:
        fields = []
        for i in range(lib.ps_job_get_report(st.job).fields):
            r = lib.ps_job_record_reduction(st.job, i)
            fields.append((r.content, r.volume, r.mean, r.min, r.max, r.cells))
        st.reductions.append((step, fields))
    if st.every is None:
        return 0
    n = field.grid.nz * field.grid.ny * field.grid.nx
    buf = ffi.buffer(field.data, n * np.dtype(st.dtype).itemsize)
    st.records.append(np.frombuffer(buf, dtype=st.dtype).reshape(st.record_shape).copy())
    st.steps.append(step)
    return 0


def _callback_failed(exc, tb):
    """Keep the first exception raised in a callback of a run; its next cancel poll
    stops the job. The run is the callback's `user` (the traceback's first frame is
    the callback's own), else this thread's innermost run."""
    st = None
    user = tb.tb_frame.f_locals.get("user") if tb is not None else None
    if user is not None:
        try:
            st = ffi.from_handle(user)
        except (TypeError, ValueError):
            st = None
    if st is None:
        stack = getattr(_runs, "stack", None)
        st = stack[-1] if stack else None
    if st is not None and st.exc is None:
        st.exc = exc
    return 0


@ffi.def_extern(onerror=lambda et, ev, tb: _callback_failed(ev, tb) + _cancel_code(ev))
def ps_py_cancel(user):
    st = ffi.from_handle(user)
    if st.exc is not None:
        return _cancel_code(st.exc)
    return 0


def _void_failed(exc, tb):
    """_callback_failed() for a callback returning void (cffi wants None)."""
    _callback_failed(exc, tb)


def _cancel_code(exc):
    return _CANCEL_SIGINT if isinstance(exc, KeyboardInterrupt) else _CANCEL_EXCEPTION


@ffi.def_extern(onerror=lambda et, ev, tb: _void_failed(ev, tb))
def ps_py_note(user, text):
    st = ffi.from_handle(user)
    msg = _text(text)
    st.notes.append(msg)
    _log.info("%s", msg)


# each thread's runs in progress, innermost last (for _callback_failed)
_runs = threading.local()


def _tqdm_progress():
    """A progress function over tqdm when it is installed, else None (silent)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None, None
    holder = {}

    def progress(done, total, elapsed):
        bar = holder.get("bar")
        if bar is None:
            bar = holder["bar"] = tqdm(total=total, unit="step", leave=False)
        bar.update(done - bar.n)

    def close():
        if "bar" in holder:
            holder["bar"].close()

    return progress, close


def report_dict(rep):
    """The job's report as a dict of plain Python values."""
    stencil = rep.stencil
    opts = {}
    if stencil != ffi.NULL:
        for i in range(stencil.noptions):
            v = rep.options[i]
            opts[_text(stencil.options[i].name)] = None if math.isnan(v) else v
    st = rep.stats
    step_times = None
    if st.step_times != ffi.NULL:
        step_times = np.frombuffer(ffi.buffer(st.step_times, rep.steps * 8),
                                   dtype=np.float64).copy()
    return {
        "backend": _text(rep.backend),
        "backend_path": _text(rep.backend_path),
        "device": _text(rep.device.name),
        "device_type": _text(rep.device.type),
        "device_detail": _text(rep.device.detail),
        "input": _text(rep.input),
        "output": _text(rep.output),
        "stencil": _text(stencil.name) if stencil != ffi.NULL else None,
        "options": opts,
        "seconds_per_step": rep.seconds_per_step,
        "stable_limit": rep.stable_limit,
        "precision": "double" if rep.precision == lib.PS_FLOAT64 else "float",
        "mode": "fast" if rep.mode == lib.PS_MODE_FAST else "exact",
        "grid": (rep.grid.nz, rep.grid.ny, rep.grid.nx),
        "threads": rep.threads,
        "steps": rep.steps,
        "steps_total": rep.steps_total,
        "records": rep.records,
        "interrupted": bool(rep.interrupted),
        "checksum": "0x%016x" % rep.checksum,
        "fields": [_text(rep.field_names[i]) for i in range(rep.fields)],
        "checksums": {_text(rep.field_names[i]): "0x%016x" % rep.field_checksum[i]
                      for i in range(rep.fields)},
        "boxes": st.boxes,
        "create_s": st.create_s,
        "upload_s": st.upload_s,
        "step_s": st.step_s,
        "download_s": st.download_s,
        "run_s": st.total_s,
        "read_s": rep.read_s,
        "total_s": rep.total_s,
        "step_times": step_times,
        "volume_weights": ("m3" if rep.volume_metric else
                           "1 per cell (%s)" % _text(rep.volume_why)),
        "inputs": {_text(rep.input_names[i]): _text(rep.input_from[i])
                   for i in range(rep.ninputs)},
    }


_REDUCTIONS = ("content", "volume", "mean", "min", "max", "cells")


def _reductions(rep, records):
    """Each prognostic field's reductions of every record, as arrays over the records:
    {name: {"step", "content", "volume", "mean", "min", "max", "cells"}}."""
    out = {}
    for i in range(rep.fields):
        d = {"step": np.array([s for s, _ in records], dtype=np.int64)}
        for q, key in enumerate(_REDUCTIONS):
            d[key] = np.array([f[i][q] for _, f in records],
                              dtype=np.int64 if key == "cells" else np.float64)
        out[_text(rep.field_names[i])] = d
    return out


def _set_velocity(j, velocity, shape, keep):
    """The stencil's inputs (the currents): a file path, or a dict of arrays over the
    field's grid (name -> (nz, ny, nx), in the input's unit, e.g. m s-1)."""
    if velocity is None:
        return
    if isinstance(velocity, (str, bytes)) or hasattr(velocity, "__fspath__"):
        import os
        _check(lib.ps_job_set_input_file(j, os.fsencode(velocity)))
        return
    if not hasattr(velocity, "items"):
        raise error_for(-1, "velocity= takes a file path or a dict of arrays (u, v[, w]), "
                        "not %s" % type(velocity).__name__)
    for name, values in velocity.items():
        a = np.ascontiguousarray(np.asarray(values, dtype=np.float64))
        if a.shape != tuple(shape):
            raise error_for(-8, "velocity %s has shape %s, the field %s"
                            % (name, a.shape, tuple(shape)))
        keep.append(a)
        _check(lib.ps_job_set_input(j, str(name).encode(),
                                    ffi.cast("const double *", ffi.from_buffer(a))))


def _apply_settings(j, settings):
    """ps_job_set() for each (keyword, value) of @p settings; None and False are
    left unset (a flag is set by True)."""
    for name, value in settings:
        if value is None or value is False:
            continue
        text = _value_text(name, value)
        _check(lib.ps_job_set(j, option_name(name).encode(),
                              ffi.NULL if text is None else text.encode()))


def _as_field_array(data, precision):
    """A field argument as (source, C-contiguous array of the working precision,
    precision name, dtype, whether the array is a copy); masked cells become NaN."""
    src = np.asarray(data)
    if isinstance(data, np.ma.MaskedArray):
        src = np.ma.filled(data.astype(np.float64), np.nan)
    if src.ndim != 3:
        raise error_for(-8, "the field has %d dimensions; pstencil steps a 3-D field "
                        "(depth, latitude, longitude)" % src.ndim)
    prec = precision_of(precision, src.dtype)
    dtype = np.dtype(_DTYPES[prec])
    arr = np.ascontiguousarray(src, dtype=dtype)
    copied = arr is not src and not np.shares_memory(arr, src)
    return src, arr, prec, dtype, copied


def _set_field(j, arr, prec, coords, keep):
    """Give job @p j the array @p arr (read in place) and @p coords (None, or depth,
    latitude, longitude; each may be None) as its input; the C structures are
    appended to @p keep, which must outlive the job. Returns the ps_field."""
    nz, ny, nx = arr.shape
    field = ffi.new("ps_field *")
    field.grid.nz, field.grid.ny, field.grid.nx = nz, ny, nx
    field.precision = lib.PS_FLOAT64 if prec == "double" else lib.PS_FLOAT32
    field.data = ffi.cast("void *", ffi.from_buffer(arr, require_writable=False))
    keep.append(field)
    cc = ffi.NULL
    if coords is not None:
        cc = ffi.new("ps_grid_coords *")
        keep.append(cc)
        for attr, values, n in zip(("depth", "lat", "lon"), coords, (nz, ny, nx)):
            if values is None:
                continue
            v = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
            if v.size != n:
                raise error_for(-8, "the %s coordinate has %d values for %d cells"
                                % (attr, v.size, n))
            buf = ffi.new("double[]", v.tolist())
            keep.append(buf)
            setattr(cc, attr, buf)
    _check(lib.ps_job_set_input_field(j, field, cc))
    return field


def run_array(data, coords=None, *, steps=None, stencil=None, backend=None, precision=None,
              mode=None, split=None, output_every=None, progress=None, inplace=False,
              time_steps=False, velocity=None, fields=None, **options):
    """Run a stencil on a 3-D NumPy array (depth, latitude, longitude; NaN = land).

    @p coords: None, or (depth in m positive down, latitude in degrees north,
    longitude in degrees east), each 1-D; a stencil that needs them
    refuses to run without. Returns (result, report): the final state
    (nz, ny, nx), or with @p output_every the records (nrec, nz, ny, nx) and
    report["record_steps"]. report["reductions"] holds, per field, the volume-weighted
    content, volume, mean, minimum and maximum of every record (including step 0; the
    program's NAME_content, ... series), and report["volume_weights"] how cells weigh.
    The array is read in place when it is C-contiguous
    of the working precision (precision None: float64 runs in double, anything
    else in float); otherwise one converted copy is made (report["input_copied"]).
    With @p inplace the result is left in that buffer (it must not be copied).
    @p progress: None (tqdm when installed), False, or f(done, total, seconds).
    @p velocity: the inputs of a stencil that takes currents: a file path
    (found by CF standard name on the field's grid, as `--velocity FILE`) or a dict
    {"u": array, "v": array[, "w": array]} of (nz, ny, nx) arrays in m s-1 over the
    field's grid (land ignored); report["inputs"] says where each came from.
    @p fields: further prognostic fields, a dict {name: array} over the same grid with
    the same land (NaN cells), each stepped by the same stencil with the same
    parameters and currents (e.g. salinity beside temperature, `--tracers`); the first
    field is named by var= (default "thetao"). The result is then a dict {name: array}
    (with output_every, {name: records}) in the order given, the first field first.
    Any further keyword is a job option (a stencil's: coeff=0.15, kh=500; or
    the program's long options, '-' written '_').
    """
    src, arr, prec, dtype, copied = _as_field_array(data, precision)
    if inplace and copied:
        raise error_for(-1, "inplace=True needs a C-contiguous %s array (this one is %s%s)"
                        % (dtype.name, src.dtype.name,
                           "" if src.flags.c_contiguous else ", not C-contiguous"))
    if arr.dtype.byteorder not in ("=", "|") and arr.dtype.byteorder != np.dtype(dtype).byteorder:
        arr = arr.astype(dtype.newbyteorder("="))
        copied = True
    if not arr.flags.writeable and inplace:
        raise error_for(-1, "inplace=True needs a writeable array")

    settings = [("stencil", stencil), ("precision", prec), ("mode", mode),
                ("backend", backend), ("steps", steps), ("split", split),
                ("output_every", output_every)]
    settings += list(options.items())

    close_bar = None
    if progress is None:
        progress, close_bar = _tqdm_progress()
    elif progress is False:
        progress = None

    out = field = result = None
    jp = ffi.new("ps_job **")
    _check(lib.ps_job_create(jp))
    j = jp[0]
    state = _State(progress, arr.shape, dtype, output_every)
    state.job = j
    handle = ffi.new_handle(state)
    if not hasattr(_runs, "stack"):
        _runs.stack = []
    _runs.stack.append(state)
    try:
        _apply_settings(j, settings)
        keep = []
        field = _set_field(j, arr, prec, coords, keep)
        extra = _add_fields(j, fields, arr.shape, dtype, prec, keep)
        _set_velocity(j, velocity, arr.shape, keep)
        if inplace:
            out = arr
        else:
            out = np.empty_like(arr)
        result = ffi.new("ps_field *")
        result.grid = field.grid
        result.precision = field.precision
        result.data = ffi.cast("void *", ffi.from_buffer(out, require_writable=True))
        _check(lib.ps_job_set_result(j, result))
        cb = ffi.new("ps_job_callbacks *")
        # always: the job polls the cancel (Ctrl-C) between batches of steps, and a
        # progress callback caps a batch at about 0.25 s (core/ps_driver.c)
        cb.progress = lib.ps_py_progress
        cb.record = lib.ps_py_record
        cb.record_field = lib.ps_py_record_field
        cb.cancel = lib.ps_py_cancel
        cb.cancel_reason = ffi.addressof(lib, "ps_py_cancel_reason")
        cb.note = lib.ps_py_note
        cb.user = handle
        _check(lib.ps_job_set_callbacks(j, cb))
        if time_steps:
            _check(lib.ps_job_time_steps(j, 1))
        t0 = time.perf_counter()
        status = lib.ps_job_prepare(j)
        if not status and state.exc is None:
            status = lib.ps_job_run(j)
        wall = time.perf_counter() - t0
        rep = lib.ps_job_get_report(j)
        if state.exc is not None:
            # what ran before the stop, for the caller (e.g. KeyboardInterrupt)
            try:
                state.exc.pstencil_report = report_dict(rep)
            except Exception:  # noqa: BLE001 - the original exception matters more
                pass
            raise state.exc
        if status:
            raise error_for(status, _detail(), bool(rep.blew_up))
        report = report_dict(rep)
        report["reductions"] = _reductions(rep, state.reductions)
        report["notes"] = state.notes
        report["wall_s"] = wall
        report["input_copied"] = bool(copied)
        report["input_address"] = int(ffi.cast("uintptr_t", field.data))
        report["result_address"] = int(ffi.cast("uintptr_t", lib.ps_job_result(j).data))
        finals = [_copy_field(lib.ps_job_result_at(j, i + 1), arr.shape, dtype)
                  for i in range(len(extra))]
    finally:
        _runs.stack.pop()
        state.job = None
        lib.ps_job_destroy(j)
        if close_bar is not None:
            close_bar()
        if state.exc is not None:
            # no cycle exception -> traceback -> this frame -> state -> exception:
            # the result buffer and the records go now, not at the next gc pass
            state.exc = None
            state.records = out = field = result = None
    if output_every is not None:
        report["record_steps"] = list(state.steps)
        empty = np.empty((0,) + arr.shape, dtype)
        recs = np.stack(state.records) if state.records else empty
        if extra:
            res = {report["fields"][0]: recs}
            for i, name in enumerate(extra):
                got = state.xrecords.get(i + 1)
                res[name] = np.stack(got) if got else empty
            return res, report
        return recs, report
    if extra:
        res = {report["fields"][0]: out}
        res.update(zip(extra, finals))
        return res, report
    return out, report


class _TuneState:
    """What the progress callback of one tuning shares with tune_array()."""

    def __init__(self, progress):
        self.progress = progress
        self.exc = None


@ffi.def_extern(onerror=lambda et, ev, tb: _tune_failed(ev, tb))
def ps_py_tune_progress(user, done, total):
    st = ffi.from_handle(user)
    if st.exc is not None:
        return 1
    if st.progress is not None:
        st.progress(done, total)
    return 0


def _tune_failed(exc, tb):
    """An exception in the tuning's progress callback (KeyboardInterrupt included):
    kept for tune_array() to raise; the tuning stops, nothing stored."""
    user = tb.tb_frame.f_locals.get("user") if tb is not None else None
    if user is not None:
        st = ffi.from_handle(user)
        if st.exc is None:
            st.exc = exc
    return 1


def tune_array(data=None, coords=None, *, stencil=None, kernel=None, precision=None,
               threads=None, steps=None, rounds=None, dry_run=False, velocity=None,
               progress=None, **options):
    """Tune the openmp backend's fused steps and tile heights for one grid, stencil
    and kernel path on this machine, and store the fastest in the tuning cache that
    later runs with the same key read (what `pstencil tune` does; docs/knobs.md).

    @p data: None (the built-in ocean; scale=S for a finer one, input="f.nc" for a
    file), a file path, or a 3-D NumPy array (depth, latitude, longitude; NaN =
    land) with @p coords as for run_array(). @p kernel: "auto", "generic" or
    "fast"; @p threads: those the runs will use; @p steps per measurement
    (default 120) and @p rounds (default 5, at most 32); @p dry_run measures
    and stores nothing; @p progress: f(done, total) after each measurement.
    Further keywords are job options (the stencil's, knob="openmp_isa=avx2", ...).
    Returns a dict: "candidates" (fastest median first, each with fused,
    tile_rows, rule, median_ms, best_ms, ms per round), "chosen", "rule",
    "key", "path", "stored", "checksum", "seconds", "steps", "rounds",
    "fast_path", "grid", "stencil", "precision", "threads", "input".
    """
    import os

    settings = [("stencil", stencil), ("kernel", kernel), ("threads", threads)]
    settings += list(options.items())
    keep = []
    jp = ffi.new("ps_job **")
    _check(lib.ps_job_create(jp))
    j = jp[0]
    state = _TuneState(progress)
    handle = ffi.new_handle(state)
    r = ffi.new("ps_tune_result *")
    try:
        if data is not None and (isinstance(data, (str, bytes)) or hasattr(data, "__fspath__")):
            settings.append(("input", os.fsdecode(data)))
            data = None
        if data is not None:
            _, arr, prec, _, _ = _as_field_array(data, precision)
            keep.append(arr)
            settings.append(("precision", prec))
        elif precision is not None:
            settings.append(("precision", precision))
        _apply_settings(j, settings)
        if data is not None:
            _set_field(j, arr, prec, coords, keep)
            _set_velocity(j, velocity, arr.shape, keep)
        elif velocity is not None:
            if hasattr(velocity, "items"):
                raise error_for(-1, "velocity= as arrays needs the field as an array")
            _set_velocity(j, velocity, None, keep)
        o = ffi.new("ps_tune_options *")
        o.steps = int(steps or 0)
        o.rounds = int(rounds or 0)
        o.dry_run = 1 if dry_run else 0
        o.progress = lib.ps_py_tune_progress
        o.user = handle
        status = lib.ps_job_tune(j, o, r)
        if state.exc is not None:
            raise state.exc
        if status:
            raise error_for(status, _detail())
        rep = lib.ps_job_get_report(j)
        cands = []
        for i in range(r.ncandidates):
            c = r.candidates[i]
            cands.append({"fused": c.fused, "tile_rows": c.tile_rows, "rule": bool(c.rule),
                          "median_ms": c.median_ms, "best_ms": c.best_ms,
                          "ms": [c.ms[k] for k in range(r.rounds)]})
        return {
            "candidates": cands,
            "chosen": cands[0],
            "rule": cands[r.rule_index],
            "key": _text(r.key),
            "path": _text(r.path) or None,
            "stored": bool(r.stored),
            "checksum": "0x%016x" % r.checksum,
            "seconds": r.seconds,
            "steps": r.steps,
            "rounds": r.rounds,
            "fast_path": bool(r.fast_path),
            "grid": (rep.grid.nz, rep.grid.ny, rep.grid.nx),
            "stencil": _text(rep.stencil.name) if rep.stencil != ffi.NULL else None,
            "precision": "double" if rep.precision == lib.PS_FLOAT64 else "float",
            "threads": rep.threads or rep.device.compute_units,
            "input": _text(rep.input),
        }
    finally:
        lib.ps_job_destroy(j)
        state.exc = None


def _add_fields(j, fields, shape, dtype, prec, keep):
    """The further prognostic fields of run_array(fields=...): their names, in order."""
    if not fields:
        return []
    if not hasattr(fields, "items"):
        raise error_for(-1, "fields= takes a dict {name: array}, not %s"
                        % type(fields).__name__)
    names = []
    for name, values in fields.items():
        src = np.asarray(values)
        if isinstance(values, np.ma.MaskedArray):
            src = np.ma.filled(values.astype(np.float64), np.nan)
        a = np.ascontiguousarray(src, dtype=dtype)
        if a.shape != tuple(shape):
            raise error_for(-8, "field %s has shape %s, the first field %s"
                            % (name, a.shape, tuple(shape)))
        keep.append(a)
        f = ffi.new("ps_field *")
        f.grid.nz, f.grid.ny, f.grid.nx = shape
        f.precision = lib.PS_FLOAT64 if prec == "double" else lib.PS_FLOAT32
        f.data = ffi.cast("void *", ffi.from_buffer(a, require_writable=False))
        keep.append(f)
        _check(lib.ps_job_add_input_field(j, str(name).encode(), f))
        names.append(str(name))
    return names


def _copy_field(f, shape, dtype):
    """A copy of a job's field as a NumPy array."""
    n = f.grid.nz * f.grid.ny * f.grid.nx
    buf = ffi.buffer(f.data, n * np.dtype(dtype).itemsize)
    return np.frombuffer(buf, dtype=dtype).reshape(shape).copy()


def ocean_array(scale=1.0, seed=1, time_index=0, var="thetao"):
    """The built-in ocean (what `pstencil gen` writes and `pstencil run` runs without
    an input): (field float32 (depth, latitude, longitude), depth m, latitude,
    longitude) as NumPy arrays, record @p time_index of its 5; @p var "thetao"
    (temperature, degC) or "so" (salinity, 1e-3)."""
    o = ffi.new("ps_ocean_options *")
    lib.ps_ocean_defaults(o)
    o.scale = float(scale)
    o.seed = int(seed)
    if not 0 <= time_index < o.ntime:
        raise error_for(-9, "time_index %d is out of range: the built-in ocean has %d "
                        "time records (0..%d)" % (time_index, o.ntime, o.ntime - 1))
    ds = ffi.new("ps_dataset *")
    f = ffi.new("ps_field *")
    c = ffi.new("ps_grid_coords *")
    _check(lib.ps_ocean_generate_var(o, time_index, str(var).encode(), ds, f))
    try:
        _check(lib.ps_dataset_coords(ds, c))
        g = f.grid
        n = g.nz * g.ny * g.nx
        field = np.frombuffer(ffi.buffer(f.data, n * 4), dtype=np.float32)
        field = field.reshape(g.nz, g.ny, g.nx).copy()
        axes = [np.frombuffer(ffi.buffer(p, k * 8), dtype=np.float64).copy()
                for p, k in ((c.depth, g.nz), (c.lat, g.ny), (c.lon, g.nx))]
    finally:
        lib.ps_grid_coords_free(c)
        lib.ps_field_free(f)
        lib.ps_dataset_close(ds)
    return (field,) + tuple(axes)


def ocean_currents(nz, ny, nx, depth, lat, lon):
    """The built-in ocean's currents (u, v) in m s-1 over a grid with these coordinates
    (float64 arrays (nz, ny, nx); the land is the caller's to mask)."""
    g = ffi.new("ps_grid *")
    g.nz, g.ny, g.nx = nz, ny, nx
    c = ffi.new("ps_grid_coords *")
    keep = [ffi.new("double[]", np.asarray(a, dtype=np.float64).tolist())
            for a in (depth, lat, lon)]
    c.depth, c.lat, c.lon = keep
    u = np.empty((nz, ny, nx), dtype=np.float64)
    v = np.empty_like(u)
    _check(lib.ps_ocean_currents(g[0], c, ffi.cast("double *", ffi.from_buffer(u)),
                                 ffi.cast("double *", ffi.from_buffer(v))))
    return u, v


def stencils():
    """Every registered stencil: {name: {description, needs_coordinates, test, options,
    inputs}}, each option {unit, default (None: auto), auto, min, max, help}, each input
    {standard_names (a tuple, the preferred first), unit, required, help}."""
    out = {}
    for i in range(lib.ps_stencil_count()):
        s = lib.ps_stencil_at(i)
        opts = {}
        for k in range(s.noptions):
            o = s.options[k]
            d = getattr(o, "def")  # the C member is named def
            opts[_text(o.name)] = {
                "unit": _text(o.unit),
                "default": None if math.isnan(d) else d,
                "auto": bool(o.allow_auto),
                "min": o.min,
                "max": o.max,
                "help": _text(o.help),
            }
        out[_text(s.name)] = {
            "description": _text(s.description),
            "needs_coordinates": bool(s.flags & lib.PS_STENCIL_COORDS),
            "test": bool(s.flags & lib.PS_STENCIL_TEST),
            "land_sum": bool(s.flags & lib.PS_STENCIL_LAND_SUM),
            "radius": s.radius,
            "options": opts,
            "inputs": {_text(s.inputs[k].name): {
                "standard_names": tuple(_text(s.inputs[k].standard_names).split("|")),
                "unit": _text(s.inputs[k].unit),
                "required": bool(s.inputs[k].required),
                "help": _text(s.inputs[k].help),
            } for k in range(s.ninputs)},
        }
    return out


def options():
    """The job's options as the program lists them: {name: help} (a stencil's
    options included); pass them to run() as keywords, '-' written '_'."""
    out = {}
    for i in range(lib.ps_job_option_count()):
        o = lib.ps_job_option_at(i)
        if o.alias_of != ffi.NULL:
            continue
        out[_text(o.name)] = {"takes_value": bool(o.takes_value), "metavar": _text(o.metavar),
                              "help": _text(o.help),
                              "stencil": _text(o.stencil.name) if o.stencil != ffi.NULL
                              else None}
    return out


def backends(probe=True):
    """The backends a user can ask for: {name: {built, path, devices or error}}.
    With @p probe each built backend is opened and its devices listed (what
    `pstencil backends` shows); a backend that cannot run here has "error"."""
    names = ffi.new("const char *const **")
    count = ffi.new("int *")
    _check(lib.ps_backend_known(names, count))
    known = [_text(names[0][i]) for i in range(count[0])]
    entries = ffi.new("const ps_backend_entry **")
    n = ffi.new("int *")
    _check(lib.ps_backend_list(entries, n))
    built = {_text(entries[0][i].name): bool(entries[0][i].built) for i in range(n[0])}
    out = {}
    for name in known:
        info = {"built": built.get(name, False)}
        if probe and info["built"]:
            bp = ffi.new("ps_backend **")
            st = lib.ps_backend_open(name.encode(), bp)
            if st:
                info["error"] = _detail()
            else:
                devs = ffi.new("ps_device_info[16]")
                nd = ffi.new("int *")
                st = lib.ps_backend_probe(bp[0], devs, 16, nd)
                info["path"] = _text(lib.ps_backend_path(bp[0]))
                if st:
                    info["error"] = _detail()
                else:
                    info["devices"] = [{"name": _text(devs[d].name), "type": _text(devs[d].type),
                                        "detail": _text(devs[d].detail),
                                        "memory_bytes": devs[d].memory_bytes,
                                        "compute_units": devs[d].compute_units}
                                       for d in range(min(nd[0], 16))]
                lib.ps_backend_close(bp[0])
        out[name] = info
    return out
