# gpuk-info: load report, backends, devices, variants, build configuration
bin_PROGRAMS += tools/gpuk-info
tools_gpuk_info_SOURCES = tools/gpuk-info.c
tools_gpuk_info_LDADD = src/libgpuk.la

# the installed-consumer test: also run by `make installcheck` (and so by distcheck)
EXTRA_DIST += tools/consumer-test.sh tools/quickstart.sh tools/device-check.sh
installcheck-local:
	$(SHELL) $(srcdir)/tools/consumer-test.sh --installed $(top_builddir)

# gpuk-ladders: the plugins' kernel tables without a device, for
# tools/gen-docs.sh, which writes and checks the ladders of README.md and
# gpuk(7) (not installed)
noinst_PROGRAMS += tools/gpuk-ladders
tools_gpuk_ladders_SOURCES = tools/gpuk-ladders.c
tools_gpuk_ladders_LDADD = $(DL_LIBS)
EXTRA_DIST += tools/gen-docs.sh
