# bench: gpuk-bench, the CPU-vs-GPU benchmark (public API only); it calls
# the ops through the tests' one op call, tests/opcall.c
bin_PROGRAMS += bench/gpuk-bench
bench_gpuk_bench_SOURCES = \
	bench/bench.h \
	bench/main.c \
	bench/cases.c \
	bench/measure.c \
	bench/link.c \
	bench/report.c \
	bench/tune.c \
	bench/summary.c \
	bench/plot.c \
	bench/util.c \
	tests/opcall.c \
	tests/opcall.h
bench_gpuk_bench_LDADD = src/libgpuk.la $(LIBM)
EXTRA_DIST += bench/run-all.sh bench/compare.py bench/auto-rules.py
