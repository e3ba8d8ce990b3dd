# tap-lib.sh - TAP helpers for the shell tests, sourced (not run):
#   ok STATUS DESCRIPTION   one check: "ok N - ..." when STATUS is 0, else "not ok N - ..."
#   skip DESCRIPTION REASON a check that cannot run here: "ok N - ... # SKIP REASON"
#   diag FILE...            the files' lines as TAP comments
#   tap_done                the plan line; returns non-zero if a check failed
n=0
failed=0
ok() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        failed=$((failed + 1))
    fi
}
skip() {
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}
diag() { sed 's/^/# /' "$@"; }
tap_done() {
    echo "1..$n"
    [ "$failed" -eq 0 ]
}
