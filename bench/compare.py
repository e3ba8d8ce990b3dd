#!/usr/bin/env python3
"""compare.py - is any rung slower after a change?  Compares gpuk-bench CSV
reports of two builds taken in one run on one machine, alternating, e.g.

    base-1.csv new-1.csv base-2.csv new-2.csv

Usage: bench/compare.py --base B1.csv [B2.csv ...] --new N1.csv [N2.csv ...]
                        [--rename OLD=NEW ...] [--markdown FILE]

Each row (backend, op, dtype, variant, shape, matrix) takes the best median
of its build's reports; a report older than the dtype column is f32 all
through.  The "auto" row of a case is compared like a rung (it may have
run another rung in the other build: its "chosen" column says which).  The noise of a row is how far the two builds' own repeats
disagree (the larger of the two spreads, at least --floor, default 3%).  A
row is "slower" when new / base exceeds 1 + noise.  --rename maps a
variant's old name to its new one ("minplus:v5=pipelined"), so renamed
rungs are compared with themselves.  Exit status 1 when a row is slower.
"""
import argparse
import csv
import sys


def key(row):
    return (row["backend"], row["op"], row["variant"], row["m"], row["n"], row["k"],
            row.get("batch", ""), row.get("matrix", ""), row.get("dtype") or "f32")


def load(paths, renames):
    runs = []
    for path in paths:
        got = {}
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("status") != "ok" or not row.get("ms_median"):
                    continue
                new = renames.get((row["op"], row["variant"]))
                if new:
                    row["variant"] = new
                got[key(row)] = float(row["ms_median"])
        runs.append(got)
    return runs


def spread(values):
    return max(values) / min(values) - 1.0 if len(values) > 1 and min(values) > 0 else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", nargs="+", required=True)
    ap.add_argument("--new", nargs="+", required=True)
    ap.add_argument("--rename", nargs="*", default=[], help="op:old=new")
    ap.add_argument("--floor", type=float, default=0.03)
    ap.add_argument("--markdown")
    a = ap.parse_args()
    renames = {}
    for r in a.rename:
        op_old, new = r.split("=", 1)
        op, old = op_old.split(":", 1)
        renames[(op, old)] = new
    base, new = load(a.base, renames), load(a.new, renames)
    keys = sorted(set().union(*base) & set().union(*new))
    only_new = sorted(set().union(*new) - set().union(*base))
    lines = ["| backend | op | dtype | variant | shape | base ms | new ms | new/base | noise | "
             "verdict |",
             "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |"]
    slower = 0
    for k in keys:
        bv = [r[k] for r in base if k in r]
        nv = [r[k] for r in new if k in r]
        noise = max(spread(bv), spread(nv), a.floor)
        ratio = min(nv) / min(bv)
        verdict = "slower" if ratio > 1 + noise else ("faster" if ratio < 1 - noise else "same")
        slower += verdict == "slower"
        shape = "x".join(x for x in k[3:6] if x) + (" b" + k[6] if k[6] not in ("", "1") else "")
        if k[7]:
            shape += " " + k[7]
        lines.append("| %s | %s | %s | %s | %s | %.4g | %.4g | %.3f | %.1f%% | %s |" % (
            k[0], k[1], k[8], k[2], shape, min(bv), min(nv), ratio, 100 * noise, verdict))
    summary = ("%d rows compared: %d slower beyond noise, %d faster, %d within noise; "
               "%d rows only in the new build" % (
                   len(keys), slower, sum(" faster |" in l for l in lines),
                   sum(" same |" in l for l in lines), len(only_new)))
    text = "\n".join(lines) + "\n\n" + summary + "\n"
    if only_new:
        text += "\nonly in the new build: " + ", ".join(
            "%s/%s %s%s" % (k[1], k[2], "x".join(x for x in k[3:6] if x),
                            "" if k[8] == "f32" else " " + k[8]) for k in only_new) + "\n"
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    print("\n".join(l for l in lines if "slower" in l or l.startswith("| backend")))
    print(summary)
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
