# libgpuk.so: the core (loader, context, tensors, validation, dispatch)
lib_LTLIBRARIES += src/libgpuk.la
src_libgpuk_la_SOURCES = \
	src/gpuk_internal.h \
	src/status.c \
	src/dtype.c \
	src/errors.c \
	src/loader.c \
	src/context.c \
	src/handles.c \
	src/tensor.c \
	src/memory.c \
	src/dlpack.c \
	src/validate.c \
	src/dispatch.c \
	src/ops.c \
	src/csr.c \
	src/shadow.c \
	src/wisdom.c \
	src/catalog.c
src_libgpuk_la_CPPFLAGS = $(AM_CPPFLAGS) -DGPUK_PLUGIN_DIR='"$(pkglibdir)"'
src_libgpuk_la_CFLAGS = $(AM_CFLAGS) $(PTHREAD_LIBS)
# Only gpuk_* is exported; internal functions are named gk_*.
src_libgpuk_la_LDFLAGS = -version-info $(GPUK_LT_VERSION) -no-undefined -export-symbols-regex '^gpuk_'
src_libgpuk_la_LIBADD = $(DL_LIBS) $(PTHREAD_LIBS) $(LIBM)

# After `make install`, programs linked with -lgpuk must find libgpuk.so.1:
# tools/ldconfig-hook.sh runs ldconfig when root installs it, and otherwise
# says what is left to do (README.md, Installing).
EXTRA_DIST += tools/ldconfig-hook.sh
install-exec-hook:
	@$(SHELL) $(srcdir)/tools/ldconfig-hook.sh '$(libdir)' '$(DESTDIR)'
