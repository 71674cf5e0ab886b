"""ctypes declarations of libtile's C interface (include/tile-c/tile.h).

The library is found, in order: $TILE_LIBRARY; lib/libtile.so of the install
prefix this package sits in (prefix/lib/python3/dist-packages/tile, or
prefix/share/tile/python/tile); the build tree beside a source checkout
(build/lib/libtile.so); the system's library path.
"""
import ctypes
import ctypes.util
import os

API_VERSION = 1

SUCCESS = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_COMPILE = 2
ERROR_NOT_FOUND = 3
ERROR_NO_DEVICE = 4
ERROR_CUDA = 5
ERROR_INTERPRETER = 6

PARAM_POINTER, PARAM_INT, PARAM_FLOAT = 0, 1, 2
ARG_POINTER, ARG_I32, ARG_I64, ARG_F32, ARG_F64 = 0, 1, 2, 3, 4

# tile_dtype, by element type name.
DTYPES = {"i1": 0, "i8": 1, "i16": 2, "i32": 3, "i64": 4, "f16": 5,
          "bf16": 6, "f32": 7, "f64": 8, "f8e4m3": 9, "f8e5m2": 10,
          # Unsigned buffers go as the signed type of their width (same bits).
          "u8": 1, "u16": 2, "u32": 3, "u64": 4}


class CompileOptions(ctypes.Structure):
    _fields_ = [("const_names", ctypes.POINTER(ctypes.c_char_p)),
                ("const_values", ctypes.POINTER(ctypes.c_char_p)),
                ("num_consts", ctypes.c_size_t),
                ("num_warps", ctypes.c_uint),
                ("num_stages", ctypes.c_uint),
                ("arch", ctypes.c_char_p)]


class ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_char_p),
                ("element_type", ctypes.c_char_p), ("kind", ctypes.c_int),
                ("bits", ctypes.c_uint), ("divisibility", ctypes.c_uint)]


class Grid(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint),
                ("z", ctypes.c_uint)]


class ArgValue(ctypes.Union):
    _fields_ = [("pointer", ctypes.c_uint64), ("integer", ctypes.c_int64),
                ("real", ctypes.c_double)]


class Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("value", ArgValue)]


class CpuArg(ctypes.Structure):
    _fields_ = [("scalar", Arg), ("data", ctypes.c_void_p),
                ("dtype", ctypes.c_int), ("count", ctypes.c_size_t)]


GRID_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                           ctypes.c_size_t, ctypes.POINTER(Grid))


def _candidates():
    env = os.environ.get("TILE_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    paths = []
    # prefix/lib/python3/dist-packages/tile and prefix/share/tile/python/tile
    for up in (("..", "..", ".."), ("..", "..", "..", "..")):
        paths.append(os.path.join(here, *up, "lib", "libtile.so"))
    # A source checkout: python/tile -> build/lib.
    paths.append(os.path.join(here, "..", "..", "build", "lib", "libtile.so"))
    found = ctypes.util.find_library("tile")
    if found:
        paths.append(found)
    return paths


def _load():
    tried = []
    for path in _candidates():
        path = os.path.normpath(path) if os.sep in path else path
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError(
        "tile: cannot find libtile.so; build it (cmake --build build), install "
        "it (cmake --install build), or set TILE_LIBRARY to its path. Tried: "
        + "; ".join(tried))


lib = _load()

_P = ctypes.c_void_p
_S = ctypes.c_int  # tile_status
_signatures = {
    "tile_last_error": (ctypes.c_char_p, []),
    "tile_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "tile_api_version": (ctypes.c_int, []),
    "tile_version": (ctypes.c_char_p, []),
    "tile_runtime_create": (_S, [ctypes.c_int, ctypes.POINTER(_P)]),
    "tile_runtime_destroy": (None, [_P]),
    "tile_runtime_available": (ctypes.c_int, []),
    "tile_runtime_device": (_S, [_P, ctypes.POINTER(ctypes.c_char_p),
                                 ctypes.POINTER(ctypes.c_char_p)]),
    "tile_runtime_synchronize": (_S, [_P]),
    "tile_module_compile_source": (_S, [_P, ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.POINTER(CompileOptions),
                                        ctypes.POINTER(_P)]),
    "tile_module_describe_source": (_S, [ctypes.c_char_p, ctypes.c_char_p,
                                         ctypes.POINTER(CompileOptions),
                                         ctypes.POINTER(_P)]),
    "tile_module_load_ptx": (_S, [_P, ctypes.c_char_p, ctypes.c_char_p,
                                  ctypes.POINTER(_P)]),
    "tile_module_destroy": (None, [_P]),
    "tile_module_num_kernels": (_S, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "tile_module_kernel_name": (_S, [_P, ctypes.c_size_t,
                                     ctypes.POINTER(ctypes.c_char_p)]),
    "tile_module_get_kernel": (_S, [_P, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "tile_kernel_destroy": (None, [_P]),
    "tile_kernel_num_params": (_S, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "tile_kernel_param": (_S, [_P, ctypes.c_size_t,
                               ctypes.POINTER(ParamInfo)]),
    "tile_kernel_num_consts": (_S, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "tile_kernel_const": (_S, [_P, ctypes.c_size_t,
                               ctypes.POINTER(ctypes.c_char_p),
                               ctypes.POINTER(ctypes.c_char_p)]),
    "tile_kernel_launch": (_S, [_P, Grid, _P, _P, ctypes.c_size_t]),
    "tile_tuned_kernel_create": (_S, [_P, ctypes.c_char_p, ctypes.c_char_p,
                                      ctypes.c_char_p, ctypes.c_char_p,
                                      ctypes.POINTER(ctypes.c_char_p),
                                      ctypes.c_size_t, ctypes.POINTER(_P)]),
    "tile_tuned_kernel_destroy": (None, [_P]),
    "tile_tuned_kernel_num_configs": (_S, [_P,
                                           ctypes.POINTER(ctypes.c_size_t)]),
    "tile_tuned_kernel_config_value": (_S, [_P, ctypes.c_size_t,
                                            ctypes.c_char_p,
                                            ctypes.POINTER(ctypes.c_int64)]),
    "tile_tuned_kernel_config_text": (_S, [_P, ctypes.c_size_t,
                                           ctypes.POINTER(ctypes.c_char_p)]),
    "tile_tuned_kernel_launch": (_S, [_P, GRID_FN, _P, _P, _P,
                                      ctypes.c_size_t]),
    "tile_tuned_kernel_last_choice": (_S, [_P,
                                           ctypes.POINTER(ctypes.c_size_t)]),
    "tile_run_cpu": (_S, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                          ctypes.POINTER(CompileOptions), Grid,
                          ctypes.POINTER(CpuArg), ctypes.c_size_t]),
}
for _name, (_restype, _argtypes) in _signatures.items():
    _f = getattr(lib, _name)
    _f.restype = _restype
    _f.argtypes = _argtypes

if lib.tile_api_version() != API_VERSION:
    raise ImportError("tile: libtile's C interface is version %d, this package "
                      "expects %d" % (lib.tile_api_version(), API_VERSION))


def last_error():
    return lib.tile_last_error().decode(errors="replace")
