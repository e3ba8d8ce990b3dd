#!/bin/sh
# ldconfig-hook.sh - run by `make install` (install-exec-hook, src/local.mk)
# once libgpuk.so.1 is in LIBDIR: make programs linked with -lgpuk run.
#
#   sh tools/ldconfig-hook.sh LIBDIR [DESTDIR]
#
# glibc's loader finds a library through its cache (/etc/ld.so.cache), not
# by looking in the folders each time, so a library newly installed in
# /usr/local/lib stays invisible ("libgpuk.so.1: cannot open shared object
# file") until ldconfig rebuilds the cache.  Installed by root, this runs
# ldconfig.  Otherwise it says what is left to do: `sudo ldconfig` when
# LIBDIR is one of the loader's folders, else LD_LIBRARY_PATH (or an rpath,
# or a file in /etc/ld.so.conf.d) when it is not, as for a private prefix.
# A staged install (DESTDIR) is left to whoever installs the staged files.
# Never fails the install: it reports.
libdir=$1
destdir=${2:-}
lib=libgpuk.so.1
if [ -n "$destdir" ]; then
    echo "libgpuk: staged under DESTDIR: run ldconfig where $libdir/$lib ends up"
    exit 0
fi
PATH=$PATH:/sbin:/usr/sbin
# no ldconfig: not glibc's loader, which searches its folders at every start
command -v ldconfig > /dev/null 2>&1 || exit 0

if [ "$(id -u)" = 0 ]; then
    ldconfig || echo "libgpuk: warning: ldconfig failed; programs may not find $lib"
fi
if ldconfig -p 2> /dev/null | grep -qF "=> $libdir/$lib"; then
    [ "$(id -u)" = 0 ] && echo "libgpuk: ran ldconfig: programs find $libdir/$lib"
    exit 0
fi
# the folders the loader searches, one "FOLDER: (from ...)" line each
if ldconfig -v -N -X 2> /dev/null | grep -qF "$libdir:"; then
    echo "libgpuk: $libdir is one of the loader's folders, but its cache predates this"
    echo "libgpuk: install: run 'sudo ldconfig' before running programs linked with -lgpuk"
else
    echo "libgpuk: $libdir is not one of the dynamic loader's folders: a program linked"
    echo "libgpuk: with -lgpuk runs with LD_LIBRARY_PATH=$libdir (or link it with"
    echo "libgpuk: -Wl,-rpath,$libdir, or name $libdir in a file of /etc/ld.so.conf.d"
    echo "libgpuk: and run ldconfig as root)"
fi
exit 0
