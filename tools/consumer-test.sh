#!/bin/sh
# consumer-test.sh - install libgpuk and build a program against the
# installed copy only, the way a user would; prints TAP.
#
# usage: tools/consumer-test.sh [--installed] [--keep] [BUILDDIR]
#
# BUILDDIR is a configured and built libgpuk tree (default: the current
# directory).
#
# Default (staged install): `make install DESTDIR=$tmp/stage` from BUILDDIR
# into a fresh temporary folder, whatever --prefix was given to configure,
# so the machine's real prefix is never touched and nothing needs root.
# The staged tree sits at a path libgpuk was not configured for, which is
# the point: libgpuk must find its plugins next to itself (the plugin
# folder beside the libgpuk.so actually loaded), with GPUK_BACKEND_PATH
# unset.  pkg-config reads the staged gpuk.pc through
# PKG_CONFIG_SYSROOT_DIR, the standard way to use a DESTDIR tree.  At the
# end `make uninstall DESTDIR=...` must leave no file behind (what
# `make distcheck` demands).
#
# --installed: BUILDDIR was already installed into its configured prefix
# (as `make installcheck` inside `make distcheck` does); use that copy and
# install nothing.  Suits an `installcheck-local` rule.
#
# --keep: leave the temporary folder (its path is printed) for a look.
#
# What it checks: the installed layout (versioned libgpuk.so.N, plugins in
# the plugin folder exporting only gpuk_backend_entry, headers, gpuk.pc,
# programs, man pages); that a program compiled with
# `pkg-config --cflags --libs gpuk` (and nothing else: PKG_CONFIG_LIBDIR
# is the installed copy's alone) builds with strict warnings as C99 and as
# C++, takes gpuk.h from the installed tree and links the installed
# libgpuk; that it runs with GPUK_BACKEND=cpu and auto (and cuda, skipped
# with the reason where no GPU can run) with no GPUK_BACKEND_PATH,
# loading a plugin of the installed tree; that the installed gpuk-info
# runs; and that uninstall is clean.
#
# Environment: CC (default cc), CXX (default c++), MAKE (default make).

mode=staged
keep=no
builddir=.
for a in "$@"; do
    case $a in
    --installed) mode=installed ;;
    --keep) keep=yes ;;
    -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "consumer-test.sh: unknown option $a" >&2; exit 2 ;;
    *) builddir=$a ;;
    esac
done
builddir=$(cd "$builddir" && pwd) || exit 2
CC=${CC:-cc}
CXX=${CXX:-c++}
MAKE=${MAKE:-make}

. "$(dirname "$0")/../tests/tap-lib.sh"
bail() { echo "Bail out! $*"; exit 1; }

if [ ! -f "$builddir/Makefile" ] || [ ! -f "$builddir/gpuk.pc" ]; then
    echo "1..0 # SKIP $builddir is not a configured libgpuk build tree"
    exit 0
fi
command -v pkg-config > /dev/null 2>&1 || bail "pkg-config is not installed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuk-consumer.XXXXXX") || bail "mktemp failed"
if [ $keep = yes ]; then
    echo "# keeping $tmp"
else
    trap 'rm -rf "$tmp"' 0
fi
trap 'exit 1' 1 2 15

# The configured install folders, from the build tree's own gpuk.pc.
pcvar() { PKG_CONFIG_LIBDIR=$builddir PKG_CONFIG_PATH= pkg-config --variable="$1" gpuk; }
libdir=$(pcvar libdir)
includedir=$(pcvar includedir)
prefix=$(pcvar prefix)
pluginsdir=$(pcvar pluginsdir)
[ -n "$libdir" ] && [ -n "$pluginsdir" ] || bail "cannot read libdir/pluginsdir from $builddir/gpuk.pc"
exec_prefix=$(pcvar exec_prefix)
bindir=$(sed -n 's/^bindir = //p' "$builddir/Makefile" |
    sed "s|\${exec_prefix}|$exec_prefix|; s|\$(exec_prefix)|$exec_prefix|")
mandir=$(sed -n 's/^mandir = //p' "$builddir/Makefile")
datarootdir=$(sed -n 's/^datarootdir = //p' "$builddir/Makefile")
mandir=$(echo "$mandir" | sed "s|\${datarootdir}|$datarootdir|; s|\$(datarootdir)|$datarootdir|")
mandir=$(echo "$mandir" | sed "s|\${prefix}|$prefix|; s|\$(prefix)|$prefix|")

# ---------------------------------------------------------------- install
if [ $mode = staged ]; then
    root=$tmp/stage
    $MAKE -C "$builddir" install DESTDIR="$root" > "$tmp/install.log" 2>&1
    st=$?
    ok $st "make install DESTDIR=<tmp> (prefix $prefix)"
    [ $st -eq 0 ] || { tail -n 30 "$tmp/install.log" | diag; bail "install failed"; }
else
    root=
    [ -f "$libdir/pkgconfig/gpuk.pc" ]
    ok $? "libgpuk is installed in $prefix (--installed)"
fi
L=$root$libdir
P=$root$pluginsdir

# ---------------------------------------------------------------- layout
so=$(cd "$L" 2> /dev/null && ls libgpuk.so.[0-9]* 2> /dev/null | head -n 1)
[ -n "$so" ] && [ -e "$L/libgpuk.so" ]
ok $? "versioned library installed (${so:-no libgpuk.so.N} and libgpuk.so in $libdir)"
if command -v readelf > /dev/null 2>&1 && [ -n "$so" ]; then
    soname=$(readelf -d "$L/$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    case $soname in libgpuk.so.[0-9]*) st=0 ;; *) st=1 ;; esac
    ok $st "SONAME carries the libtool version ($soname)"
fi
[ -f "$P/backend_cpu.so" ]
ok $? "backend_cpu.so in the plugin folder $pluginsdir"
if [ -f "$builddir/backends/cuda/.libs/backend_cuda.so" ]; then
    [ -f "$P/backend_cuda.so" ]
    ok $? "backend_cuda.so in the plugin folder (it was built)"
fi
if command -v nm > /dev/null 2>&1; then
    for p in "$P"/backend_*.so; do
        [ -f "$p" ] || continue
        extra=$(nm -D --defined-only "$p" | awk '{print $NF}' | grep -v '^gpuk_backend_entry$' | tr '\n' ' ')
        [ -z "$extra" ]
        ok $? "$(basename "$p") exports only gpuk_backend_entry${extra:+ (also: $extra)}"
    done
fi
for f in "$includedir/gpuk.h" "$includedir/gpuk/backend.h" "$libdir/pkgconfig/gpuk.pc" \
         "$bindir/gpuk-info" "$bindir/gpuk-bench" \
         "$mandir/man1/gpuk-info.1" "$mandir/man1/gpuk-bench.1" "$mandir/man3/gpuk.3" \
         "$mandir/man3/gpuk_matmul.3" "$mandir/man3/gpuk_add.3" "$mandir/man7/gpuk.7"; do
    [ -f "$root$f" ]
    ok $? "installed $f"
done

# ---------------------------------------------------------------- build a consumer
cat > "$tmp/consumer.c" << 'EOF'
/* A user's program: only <gpuk.h> and what pkg-config says. */
#include <gpuk.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define M 37
#define K 29
#define N 23

int main(void)
{
    static float a[M * K], b[K * N], bias[N], c[M * N];
    int64_t sa[2] = { M, K }, sb[2] = { K, N }, sc[2] = { M, N }, sn = N, bad[5] = { 1, 1, 1, 1, 1 };
    gpuk_context *ctx = NULL;
    gpuk_load_report *rep = NULL;
    gpuk_tensor *ta, *tb, *tbias, *tc, *tx;
    gpuk_options o;
    gpuk_info info;
    gpuk_status st;
    unsigned s = 12345;
    int i, j, k, wrong = 0;

    if (strcmp(gpuk_version(), GPUK_VERSION_STRING) != 0) {
        printf("header %s but library %s\n", GPUK_VERSION_STRING, gpuk_version());
        return 1;
    }
    gpuk_options_init(&o);
    st = gpuk_context_open_ex(&ctx, &o, &rep);
    fputs(gpuk_load_report_text(rep), stdout);
    if (st != GPUK_OK) {
        size_t nrep = gpuk_load_report_count(rep);
        printf("open: %s: %s\n", gpuk_strerror(st),
               nrep ? gpuk_load_report_get(rep, nrep - 1)->reason : "");
        gpuk_load_report_free(rep);
        return st == GPUK_ERR_NO_DRIVER || st == GPUK_ERR_NO_DEVICE ? 77 : 1;
    }
    gpuk_load_report_free(rep);
    if (gpuk_context_info(ctx, &info) != GPUK_OK)
        return 1;
    printf("backend=%s\nplugin=%s\ndevice=%s\n", info.backend, info.backend_path, info.device);

    for (i = 0; i < M * K; i++)
        a[i] = (float)((s = s * 1103515245u + 12345u) >> 16 & 0xff) / 64.0f - 2.0f;
    for (i = 0; i < K * N; i++)
        b[i] = (float)((s = s * 1103515245u + 12345u) >> 16 & 0xff) / 64.0f - 2.0f;
    for (i = 0; i < N; i++)
        bias[i] = (float)i / 8.0f;
    if ((st = gpuk_tensor_create(ctx, GPUK_F32, 2, sa, &ta)) ||
        (st = gpuk_tensor_create(ctx, GPUK_F32, 2, sb, &tb)) ||
        (st = gpuk_tensor_create(ctx, GPUK_F32, 1, &sn, &tbias)) ||
        (st = gpuk_tensor_create(ctx, GPUK_F32, 2, sc, &tc)) ||
        (st = gpuk_tensor_write(ctx, ta, a, sizeof a)) ||
        (st = gpuk_tensor_write(ctx, tb, b, sizeof b)) ||
        (st = gpuk_tensor_write(ctx, tbias, bias, sizeof bias)) ||
        (st = gpuk_matmul(ctx, ta, tb, tbias, tc, NULL)) ||
        (st = gpuk_tensor_read(ctx, tc, c, sizeof c))) {
        printf("%s: %s\n", gpuk_strerror(st), gpuk_context_error(ctx));
        gpuk_context_close(ctx);
        return 1;
    }
    /* inputs are multiples of 1/64 in [-2, 2): every product and partial
     * sum is exact in float32, so the result must match exactly */
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            double ref = bias[j];
            for (k = 0; k < K; k++)
                ref += (double)a[i * K + k] * b[k * N + j];
            if (c[i * N + j] != (float)ref)
                wrong++;
        }
    printf("matmul %dx%dx%d with bias: %d wrong\n", M, K, N, wrong);
    /* an error is a status and a message, not a crash */
    st = gpuk_tensor_create(ctx, GPUK_F32, 5, bad, &tx);
    printf("5-D tensor: %s: %s\n", gpuk_strerror(st), gpuk_context_error(ctx));
    if (st != GPUK_ERR_SHAPE || !gpuk_context_error(ctx)[0])
        wrong++;
    gpuk_context_close(ctx);
    return wrong ? 1 : 0;
}
EOF

export PKG_CONFIG_LIBDIR="$L/pkgconfig"      # the installed copy, nothing else
export PKG_CONFIG_PATH=
if [ -n "$root" ]; then
    export PKG_CONFIG_SYSROOT_DIR="$root"
fi
flags=$(pkg-config --cflags --libs gpuk 2> "$tmp/pc.err")
st=$?
ok $st "pkg-config --cflags --libs gpuk: $flags"
[ $st -eq 0 ] || diag "$tmp/pc.err"
v=$(pkg-config --modversion gpuk)
pv=$(sed -n 's/^PACKAGE_VERSION = //p' "$builddir/Makefile")
[ "$v" = "$pv" ]
ok $? "pkg-config --modversion gpuk is $pv ($v)"
pd=$(pkg-config --variable=pluginsdir gpuk)
case $pd in "$root"/*) ;; *) pd=$root$pd ;; esac     # pkgconf adds the sysroot, pkg-config does not
[ "$pd" = "$P" ] && [ -f "$pd/backend_cpu.so" ]
ok $? "pkg-config --variable=pluginsdir gpuk names the plugin folder ($pd)"

# $flags is unquoted on purpose: it is a list of words
$CC -std=c99 -pedantic -Wall -Wextra -Werror -o "$tmp/consumer" "$tmp/consumer.c" \
    $flags -lm -Wl,-rpath,"$L" > "$tmp/cc.log" 2>&1
st=$?
ok $st "a C99 program builds with pkg-config's flags alone (-Wall -Wextra -pedantic -Werror)"
diag "$tmp/cc.log"
hdr=$($CC -M $(pkg-config --cflags gpuk) "$tmp/consumer.c" 2> /dev/null | tr ' \\' '\n\n' | grep '/gpuk\.h$' | head -n 1)
[ "$hdr" = "$root$includedir/gpuk.h" ]
ok $? "gpuk.h comes from the installed tree (${hdr:-not found})"
if command -v "$CXX" > /dev/null 2>&1; then
    $CXX -x c++ -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags gpuk) - > "$tmp/cxx.log" 2>&1 << 'EOF'
#include <gpuk.h>
#include <gpuk/backend.h>
int main() { return gpuk_strerror(GPUK_OK) == nullptr; }
EOF
    ok $? "gpuk.h and gpuk/backend.h compile as C++"
    diag "$tmp/cxx.log"
else
    skip "gpuk.h compiles as C++" "no C++ compiler ($CXX)"
fi
if [ $st -ne 0 ]; then
    echo "1..$n"
    exit 1
fi
if command -v ldd > /dev/null 2>&1; then
    lib=$(ldd "$tmp/consumer" | sed -n 's/.*libgpuk\.so[^ ]* => \([^ ]*\).*/\1/p')
    case $lib in "$L"/*) st=0 ;; *) st=1 ;; esac
    ok $st "the program links the installed libgpuk (${lib:-not found})"
fi

# ---------------------------------------------------------------- run it
# no GPUK_BACKEND_PATH (nor GPUK_BACKEND_PATH_ONLY, which would then find
# nothing), no LD_LIBRARY_PATH: only what was installed
runit() {   # runit BACKEND -> status of the consumer; output in $tmp/run.log
    env -u GPUK_BACKEND_PATH -u GPUK_BACKEND_PATH_ONLY -u LD_LIBRARY_PATH -u GPUK_VERBOSE \
        -u GPUK_CHECK \
        GPUK_BACKEND="$1" "$tmp/consumer" > "$tmp/run.log" 2>&1
}
from_tree() { grep -q "^plugin=$P/" "$tmp/run.log"; }

runit cpu
st=$?
[ $st -eq 0 ] && grep -q '^backend=cpu$' "$tmp/run.log" && from_tree
ok $? "GPUK_BACKEND=cpu runs, with the plugin of the installed tree"
diag "$tmp/run.log"

runit auto
st=$?
[ $st -eq 0 ] && from_tree
ok $? "GPUK_BACKEND=auto runs ($(sed -n 's/^backend=//p' "$tmp/run.log")), with the plugin of the installed tree"
diag "$tmp/run.log"

if [ -f "$P/backend_cuda.so" ]; then
    runit cuda
    st=$?
    if [ $st -eq 77 ]; then
        skip "GPUK_BACKEND=cuda runs" "$(sed -n 's/^open: //p' "$tmp/run.log")"
    else
        [ $st -eq 0 ] && grep -q '^backend=cuda$' "$tmp/run.log" && from_tree
        ok $? "GPUK_BACKEND=cuda runs, with the plugin of the installed tree"
        diag "$tmp/run.log"
    fi
fi

# the installed tool, on the installed library
env -u GPUK_BACKEND_PATH -u GPUK_BACKEND_PATH_ONLY -u GPUK_BACKEND LD_LIBRARY_PATH="$L" \
    "$root$bindir/gpuk-info" --backend cpu --quiet > "$tmp/info.log" 2>&1
st=$?
[ $st -eq 0 ] && grep -q "$P/backend_cpu.so" "$tmp/info.log"
ok $? "installed gpuk-info --backend cpu runs and finds the installed plugin"
[ $st -eq 0 ] || diag "$tmp/info.log"

# ---------------------------------------------------------------- uninstall
if [ $mode = staged ]; then
    $MAKE -C "$builddir" uninstall DESTDIR="$root" > "$tmp/uninstall.log" 2>&1
    st=$?
    left=$(find "$root" \( -type f -o -type l \) -print 2> /dev/null)
    [ $st -eq 0 ] && [ -z "$left" ]
    ok $? "make uninstall DESTDIR=<tmp> leaves no file behind"
    [ -z "$left" ] || echo "$left" | sed "s|^$root|# left: |"
fi

tap_done
