# bench: gpuk-bench, the CPU-vs-GPU benchmark (public API only); it calls
# the ops through the tests' one op call, tests/opcall.c
bin_PROGRAMS += bench/gpuk-bench
bench_gpuk_bench_SOURCES = \
	bench/bench.h \
	bench/main.c \
	bench/cases.c \
	bench/inputs.c \
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

# gpuk-tune: gpuk-bench --tune=FILE, installed beside it
bin_SCRIPTS += bench/gpuk-tune
CLEANFILES += bench/gpuk-tune
bench/gpuk-tune: $(top_srcdir)/bench/gpuk-tune.sh
	$(AM_V_GEN)$(MKDIR_P) bench && cp $(top_srcdir)/bench/gpuk-tune.sh $@ && chmod +x $@
EXTRA_DIST += bench/gpuk-tune.sh bench/test-tune.sh bench/test-peaks.sh bench/test-dtypes.sh
TESTS += bench/test-tune.sh bench/test-peaks.sh bench/test-dtypes.sh
# the test runs gpuk-tune and gpuk-bench: build them first
check_SCRIPTS = bench/gpuk-tune
