#!/usr/bin/env python3
"""Markdown tables from `pstencil bench --json FILE` (for docs/performance.md).

Usage: bench_report.py BENCH.json [--numpy-ms X] [--numpy-masked-ms Y]
Prints the machine, the measured copy bounds, and one table per experiment
with ms/step, spread, Gcell/s, GB/s, fractions of the bounds, the whole job,
and the ratios side by side (vs reference, vs NumPy when given).
"""
import argparse
import json


def f(v, fmt):
    return "n/a" if v is None else fmt % v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("--numpy-ms", type=float, default=None, help="NumPy (simple) ms/step, same grid")
    ap.add_argument("--numpy-masked-ms", type=float, default=None)
    a = ap.parse_args()
    d = json.load(open(a.json))
    m = d["machine"]
    print("Machine: %s, %d CPUs, %.1f GiB, LLC %d MiB; %s; pstencil %s; %s; load average %.2f at start, %.2f at end; %.0f s in all."
          % (m["cpu_name"], m["cpus_online"], m["mem_bytes"] / 2**30, m["llc_bytes"] // 2**20,
             m["compiler"], m["pstencil_version"], m["date"], m["loadavg1"] or 0,
             d.get("loadavg1_at_end") or 0, d["elapsed_s"]))
    print()
    print("Command: `%s`" % d["command"])
    print()
    print("| copy bound (2 arrays of) | threads | bound GB/s (best) | ordinary stores | streaming stores |")
    print("|---|---|---|---|---|")
    for b in sorted(d["copy_bounds"], key=lambda b: b["array_bytes"]):
        print("| %.1f MiB | %d | %.1f | %.1f | %.1f |" % (b["array_bytes"] / 2**20, b["threads"], b["best_gbps"],
                                                   b.get("plain_gbps", 0), b.get("nt_gbps", 0)))
    print()
    for exp, title in (("steps", "Step-count scaling"), ("grid", "Grid scaling")):
        rows = [r for r in d["rows"] if r["experiment"] == exp]
        if not rows:
            continue
        print("**%s**" % title)
        print()
        hdr = ["method", "grid", "steps", "mean s (std)", "ms/step", "spread", "best ms/step", "Gcell/s", "GB/s",
               "% same-size copy", "% DRAM copy", "whole job s", "x reference"]
        if a.numpy_ms and exp == "steps":
            hdr.append("x NumPy")
        if a.numpy_masked_ms and exp == "steps":
            hdr.append("x NumPy-masked")
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for r in rows:
            sp = r["speedup_ref"]
            cells = ["%s" % r["method"], "%dx%dx%d" % (r["nz"], r["ny"], r["nx"]), "%d" % r["num_timesteps"],
                     "%.4f (%.4f)" % (r["mean_time_sec"], r["std_dev_sec"]), "%.3f" % r["step_ms"],
                     "%.1f%%" % (100 * r["spread"]), f(r.get("best_step_ms"), "%.3f"),
                     "%.3f" % (r["cells_per_s"] / 1e9), "%.2f" % r["gbps"],
                     f(r["bound_fraction"] and 100 * r["bound_fraction"], "%.0f%%"),
                     f(r["dram_fraction"] and 100 * r["dram_fraction"], "%.0f%%"),
                     f(r["job_mean_s"], "%.3f"),
                     f(sp, "%.1f") + (" (noise)" if r["speedup_noise"] else "")]
            if a.numpy_ms and exp == "steps":
                cells.append("%.0f" % (a.numpy_ms / r["step_ms"]))
            if a.numpy_masked_ms and exp == "steps":
                cells.append("%.0f" % (a.numpy_masked_ms / r["step_ms"]))
            print("| " + " | ".join(cells) + " |")
        print()
    for s in d.get("skipped", []):
        print("- skipped %s" % s)
    for n in d.get("notes", []):
        print("- note: %s" % n)


if __name__ == "__main__":
    main()
