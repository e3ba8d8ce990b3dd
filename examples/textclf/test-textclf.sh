#!/bin/sh
# test-textclf.sh - TAP test of examples/textclf: the file formats, a run
# on the cpu backend checked against the float64 reference, the errors a
# user meets (bad file, id out of the vocabulary), and cpu vs cuda in one
# process (skipped, with the reason, where cuda cannot run).
#
# Run by `make check` from the top of the build tree; by hand:
#   GPUK_BACKEND_PATH=$PWD/backends/cpu/.libs:$PWD/backends/cuda/.libs \
#       sh ../examples/textclf/test-textclf.sh

builddir=${GPUK_TEST_BUILDDIR:-.}
tc=$builddir/examples/textclf/textclf

. "${GPUK_TEST_SRCDIR:-$(dirname "$0")/../../tests}/tap-lib.sh"

if [ ! -x "$tc" ]; then
    echo "1..0 # SKIP $tc was not built"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/textclf.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

# Sizes that are multiples of no tile, so every kernel's edge path runs.
V=501 E=33 H=47 C=5 B=7 T=13
dims="--vocab $V --embed $E --hidden $H --classes $C --batch $B --tokens $T"

# ---------------------------------------------------------------- formats
"$tc" --generate --seed 11 $dims --model "$tmp/m" --input "$tmp/i" > "$tmp/out" 2>&1
ok $? "--generate writes a model and a batch"
diag "$tmp/out"

"$tc" --generate --seed 11 $dims --model "$tmp/m2" --input "$tmp/i2" > /dev/null 2>&1 &&
    cmp -s "$tmp/m" "$tmp/m2" && cmp -s "$tmp/i" "$tmp/i2"
ok $? "the same seed gives the same bytes"

"$tc" --generate --seed 12 $dims --model "$tmp/m3" --input "$tmp/i3" > /dev/null 2>&1 &&
    ! cmp -s "$tmp/m" "$tmp/m3"
ok $? "another seed gives another model"

# FORMAT.md: 32-byte header + f32 weights; 24-byte header + i32 ids
want_m=$((32 + 4 * (V * E + E * H + H + H * C + C)))
want_i=$((24 + 4 * B * T))
got_m=$(wc -c < "$tmp/m" | tr -d ' ')
got_i=$(wc -c < "$tmp/i" | tr -d ' ')
[ "$got_m" = "$want_m" ] && [ "$got_i" = "$want_i" ]
ok $? "file sizes follow FORMAT.md (model $got_m = $want_m, input $got_i = $want_i)"
[ "$(head -c 4 "$tmp/m")" = GKTM ] && [ "$(head -c 4 "$tmp/i")" = GKTB ]
ok $? "magic numbers GKTM and GKTB"

# ---------------------------------------------------------------- cpu run
GPUK_BACKEND=cpu "$tc" --model "$tmp/m" --input "$tmp/i" --repeat 3 --warmup 1 --show 0 \
    --out "$tmp/p" > "$tmp/out" 2>&1
rc=$?
ok $rc "runs on GPUK_BACKEND=cpu"
diag "$tmp/out"
grep -q '^check: cpu vs float64 reference: classes '"$B/$B"' identical.*: ok$' "$tmp/out"
ok $? "cpu probabilities within the error bound of the float64 reference, classes identical"
rows=$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9.]+ ' "$tmp/out")
[ "$rows" -eq "$B" ]
ok $? "prints one prediction per sequence ($rows of $B)"
missing=
for s in upload embedding linear1 bias_relu meanpool linear2 softmax download forward end_to_end; do
    grep -q "^time: backend=cpu stage=$s median_ms=[0-9]" "$tmp/out" || missing="$missing $s"
done
[ -z "$missing" ]
ok $? "times every stage${missing:+ (missing:$missing)}"
[ "$(wc -c < "$tmp/p" | tr -d ' ')" = $((24 + 4 * (B * C + B))) ] &&
    [ "$(head -c 4 "$tmp/p")" = GKTP ]
ok $? "--out writes the probabilities file of FORMAT.md"

# the API wins over the environment
GPUK_BACKEND=no_such_backend "$tc" --backend cpu --model "$tmp/m" --input "$tmp/i" \
    --repeat 1 --warmup 0 > "$tmp/out" 2>&1
ok $? "--backend cpu overrides a bad GPUK_BACKEND"
GPUK_BACKEND=no_such_backend "$tc" --model "$tmp/m" --input "$tmp/i" --repeat 1 > "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'backend plugin not found' "$tmp/out"
ok $? "an unknown backend is an error naming it, not a fallback"
diag "$tmp/out"

# ---------------------------------------------------------------- bad input
printf 'XXXX' > "$tmp/bad"
tail -c +5 "$tmp/m" >> "$tmp/bad"
GPUK_BACKEND=cpu "$tc" --model "$tmp/bad" --input "$tmp/i" > "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'magic' "$tmp/out"
ok $? "a file with the wrong magic is refused"
diag "$tmp/out"

head -c $((want_m - 4)) "$tmp/m" > "$tmp/short"
GPUK_BACKEND=cpu "$tc" --model "$tmp/short" --input "$tmp/i" > "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'bytes' "$tmp/out"
ok $? "a truncated model is refused"
diag "$tmp/out"

# ids drawn for a vocabulary of 100000 against a model of 501 words: the
# library's own check of gpuk_embedding must catch them
"$tc" --generate --seed 13 --vocab 100000 --batch $B --tokens $T --embed 1 --hidden 1 \
    --classes 2 --model "$tmp/big" --input "$tmp/far" > /dev/null 2>&1
GPUK_BACKEND=cpu "$tc" --model "$tmp/m" --input "$tmp/far" > "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'embedding: an index value is out of range' "$tmp/out"
ok $? "token ids outside the vocabulary fail in gpuk_embedding (GPUK_ERR_INDEX)"
diag "$tmp/out"

# ---------------------------------------------------------------- cpu vs cuda
"$tc" --compare --model "$tmp/m" --input "$tmp/i" --repeat 2 --warmup 1 > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
    n=$((n + 1))
    echo "ok $n - cpu and cuda agree # SKIP $(sed -n 's/^compare: cuda unavailable, nothing to compare: //p' "$tmp/out" | head -n 1)"
else
    ok $rc "cpu and cuda agree (classes identical, probabilities within the bound)"
    diag "$tmp/out"
fi

tap_done
