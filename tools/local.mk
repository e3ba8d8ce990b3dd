# gpuk-info: load report, backends, devices, variants, build configuration
bin_PROGRAMS += tools/gpuk-info
tools_gpuk_info_SOURCES = tools/gpuk-info.c
tools_gpuk_info_LDADD = src/libgpuk.la

# the installed-consumer test: also run by `make installcheck` (and so by distcheck)
EXTRA_DIST += tools/consumer-test.sh tools/quickstart.sh tools/device-check.sh
installcheck-local:
	$(SHELL) $(srcdir)/tools/consumer-test.sh --installed $(top_builddir)
