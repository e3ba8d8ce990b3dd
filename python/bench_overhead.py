#!/usr/bin/env python3
"""How much a Python call of a small op costs over the same call from C.

    GPUK_LIBRARY=.../libgpuk.so GPUK_BACKEND_PATH=... python3 bench_overhead.py [--calls N]
        [--elements N] [--backend cpu] [--repeat R]

Builds tools/overhead.c (cc, against the headers of this source tree or
pkg-config's, and the library GPUK_LIBRARY names or pkg-config's libdir),
runs it, then times the same loops from Python:

  add            gpuk.add(x, y, out=out) on tensors made once   vs C add
  add (raw)      the ctypes function alone, no gpuk wrapper      (reference)
  add+alloc      gpuk.add(x, y): a new result tensor each call  vs C add+alloc
  add numpy      gpuk.add on NumPy arrays used in place (CPU)     vs C wrap x3+add+destroy x3

Each figure is the best of R runs of N calls (ns per call); the overhead is
Python minus C.  Not a test: it prints numbers to read.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import gpuk  # noqa: E402
from gpuk import _lib  # noqa: E402


def build_c():
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        sys.exit("no C compiler (cc) to build tools/overhead.c")
    include = os.path.join(os.path.dirname(HERE), "include")
    cflags = ["-I" + include] if os.path.exists(os.path.join(include, "gpuk.h")) else \
        subprocess.run(["pkg-config", "--cflags", "gpuk"], capture_output=True,
                       text=True).stdout.split()
    libdir = os.path.dirname(_lib.path)
    exe = os.path.join(tempfile.mkdtemp(prefix="gpuk-overhead-"), "overhead")
    cmd = [cc, "-O2", "-o", exe, os.path.join(HERE, "tools", "overhead.c")] + cflags + \
        [_lib.path, "-Wl,-rpath," + libdir]
    subprocess.run(cmd, check=True)
    return exe


def run_c(exe, calls, n, backend):
    env = dict(os.environ)
    out = subprocess.run([exe, str(calls), str(n), backend], capture_output=True, text=True,
                         env=env, check=True).stdout
    return {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
            for line in out.strip().splitlines()}


def best_ns(fn, calls, repeat):
    fn(calls // 10 + 1)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn(calls)
        best = min(best, (time.perf_counter_ns() - t0) / calls)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=100000)
    ap.add_argument("--elements", type=int, default=16)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    exe = build_c()
    c_best = {}
    for _ in range(args.repeat):
        for k, v in run_c(exe, args.calls, args.elements, args.backend).items():
            c_best[k] = min(v, c_best.get(k, float("inf")))

    ctx = gpuk.Context(args.backend)
    host = np.arange(args.elements, dtype=np.float32)
    x, y, out = ctx.asarray(host), ctx.asarray(host), ctx.empty(args.elements)
    add = gpuk.add

    def py_add(n):
        for _ in range(n):
            add(x, y, out=out)

    raw = _lib.gpuk_add
    p, hx, hy, ho = ctx._p, x._h, y._h, out._h

    def raw_add(n):
        for _ in range(n):
            raw(p, hx, hy, ho, None)

    def py_alloc(n):
        for _ in range(n):
            add(x, y)

    def py_numpy(n):
        for _ in range(n):
            add(host, host, out=hout)
    hout = np.empty_like(host)

    rows = [("add", best_ns(py_add, args.calls, args.repeat), c_best["add"]),
            ("add (raw ctypes)", best_ns(raw_add, args.calls, args.repeat), c_best["add"]),
            ("add+alloc", best_ns(py_alloc, args.calls, args.repeat), c_best["add+alloc"])]
    if "add+wrap" in c_best and ctx.info.dlpack_device and ctx.info.dlpack_device[0] == 1:
        rows.append(("add numpy in place", best_ns(py_numpy, args.calls // 10, args.repeat),
                     c_best["add+wrap"]))
    print("gpuk %s, libgpuk %s (%s), backend %s on %s, %d elements, best of %d x %d calls"
          % (gpuk.__version__, gpuk.version(), _lib.path, ctx.info.backend, ctx.info.device,
             args.elements, args.repeat, args.calls))
    print("%-22s %12s %12s %14s" % ("case", "python ns", "C ns", "overhead ns"))
    for name, py, c in rows:
        print("%-22s %12.0f %12.0f %14.0f" % (name, py, c, py - c))
    ctx.close()


if __name__ == "__main__":
    main()
