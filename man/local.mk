# man: the manual pages.  Every other name a section-3 page gives in its
# NAME section gets a one-line .so stub when installed (man/stubs.sh), so
# `man gpuk_add` finds gpuk_elementwise(3) and a new function needs no file
# of its own; man/check-man.sh keeps the pages and include/gpuk.h in
# agreement.
dist_man_MANS += \
	man/gpuk-info.1 \
	man/gpuk-bench.1 \
	man/gpuk-tune.1 \
	man/gpuk.7 \
	man/gpuk-validation.7
dist_man_MANS += \
	man/gpuk.3 \
	man/gpuk_apsp.3 \
	man/gpuk_blas.3 \
	man/gpuk_cast.3 \
	man/gpuk_catalog.3 \
	man/gpuk_context.3 \
	man/gpuk_elementwise.3 \
	man/gpuk_interop.3 \
	man/gpuk_matmul.3 \
	man/gpuk_minplus.3 \
	man/gpuk_reduce.3 \
	man/gpuk_softmax.3 \
	man/gpuk_spmv.3 \
	man/gpuk_tensor.3 \
	man/gpuk_transpose.3
dist_man_MANS += man/gpuk_dist.3

TESTS += man/check-man.sh
EXTRA_DIST += man/check-man.sh man/stubs.sh

install-data-hook: install-man-stubs
install-man-stubs:
	$(SHELL) $(srcdir)/man/stubs.sh install "$(DESTDIR)$(man3dir)" $(srcdir)/man/*.3
uninstall-local: uninstall-man-stubs
uninstall-man-stubs:
	$(SHELL) $(srcdir)/man/stubs.sh uninstall "$(DESTDIR)$(man3dir)" $(srcdir)/man/*.3
.PHONY: install-man-stubs uninstall-man-stubs
