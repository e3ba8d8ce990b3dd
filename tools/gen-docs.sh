#!/bin/sh
# gen-docs.sh - write the generated blocks of README.md and the man pages from a
# build tree, or check that the committed blocks are what it would write.
#
#   tools/gen-docs.sh BUILDDIR            rewrite every block (runs the quick
#                                         benchmark for README's sample output)
#   tools/gen-docs.sh --no-bench BUILDDIR rewrite every block but the sample
#   tools/gen-docs.sh --check BUILDDIR    TAP: compare, change nothing (make
#                                         check runs it through doc/check-docs.sh)
#
# BUILDDIR is a configured and built tree (`make`) with the CUDA backend
# (configure finds the toolkit; no GPU is needed) and OpenBLAS, so that
# every rung is in the tables; when writing, the script first makes the
# programs it reads (tools/gpuk-ladders and the three bad-input tests).  A block sits between two marker lines,
#   <!-- gen-docs NAME: ... -->  ...  <!-- gen-docs end -->      (README.md)
#   .\" gen-docs NAME: ...       ...  .\" gen-docs end           (man pages)
# and everything between them is replaced.  The blocks:
#   ladders   README.md and gpuk(7): every rung of each backend, per op and
#             dtype, in ladder order, the default marked and each alias
#             given; from the plugins' kernel tables (tools/gpuk-ladders),
#             so a new dtype's rows (f64, ...) appear as rows of their own
#   rungs     gpuk_minplus(3): the min-plus rungs so, each with the summary
#             of its row
#   badinput  README.md: the number of bad-input cases, counted from the
#             TAP plans of tests/t_badinput, t_badops and t_badshape
#   h200      README.md: the headline of the newest full H200 run kept in
#             bench/results/ (nvidia-h200*.md, by the date in its header)
#   h100-16bit  README.md: the same of the newest full 16-bit H100 run
#             (nvidia-h100-*-16bit.md)
#   sample    README.md: an excerpt of `gpuk-bench --quick` run here (its
#             header, the matmul rows, the headline).  Its numbers are not
#             reproducible, so --check only checks that it is this build's
#             (versions, ABI) and names only rungs the tables have.
# On a busy machine (a load average above half its CPUs) the sample is kept
# as it is, with a note, since a benchmark would show the contention rather
# than the library; GEN_DOCS_BUSY_OK=1 runs it anyway.  The exit status is
# non-zero when a block could not be made or a kept sample fails a check.
set -u
src=$(cd "$(dirname "$0")/.." && pwd) || exit 1
mode=write
bench=yes
while [ $# -gt 0 ]; do
    case $1 in
        --check) mode=check ;;
        --no-bench) bench=no ;;
        -h|--help) sed -n '2,33s/^# \{0,1\}//p' "$0"; exit 0 ;;
        -*) echo "gen-docs: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
    shift
done
[ $# -eq 1 ] || { echo "usage: tools/gen-docs.sh [--check | --no-bench] BUILDDIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2

# what the blocks are read from, brought up to date first when writing (a
# stale test binary would give a stale count); never from make check
if [ "$mode" = write ]; then
    ${MAKE:-make} -C "$build" -s tools/gpuk-ladders tests/t_badinput tests/t_badops \
        tests/t_badshape > /dev/null || { echo "gen-docs: make in $build failed" >&2; exit 1; }
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gen-docs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

n=0
failed=0
tap() {   # tap STATUS DESCRIPTION (check mode), or a line on stderr on failure
    n=$((n + 1))
    if [ "$mode" = check ]; then
        if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
    elif [ "$1" -ne 0 ]; then
        echo "gen-docs: $2" >&2
    fi
    [ "$1" -eq 0 ] || failed=$((failed + 1))
}
skip() { n=$((n + 1)); [ "$mode" = check ] && echo "ok $n - $1 # SKIP $2"; }
cannot() {   # a block that cannot be made here: skipped in check mode, fatal when writing
    if [ "$mode" = check ]; then skip "$1" "$2"; else echo "gen-docs: $1: $2" >&2; exit 1; fi
}

# ---------------------------------------------------------------- blocks
# block FILE NAME: the lines between the markers of block NAME
block() {
    awk -v name="$2" '
        index($0, "gen-docs " name ":") { inside = 1; next }
        inside && index($0, "gen-docs end") { exit }
        inside { print }' "$1"
}

# put FILE NAME CONTENT: FILE with block NAME's lines replaced by CONTENT's
put() {
    awk -v name="$2" -v content="$3" '
        index($0, "gen-docs " name ":") {
            print; while ((getline line < content) > 0) print line; skipping = 1; next
        }
        skipping && index($0, "gen-docs end") { skipping = 0 }
        !skipping { print }' "$1" > "$tmp/put" && cat "$tmp/put" > "$1"
}

# settle FILE NAME CONTENT DESCRIPTION: write the block, or compare it.  In
# Markdown a block stands between empty lines, so that a table or a code
# fence in it is never read as part of the marker's HTML comment.
settle() {
    if ! grep -q "gen-docs $2:" "$1"; then
        tap 1 "$4: $(basename "$1") has no block '$2'"
        return
    fi
    case $1 in
        *.md) { echo; cat "$3"; echo; } > "$tmp/padded" && cat "$tmp/padded" > "$3" ;;
    esac
    block "$1" "$2" > "$tmp/old"
    if cmp -s "$tmp/old" "$3"; then
        tap 0 "$4"
    elif [ "$mode" = check ]; then
        tap 1 "$4: the committed block differs from what tools/gen-docs.sh writes"
        diff "$tmp/old" "$3" | head -40 | sed 's/^/# /'
        echo "# regenerate: tools/gen-docs.sh BUILDDIR (from the top of the source tree)"
    else
        put "$1" "$2" "$3"
        echo "gen-docs: rewrote $(basename "$1"), block $2"
        tap 0 "$4"
    fi
}

# ---------------------------------------------------------------- ladders
# an awk function for man page text: mandoc wants input lines of at most 80
# bytes, so break between words; a line that would start with a control
# character ("." or "'") is escaped with \&
fold_awk='
    function fold(line,   n, w, i, out, cur) {
        n = split(line, w, " ")
        cur = w[1]; out = ""
        for (i = 2; i <= n; i++) {
            if (length(cur) + 1 + length(w[i]) > 78) { out = out esc(cur) "\n"; cur = w[i] }
            else cur = cur " " w[i]
        }
        return out esc(cur)
    }
    function esc(l) { return (l ~ /^[.\047]/) ? "\\&" l : l }'
cpu=$build/backends/cpu/.libs/backend_cpu.so
cuda=$build/backends/cuda/.libs/backend_cuda.so
ladders=$tmp/ladders.tsv
why=
[ -x "$build/tools/gpuk-ladders" ] || why="$build/tools/gpuk-ladders is not built (make)"
[ -z "$why" ] && [ ! -f "$cpu" ] && why="no $cpu (make)"
[ -z "$why" ] && [ ! -f "$cuda" ] &&
    why="no $cuda: configure found no CUDA toolkit, so the CUDA column cannot be read"
[ -z "$why" ] && ! grep -q '^#define HAVE_OPENBLAS 1' "$build/config.h" 2> /dev/null &&
    why="built without OpenBLAS, so the CPU's openblas rungs are missing from its table"
if [ -z "$why" ] && ! "$build/tools/gpuk-ladders" "$cpu" "$cuda" > "$ladders"; then
    why="tools/gpuk-ladders could not read the plugins"
fi

if [ -n "$why" ]; then
    cannot "README.md and gpuk(7): the rung ladders are the kernel tables'" "$why"
    cannot "README.md: the sample output names only rungs of the tables" "$why"
    ladders=
else
    # One line per group of consecutive ops (catalogue order) whose ladders
    # are the same on both backends in every dtype: "OPS<TAB>DTYPE<TAB>CPU<TAB>CUDA",
    # the rungs as "name", "name (alias)", with the default marked by
    # "!" (README: bold, gpuk(7): "default").
    awk -F '\t' '
        function rung(v, a, f) {
            s = v
            if (a != "-") s = s " (" a ")"
            if (f ~ /(^|,)default(,|$)/) s = "!" s
            return s
        }
        {
            if (!($2 in seen)) { seen[$2] = 1; order[++nops] = $2 }
            key = $2 SUBSEP $3
            if (!((key) in dts)) { dts[key] = 1; dlist[$2] = dlist[$2] " " $3 }
            cell[$1, $2, $3] = cell[$1, $2, $3] (cell[$1, $2, $3] == "" ? "" : ", ") rung($4, $5, $6)
        }
        function sig(op,   s, k, d, nd, i) {
            nd = split(dlist[op], d, " ")
            s = dlist[op]
            for (i = 1; i <= nd; i++) s = s "|" cell["cpu", op, d[i]] "|" cell["cuda", op, d[i]]
            return s
        }
        END {
            i = 1
            while (i <= nops) {
                ops = order[i]; j = i + 1
                while (j <= nops && sig(order[j]) == sig(order[i])) { ops = ops ", " order[j]; j++ }
                nd = split(dlist[order[i]], d, " ")
                for (k = 1; k <= nd; k++)
                    printf "%s\t%s\t%s\t%s\n", ops, d[k], cell["cpu", order[i], d[k]], \
                        cell["cuda", order[i], d[k]]
                i = j
            }
        }' "$ladders" > "$tmp/groups"

    {
        echo "| op | dtype | \`backend_cpu.so\` | \`backend_cuda.so\` |"
        echo "| --- | --- | --- | --- |"
        awk -F '\t' '
            function md(s,   n, r, i, out) {
                if (s == "") return "-"
                n = split(s, r, ", ")
                out = ""
                for (i = 1; i <= n; i++) {
                    if (substr(r[i], 1, 1) == "!") {
                        r[i] = substr(r[i], 2)
                        sp = index(r[i], " ")
                        r[i] = sp ? "**" substr(r[i], 1, sp - 1) "**" substr(r[i], sp) \
                                  : "**" r[i] "**"
                    }
                    out = out (i > 1 ? ", " : "") r[i]
                }
                return out
            }
            { printf "| %s | %s | %s | %s |\n", $1, $2, md($3), md($4) }' "$tmp/groups"
    } > "$tmp/readme-ladders"

    {
        echo ".Bl -tag -width Ds"
        awk -F '\t' "$fold_awk"'
            function mdoc(s,   n, r, i, out) {
                if (s == "") return "none"
                n = split(s, r, ", ")
                out = ""
                for (i = 1; i <= n; i++) {
                    if (substr(r[i], 1, 1) == "!") {
                        r[i] = substr(r[i], 2)
                        if (r[i] ~ /\)$/) sub(/\)$/, ", default)", r[i])
                        else r[i] = r[i] " (default)"
                    }
                    out = out (i > 1 ? ", " : "") r[i]
                }
                return out
            }
            # one line of output a backend and dtype
            $1 != last { print ".It " $1; last = $1; first = 1 }
            {
                if (!first) print ".br"
                print fold("CPU, " $2 ": " mdoc($3) ".")
                print ".br"
                print fold("CUDA, " $2 ": " mdoc($4) ".")
                first = 0
            }' "$tmp/groups"
        echo ".El"
    } > "$tmp/man-ladders"

    # gpuk_minplus(3): each rung of each backend and dtype with its summary
    {
        echo ".Bl -tag -width Ds"
        awk -F '\t' "$fold_awk"'
            $2 != "minplus" { next }
            {
                head = ($1 == "cpu" ? "CPU" : ($1 == "cuda" ? "CUDA" : $1)) ", " $3
                if (head != last) {
                    if (last != "") print ".El"
                    print ".It " head
                    print ".Bl -tag -width Ds -compact"
                    last = head
                }
                tag = $4
                extra = ""
                if ($5 != "-") extra = $5
                if ($6 ~ /(^|,)default(,|$)/) extra = extra (extra == "" ? "" : ", ") "default"
                if (extra != "") tag = tag " (" extra ")"
                print ".It " tag
                print fold($7 == "-" ? "no summary" : $7)
            }
            END { if (last != "") print ".El" }' "$ladders"
        echo ".El"
    } > "$tmp/minplus-rungs"

    settle "$src/README.md" ladders "$tmp/readme-ladders" \
        "README.md: the rung ladders are the kernel tables'"
    settle "$src/man/gpuk.7" ladders "$tmp/man-ladders" \
        "gpuk(7): the rung ladders are the kernel tables'"
    settle "$src/man/gpuk_minplus.3" rungs "$tmp/minplus-rungs" \
        "gpuk_minplus(3): the min-plus rungs and their summaries are the kernel tables'"
fi

# ---------------------------------------------------------------- badinput
# the plan line of each part of the catalogue, run as make check runs it
count() {
    env GPUK_BACKEND_PATH="$build/backends/cpu/.libs:$build/backends/cuda/.libs" \
        GPUK_BACKEND_PATH_ONLY=1 GPUK_TEST_PLUGIN_DIR="$build/tests/.libs" \
        GPUK_TEST_SRCDIR="$src/tests" GPUK_TEST_BUILDDIR="$build" \
        "$build/tests/$1" 2> /dev/null | sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' | tail -n 1
}
why=
for t in t_badinput t_badops t_badshape; do
    [ -x "$build/tests/$t" ] || why="$build/tests/$t is not built (make check builds it)"
done
if [ -n "$why" ]; then
    cannot "README.md: the count of bad-input cases is the tests'" "$why"
else
    a=$(count t_badinput) b=$(count t_badops) c=$(count t_badshape)
    if [ -z "$a" ] || [ -z "$b" ] || [ -z "$c" ]; then
        cannot "README.md: the count of bad-input cases is the tests'" \
            "a part of the catalogue printed no plan (t_badinput '$a', t_badops '$b', t_badshape '$c')"
    else
        cat > "$tmp/badinput" << EOF
The bad-input catalogue has $((a + b + c)) cases, each checking the status and
that the message names the argument: $a for the calls that are not ops
(\`tests/t_badinput\`), $b that every op shares (\`tests/t_badops\`) and $c
peculiar to one op (\`tests/t_badshape\`); the table is in
\`man -l man/gpuk-validation.7\`.
EOF
        settle "$src/README.md" badinput "$tmp/badinput" \
            "README.md: the count of bad-input cases is the tests' ($((a + b + c)))"
    fi
fi

# ---------------------------------------------------------------- h200, h100-16bit
# headline BLOCK GLOB MACHINE: the headline of the newest run matching GLOB
# in bench/results (the one bench/results/README.md lists), by the date on
# its first line, into README.md's block BLOCK
headline() {
    local block=$1 glob=$2 machine=$3 newest= newest_date= f d rel
    for f in "$src"/bench/results/$glob; do
        [ -f "$f" ] || continue
        d=$(sed -n 's/^- gpuk-bench [^,]*, libgpuk [^,]*, \([0-9T:Z-]*\).*/\1/p' "$f" | head -n 1)
        if [ -n "$d" ] && { [ -z "$newest_date" ] || [ "$d" \> "$newest_date" ]; }; then
            newest=$f newest_date=$d
        fi
    done
    if [ -z "$newest" ]; then
        cannot "README.md: the $machine table is the headline of the newest $machine run" \
            "no bench/results/$glob with a gpuk-bench header"
        return
    fi
    rel=${newest#"$src"/}
    {
        echo "From \`$rel\` ($newest_date, $(sed -n 's/^- \(gpuk-bench [^,]*\),.*/\1/p' "$newest" | head -n 1)):"
        echo
        awk '/^## Headline/ { on = 1; next } on && /^## / { exit } on { print }' "$newest" |
            sed -e '/./,$!d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
    } > "$tmp/$block"
    settle "$src/README.md" "$block" "$tmp/$block" "README.md: the $machine table is the headline of $rel"
}
headline h200 'nvidia-h200*.md' H200
headline h100-16bit 'nvidia-h100-*-16bit.md' 'H100 16-bit'

# ---------------------------------------------------------------- sample
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$build/config.h" 2> /dev/null)
abi=$(awk '/^#define GPUK_ABI_MAJOR/ { M = $3 } /^#define GPUK_ABI_MINOR/ { m = $3 }
           END { if (M != "") print M "." m }' "$src/include/gpuk/backend.h")
if [ "$mode" = write ] && [ "$bench" = yes ]; then
    cpus=$(nproc 2> /dev/null || echo 1)
    load=$(cut -d ' ' -f 1 /proc/loadavg 2> /dev/null || echo 0)
    if [ "${GEN_DOCS_BUSY_OK:-0}" != 1 ] &&
       awk -v l="$load" -v c="$cpus" 'BEGIN { exit !(l > c / 2) }'; then
        echo "gen-docs: kept the sample: the machine is busy (load average $load on $cpus CPUs)," >&2
        echo "gen-docs: and a benchmark now would show that, not the library; rerun when it is" >&2
        echo "gen-docs: idle (or with GEN_DOCS_BUSY_OK=1)" >&2
        bench=no
    fi
fi
if [ "$mode" = write ] && [ "$bench" = yes ]; then
    [ -x "$build/bench/gpuk-bench" ] || { echo "gen-docs: $build/bench/gpuk-bench is not built" >&2; exit 1; }
    echo "gen-docs: running gpuk-bench --quick (about a minute)" >&2
    (cd "$build" && GPUK_BACKEND_PATH=./backends/cpu/.libs:./backends/cuda/.libs \
        GPUK_BACKEND_PATH_ONLY=1 ./bench/gpuk-bench --quick) > "$tmp/bench" 2> "$tmp/bench.err" || {
        echo "gen-docs: gpuk-bench failed:" >&2; tail -n 20 "$tmp/bench.err" >&2; exit 1; }
    {
        echo '```'
        # the header (up to the first op), the matmul rows, the headline
        awk '
            /^== / { sect = $0 }
            sect == "" { print; next }
            sect == "== matmul ==" { print; if ($0 == "") { print "..."; print "" } next }
            sect ~ /^== headline/ { print }' "$tmp/bench" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
        echo '```'
    } > "$tmp/sample"
    settle "$src/README.md" sample "$tmp/sample" "README.md: the sample output of gpuk-bench --quick"
else
    block "$src/README.md" sample > "$tmp/sample"
    head1=$(sed -n '/^```$/{n;p;q;}' "$tmp/sample")
    want="gpuk-bench $version, libgpuk $version,"
    case $head1 in
        "$want"*) tap 0 "README.md: the sample output is of version $version" ;;
        *) tap 1 "README.md: the sample output is of version $version (its first line: '$head1'); regenerate: tools/gen-docs.sh BUILDDIR" ;;
    esac
    if grep -q "taken: cpu [^ ]* (ABI $abi)" "$tmp/sample"; then
        tap 0 "README.md: the sample output's plugin is of ABI $abi"
    else
        tap 1 "README.md: the sample output's plugin is of ABI $abi ($(grep -o 'ABI [0-9.]*' "$tmp/sample" | head -n 1))"
    fi
    if [ -n "$ladders" ]; then
        # every "cpu RUNG" row of an op section, and every "RUNG TIME" of
        # the headline, must name a rung of that op ("auto (...)" aside)
        awk '
            /^== headline/ { head = 1; next }
            /^== / { op = $2; next }
            !head && op != "" && $1 == "cpu" && $2 != "auto" { print op, $2 }
            head && NF >= 4 && $1 != "op" && $1 !~ /^\(/ {
                for (i = 2; i <= NF; i++) if ($i ~ /^[a-z][a-z0-9_]*$/ && $(i + 1) ~ /^[0-9.]+$/) {
                    print $1, $i; break
                }
            }' "$tmp/sample" | sort -u > "$tmp/named"
        awk -F '\t' '$1 == "cpu" { print $2, $4; if ($5 != "-") print $2, $5 }' "$ladders" |
            sort -u > "$tmp/rungs"
        stale=$(comm -23 "$tmp/named" "$tmp/rungs" | tr '\n' ';')
        [ -s "$tmp/named" ] && [ -z "$stale" ]
        tap $? "README.md: the sample output names only rungs of the tables ($(wc -l < "$tmp/named") named)${stale:+; unknown: $stale}"
    fi
fi

if [ "$mode" = check ]; then
    echo "1..$n"
fi
[ "$failed" -eq 0 ]
