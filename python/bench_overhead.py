#!/usr/bin/env python3
"""How much a Python call of a small op costs over the same call from C.

    GPUK_LIBRARY=.../libgpuk.so GPUK_BACKEND_PATH=... python3 bench_overhead.py [--calls N]
        [--elements N] [--backend cpu] [--repeat R]

Builds tools/overhead.c (cc, against the headers of this source tree or
pkg-config's, and the library GPUK_LIBRARY names or pkg-config's libdir),
then times the same loops from C and from Python:

  add                gpuk.add(x, y, out=out) on tensors made once      vs C add
  add (raw ctypes)   the ctypes function alone, no gpuk wrapper         vs C add
  add+alloc          gpuk.add(x, y): a new result tensor each call      vs C create+add+destroy
  add numpy          gpuk.add(a, b, out=c) on the same three NumPy      vs C wrap x3+add+destroy x3
                     arrays every call (CPU; their wraps remembered)
  add numpy, new     the same on memory the context has not seen       vs C wrap x3+add+destroy x3
                     (arrays made beforehand, more than it remembers):
                     a wrap of its own for each array of each call

Each figure is the best of R rounds of N calls (ns per call); a round runs
the C program once, then every Python case once, so C and Python are timed
in the same minutes of a machine whose speed drifts.  The overhead is
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=100000)
    ap.add_argument("--elements", type=int, default=16)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    exe = build_c()

    ctx = gpuk.Context(args.backend)
    host = np.arange(args.elements, dtype=np.float32)
    x, y, out = ctx.asarray(host), ctx.asarray(host), ctx.empty(args.elements)
    add = gpuk.add
    hx, hy, hout = host.copy(), host.copy(), np.empty_like(host)

    def py_add(n):
        for _ in range(n):
            add(x, y, out=out)

    raw = _lib.gpuk_add
    p, tx, ty, to = ctx._p, x._h, y._h, out._h

    def raw_add(n):
        for _ in range(n):
            raw(p, tx, ty, to, None)

    def py_alloc(n):
        for _ in range(n):
            add(x, y)

    def py_numpy(n):
        for _ in range(n):
            add(hx, hy, out=hout, ctx=ctx)

    # memory the context has not seen: arrays made beforehand (making one
    # costs NumPy, not gpuk), cycled through, more of them than the context
    # remembers (gpuk._ops.SEEN descriptions), so every call wraps anew
    from gpuk import _ops
    fresh = [(hx.copy(), hy.copy(), hout.copy()) for _ in range(2 * _ops.SEEN)]

    def py_numpy_new(n):
        k = len(fresh)
        for i in range(n):
            a, b, c = fresh[i % k]
            add(a, b, out=c, ctx=ctx)

    numpy_ok = ctx.info.dlpack_device is not None and ctx.info.dlpack_device[0] == 1
    cases = [("add", py_add, "add", args.calls),
             ("add (raw ctypes)", raw_add, "add", args.calls),
             ("add+alloc", py_alloc, "add+alloc", args.calls)]
    if numpy_ok:
        cases += [("add numpy", py_numpy, "add+wrap", args.calls // 10),
                  ("add numpy, new memory", py_numpy_new, "add+wrap", args.calls // 10)]
    c_best, py_best = {}, {}
    for _, fn, _, n in cases:               # warm-up
        fn(n // 10 + 1)
    for _ in range(args.repeat):
        for k, v in run_c(exe, args.calls, args.elements, args.backend).items():
            c_best[k] = min(v, c_best.get(k, float("inf")))
        for name, fn, _, n in cases:
            t0 = time.perf_counter_ns()
            fn(n)
            py_best[name] = min(py_best.get(name, float("inf")),
                                (time.perf_counter_ns() - t0) / n)
    print("gpuk %s, libgpuk %s (%s), backend %s on %s, %d elements, best of %d rounds of %d "
          "calls (%d for NumPy)" % (gpuk.__version__, gpuk.version(), _lib.path, ctx.info.backend,
                                    ctx.info.device, args.elements, args.repeat, args.calls,
                                    args.calls // 10))
    print("%-24s %12s %12s %14s" % ("case", "python ns", "C ns", "overhead ns"))
    for name, _, cname, _ in cases:
        if cname in c_best:
            print("%-24s %12.0f %12.0f %14.0f" % (name, py_best[name], c_best[cname],
                                                  py_best[name] - c_best[cname]))
    ctx.close()


if __name__ == "__main__":
    main()
