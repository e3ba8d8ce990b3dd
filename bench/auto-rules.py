#!/usr/bin/env python3
"""auto-rules.py - derive the built-in rules of "auto" from measured ladders.

Reads gpuk-bench CSV reports (default: the two reference machines,
bench/results/nvidia-h200.csv with its 16-thread host CPU, and
bench/results/cpu-2core-epyc.csv) and prints, per backend / op / size,
the fastest rung that is not TF32, the DEFAULT row's time against it, and
then the rules that backends/cpu/auto.c and backends/cuda/auto.cu encode:

    bench/auto-rules.py [--tolerance 0.03] [--dtype f32] [--tables DIR] [--bench PROGRAM] [CSV ...]

The shape class of a case is the core's (doc/design.md, "Choosing a
rung"): floor(log2(work)), work = the output's elements x the op's sum
length.  A report made by gpuk-bench since the class column carries it
(the class the library reported for the call); for an older report this
script asks gpuk-bench --cost (PROGRAM: --bench, else $GPUK_BENCH, else
gpuk-bench on the PATH), which makes each case as a run does, the
power-law spmv matrix included, and costs it with the library's own
formulas (gpuk_op_cost): no formula or generator is copied here.

The derivation, per (backend and machine, op), over its cases in class
order:

  1. a case's acceptable rungs: those within --tolerance (default 3%) of
     its fastest non-TF32 rung (cases of one class: the rungs acceptable
     in all of them);
  2. the fewest pieces of consecutive cases with one rung acceptable in
     every case of the piece (greedy, which is optimal for intervals);
  3. a piece takes the DEFAULT row when it is acceptable throughout (the
     rule then says nothing: NULL), else its acceptable rung with the
     smallest geometric mean of time over best;
  4. a boundary between two pieces lies halfway between the last class of
     the one and the first of the next (the halfway class goes below).

Aliases in old reports (min-plus v0..v5) are mapped to the rows' names by
reading the kernel tables (backends/cpu/table.c, backends/cuda/table.cu).
Those are read for their f32 rows only; for another --dtype (f64, i32,
f16, bf16) the report itself says which row is the DEFAULT and which is
TF32 (its flags column), and its rows carry their own names.
The CPU backend's rules depend on the thread count, which each report's
JSON twin records: the rules of the machine with the most threads apply
from the geometric middle of the two counts up.
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

def read_tables(top):
    """{(backend, op): {"names": {name or alias: name}, "default": name, "tf32": set}}"""
    out = {}
    for backend, path in (("cpu", "backends/cpu/table.c"), ("cuda", "backends/cuda/table.cu")):
        text = open(os.path.join(top, path)).read()
        row = re.compile(r'\{\s*GPUK_OP_(\w+)\s*,\s*([^,]+?)\s*,\s*"(\w+)"\s*,\s*([^,]+?)\s*,'
                         r'\s*\w+\s*,\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*(NULL|"\w+")\s*\}', re.S)
        for m in row.finditer(text):
            op = m.group(1).lower()
            dtypes, name, flags, alias = m.group(2), m.group(3), m.group(4), m.group(6)
            if "F32" not in dtypes:
                continue
            t = out.setdefault((backend, op), {"names": {}, "default": None, "tf32": set()})
            t["names"][name] = name
            if alias != "NULL":
                t["names"][alias.strip('"')] = name
            words = set(re.findall(r"\w+", flags))
            if words & {"D", "DEF", "GPUK_KF_DEFAULT"}:
                t["default"] = name
            if words & {"TF32", "GPUK_KF_TF32"}:
                t["tf32"].add(name)
    return out


def tables_from_rows(rows):
    """read_tables' answer from a report's own rows: their names, and the
    DEFAULT and TF32 rows as its flags column marks them."""
    out = {}
    for row in rows:
        t = out.setdefault((row["backend"], row["op"]), {"names": {}, "default": None,
                                                         "tf32": set()})
        t["names"][row["variant"]] = row["variant"]
        flags = set(re.findall(r"\w+", row.get("flags") or ""))
        if "default" in flags:
            t["default"] = row["variant"]
        if "tf32" in flags:
            t["tf32"].add(row["variant"])
    for (backend, op), t in out.items():
        if t["default"] is None:
            sys.exit("auto-rules: no row of %s %s is flagged default in the report (one made "
                     "before its flags column? read it with --dtype f32)" % (backend, op))
    return out


def case_key(row):
    """A case as gpuk-bench --cost reads it: op, dtype, m, n, k, batch, matrix."""
    return (row["op"], row.get("dtype") or "f32", row["m"], row["n"], row["k"],
            row.get("batch") or "1", row.get("matrix") or "random")


def classes_from_bench(cases, program):
    """{case: class} for cases of reports without the class column, from
    gpuk-bench --cost (one call for all of them)."""
    if not cases:
        return {}
    text = "".join(" ".join(c) + "\n" for c in sorted(cases))
    try:
        r = subprocess.run([program, "--cost"], input=text, capture_output=True, text=True)
    except OSError as e:
        sys.exit("auto-rules: a report has no class column, and %s --cost cannot run (%s): "
                 "give --bench the gpuk-bench of a build" % (program, e))
    if r.returncode:
        sys.exit("auto-rules: %s --cost failed: %s" % (program, r.stderr.strip()))
    out = {}
    for row in csv.DictReader(r.stdout.splitlines()):
        key = (row["op"], row["dtype"], row["m"], row["n"], row["k"], row["batch"],
               row["matrix"] or "random")
        out[key] = int(row["class"])
    for c in cases:
        if c not in out:
            # the power-law matrix reports its mean row length as k, which
            # --cost prints from the matrix it made; match on the rest
            same = [v for key, v in out.items() if key[:2] == c[:2] and key[2:4] == c[2:4] and
                    key[5:] == c[5:]]
            if len(same) != 1:
                sys.exit("auto-rules: gpuk-bench --cost gave no class for %s" % (c,))
            out[c] = same[0]
    return out


def machine_of(csv_path, backend):
    """(label, threads) of a backend in a report, from its JSON twin."""
    stem = os.path.splitext(os.path.basename(csv_path))[0]
    threads = None
    js = os.path.splitext(csv_path)[0] + ".json"
    if os.path.exists(js):
        try:
            for be in json.load(open(js)).get("backends", []):
                if be.get("name") == backend and be.get("opened"):
                    threads = be.get("threads") or be.get("multiprocessors")
                    if backend != "cpu":
                        threads = None
        except ValueError:
            pass
    label = "%s on %s" % (backend, stem)
    if threads:
        label += " (%d threads)" % threads
    return label, threads


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="*", default=[os.path.join(HERE, "results", "nvidia-h200.csv"),
                                               os.path.join(HERE, "results", "cpu-2core-epyc.csv")])
    ap.add_argument("--tolerance", type=float, default=0.03)
    ap.add_argument("--dtype", default="f32", help="the dtype whose ladders are read (default f32)")
    ap.add_argument("--tables", default=TOP, help="the source tree whose kernel tables name rows")
    ap.add_argument("--bench", default=os.environ.get("GPUK_BENCH", "gpuk-bench"),
                    help="the gpuk-bench whose --cost gives the class of a report without it")
    a = ap.parse_args()
    tables = read_tables(a.tables) if a.dtype == "f32" else {}
    rows = []          # (path, row) of every timed, checked rung of the dtype
    for path in a.csv:
        for row in csv.DictReader(open(path, newline="")):
            if row.get("status") != "ok" or not row.get("ms_median"):
                continue
            if (row.get("dtype") or "f32") != a.dtype or row["variant"] == "auto":
                continue
            rows.append((path, row))
    if a.dtype != "f32":
        tables = tables_from_rows(row for _, row in rows)
    classes = classes_from_bench({case_key(row) for _, row in rows if not row.get("class")},
                                 a.bench)
    # (backend, machine label) -> op -> [case]; a case: (class, shape, {rung: ms})
    series = {}
    threads = {}
    for path, row in rows:
        backend, op = row["backend"], row["op"]
        t = tables.get((backend, op))
        if not t:
            continue
        name = t["names"].get(row["variant"], row["variant"])
        if name in t["tf32"] or "tf32" in row.get("flags", ""):
            continue
        label, th = machine_of(path, backend)
        threads[(backend, label)] = th
        shape = "x".join(row[d] for d in ("m", "n", "k"))
        if row.get("batch") not in (None, "", "1"):
            shape += " b" + row["batch"]
        if row.get("matrix"):
            shape += " " + row["matrix"]
        cases = series.setdefault((backend, label), {}).setdefault(op, {})
        cls = int(row["class"]) if row.get("class") else classes[case_key(row)]
        c = cases.setdefault(shape, {"class": cls, "ms": {}})
        c["ms"][name] = float(row["ms_median"])

    print("Fastest non-TF32 %s rung of each case (class = floor(log2(work)); default/best: the "
          "DEFAULT row's time over the best):\n" % a.dtype)
    rules = {}
    for (backend, label) in sorted(series):
        print("== %s ==" % label)
        for op in sorted(series[(backend, label)]):
            dflt = tables[(backend, op)]["default"]
            cases = sorted(series[(backend, label)][op].items(), key=lambda kv: kv[1]["class"])
            for shape, c in cases:
                best = min(c["ms"], key=c["ms"].get)
                ratio = c["ms"].get(dflt, float("nan")) / c["ms"][best]
                print("  %-15s %-28s class %3d  best %-14s %10.4g ms   default %-12s %s" % (
                    op, shape, c["class"], best, c["ms"][best], dflt,
                    "%.3f" % ratio if not math.isnan(ratio) else "n/a"))
            rules[(backend, label, op)] = derive(cases, dflt, a.tolerance)
        print()

    print("Rules (tolerance %.0f%%: a piece keeps one rung within it of each case's best; "
          "'default' pieces need no rule):\n" % (100 * a.tolerance))
    for (backend, label, op), pieces in sorted(rules.items()):
        text = []
        for lo, hi, rung, is_default, worst in pieces:
            rng = ("class <= %d" % hi if lo is None and hi is not None else
                   "class >= %d" % lo if hi is None and lo is not None else
                   "every class" if lo is None else "class %d..%d" % (lo, hi))
            text.append("%s: %s%s (worst %.1f%% over best)" % (
                rng, rung, " [default]" if is_default else "", 100 * (worst - 1)))
        if all(p[3] for p in pieces):
            continue
        print("%-40s %s" % ("%s %s:" % (label, op), "; ".join(text)))
    print("\nEvery other (backend, op): the DEFAULT row at every measured class.")
    return 0


def derive(cases, dflt, tol):
    """[(lo, hi, rung, is_default, worst ratio)] pieces over the classes."""
    by_class = {}
    for _shape, c in cases:
        by_class.setdefault(c["class"], []).append(c["ms"])
    classes = sorted(by_class)
    acc, ratios = {}, {}
    for cl in classes:
        sets, rat = None, {}
        for ms in by_class[cl]:
            best = min(ms.values())
            ok = {r for r, t in ms.items() if t <= best * (1 + tol)}
            sets = ok if sets is None else sets & ok
            for r, t in ms.items():
                rat.setdefault(r, []).append(t / best)
        if not sets:  # no rung acceptable in every case of the class: least worst
            sets = {min(rat, key=lambda r: max(rat[r]) if len(rat[r]) == len(by_class[cl])
                        else float("inf"))}
        acc[cl] = sets
        ratios[cl] = {r: max(v) for r, v in rat.items() if len(v) == len(by_class[cl])}
    pieces, cur, members = [], None, []
    for cl in classes:
        nxt = acc[cl] if cur is None else cur & acc[cl]
        if not nxt:
            pieces.append((members, cur))
            nxt, members = acc[cl], []
        cur = nxt
        members.append(cl)
    pieces.append((members, cur))
    out = []
    for i, (members, ok) in enumerate(pieces):
        if dflt in ok:
            rung = dflt
        else:
            rung = min(sorted(ok), key=lambda r: sum(math.log(ratios[c][r]) for c in members))
        lo = None if i == 0 else (pieces[i - 1][0][-1] + members[0]) // 2 + 1
        hi = None if i == len(pieces) - 1 else (members[-1] + pieces[i + 1][0][0]) // 2
        worst = max(ratios[c].get(rung, float("inf")) for c in members)
        out.append((lo, hi, rung, rung == dflt, worst))
    return out


if __name__ == "__main__":
    sys.exit(main())
