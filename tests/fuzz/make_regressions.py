#!/usr/bin/env python3
"""Write the hand-made hostile files of tests/fuzz/regressions (classic and
CDF5 headers with forged counts). Run once; the outputs are committed."""
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
