#!/usr/bin/env python3
"""Compare libgpuk's text classifier (examples/textclf) with PyTorch.

Builds the same network in PyTorch from the same weight file (FORMAT.md),
runs the same batch of token ids on the GPU (on the CPU where PyTorch sees
no GPU), and compares:

  * the probabilities: max |p_libgpuk - p_torch| must be <= --tol (1e-4),
    and the predicted classes identical;
  * both against a float64 evaluation of the network (on the CPU);
  * the time per batch: median of --repeat runs after --warmup, CUDA events
    on the device for the compute (ids already on the GPU), and the host
    clock for the whole batch (ids in, probabilities out), stage by stage
    the same way textclf times itself.

libgpuk's output comes from running the textclf binary (--textclf PATH, on
--backend NAME, by default textclf's own choice: $GPUK_BACKEND, else auto,
which is CUDA where it runs and the CPU elsewhere), or from a probabilities
file written earlier with `textclf --out` (--probs FILE, no libgpuk timing
then).  PyTorch runs on --device, by default cuda where PyTorch sees a GPU
and cpu elsewhere, so the script runs as it is on a machine without one.

A markdown report goes to --markdown FILE (and a summary to stdout).
Exit status: 0 pass, 1 mismatch or a failed run, 2 cannot run here (no
PyTorch, no GPU, bad files or arguments).

Example, from the top of a build tree:

  export GPUK_BACKEND_PATH=$PWD/backends/cpu/.libs:$PWD/backends/cuda/.libs
  examples/textclf/textclf --generate --model m.gktm --input i.gktb
  python3 ../examples/textclf/torch_compare.py --model m.gktm --input i.gktb \\
      --textclf examples/textclf/textclf --markdown textclf-torch.md

Without PyTorch, --python-reference checks the files and the libgpuk
output against a pure-Python float64 evaluation instead (slow: keep the
model small), which exercises everything in this script but the GPU.
"""

import argparse
import array
import datetime
import hashlib
import math
import os
import platform
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time

STAGES = ["upload", "embedding", "linear1", "bias_relu", "meanpool", "linear2",
          "softmax", "download"]


class FormatError(Exception):
    pass


# --------------------------------------------------------------------- files

def _read_file(path, magic, header_min, ndims):
    """Return (dims, payload bytes) of a textclf file, checked as FORMAT.md says."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < header_min:
        raise FormatError(f"{path}: {len(data)} bytes, shorter than the {header_min}-byte header")
    if data[:4] != magic:
        raise FormatError(f"{path}: magic is {data[:4]!r}, expected {magic!r}")
    version, header = struct.unpack_from("<II", data, 4)
    if version != 1:
        raise FormatError(f"{path}: format version {version}, this script reads version 1")
    if not header_min <= header <= len(data):
        raise FormatError(f"{path}: header size {header} is outside [{header_min}, {len(data)}]")
    dims = struct.unpack_from("<" + "I" * ndims, data, 12)
    if any(d < 1 or d > 2**31 - 1 for d in dims):
        raise FormatError(f"{path}: dimensions {dims} must each be in [1, 2^31-1]")
    return dims, data[header:], sha256(data)


def sha256(data):
    return hashlib.sha256(data).hexdigest()[:16]


def _array(code, payload, start, count, path):
    """count little-endian 4-byte values of array type code from payload."""
    end = start + 4 * count
    if end > len(payload):
        raise FormatError(f"{path}: truncated")
    a = array.array(code)
    a.frombytes(payload[start:end])
    if sys.byteorder == "big":
        a.byteswap()
    return a, end


def read_model(path):
    (V, E, H, C), payload, digest = _read_file(path, b"GKTM", 32, 4)
    want = 4 * (V * E + E * H + H + H * C + C)
    if len(payload) != want:
        raise FormatError(f"{path}: {len(payload)} bytes of weights, expected {want}")
    pos = 0
    m = {"V": V, "E": E, "H": H, "C": C, "sha": digest, "path": path}
    for name, n in (("embedding", V * E), ("w1", E * H), ("b1", H), ("w2", H * C), ("b2", C)):
        m[name], pos = _array("f", payload, pos, n, path)
    return m


def read_batch(path):
    (B, T), payload, digest = _read_file(path, b"GKTB", 24, 2)
    if len(payload) != 4 * B * T:
        raise FormatError(f"{path}: {len(payload)} bytes of ids, expected {4 * B * T}")
    ids, _ = _array("i", payload, 0, B * T, path)
    return {"B": B, "T": T, "ids": ids, "sha": digest, "path": path}


def read_probs(path):
    (B, C), payload, digest = _read_file(path, b"GKTP", 24, 2)
    if len(payload) != 4 * (B * C + B):
        raise FormatError(f"{path}: {len(payload)} bytes, expected {4 * (B * C + B)}")
    probs, pos = _array("f", payload, 0, B * C, path)
    cls, _ = _array("i", payload, pos, B, path)
    return {"B": B, "C": C, "probs": probs, "classes": cls, "sha": digest}


# --------------------------------------------------------------------- libgpuk

def run_textclf(args):
    """Run textclf on the batch; return (probs dict, stage times, output text)."""
    fd, out = tempfile.mkstemp(suffix=".gktp")
    os.close(fd)
    cmd = [args.textclf, "--model", args.model, "--input", args.input,
           "--out", out, "--show", "0",
           "--repeat", str(args.repeat), "--warmup", str(args.warmup)]
    if args.backend:
        cmd += ["--backend", args.backend]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        text = proc.stdout
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{text}")
        probs = read_probs(out)
    finally:
        os.unlink(out)
    times = {}
    for m in re.finditer(r"^time: backend=(\S+) stage=(\S+) median_ms=([0-9.eE+-]+)", text, re.M):
        times[m.group(2)] = float(m.group(3))
    return probs, times, text


# --------------------------------------------------------------------- float64

def as_tensor(torch, a, dtype):
    """An array.array as a new tensor of dtype, without a Python-level loop."""
    src = torch.float32 if a.typecode == "f" else torch.int32
    try:
        t = torch.frombuffer(a, dtype=src)
    except AttributeError:      # PyTorch older than 1.10
        t = torch.tensor(list(a), dtype=src)
    return t.to(dtype).clone()


def reference64_torch(torch, model, batch):
    """The network in float64 on the CPU: the yardstick for both sides."""
    d = torch.float64
    V, E, H, C = model["V"], model["E"], model["H"], model["C"]
    emb = as_tensor(torch, model["embedding"], d).view(V, E)
    w1 = as_tensor(torch, model["w1"], d).view(E, H)
    b1 = as_tensor(torch, model["b1"], d)
    w2 = as_tensor(torch, model["w2"], d).view(H, C)
    b2 = as_tensor(torch, model["b2"], d)
    ids = as_tensor(torch, batch["ids"], torch.int64).view(batch["B"], batch["T"])
    h = torch.relu(emb[ids] @ w1 + b1)
    return torch.softmax(h.mean(dim=1) @ w2 + b2, dim=-1).reshape(-1).tolist()


def reference64_python(model, batch):
    """The same in pure Python (slow), for machines without PyTorch."""
    V, E, H, C = model["V"], model["E"], model["H"], model["C"]
    emb, w1, b1, w2, b2 = (model[k] for k in ("embedding", "w1", "b1", "w2", "b2"))
    B, T, ids = batch["B"], batch["T"], batch["ids"]
    out = []
    for s in range(B):
        pooled = [0.0] * H
        for t in range(T):
            v = ids[s * T + t]
            if not 0 <= v < V:
                raise FormatError(f"id {v} at [{s}][{t}] is outside [0, {V})")
            x = emb[v * E:(v + 1) * E]
            for j in range(H):
                acc = b1[j] + math.fsum(x[k] * w1[k * H + j] for k in range(E))
                pooled[j] += max(acc, 0.0)
        pooled = [p / T for p in pooled]
        z = [b2[c] + math.fsum(pooled[j] * w2[j * C + c] for j in range(H)) for c in range(C)]
        zmax = max(z)
        e = [math.exp(v - zmax) for v in z]
        tot = math.fsum(e)
        out.extend(v / tot for v in e)
    return out


# --------------------------------------------------------------------- PyTorch

def torch_run(torch, model, batch, args):
    """Probabilities and times of the network in PyTorch on args.device."""
    nn = torch.nn
    dev = torch.device(args.device)
    V, E, H, C = model["V"], model["E"], model["H"], model["C"]
    B, T = batch["B"], batch["T"]
    f32 = torch.float32

    class TextClassifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(V, E)
            self.linear1 = nn.Linear(E, H)
            self.linear2 = nn.Linear(H, C)

        def forward(self, ids):
            h = torch.relu(self.linear1(self.embedding(ids)))
            return torch.softmax(self.linear2(h.mean(dim=1)), dim=-1)

    net = TextClassifier()
    with torch.no_grad():
        net.embedding.weight.copy_(as_tensor(torch, model["embedding"], f32).view(V, E))
        # FORMAT.md stores W input-major ([in, out]); nn.Linear keeps [out, in]
        net.linear1.weight.copy_(as_tensor(torch, model["w1"], f32).view(E, H).t())
        net.linear1.bias.copy_(as_tensor(torch, model["b1"], f32))
        net.linear2.weight.copy_(as_tensor(torch, model["w2"], f32).view(H, C).t())
        net.linear2.bias.copy_(as_tensor(torch, model["b2"], f32))
    net = net.to(dev).eval()
    ids_host = as_tensor(torch, batch["ids"], torch.int64).view(B, T)
    ids = ids_host.to(dev)

    # the same stages as textclf, op for op
    w1 = net.linear1.weight.detach().t().contiguous()
    b1 = net.linear1.bias.detach()
    w2 = net.linear2.weight.detach().t().contiguous()
    b2 = net.linear2.bias.detach()
    state = {}

    def st_embedding():
        state["x"] = torch.nn.functional.embedding(ids, net.embedding.weight)

    def st_linear1():
        state["h"] = state["x"].view(B * T, E) @ w1

    def st_bias_relu():
        state["h"] = torch.relu_(state["h"].add_(b1))

    def st_meanpool():
        state["p"] = state["h"].view(B, T, H).mean(dim=1)

    def st_linear2():
        state["z"] = torch.addmm(b2, state["p"], w2)

    def st_softmax():
        state["y"] = torch.softmax(state["z"], dim=-1)

    stages = [("embedding", st_embedding), ("linear1", st_linear1),
              ("bias_relu", st_bias_relu), ("meanpool", st_meanpool),
              ("linear2", st_linear2), ("softmax", st_softmax)]
    cuda = dev.type == "cuda"

    def sync():
        if cuda:
            torch.cuda.synchronize()

    def device_ms(fn):
        """Time fn on the device clock (CUDA events), else the host clock."""
        if cuda:
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            fn()
            b.record()
            b.synchronize()
            return a.elapsed_time(b)
        t0 = time.perf_counter()
        fn()
        return (time.perf_counter() - t0) * 1e3

    def whole_stages():
        for _, fn in stages:
            fn()

    def module_forward():
        state["m"] = net(ids)

    def end_to_end():
        t0 = time.perf_counter()
        y = net(ids_host.to(dev, non_blocking=False)).cpu()
        sync()
        state["e2e"] = y
        return (time.perf_counter() - t0) * 1e3

    samples = {name: [] for name, _ in stages}
    samples.update({"forward": [], "module_forward": [], "end_to_end": []})
    with torch.no_grad():
        for _ in range(args.warmup):
            whole_stages()
            module_forward()
            end_to_end()
        sync()
        for _ in range(args.repeat):
            for name, fn in stages:
                samples[name].append(device_ms(fn))
            samples["forward"].append(device_ms(whole_stages))
            samples["module_forward"].append(device_ms(module_forward))
            samples["end_to_end"].append(end_to_end())
        probs_stages = state["y"].reshape(-1).cpu().tolist()
        probs_module = state["m"].reshape(-1).cpu().tolist()
    times = {k: statistics.median(v) for k, v in samples.items()}
    return probs_stages, probs_module, times


def describe_torch(torch, args):
    lines = [f"PyTorch {torch.__version__}"]
    if args.device.startswith("cuda"):
        lines.append(f"CUDA {torch.version.cuda}, {torch.cuda.get_device_name(torch.device(args.device))}")
    lines.append("TF32 off (torch.backends.cuda.matmul.allow_tf32 = False), float32 matmul "
                 "precision 'highest'")
    return "; ".join(lines)


# --------------------------------------------------------------------- compare

def max_diff(a, b):
    worst = 0.0
    for x, y in zip(a, b):
        d = abs(x - y)
        if d != d:          # NaN on either side
            return float("inf")
        worst = max(worst, d)
    return worst


def argmaxes(p, B, C):
    return [max(range(C), key=lambda c: (p[s * C + c], -c)) for s in range(B)]


def fmt_ms(v):
    return "—" if v is None else f"{v:.4f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See the module docstring (head of this file) for more.")
    ap.add_argument("--model", required=True, help="GKTM weight file")
    ap.add_argument("--input", required=True, help="GKTB token id file")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--textclf", help="the textclf binary to run (libtool wrapper is fine)")
    src.add_argument("--probs", help="a GKTP file written by textclf --out")
    ap.add_argument("--backend", help="libgpuk backend for textclf (default: textclf's "
                    "own, $GPUK_BACKEND else auto)")
    ap.add_argument("--device", help="PyTorch device (default: cuda where PyTorch sees "
                    "a GPU, else cpu)")
    ap.add_argument("--tol", type=float, default=1e-4, help="max abs difference (1e-4)")
    ap.add_argument("--repeat", type=int, default=50, help="timed runs (median taken)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed runs first")
    ap.add_argument("--markdown", help="write the report here")
    ap.add_argument("--python-reference", action="store_true",
                    help="no PyTorch: check libgpuk against pure-Python float64 only")
    args = ap.parse_args()
    if args.repeat < 1 or args.warmup < 0:
        ap.error("--repeat must be >= 1 and --warmup >= 0")

    try:
        model = read_model(args.model)
        batch = read_batch(args.input)
    except (OSError, FormatError) as e:
        print(f"torch_compare: {e}", file=sys.stderr)
        return 2
    B, C = batch["B"], model["C"]

    torch = None
    if not args.python_reference:
        try:
            import torch  # noqa: F811 (imported here so --help works without it)
        except ImportError:
            print("torch_compare: PyTorch is not installed here (pip install torch); "
                  "--python-reference checks the files without it", file=sys.stderr)
            return 2
        if args.device is None:
            args.device = "cuda" if torch.cuda.is_available() else "cpu"
        if args.device.startswith("cuda") and not torch.cuda.is_available():
            print("torch_compare: PyTorch sees no CUDA device; use --device cpu to compare "
                  "on the CPU", file=sys.stderr)
            return 2
        # FP32 throughout, as libgpuk's default variants compute
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")

    g_text, g_times = "", {}
    try:
        if args.textclf:
            g, g_times, g_text = run_textclf(args)
        else:
            g = read_probs(args.probs)
    except (OSError, FormatError, RuntimeError) as e:
        print(f"torch_compare: libgpuk: {e}", file=sys.stderr)
        return 1
    if (g["B"], g["C"]) != (B, C):
        print(f"torch_compare: libgpuk output is {g['B']}x{g['C']}, the model and batch "
              f"make {B}x{C}", file=sys.stderr)
        return 2
    p_g = list(g["probs"])

    rows = []     # (what, value, limit, ok)
    if torch is not None:
        ref = reference64_torch(torch, model, batch)
        p_t, p_tm, t_times = torch_run(torch, model, batch, args)
        d = max_diff(p_g, p_t)
        rows.append(("max \\|p_libgpuk − p_torch\\|", f"{d:.3g}", f"≤ {args.tol:g}", d <= args.tol))
        d2 = max_diff(p_g, p_tm)
        rows.append(("max \\|p_libgpuk − p_torch nn.Module\\|", f"{d2:.3g}", f"≤ {args.tol:g}",
                     d2 <= args.tol))
        cg, ct = argmaxes(p_g, B, C), argmaxes(p_t, B, C)
        same = sum(a == b for a, b in zip(cg, ct))
        rows.append(("classes identical", f"{same}/{B}", f"{B}/{B}", same == B))
        rows.append(("max \\|p_torch − p_float64\\|", f"{max_diff(p_t, ref):.3g}", "(info)", True))
        where = f"PyTorch on {args.device}: " + describe_torch(torch, args)
    else:
        t_times = {}
        ref = reference64_python(model, batch)
        where = "no PyTorch: pure-Python float64 reference only"
    dg = max_diff(p_g, ref)
    rows.append(("max \\|p_libgpuk − p_float64\\|", f"{dg:.3g}", f"≤ {args.tol:g}", dg <= args.tol))
    cls_ref = argmaxes(ref, B, C)
    same_ref = sum(a == b for a, b in zip(argmaxes(p_g, B, C), cls_ref))
    rows.append(("libgpuk classes = float64 classes", f"{same_ref}/{B}", f"{B}/{B}",
                 same_ref == B))
    passed = all(r[3] for r in rows)

    md = []
    md.append("# textclf: libgpuk vs PyTorch\n")
    md.append(f"- date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}, host "
              f"{platform.node()}, Python {platform.python_version()}")
    md.append(f"- {where}")
    backend_line = next((l for l in g_text.splitlines() if l.startswith("backend: ")), None)
    if backend_line:
        md.append(f"- libgpuk {backend_line}")
    md.append(f"- model `{model['path']}` (sha256 {model['sha']}…): vocab {model['V']}, "
              f"embed {model['E']}, hidden {model['H']}, classes {C}")
    md.append(f"- input `{batch['path']}` (sha256 {batch['sha']}…): {B} sequences × "
              f"{batch['T']} tokens")
    md.append(f"- timing: median of {args.repeat} runs after {args.warmup} warm-up runs\n")
    md.append("## Agreement\n")
    md.append("| check | value | limit | result |")
    md.append("| --- | --- | --- | --- |")
    for what, val, lim, ok in rows:
        md.append(f"| {what} | {val} | {lim} | {'ok' if ok else '**FAIL**'} |")
    if g_times or t_times:
        md.append("\n## Time per batch (ms)\n")
        theirs = f"PyTorch ({args.device})" if torch is not None else "PyTorch (not run)"
        ours = backend_line.split()[1] if backend_line else (args.backend or "default")
        md.append(f"| stage | libgpuk ({ours}) | {theirs} |")
        md.append("| --- | --- | --- |")
        for s in STAGES:
            md.append(f"| {s} | {fmt_ms(g_times.get(s))} | {fmt_ms(t_times.get(s))} |")
        md.append(f"| **forward**, embedding..softmax, one interval | "
                  f"{fmt_ms(g_times.get('forward'))} | {fmt_ms(t_times.get('forward'))} |")
        md.append(f"| PyTorch nn.Module forward (fused addmm bias) | — | "
                  f"{fmt_ms(t_times.get('module_forward'))} |")
        md.append(f"| **end to end**, ids in, probabilities out (host clock) | "
                  f"{fmt_ms(g_times.get('end_to_end'))} | {fmt_ms(t_times.get('end_to_end'))} |")
        md.append("\nStages are timed one at a time on the device clock (a wait after "
                  "each); *forward* is one interval around all compute stages; PyTorch's "
                  "upload and download happen inside its end-to-end time only.")
    md.append(f"\n**Result: {'PASS' if passed else 'FAIL'}**\n")
    report = "\n".join(md)
    print(report)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(report)
        print(f"wrote {args.markdown}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
