#!/bin/sh
# run-all.sh - regenerate the committed benchmark results of one machine:
#   bench/results/NAME.csv, NAME.json, NAME.md   the report, three ways
#   bench/results/NAME.gp                        the gnuplot script (data inline)
#   bench/results/NAME-roofline.png, NAME-ladder-OP.png
# from a build tree, with every backend that opens (cpu, and cuda where a
# GPU is usable), at the full default sizes.
#
# Usage: bench/run-all.sh BUILD_DIR [NAME] [GPUK-BENCH OPTION]...
#   BUILD_DIR  a configured and built tree (it has bench/gpuk-bench)
#   NAME       file name of the results (default: from the GPU's name, or
#              cpu-<cores>core-<model> without a GPU), e.g. h200, cpu-2core-epyc
#   options    passed on, e.g. --max-seconds 10 or --op matmul,minplus
#
# The exact command gpuk-bench ran is in the header of NAME.md and in
# NAME.json; this script adds how to regenerate the set.
set -eu

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    sed -n '2,17s/^# \{0,1\}//p' "$0"
    [ $# -ge 1 ] && exit 0
    exit 2
fi
build=$(cd "$1" && pwd) || exit 2
shift
top=$(cd "$(dirname "$0")/.." && pwd)
results=$top/bench/results
bench=$build/bench/gpuk-bench
if [ ! -x "$bench" ]; then
    echo "run-all.sh: $bench not found: build the tree first (make)" >&2
    exit 2
fi

if [ $# -ge 1 ] && [ "${1#-}" = "$1" ]; then
    name=$1
    shift
else
    gpu=
    if command -v nvidia-smi > /dev/null 2>&1; then
        gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1 || true)
    fi
    if [ -n "$gpu" ]; then
        name=$gpu
    else
        model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2> /dev/null | head -n 1)
        name="cpu-$(getconf _NPROCESSORS_ONLN)core-${model:-unknown}"
    fi
    # lower case, one dash for each run of other characters
    name=$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9.' '-' | sed 's/^-//; s/-$//')
fi

mkdir -p "$results"
GPUK_BACKEND_PATH=$build/backends/cpu/.libs:$build/backends/cuda/.libs
export GPUK_BACKEND_PATH
echo "run-all.sh: writing $results/$name.{csv,json,md,gp} and PNGs" >&2

status=0
start=$(date +%s)
"$bench" --save "$results/$name" --plot "$results/$name" "$@" > /dev/null || status=$?
elapsed=$(($(date +%s) - start))

cat >> "$results/$name.md" << EOF

---
Regenerate this file, $name.csv, $name.json, $name.gp and the PNGs
(\`$name-roofline.png\`, \`$name-ladder-OP.png\`) on the same machine with

    bench/run-all.sh BUILD_DIR $name${*:+ $*}

where BUILD_DIR is a built tree of this checkout (this run took ${elapsed} s).
EOF
echo "run-all.sh: done in ${elapsed} s" >&2
if [ $status -ne 0 ]; then
    echo "run-all.sh: gpuk-bench exited with status $status (see the failed rows in $name.md)" >&2
fi
exit $status
