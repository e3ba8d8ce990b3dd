#!/bin/sh
# check-man.sh - TAP test of libgpuk's manual pages.
#
# Every function declared in include/gpuk.h and include/gpuk/mpi.h must be
# named in the NAME or SYNOPSIS of a page and have a file man/FUNCTION.3
# (the page itself or a one-line .so stub), so that `man FUNCTION` works
# once installed; every status code and op must be described in gpuk(7);
# man/local.mk and the files in man/ must agree (or `make dist` would lose
# a page); every page
# must pass `mandoc -T lint` and `groff -ww -z` without a message.
#
# Run by `make check` (through the TAP driver) or by hand:
#   sh man/check-man.sh
# It reads the source tree only; the tree is found from this script's path.

top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
man=$top/man
header=$top/include/gpuk.h
# the functions of the distributed layer's header (libgpuk_mpi) need pages too
headers=$header
[ -f "$top/include/gpuk/mpi.h" ] && headers="$headers $top/include/gpuk/mpi.h"

. "$top/tests/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

# ---------------------------------------------------------------- the pages
# A stub is a file whose only line is ".so man3/PAGE.3"; every other
# man/*.[137] is a page.
: > "$tmp/pages"
: > "$tmp/stubs"
for f in "$man"/*.1 "$man"/*.3 "$man"/*.7; do
    [ -f "$f" ] || continue
    if [ "$(wc -l < "$f")" -le 1 ] && grep -q '^\.so ' "$f"; then
        echo "$f" >> "$tmp/stubs"
    else
        echo "$f" >> "$tmp/pages"
    fi
done

# ---------------------------------------------------------------- functions
# Strip comments (a comment can mention gpuk_foo() in prose), then take
# every identifier gpuk_* that directly precedes "(": in a header without
# function-like macros or calls, those are exactly the declarations.
awk '
{
    line = $0; out = ""
    while (length(line) > 0) {
        if (incomment) {
            i = index(line, "*/")
            if (i == 0) { line = ""; break }
            line = substr(line, i + 2); incomment = 0
        } else {
            i = index(line, "/*")
            if (i == 0) { out = out line; line = "" }
            else { out = out substr(line, 1, i - 1); line = substr(line, i + 2); incomment = 1 }
        }
    }
    print out
}' $headers | tr '\n' ' ' |
    grep -oE '[A-Za-z0-9_*][[:space:]*]+gpuk_[a-z0-9_]+[[:space:]]*\(' |
    grep -oE 'gpuk_[a-z0-9_]+' | sort -u > "$tmp/functions"

nfn=$(wc -l < "$tmp/functions")
[ "$nfn" -ge 40 ]
ok $? "found $nfn function declarations in include/gpuk.h and include/gpuk/mpi.h (at least 40 expected)"

# "NAME PAGE" for every name a page gives in its NAME section (.Nm) or
# SYNOPSIS (.Fn, .Fo); a mention in the prose does not count.
while read -r f; do
    awk -v page="$(basename "$f")" '
        /^\.Sh / { sec = $2 }
        (sec == "NAME" && $1 == ".Nm") || (sec == "SYNOPSIS" && ($1 == ".Fn" || $1 == ".Fo")) {
            print $2, page
        }' "$f"
done < "$tmp/pages" > "$tmp/named"

# every function gets a page of its own name, or the stub man/stubs.sh
# installs for it: a name the NAME section of a section-3 page gives
sh "$man/stubs.sh" list "$man"/*.3 > "$tmp/stubnames"
while read -r fn; do
    where=$(awk -v fn="$fn" '$1 == fn { print $2; exit }' "$tmp/named")
    if [ -z "$where" ]; then
        ok 1 "$fn is documented (no page names it in .Nm, .Fn or .Fo)"
    elif [ ! -f "$man/$fn.3" ] && ! awk -v n="$fn" '$1 == n { f = 1 } END { exit !f }' \
            "$tmp/stubnames"; then
        ok 1 "$fn is documented in $where, but its NAME section does not list it, so no stub"
    else
        ok 0 "$fn is documented in $where"
    fi
done < "$tmp/functions"

# ---------------------------------------------------------------- gpuk(7)
# every status code of the list, and every op name of the catalogue
sed -n '/^#define GPUK_STATUS_MAP/,/^$/p' "$header" |
    sed -n 's/^ *X(\([A-Z_]*\),.*/GPUK_\1/p' | sort -u > "$tmp/codes"
missing=
for c in $(cat "$tmp/codes"); do
    grep -q "^\.It Dv $c " "$man/gpuk.7" || missing="$missing $c"
done
[ -s "$tmp/codes" ] && [ -z "$missing" ]
ok $? "gpuk(7) describes all $(wc -l < "$tmp/codes") status codes${missing:+ (missing:$missing)}"

sed -n '/^#define GPUK_OP_MAP/,/^$/p' "$header" |
    sed -n 's/^ *X([A-Z_]*, *[0-9]*, *"\([a-z_]*\)".*/\1/p' | sort -u > "$tmp/ops"
missing=
for o in $(cat "$tmp/ops"); do
    grep -qw "$o" "$man/gpuk.7" || missing="$missing $o"
done
[ -s "$tmp/ops" ] && [ -z "$missing" ]
ok $? "gpuk(7) names all $(wc -l < "$tmp/ops") ops in its variant ladders${missing:+ (missing:$missing)}"

# ---------------------------------------------------------------- cross references
missing=
for xr in $(cat $(cat "$tmp/pages") | sed -n 's/^\.Xr \(gpuk[a-z_-]*\) \([137]\).*/\1.\2/p' | sort -u); do
    # a page, or a stub installed for a name (section 3)
    [ -f "$man/$xr" ] || awk -v n="${xr%.3}" '$1 == n { f = 1 } END { exit !f }' \
        "$tmp/stubnames" || missing="$missing $xr"
done
[ -z "$missing" ]
ok $? "every .Xr to a gpuk page resolves${missing:+ (missing:$missing)}"

# ---------------------------------------------------------------- man/local.mk
mk=$man/local.mk
# join continued lines, keep the dist_man_MANS assignments, one word a line
awk '{ while (sub(/\\$/, "")) { getline nxt; $0 = $0 " " nxt } print }' "$mk" |
    sed -n 's/^dist_man_MANS[[:space:]]*+*=//p' | tr ' \t' '\n\n' | grep -v '^$' |
    sed 's|^man/||' | sort -u > "$tmp/listed"
(cd "$man" && ls *.1 *.3 *.7 2>/dev/null) | sort -u > "$tmp/present"
unlisted=$(comm -13 "$tmp/listed" "$tmp/present" | tr '\n' ' ')
[ -z "$unlisted" ]
ok $? "every page in man/ is listed in man/local.mk${unlisted:+ (unlisted: $unlisted)}"
absent=$(comm -23 "$tmp/listed" "$tmp/present" | tr '\n' ' ')
[ -z "$absent" ]
ok $? "every page listed in man/local.mk exists${absent:+ (missing: $absent)}"

# ---------------------------------------------------------------- lint
# A reference to another page (.Xr) is checked above against man/ for our
# own pages; mandoc's "referenced manual not found" depends on what this
# machine has installed and indexed (dlopen(3), pkg-config(1)), so it is
# not held against a page.
have_mandoc=no
have_groff=no
command -v mandoc > /dev/null 2>&1 && have_mandoc=yes
command -v groff > /dev/null 2>&1 && have_groff=yes
while read -r f; do
    b=$(basename "$f")
    if [ $have_mandoc = no ] && [ $have_groff = no ]; then
        skip "lint $b" "neither mandoc nor groff is installed"
        continue
    fi
    : > "$tmp/lint"
    if [ $have_mandoc = yes ]; then
        mandoc -T lint -W style "$f" 2>&1 |
            grep -v -e 'referenced manual not found' -e 'mandoc\.db' >> "$tmp/lint"
    fi
    if [ $have_groff = yes ]; then
        # -mandoc picks the man or mdoc macros from the page itself
        groff -ww -z -mandoc "$f" >> "$tmp/lint" 2>&1
    fi
    [ ! -s "$tmp/lint" ]
    ok $? "lint $b ($( [ $have_mandoc = yes ] && printf 'mandoc ')$( [ $have_groff = yes ] && printf 'groff'))"
    diag "$tmp/lint"
done < "$tmp/pages"

tap_done
