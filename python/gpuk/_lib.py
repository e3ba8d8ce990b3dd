"""Finding and loading libgpuk.so, and the ctypes view of include/gpuk.h.

The library is found, in this order, through

1. ``GPUK_LIBRARY``: the path of the shared library (or of the folder that
   holds ``libgpuk.so``); when it is set, nothing else is tried;
2. pkg-config: ``pkg-config --variable=libdir gpuk``, then
   ``libgpuk.so.1`` (the runtime name) or ``libgpuk.so`` in that folder;
3. the system loader: ``libgpuk.so.1``, then ``ctypes.util.find_library("gpuk")``.

Every function of the API gets its argtypes and restype here, once; the
function objects are module attributes, so the per-call cost is one
attribute load.  Ops, copies, waits and allocations go through
``ctypes.CDLL``: the GIL is released while libgpuk works, and each Context
serialises its own calls with a lock.  Short bookkeeping calls, and those
that may run a DLPack producer's deleter, go through ``ctypes.PyDLL`` and
keep the GIL (see ``pylib``).

Structures the library fills (gpuk_options, gpuk_info, gpuk_tensor_info,
gpuk_variant_info) only ever grow at their end, and each is filled through
the ``*_size`` form of its function (gpuk_options_init_size,
gpuk_context_info_size, gpuk_tensor_get_info_size,
gpuk_variant_get_dtype_size) with ``ctypes.sizeof`` of the structure
declared here: a newer library writes no more than this package knows, an
older one lacks the functions and the import fails naming the first.
ctypes cannot read a C declaration, so the structures and prototypes are
written here; each structure's members are checked at import against the
library's own offsets and sizes (gpuk_struct_layout, gpuk_catalog(3)), and
a difference fails the import naming the member.

Everything that is a list in include/gpuk.h is read from the loaded
library instead of copied: the status codes, the dtypes (name, size,
precision), the ops (name, exact column) and the peak kinds (name, unit),
each walked from its first value until the first gap.
"""

import ctypes
import ctypes.util
import os
import shutil
import subprocess

c_int = ctypes.c_int
c_uint32 = ctypes.c_uint32
c_int64 = ctypes.c_int64
c_size_t = ctypes.c_size_t
c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_float = ctypes.c_float
c_double = ctypes.c_double
POINTER = ctypes.POINTER
byref = ctypes.byref

MAX_DIMS = 4          # GPUK_MAX_DIMS; checked below against gpuk_tensor_info.shape
COST_DIMS = 4         # GPUK_COST_DIMS: gpuk_op_cost reads this many

VARIANT_DEFAULT = 0x1
VARIANT_LIBRARY = 0x2
VARIANT_TF32 = 0x4
VARIANT_PACKED16 = 0x8

REDUCE_SUM = 0
REDUCE_MEAN = 1
NO_TRANS = 0
TRANS = 1


class Options(ctypes.Structure):
    """struct gpuk_options (size, backend ... pinned_bytes, wisdom)."""
    _fields_ = [("size", c_size_t), ("backend", c_char_p), ("device", c_int),
                ("num_threads", c_int), ("check", c_int), ("verbose", c_int),
                ("stream", c_void_p), ("pinned_bytes", c_int64), ("wisdom", c_char_p)]


class Info(ctypes.Structure):
    """struct gpuk_info, as of 0.2 (... abi_minor, stream, dlpack_device)."""
    _fields_ = [("backend", c_char_p), ("backend_version", c_char_p),
                ("backend_path", c_char_p), ("device", c_char_p),
                ("device_ordinal", c_int), ("num_threads", c_int),
                ("device_memory", ctypes.c_uint64), ("multiprocessors", c_int),
                ("check", c_int), ("abi_major", ctypes.c_uint), ("abi_minor", ctypes.c_uint),
                ("stream", c_void_p), ("dlpack_device", c_int)]


class TensorInfo(ctypes.Structure):
    """struct gpuk_tensor_info."""
    _fields_ = [("dtype", c_int), ("ndim", c_int),
                ("shape", c_int64 * MAX_DIMS), ("strides", c_int64 * MAX_DIMS),
                ("offset", c_int64), ("numel", c_int64), ("bytes", c_size_t),
                ("contiguous", c_int), ("data", c_void_p), ("borrowed", c_int)]


class VariantInfo(ctypes.Structure):
    """struct gpuk_variant_info."""
    _fields_ = [("name", c_char_p), ("summary", c_char_p), ("flags", c_uint32),
                ("dtypes", c_uint32), ("alias", c_char_p)]


class LoadAttempt(ctypes.Structure):
    """struct gpuk_load_attempt."""
    _fields_ = [("backend", c_char_p), ("path", c_char_p), ("status", c_int),
                ("reason", c_char_p), ("chosen", c_int)]


class LibraryNotFound(ImportError):
    pass


def _pkg_config_libdir():
    exe = shutil.which("pkg-config")
    if not exe:
        return None
    try:
        r = subprocess.run([exe, "--variable=libdir", "gpuk"], capture_output=True,
                           text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    d = r.stdout.strip()
    return d if r.returncode == 0 and d else None


def find_and_load():
    """Load libgpuk; returns (CDLL, how it was found)."""
    env = os.environ.get("GPUK_LIBRARY")
    if env:
        path = os.path.join(env, "libgpuk.so") if os.path.isdir(env) else env
        try:
            return ctypes.CDLL(path), "GPUK_LIBRARY=%s" % env
        except OSError as e:
            raise LibraryNotFound("gpuk: GPUK_LIBRARY=%s cannot be loaded: %s" % (env, e)) from None
    tried = []
    libdir = _pkg_config_libdir()
    if libdir:
        for name in ("libgpuk.so.1", "libgpuk.so"):
            path = os.path.join(libdir, name)
            if os.path.exists(path):
                try:
                    return ctypes.CDLL(path), "pkg-config libdir %s" % libdir
                except OSError as e:
                    tried.append("%s: %s" % (path, e))
    else:
        tried.append("pkg-config --variable=libdir gpuk: no answer")
    for name in ("libgpuk.so.1", ctypes.util.find_library("gpuk")):
        if not name:
            continue
        try:
            return ctypes.CDLL(name), "system loader (%s)" % name
        except OSError as e:
            tried.append("%s: %s" % (name, e))
    raise LibraryNotFound(
        "gpuk: libgpuk not found. Set GPUK_LIBRARY to the path of libgpuk.so (in a build tree: "
        "src/.libs/libgpuk.so, with GPUK_BACKEND_PATH naming the backends/cpu/.libs and "
        "backends/cuda/.libs folders), or install libgpuk where pkg-config or the loader "
        "finds it. Tried: " + "; ".join(tried))


lib, found_by = find_and_load()


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", c_char_p), ("dli_fbase", c_void_p),
                ("dli_sname", c_char_p), ("dli_saddr", c_void_p)]


def _library_path():
    """The file the library was loaded from (dladdr on one of its functions)."""
    for name in (None, "libdl.so.2"):
        try:
            dladdr = ctypes.CDLL(name).dladdr
            break
        except (OSError, AttributeError):
            continue
    else:
        return lib._name
    dladdr.argtypes = [c_void_p, POINTER(_DlInfo)]
    dladdr.restype = c_int
    info = _DlInfo()
    addr = ctypes.cast(lib.gpuk_version, c_void_p).value
    if dladdr(addr, byref(info)) and info.dli_fname:
        return os.path.realpath(info.dli_fname.decode(errors="replace"))
    return lib._name


path = _library_path()


# The same library through PyDLL: calls made with the GIL held.  Used for the
# short calls, and for every call that may run a DLPack producer's deleter
# (destroying a borrowed tensor, closing a context, a failed import): NumPy
# before 1.25 frees memory and drops a reference in its deleter without
# taking the GIL, which is only safe while the caller holds it.
pylib = ctypes.PyDLL(path)


def _fn(name, restype, *argtypes, gil=False):
    try:
        f = getattr(pylib if gil else lib, name)
    except AttributeError:
        raise ImportError("gpuk: %s (%s) lacks %s: it is older than this package" %
                          (path, found_by, name)) from None
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


P = c_void_p          # opaque pointers and handle tokens travel as integers
st = c_int            # gpuk_status

gpuk_version = _fn("gpuk_version", c_char_p)
gpuk_strerror = _fn("gpuk_strerror", c_char_p, c_int)
gpuk_status_name = _fn("gpuk_status_name", c_char_p, c_int)
gpuk_dtype_size = _fn("gpuk_dtype_size", c_size_t, c_int)
gpuk_dtype_name = _fn("gpuk_dtype_name", c_char_p, c_int)
gpuk_dtype_precision = _fn("gpuk_dtype_precision", c_int, c_int)
gpuk_peak_name = _fn("gpuk_peak_name", c_char_p, c_int)
gpuk_peak_unit = _fn("gpuk_peak_unit", c_char_p, c_int)
gpuk_op_cost = _fn("gpuk_op_cost", c_int, c_int, c_int, POINTER(c_int64), POINTER(c_double),
                   POINTER(c_double), POINTER(c_int))
gpuk_struct_layout = _fn("gpuk_struct_layout", c_int, c_char_p, c_char_p, POINTER(c_size_t),
                         POINTER(c_size_t))
gpuk_op_name = _fn("gpuk_op_name", c_char_p, c_int)
gpuk_op_exact = _fn("gpuk_op_exact", c_int, c_int)
gpuk_op_from_name = _fn("gpuk_op_from_name", st, c_char_p, POINTER(c_int))

Z = c_size_t          # the caller's structure size of the *_size forms
gpuk_options_init_size = _fn("gpuk_options_init_size", None, P, Z)
gpuk_context_open_ex = _fn("gpuk_context_open_ex", st, POINTER(c_void_p), P, POINTER(c_void_p))
gpuk_context_close = _fn("gpuk_context_close", None, P, gil=True)
gpuk_context_error = _fn("gpuk_context_error", c_char_p, P, gil=True)
gpuk_context_load_report = _fn("gpuk_context_load_report", P, P)
gpuk_context_info_size = _fn("gpuk_context_info_size", st, P, P, Z)
gpuk_sync = _fn("gpuk_sync", st, P)
gpuk_load_report_count = _fn("gpuk_load_report_count", c_size_t, P)
gpuk_load_report_get = _fn("gpuk_load_report_get", POINTER(LoadAttempt), P, c_size_t)
gpuk_load_report_text = _fn("gpuk_load_report_text", c_char_p, P)
gpuk_load_report_free = _fn("gpuk_load_report_free", None, P)
gpuk_variant_count_dtype = _fn("gpuk_variant_count_dtype", st, P, c_int, c_int, POINTER(c_size_t))
gpuk_variant_get_dtype_size = _fn("gpuk_variant_get_dtype_size", st, P, c_int, c_int, c_size_t,
                                  P, Z)
gpuk_auto_source = _fn("gpuk_auto_source", c_char_p, P, gil=True)
gpuk_last_variant = _fn("gpuk_last_variant", c_char_p, P, gil=True)
gpuk_last_variant_source = _fn("gpuk_last_variant_source", c_char_p, P, gil=True)
gpuk_last_shape_class = _fn("gpuk_last_shape_class", c_int, P, gil=True)
gpuk_timer_start = _fn("gpuk_timer_start", st, P)
gpuk_timer_stop = _fn("gpuk_timer_stop", st, P, POINTER(c_double))
gpuk_peak_measure = _fn("gpuk_peak_measure", st, P, c_int, POINTER(c_double))

I64P = POINTER(c_int64)
gpuk_tensor_create = _fn("gpuk_tensor_create", st, P, c_int, c_int, I64P, POINTER(c_void_p))
gpuk_tensor_view = _fn("gpuk_tensor_view", st, P, P, c_int, I64P, I64P, c_int64,
                       POINTER(c_void_p), gil=True)
gpuk_tensor_destroy = _fn("gpuk_tensor_destroy", st, P, P, gil=True)
gpuk_tensor_write = _fn("gpuk_tensor_write", st, P, P, P, c_size_t)
gpuk_tensor_read = _fn("gpuk_tensor_read", st, P, P, P, c_size_t)
gpuk_tensor_get_info_size = _fn("gpuk_tensor_get_info_size", st, P, P, P, Z, gil=True)
gpuk_host_alloc = _fn("gpuk_host_alloc", st, P, c_size_t, POINTER(c_void_p))
gpuk_host_free = _fn("gpuk_host_free", st, P, P)
gpuk_tensor_wrap = _fn("gpuk_tensor_wrap", st, P, c_int, c_int, I64P, I64P, P,
                       POINTER(c_void_p), gil=True)
gpuk_tensor_from_dlpack = _fn("gpuk_tensor_from_dlpack", st, P, P, POINTER(c_void_p), gil=True)
gpuk_tensor_to_dlpack = _fn("gpuk_tensor_to_dlpack", st, P, P, POINTER(c_void_p), gil=True)
gpuk_csr_create_dtype = _fn("gpuk_csr_create_dtype", st, P, c_int, c_int64, c_int64, c_int64,
                            P, P, P, POINTER(c_void_p))
gpuk_csr_destroy = _fn("gpuk_csr_destroy", st, P, P, gil=True)


def _raw(name):
    """A second function object for name, with the GIL held and no argtypes.

    ctypes then converts nothing: the caller passes each argument as the
    ctypes object of its C type (c_void_p for pointers and handles, an
    int64 array for shapes; plain ints only where C takes an int).  Used
    for the handles of one op call (wrapping NumPy memory in
    _ops._lend_numpy, destroying temporaries in _ops._free), where it saves
    some 0.3 us a call over the declared function.
    """
    f = pylib[name]                     # not the cached attribute: a new object
    f.restype = st
    return f


gpuk_tensor_wrap_raw = _raw("gpuk_tensor_wrap")
gpuk_tensor_destroy_raw = _raw("gpuk_tensor_destroy")

V = c_char_p          # the variant name
D = c_double          # alpha, beta: the C API takes them unrounded
# The ops' prototypes after the context, each ending with the variant
# name: ctypes cannot read them from the library, so this is the one place
# the package writes them.  A function the loaded library lacks is None
# (gpuk_minplus_update came with ABI 2.2), and the op says so when called.
OP_PROTOTYPES = {
    "matmul": (P, P, P, P, V),
    "batched_matmul": (P, P, P, V),
    "minplus": (P, P, P, V),
    "minplus_update": (P, P, P, V),
    "transpose": (P, P, V),
    "reduce": (c_int, P, c_int, P, V),
    "add": (P, P, P, V),
    "scale": (D, P, P, V),
    "relu": (P, P, V),
    "bias_relu": (P, P, P, V),
    "copy": (P, P, V),
    "softmax": (P, P, V),
    "embedding": (P, P, P, V),
    "meanpool": (P, P, V),
    "spmv": (P, P, P, V),
    "dot": (P, P, P, V),
    "gemv": (c_int, D, P, P, D, P, V),
    "gemm": (c_int, c_int, D, P, P, D, P, V),
    "apsp": (P, P, P, V),
    "cast": (P, P, V),
}
for _name, _args in OP_PROTOTYPES.items():
    try:
        globals()["gpuk_" + _name] = _fn("gpuk_" + _name, st, P, *_args)
    except ImportError:
        globals()["gpuk_" + _name] = None


try:
    gpuk_apsp_path = _fn("gpuk_apsp_path", st, P, P, c_int64, c_int64, POINTER(c_int64), c_int64,
                         POINTER(c_int64))
except ImportError:
    gpuk_apsp_path = None


def text(b):
    """A C string from the library as str ('' for NULL)."""
    return b.decode("utf-8", "replace") if b else ""


# The lists of include/gpuk.h (GPUK_STATUS_MAP, GPUK_DTYPE_MAP, GPUK_OP_MAP,
# GPUK_PEAK_MAP), read from the library that is loaded rather than copied
# here: values are stable and only ever appended, so walking them until the
# first gap finds every row this library has (dtypes live below 32, the
# width of a dtype set).
STATUS = {}           # value -> (name "GPUK_ERR_SHAPE", fixed message)
_v = 0
while True:
    _name = gpuk_status_name(_v)
    if not _name:
        break
    STATUS[_v] = (text(_name), text(gpuk_strerror(_v)))
    _v += 1

DTYPES = {}           # value -> (name "f32", bytes, precision: significand bits, 0 for integers)
for _v in range(1, 32):
    _name = text(gpuk_dtype_name(_v))
    if _name and _name != "?":
        DTYPES[_v] = (_name, int(gpuk_dtype_size(_v)), int(gpuk_dtype_precision(_v)))
DTYPE_VALUES = {n: v for v, (n, _, _) in DTYPES.items()}     # "f32" -> 1

OPS = {}              # name -> value, and OP_NAMES the other way
OP_NAMES = {}
_v = 1
while True:
    _name = gpuk_op_name(_v)
    if not _name:
        break
    OPS[text(_name)] = _v
    OP_NAMES[_v] = text(_name)
    _v += 1

PEAKS = {}            # name "copy_gbs" -> (value, unit "GB/s")
_v = 1
while True:
    _name = gpuk_peak_name(_v)
    if not _name:
        break
    PEAKS[text(_name)] = (_v, text(gpuk_peak_unit(_v)))
    _v += 1
del _v, _name

VERSION = text(gpuk_version())


# -- the structures, checked against the library ----------------------------------------

STRUCTS = {"gpuk_options": Options, "gpuk_info": Info, "gpuk_tensor_info": TensorInfo,
           "gpuk_variant_info": VariantInfo, "gpuk_load_attempt": LoadAttempt}


def library_layout(ctype, member=None):
    """(offset, size) of a member of one of the library's structures (member
    None: (0, its size)), or None when the library has no such member."""
    off, size = c_size_t(), c_size_t()
    if gpuk_struct_layout(ctype.encode(), member.encode() if member else None, byref(off),
                          byref(size)):
        return None
    return off.value, size.value


def _check_structs():
    for ctype, cls in STRUCTS.items():
        if library_layout(ctype) is None:
            raise ImportError("gpuk: %s (%s) does not describe struct %s: it is older than this "
                              "package" % (path, found_by, ctype))
        for fname, _ftype in cls._fields_:
            mine = (getattr(cls, fname).offset, getattr(cls, fname).size)
            theirs = library_layout(ctype, fname)
            if theirs is None:
                raise ImportError("gpuk: %s (%s) has no member %s.%s, which this package "
                                  "declares: it is older than this package" %
                                  (path, found_by, ctype, fname))
            if theirs != mine:
                raise ImportError("gpuk: %s.%s lies at offset %d, %d bytes, in %s, and at "
                                  "offset %d, %d bytes, in this package's declaration "
                                  "(python/gpuk/_lib.py): the two disagree" %
                                  (ctype, fname, theirs[0], theirs[1], path, mine[0], mine[1]))


_check_structs()
if library_layout("gpuk_tensor_info", "shape")[1] != MAX_DIMS * ctypes.sizeof(c_int64):
    raise ImportError("gpuk: %s has tensors of other than %d dimensions at most" % (path, MAX_DIMS))
