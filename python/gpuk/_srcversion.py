"""Read libgpuk's version from a source tree.

Used in two places, so it imports nothing from the package:

* ``setup.py`` at build time: ``pip install ./python`` runs it in this
  folder of the repository, and it takes the version from ``../configure.ac``
  (the ``AC_INIT`` line, the version of the C library and of ``gpuk.pc``),
  falling back to ``GPUK_VERSION_STRING`` in ``../include/gpuk.h``;
* ``gpuk/__init__.py`` at run time, when the package is imported straight
  from the repository (``PYTHONPATH=python``) and so has no generated
  ``gpuk/_version.py``.
"""

import os
import re

_AC_INIT = re.compile(r"AC_INIT\(\s*\[?[^],]*\]?\s*,\s*\[?\s*([0-9][^],\s]*)")
_HEADER = re.compile(r'#\s*define\s+GPUK_VERSION_STRING\s+"([^"]+)"')


def version_from_tree(top):
    """The version in the source tree whose top folder is *top*, or None.

    configure.ac's AC_INIT comes first; include/gpuk.h's GPUK_VERSION_STRING
    is the fallback.  Where both exist and disagree, ValueError: the package
    would otherwise claim a version the library it is built with does not
    have.
    """
    found = {}
    for rel, pattern in (("configure.ac", _AC_INIT),
                         (os.path.join("include", "gpuk.h"), _HEADER)):
        path = os.path.join(top, rel)
        try:
            with open(path, encoding="utf-8") as f:
                m = pattern.search(f.read())
        except OSError:
            continue
        if m:
            found[rel] = m.group(1)
    values = set(found.values())
    if len(values) > 1:
        raise ValueError("libgpuk version disagrees between %s" % ", ".join(
            "%s (%s)" % (k, v) for k, v in sorted(found.items())))
    return values.pop() if values else None
