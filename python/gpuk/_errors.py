"""Exceptions: one class per status code of the library that is loaded.

The classes are made at import from GPUK_STATUS_MAP as the library reports
it (gpuk_status_name and gpuk_strerror for 0, 1, 2, ... until the first
value without a name), so a code appended to the C list gets its class
without a change here.  The class name is the code's name without the
GPUK_ERR_ prefix, in CamelCase, plus "Error":

    GPUK_ERR_SHAPE -> ShapeError, GPUK_ERR_NULL -> NullError,
    GPUK_ERR_NO_MEMORY -> NoMemoryError, GPUK_ERR_BACKEND_ABI -> BackendAbiError

Every class derives from gpuk.Error and also from the built-in exception a
Python user would try first (ShapeError is a ValueError, DtypeError a
TypeError, NoMemoryError a MemoryError, IndexError the built-in IndexError,
...), so ``except ValueError`` keeps working around gpuk calls.
"""

from . import _lib

# the built-in base of each code's class; a code this table does not know
# (appended to the C list after this package was written) gets RuntimeError
_BUILTIN = {
    "GPUK_ERR_NULL": ValueError,
    "GPUK_ERR_INVALID": ValueError,
    "GPUK_ERR_DTYPE": TypeError,
    "GPUK_ERR_SHAPE": ValueError,
    "GPUK_ERR_LAYOUT": ValueError,
    "GPUK_ERR_OVERFLOW": OverflowError,
    "GPUK_ERR_ALIAS": ValueError,
    "GPUK_ERR_HANDLE": ValueError,
    "GPUK_ERR_CONTEXT": ValueError,
    "GPUK_ERR_SPARSE": ValueError,
    "GPUK_ERR_INDEX": IndexError,
    "GPUK_ERR_SIZE": ValueError,
    "GPUK_ERR_VARIANT": ValueError,
    "GPUK_ERR_UNSUPPORTED": NotImplementedError,
    "GPUK_ERR_NO_MEMORY": MemoryError,
    "GPUK_ERR_DEVICE_MEMORY": MemoryError,
    "GPUK_ERR_ENV": ValueError,
    "GPUK_ERR_NEGATIVE_CYCLE": ValueError,
}


class Error(Exception):
    """Base of every exception gpuk raises for a failed call.

    Attributes:
        status: the gpuk_status value (int), e.g. 4
        name: the code's C name, e.g. "GPUK_ERR_SHAPE"
        summary: the library's fixed text for the code (gpuk_strerror)
        message: what went wrong in this call, naming the argument: the
            context's message (gpuk_context_error) when the library refused
            the call, or the package's own when it refused it first
    """

    status = -1
    name = "GPUK_ERR_UNKNOWN"
    summary = "unknown status code"

    def __init__(self, message="", status=None):
        if status is not None and status != type(self).status:
            self.status = status
            self.name, self.summary = _lib.STATUS.get(status, (Error.name, Error.summary))
        self.message = message or self.summary
        super().__init__(self.message)

    def __str__(self):
        return "%s: %s" % (self.name, self.message)


CLASSES = {}          # status value -> class


def _class_name(code):
    words = code[len("GPUK_ERR_"):] if code.startswith("GPUK_ERR_") else code
    return "".join(w.capitalize() for w in words.lower().split("_")) + "Error"


for _status, (_code, _summary) in sorted(_lib.STATUS.items()):
    if _status == 0:
        continue
    _name = _class_name(_code)
    _cls = type(_name, (Error, _BUILTIN.get(_code, RuntimeError)), {
        "status": _status, "name": _code, "summary": _summary,
        "__module__": "gpuk",
        "__doc__": "%s (%d): %s." % (_code, _status, _summary),
    })
    CLASSES[_status] = _cls
    globals()[_name] = _cls
del _status, _code, _summary, _name, _cls

NAMES = {cls.__name__: cls for cls in CLASSES.values()}


def by_code(code):
    """The class of a status given as its C name ("GPUK_ERR_SHAPE")."""
    for cls in CLASSES.values():
        if cls.name == code:
            return cls
    raise KeyError(code)


def make(status, message):
    """An exception instance for a status value."""
    cls = CLASSES.get(status)
    if cls is None:
        return Error(message, status)
    return cls(message)


# the classes the package raises itself; looked up once
NullError = by_code("GPUK_ERR_NULL")
InvalidError = by_code("GPUK_ERR_INVALID")
DtypeError = by_code("GPUK_ERR_DTYPE")
ShapeError = by_code("GPUK_ERR_SHAPE")
LayoutError = by_code("GPUK_ERR_LAYOUT")
AliasError = by_code("GPUK_ERR_ALIAS")
HandleError = by_code("GPUK_ERR_HANDLE")
ContextError = by_code("GPUK_ERR_CONTEXT")
IndexError_ = by_code("GPUK_ERR_INDEX")
UnsupportedError = by_code("GPUK_ERR_UNSUPPORTED")
OverflowError_ = by_code("GPUK_ERR_OVERFLOW")
