#!/bin/sh
# check-docs.sh - TAP test run by `make check`: the generated blocks of
# README.md and man/gpuk.7 (the rung ladders, the count of bad-input cases,
# the sample output's versions and rungs) are what tools/gen-docs.sh writes
# from this build tree.  When it fails, regenerate from the top of the
# source tree with `tools/gen-docs.sh BUILDDIR` and commit the result.
exec sh "$(dirname "$0")/../tools/gen-docs.sh" --check "${GPUK_TEST_BUILDDIR:-.}"
