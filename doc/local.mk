# doc: the design document and the test that keeps its floor table (Layers)
# true to the code: doc/check-floors.sh reads the table and the symbols of
# libgpuk's objects.
EXTRA_DIST += doc/design.md doc/check-floors.sh
TESTS += doc/check-floors.sh
