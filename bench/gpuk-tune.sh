#!/bin/sh
# gpuk-tune - time every rung of every op on this machine and write FILE, a
# wisdom file that "auto" follows when GPUK_WISDOM=FILE (or
# gpuk_options.wisdom) names it.  The measuring is gpuk-bench's: this is
# `gpuk-bench --tune=FILE` with the benchmark's other options, so a tuning
# and a benchmark run time the rungs the same way.  See gpuk-tune(1).

usage() {
    cat <<'USAGE'
Usage: gpuk-tune [OPTION]... FILE
Time every rung of every op of libgpuk on this machine and write FILE, a
wisdom file: per backend, op, dtype and shape class measured, the fastest
rung whose results agreed with the others.  "auto" then runs that rung when
GPUK_WISDOM=FILE.  The report of the run goes to stdout as gpuk-bench's.

Every option is gpuk-bench's (see gpuk-bench --help), for example:
  -b, --backend=LIST   backends to tune (default: each that opens)
      --op=LIST        ops to tune (default: all)
      --dtype=LIST     element types (default f32), e.g. f32,i32
  -s, --size=LIST      the sizes to time, which give the shape classes
      --quick          small default sizes and fewer repetitions
  -t, --threads=N      CPU threads (the wisdom holds for this count)
  -o, --output=FILE    the report to FILE instead of stdout
  -q, --quiet          no progress on stderr

A context follows the file only on the library and plugin version, device
and thread count it was measured with; else it ignores it, with a line
under GPUK_VERBOSE=1.  Exit status: 0 when the file was written and is
followed, 1 when a row failed or it could not be written, 2 for a usage
error.  See gpuk-tune(1).
USAGE
}

case ${1-} in
-h | --help) usage; exit 0 ;;
-V | --version)
    exec "${GPUK_BENCH:-$(dirname "$0")/gpuk-bench}" --version ;;
esac

# FILE is the last argument; it may not be the value of an option that
# takes one as a separate word, nor an option itself
if [ $# -eq 0 ]; then
    echo "gpuk-tune: no FILE to write the wisdom to" >&2
    echo "Try 'gpuk-tune --help'." >&2
    exit 2
fi
file= prev=
for a; do prev=$file; file=$a; done
case $file in
-*) echo "gpuk-tune: the last argument must be the wisdom FILE, not the option '$file'" >&2
    echo "Try 'gpuk-tune --help'." >&2
    exit 2 ;;
esac
if [ $# -ge 2 ]; then
    case $prev in
    -b | -s | -r | -w | -t | -f | -o)
        echo "gpuk-tune: '$file' is the value of $prev; the wisdom FILE is missing" >&2
        echo "Try 'gpuk-tune --help'." >&2
        exit 2 ;;
    esac
fi
n=$# i=0
for a; do
    i=$((i + 1))
    [ $i -eq 1 ] && set --
    [ $i -lt $n ] && set -- "$@" "$a"
done
[ $n -eq 1 ] && set --

# gpuk-bench beside this script (installed: the same bindir; build tree:
# bench/), unless GPUK_BENCH names another, else the one on PATH
bench=${GPUK_BENCH:-$(dirname "$0")/gpuk-bench}
[ -x "$bench" ] || bench=gpuk-bench
exec "$bench" "$@" --tune="$file"
