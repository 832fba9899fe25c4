#!/usr/bin/env python3
"""Write the hand-made hostile files of the fuzz regression corpus into the
folder given (classic and CDF5 headers with forged counts or names).
tests/fuzz/replay_regressions.sh runs it at test time and replays its files with the
committed ones of tests/fuzz/regressions (those found by the fuzzer or made
by other tools); `make fuzz` adds them to its corpus."""
import struct, sys, os

out = sys.argv[1] if len(sys.argv) > 1 else "regressions"
os.makedirs(out, exist_ok=True)

def name(s, v5):
    b = s.encode()
    pad = (4 - len(b) % 4) % 4
    return (struct.pack(">Q" if v5 else ">I", len(b)) + b + b"\0" * pad)

def cnt(n, v5):
    return struct.pack(">Q" if v5 else ">I", n)

# 1. CDF5, 88 bytes: the second dimension's name length is 2^64-1
b = b"CDF\x05" + cnt(0, 1) + struct.pack(">I", 0x0A) + cnt(2, 1)
b += name("x", 1) + cnt(3, 1)
b += struct.pack(">Q", 0xFFFFFFFFFFFFFFFF)
b += b"\x00" * (88 - len(b))
open(os.path.join(out, "cdf5_dimname_len_max.nc"), "wb").write(b)

# 2. classic, ~2 KB: a 4-D float variable over huge dimensions
def classic_var(dims, v5=False, attr_len=None, numrecs=1):
    v = 1
    b = b"CDF\x01" + cnt(numrecs, 0) + struct.pack(">I", 0x0A) + cnt(len(dims), 0)
    for n, l in dims:
        b += name(n, 0) + cnt(l, 0)
    if attr_len is None:
        b += b"\0" * 8
    else:  # a global attribute claiming attr_len doubles
        b += struct.pack(">I", 0x0C) + cnt(1, 0) + name("history", 0)
        b += struct.pack(">I", 6) + cnt(attr_len, 0) + b"\0" * 16
    b += struct.pack(">I", 0x0B) + cnt(1, 0)
    b += name("thetao", 0) + cnt(len(dims), 0)
    for i in range(len(dims)):
        b += cnt(i, 0)
    b += struct.pack(">I", 0x0C) + cnt(1, 0) + name("units", 0)
    b += struct.pack(">I", 2) + cnt(4, 0) + b"degC"
    b += struct.pack(">I", 5) + cnt(0xFFFFFFFC, 0) + struct.pack(">I", len(b) + 12)
    return b + b"\0" * (2048 - len(b))

open(os.path.join(out, "classic_huge_dims.nc"), "wb").write(
    classic_var([("time", 0), ("depth", 50), ("lat", 0x7FFFFFFF), ("lon", 0x7FFFFFFF)]))
open(os.path.join(out, "classic_huge_attr.nc"), "wb").write(
    classic_var([("time", 0), ("depth", 3), ("lat", 3), ("lon", 4)], attr_len=0x3FFFFFFF))
# no records: the variable holds no data, whatever its other dimensions say
open(os.path.join(out, "classic_empty_time_huge_lat.nc"), "wb").write(
    classic_var([("time", 0), ("depth", 3), ("lat", 1000000000), ("lon", 3)], numrecs=0))
# counts larger than the header: 2^31 dimensions
b = b"CDF\x02" + cnt(0, 0) + struct.pack(">I", 0x0A) + cnt(0x7FFFFFFF, 0) + b"\0" * 64
open(os.path.join(out, "cdf2_many_dims.nc"), "wb").write(b)


# A well-formed classic file of the given dimensions and variables, with every
# data offset right: dims [(name, len)] (len 0: the record dimension, one
# record); variables [(name, [dimids], nc_type, [(att, nc_type, value)], values)].
TSIZE = {1: 1, 2: 1, 3: 2, 4: 4, 5: 4, 6: 8}
PACK = {1: ">b", 3: ">h", 4: ">i", 5: ">f", 6: ">d"}

def pad4(b):
    return b + b"\0" * ((4 - len(b) % 4) % 4)

def attr_list(atts):
    if not atts:
        return b"\0" * 8
    b = struct.pack(">II", 0x0C, len(atts))
    for n, t, v in atts:
        vb = v.encode() if t == 2 else b"".join(struct.pack(PACK[t], x) for x in v)
        b += name(n, 0) + struct.pack(">II", t, len(v)) + pad4(vb)
    return b

def classic_file(dims, variables):
    def header(offsets):
        b = b"CDF\x01" + cnt(1, 0) + struct.pack(">I", 0x0A) + cnt(len(dims), 0)
        for n, l in dims:
            b += name(n, 0) + cnt(l, 0)
        b += b"\0" * 8 + struct.pack(">II", 0x0B, len(variables))
        for (n, ds, t, atts, vals), off in zip(variables, offsets):
            size = TSIZE[t]
            for d in ds:
                size *= dims[d][1] or 1
            b += name(n, 0) + cnt(len(ds), 0) + b"".join(cnt(d, 0) for d in ds)
            b += attr_list(atts) + struct.pack(">III", t, (size + 3) // 4 * 4, off)
        return b
    hlen = len(header([0] * len(variables)))
    data, offsets = b"", []
    for n, ds, t, atts, vals in variables:  # at most one record variable, last
        offsets.append(hlen + len(data))
        data += pad4(b"".join(struct.pack(PACK[t], x) for x in vals))
    return header(offsets) + data

def dup_lon(coord_len):
    """Two dimensions named 'lon': the data uses the one of 3, the coordinate
    variable 'lon' the one of coord_len (netCDF-C wrote coord_len values into
    the reader's 3-value axis: heap overflow)."""
    dims = [("time", 0), ("depth", 3), ("lat", 3), ("lon", 3), ("lon", coord_len)]
    return classic_file(dims, [
        ("depth", [1], 6, [("units", 2, "m")], [0.5, 10.0, 50.0]),
        ("lat", [2], 6, [("units", 2, "degrees_north")], [10.0, 11.0, 12.0]),
        ("lon", [4], 6, [("units", 2, "degrees_east")], [float(i) for i in range(coord_len)]),
        ("time", [0], 6, [("units", 2, "days since 2000-01-01")], [0.0]),
        ("thetao", [0, 1, 2, 3], 5, [("units", 2, "degC")], [10.0 + i for i in range(27)]),
    ])

open(os.path.join(out, "classic_dup_dim_name.nc"), "wb").write(dup_lon(40))
open(os.path.join(out, "classic_dup_dim_name_long.nc"), "wb").write(dup_lon(7000))
# two variables of one name: lookups by name would find the wrong one
dims = [("depth", 3), ("lat", 3), ("lon", 3)]
open(os.path.join(out, "classic_dup_var_name.nc"), "wb").write(classic_file(dims, [
    ("lon", [2], 6, [("units", 2, "degrees_east")], [1.0, 2.0, 3.0]),
    ("lon", [0], 6, [("units", 2, "degrees_east")], [1.0, 2.0, 3.0]),
    ("thetao", [0, 1, 2], 5, [("units", 2, "degC")], [10.0] * 27),
]))
