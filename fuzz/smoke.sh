#!/bin/sh
# fuzz/smoke.sh [BUILD_DIR] [SECONDS] - build the harness (fuzz/build.sh)
# and fuzz the API for SECONDS (default 60): what CI runs.  Prints TAP on
# stdout (one check: the run ended without a crash or failed check, with
# its figures) and libFuzzer's own log on stderr; exits non-zero on a
# finding.  Starts from the regression corpus fuzz/corpus (read-only) plus
# a working corpus in the build folder; a finding is left as
# BUILD_DIR/crash-* (reproduce and minimize it as fuzz/README says), and
# belongs in fuzz/corpus afterwards, where tests/t_fuzz_corpus replays it
# in `make check`.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-${TMPDIR:-/tmp}/gpuk-fuzz-build}
T=${2:-60}
echo "1..1"
if ! "$SRC/fuzz/build.sh" "$B" >&2; then
    echo "not ok 1 - fuzz smoke: the harness did not build (clang and libclang-rt-14-dev?)"
    exit 1
fi
mkdir -p "$B/work-corpus"
GPUK_BACKEND_PATH="$B/backends/cpu/.libs"
export GPUK_BACKEND_PATH
# allocator_may_return_null: the harness asks for 2^47-byte tensors on
# purpose, and libgpuk must answer GPUK_ERR_NO_MEMORY, not die
ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1:${ASAN_OPTIONS:-}"
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export ASAN_OPTIONS UBSAN_OPTIONS
# Known, reported bugs (corpus inputs named todo-OP-VARIANT-...; see
# fuzz/README) are not compared with the reference here, so the smoke run
# looks for new ones; their todo inputs stay TAP TODOs in make check until
# the fix lands.  The TAP line names what was skipped.
known=$(ls "$SRC/fuzz/corpus" | sed -n 's/^todo-\([a-z_]*\)-\([a-z0-9_]*\)-.*/\1\/\2/p' |
    sort -u | paste -sd, -)
GPUK_FUZZ_KNOWN=${GPUK_FUZZ_KNOWN:-$known}
export GPUK_FUZZ_KNOWN
log="$B/smoke.log"
"$B/fuzz_api" -max_total_time="$T" -max_len=256 -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$B/" "$B/work-corpus" "$SRC/fuzz/corpus" >"$log" 2>&1
rc=$?
cat "$log" >&2
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
if [ $rc -eq 0 ]; then
    echo "ok 1 - fuzz smoke: ${T} s, ${execs:-?} executions, ${cov:-cov ?}, no crash, no failed check${GPUK_FUZZ_KNOWN:+ (values of known-bad rungs not compared: $GPUK_FUZZ_KNOWN)}"
else
    why=$(grep -m1 -e 'check failed' -e 'ERROR: AddressSanitizer' -e 'runtime error' \
        -e 'ERROR: libFuzzer' "$log")
    echo "not ok 1 - fuzz smoke: finding after ${execs:-?} executions: ${why:-exit $rc}"
    grep -m1 'Test unit written to' "$log" | sed 's/^/# /'
fi
exit $rc
