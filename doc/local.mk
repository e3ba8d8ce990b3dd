# doc: the design document, and the tests that keep the documents true to
# the code: doc/check-floors.sh (design.md's floor table against the symbols
# of libgpuk's objects), doc/check-docs.sh (the generated blocks of README.md
# and gpuk(7) against tools/gen-docs.sh).
EXTRA_DIST += doc/design.md doc/check-floors.sh doc/check-docs.sh
TESTS += doc/check-floors.sh doc/check-docs.sh
