# tests/reliability.mk: owned by the reliability work (issue 6)
#
# The bad-input catalogue (t_badinput: the non-op API; t_badops: every op;
# t_empty: empty tensors and NaN/inf), plugin and memory faults (t_faults),
# independent contexts on several threads (t_threads), the GPU fault paths
# (t_gpu_faults: skipped without a GPU), and the fuzz corpus replayed as
# regression tests (t_fuzz_corpus).  Beyond `make check`:
#   make check-valgrind   memcheck over the CPU test programs (tests/valgrind.sh)
#   make check-tsan       a ThreadSanitizer build and run of t_threads (tests/tsan.sh)
#   make fuzz-smoke       the 60-second libFuzzer run CI does (fuzz/smoke.sh)

REL_TESTS = tests/t_badinput tests/t_badops tests/t_badshape tests/t_empty tests/t_faults \
	tests/t_threads tests/t_fuzz_corpus tests/t_gpu_faults
check_PROGRAMS += $(REL_TESTS)
TESTS += $(REL_TESTS) tests/t_empty_cuda.sh
tests_t_badinput_LDADD = $(TEST_LIBS)
tests_t_badops_LDADD = $(TEST_LIBS)
tests_t_badshape_LDADD = $(TEST_LIBS)
tests_t_empty_LDADD = $(TEST_LIBS)
# t_faults defines malloc and friends (tests/allocfail.c): -export-dynamic
# puts them in the dynamic symbol table, so the plugins it dlopens (which
# libgpuk does not link) reach them too
tests_t_faults_SOURCES = tests/t_faults.c tests/t_faults_alloc.c tests/t_faults_alloc.h \
	tests/allocfail.c tests/allocfail.h
tests_t_faults_LDFLAGS = -export-dynamic
tests_t_faults_LDADD = $(TEST_LIBS)
tests_t_gpu_faults_LDADD = $(TEST_LIBS)
# t_gpu_faults fills the device until an allocation fails, and a CUDA test
# running beside it (make -j check) would fail the same way: it runs after
# every other test, alone.  (The target is a variable so that automake adds
# these prerequisites to its own rule instead of replacing the rule.)
gk_gpu_faults_log = tests/t_gpu_faults.log
$(gk_gpu_faults_log): $(filter-out $(gk_gpu_faults_log),$(TEST_LOGS))
tests_t_threads_CFLAGS = $(AM_CFLAGS) $(PTHREAD_LIBS)
tests_t_threads_LDADD = $(TEST_LIBS) $(PTHREAD_LIBS)
# the fuzz harness (in the test library), built by the normal compiler,
# replays fuzz/corpus
tests_t_fuzz_corpus_LDADD = $(TEST_LIBS)

EXTRA_DIST += tests/t_rel.h tests/t_empty_cuda.sh tests/valgrind.sh tests/valgrind.supp tests/tsan.sh tests/tsan.supp \
	fuzz/build.sh fuzz/smoke.sh fuzz/README fuzz/corpus

# memcheck over the CPU test programs (builds them first)
check-valgrind: $(check_PROGRAMS) $(check_LTLIBRARIES)
	$(SHELL) $(srcdir)/tests/valgrind.sh $(abs_top_builddir)

# a ThreadSanitizer build of its own, then t_threads
check-tsan:
	$(SHELL) $(srcdir)/tests/tsan.sh $(abs_top_builddir)/tsan-build

# the 60-second libFuzzer run of CI (clang; a sanitizer build of its own)
fuzz-smoke:
	$(SHELL) $(srcdir)/fuzz/smoke.sh $(abs_top_builddir)/fuzz-build 60

.PHONY: check-valgrind check-tsan fuzz-smoke
clean-local: clean-reliability
clean-reliability:
	rm -f tests/*.valgrind.log tests/*.valgrind.log.tap
	rm -rf tsan-build fuzz-build
