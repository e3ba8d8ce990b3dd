# gpuk-info: load report, backends, devices, variants, build configuration
bin_PROGRAMS += tools/gpuk-info
tools_gpuk_info_SOURCES = tools/gpuk-info.c
tools_gpuk_info_LDADD = src/libgpuk.la
