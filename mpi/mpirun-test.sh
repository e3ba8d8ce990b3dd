#!/bin/sh
# mpirun-test.sh - run one of libgpuk_mpi's test programs on N MPI ranks.
#
# make check calls it (MPI_LOG_COMPILER in mpi/local.mk) with the test's
# name, .../mpi/PROG-N.mpi: it runs the program mpi/PROG of the build tree
# on N ranks (PROG-staged-N, PROG-slabs-N: variants, below).  The
# program's TAP comes from rank 0 alone (mpi/dtap.c), so the output is one
# TAP stream whatever N is.
#
#   MPIEXEC        the launcher (configure's, or mpiexec from PATH)
#   MPIEXEC_FLAGS  its options; when empty and the launcher is Open MPI's,
#                  --oversubscribe (N may exceed the cores: CI has 2), and
#                  --allow-run-as-root when run as root (CI containers)
#   GPUK_MPI_TEST_TIMEOUT  seconds before a hung job is killed (600)
#
# By hand, from the top of the build tree:
#   sh ../mpi/mpirun-test.sh mpi/t_dist-3.mpi

test=$1
base=$(basename "$test" .mpi)
prog=${base%-*}
np=${base##*-}
# PROG-staged-N: the same program with panels staged through host buffers,
# the path of a GPU without CUDA-aware MPI, taken on whatever backend runs;
# PROG-slabs-N: with CPU ops in 3 row slabs (GPUK_DIST_SLICES, not the
# default) and no progress thread (GPUK_DIST_PROGRESS=0), the path of an MPI
# started below MPI_THREAD_SERIALIZED
case $prog in
    *-staged) prog=${prog%-staged}; GPUK_DIST_STAGED=1; export GPUK_DIST_STAGED ;;
    *-slabs) prog=${prog%-slabs}; GPUK_DIST_SLICES=3; GPUK_DIST_PROGRESS=0
             export GPUK_DIST_SLICES GPUK_DIST_PROGRESS ;;
esac
builddir=${GPUK_TEST_BUILDDIR:-.}
exe=$builddir/mpi/$prog

case $np in
    ''|*[!0-9]*) echo "1..0 # SKIP cannot read a rank count from $test"; exit 0 ;;
esac
if [ ! -x "$exe" ]; then
    echo "1..0 # SKIP $exe was not built"
    exit 0
fi
. "$(dirname "$0")/launcher.sh"
if [ $have_launcher = no ]; then
    echo "1..0 # SKIP no MPI launcher ($launcher): set MPIEXEC"
    exit 0
fi

timeout=
command -v timeout > /dev/null 2>&1 && timeout="timeout ${GPUK_MPI_TEST_TIMEOUT:-600}"
echo "# $launcher $flags -n $np $exe"
exec $timeout $launcher $flags -n "$np" "$exe"
