"""tile: compile .tile kernels and launch them on PyTorch tensors.

    import torch, tile
    mod = tile.compile("examples/vector_add.tile")          # or source text
    x = torch.rand(10000, device="cuda"); y = torch.rand_like(x)
    out = torch.empty_like(x)
    mod.vector_add[(tile.cdiv(x.numel(), 1024),)](x, y, out, x.numel())

A grid is a tuple of up to three ints or a function of the const values
(`lambda meta: (tile.cdiv(n, meta["BLOCK"]),)`). Launches run on the current
CUDA stream of the tensors' device. Pointer parameters take CUDA tensors (or
any object with __cuda_array_interface__) of the parameter's element type,
contiguous unless wrapped in tile.strided(); integer and float parameters
take Python numbers. Misuse raises TypeError/ValueError naming the argument;
compile errors raise CompileError with the compiler's diagnostics.

`tile.run_cpu` runs a kernel on the CPU interpreter over Python lists,
array.array or NumPy arrays, with no GPU. `tile.autotune` mirrors
triton.autotune. The package is pure Python over libtile's C interface
(ctypes); it imports nothing outside the standard library.
"""
import array as _array
import ctypes
import os
import struct
import sys

from . import _capi
from ._capi import lib as _lib

_launch = _lib.tile_kernel_launch

__all__ = ["compile", "autotune", "Config", "run_cpu", "strided", "cdiv",
           "TileError", "CompileError", "Module", "Kernel", "version",
           "gpu_available"]


class TileError(RuntimeError):
    """A failure reported by libtile (status name in `.status`)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = _lib.tile_status_name(status).decode()


class CompileError(TileError):
    """The source did not compile; the message holds the diagnostics."""


def _raise(status):
    message = _capi.last_error()
    if status == _capi.ERROR_COMPILE:
        raise CompileError(status, message)
    if status == _capi.ERROR_INVALID_ARGUMENT:
        raise ValueError(message)
    if status == _capi.ERROR_NOT_FOUND:
        raise KeyError(message)
    raise TileError(status, message)


def _check(status):
    if status:
        _raise(status)


def cdiv(a, b):
    """Ceiling of a / b, for grids."""
    return -(-a // b)


def version():
    return _lib.tile_version().decode()


def gpu_available():
    return bool(_lib.tile_runtime_available())


# ---- Runtimes, one per device ---------------------------------------------

_runtimes = {}


def _runtime(device):
    rt = _runtimes.get(device)
    if rt is None:
        handle = ctypes.c_void_p()
        _check(_lib.tile_runtime_create(device, ctypes.byref(handle)))
        rt = _runtimes[device] = handle
    return rt


# ---- Arguments ---------------------------------------------------------------

_TORCH_DTYPES = None  # element type name -> torch dtype, built on first use
_TYPESTRS = {"<f2": "f16", "<f4": "f32", "<f8": "f64", "|i1": "i8",
             "<i2": "i16", "<i4": "i32", "<i8": "i64", "|b1": "i1",
             "|u1": "u8", "<u2": "u16", "<u4": "u32", "<u8": "u64"}


def _torch_dtypes():
    global _TORCH_DTYPES
    if _TORCH_DTYPES is None:
        torch = sys.modules["torch"]
        _TORCH_DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16,
                         "f32": torch.float32, "f64": torch.float64,
                         "i8": torch.int8, "i16": torch.int16,
                         "i32": torch.int32, "i64": torch.int64,
                         "i1": torch.bool}
        # Unsigned types and 8-bit floats where this torch has them.
        for name, attr in (("u8", "uint8"), ("u16", "uint16"),
                           ("u32", "uint32"), ("u64", "uint64")):
            if hasattr(torch, attr):
                _TORCH_DTYPES[name] = getattr(torch, attr)
        for name, attr in (("f8e4m3", "float8_e4m3fn"),
                           ("f8e5m2", "float8_e5m2")):
            if hasattr(torch, attr):
                _TORCH_DTYPES[name] = getattr(torch, attr)
    return _TORCH_DTYPES


class strided:
    """Marks a tensor whose strides the kernel takes as arguments, so that a
    non-contiguous tensor is accepted: `k[grid](tile.strided(x.T), ...)`."""
    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor


_raw_stream = None


def _current_stream(device):
    """The raw handle of PyTorch's current stream on `device` (0, the
    default stream, without PyTorch)."""
    global _raw_stream
    if _raw_stream is None:
        torch = sys.modules.get("torch")
        if torch is None:
            return 0
        _raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or (
            lambda d: torch.cuda.current_stream(d).cuda_stream)
    return _raw_stream(device)


def _default_device():
    """The device of a launch whose pointers carry none
    (__cuda_array_interface__ objects): PyTorch's current one, else 0."""
    torch = sys.modules.get("torch")
    return torch.cuda.current_device() if torch else 0


_double_bits = struct.Struct("<d")
_int64 = struct.Struct("<q")


class Param:
    """One kernel parameter: name, type ("ptr<f32>"), element_type, kind
    ("pointer", "int", "float"), bits."""
    __slots__ = ("name", "type", "element_type", "kind", "bits",
                 "torch_dtype", "low", "high")

    def __init__(self, info):
        self.torch_dtype = None  # the tensor dtype it takes, once known
        self.name = info.name.decode()
        self.type = info.type.decode()
        # The range of an integer parameter (u32: [0, 2^32)).
        self.high = 1 << (info.bits - 1) if info.bits > 1 else 2
        self.low = -self.high if info.bits > 1 else 0
        if self.type.startswith("u"):
            self.low, self.high = 0, 1 << info.bits
        self.element_type = info.element_type.decode()
        self.kind = ("pointer", "int", "float")[info.kind]
        self.bits = info.bits

    def __repr__(self):
        return "%s: %s" % (self.name, self.type)


def _describe(kernel_name, params, i):
    p = params[i]
    return "%s() argument %d '%s' (%s)" % (kernel_name, i + 1, p.name, p.type)


def _pointer(value, kernel_name, params, i):
    """(address, device) of a pointer argument, checked."""
    p = params[i]
    want = p.torch_dtype
    # The common case first: a contiguous CUDA tensor of the right dtype.
    if want is not None and getattr(value, "dtype", None) is want and \
            value.is_cuda and value.is_contiguous():
        return value.data_ptr(), value.get_device()
    allow_strides = False
    if type(value) is strided:
        value, allow_strides = value.tensor, True
    if hasattr(value, "data_ptr") and hasattr(value, "is_cuda"):
        if not value.is_cuda:
            raise ValueError("%s: the tensor is on the CPU; move it to the GPU "
                             "with .cuda() (or use tile.run_cpu)"
                             % _describe(kernel_name, params, i))
        want = p.torch_dtype = _torch_dtypes().get(p.element_type)
        if value.dtype != want:
            raise TypeError("%s: expected a tensor of %s, got %s"
                            % (_describe(kernel_name, params, i), want,
                               value.dtype))
        if not allow_strides and not value.is_contiguous():
            raise ValueError(
                "%s: the tensor is not contiguous; pass .contiguous(), or "
                "tile.strided(t) if the kernel takes its strides"
                % _describe(kernel_name, params, i))
        return value.data_ptr(), value.get_device()
    cai = getattr(value, "__cuda_array_interface__", None)
    if cai is not None:
        got = _TYPESTRS.get(cai["typestr"], cai["typestr"])
        if got != p.element_type:
            raise TypeError("%s: expected %s elements, got typestr %s"
                            % (_describe(kernel_name, params, i),
                               p.element_type, cai["typestr"]))
        if not allow_strides and cai.get("strides") is not None:
            raise ValueError("%s: the array is not contiguous; wrap it in "
                             "tile.strided() if the kernel takes its strides"
                             % _describe(kernel_name, params, i))
        return cai["data"][0], None
    raise TypeError("%s: expected a CUDA tensor (or an object with "
                    "__cuda_array_interface__), got %s"
                    % (_describe(kernel_name, params, i), type(value).__name__))


def _scalar(value, kernel_name, params, i):
    """(tile_arg kind, raw int64) of a scalar argument, checked."""
    p = params[i]
    if p.kind == "int":
        if type(value) is bool or not isinstance(value, int):
            if hasattr(value, "__index__") and not isinstance(value, float):
                value = value.__index__()
            else:
                raise TypeError("%s: expected an int, got %s"
                                % (_describe(kernel_name, params, i),
                                   type(value).__name__))
        if not p.low <= value < p.high:
            raise ValueError("%s: %d does not fit in %s"
                             % (_describe(kernel_name, params, i), value,
                                p.type))
        return _capi.ARG_I64, value
    if not isinstance(value, (int, float)) or type(value) is bool:
        raise TypeError("%s: expected a float, got %s"
                        % (_describe(kernel_name, params, i),
                           type(value).__name__))
    return _capi.ARG_F64, _int64.unpack(_double_bits.pack(float(value)))[0]


def _grid(grid, meta):
    if type(grid) is _capi.Grid:
        return grid
    if callable(grid):
        grid = grid(meta)
    if isinstance(grid, int):
        grid = (grid,)
    if not 1 <= len(grid) <= 3:
        raise ValueError("a grid has 1 to 3 dimensions, got %r" % (grid,))
    g = tuple(grid) + (1,) * (3 - len(grid))
    if min(g) < 1:
        raise ValueError("every grid dimension must be at least 1, got %r"
                         % (tuple(grid),))
    return _capi.Grid(g[0], g[1], g[2])


# ---- Modules and kernels --------------------------------------------------------


def _options(constants, num_warps, num_stages, arch):
    names = [str(k).encode() for k in constants]
    values = [str(int(v) if isinstance(v, bool) else v).encode()
              for v in constants.values()]
    opts = _capi.CompileOptions()
    opts._keep = (names, values)
    if names:
        opts.const_names = (ctypes.c_char_p * len(names))(*names)
        opts.const_values = (ctypes.c_char_p * len(values))(*values)
    opts.num_consts = len(names)
    opts.num_warps = num_warps or 0
    opts.num_stages = num_stages or 0
    opts.arch = arch.encode() if arch else None
    return opts


class Module:
    """A compiled .tile source: its kernels are attributes (`mod.softmax`).
    Compiled for a device (and num_warps/num_stages) on first launch there;
    signatures are known at once, without a GPU."""

    def __init__(self, source, name, constants, num_warps, num_stages, arch):
        self.source, self.name = source, name
        self.constants = dict(constants)
        self.num_warps, self.num_stages, self.arch = num_warps, num_stages, arch
        self._compiled = {}  # (device, warps, stages) -> module handle
        handle = ctypes.c_void_p()
        opts = _options(self.constants, num_warps, num_stages, arch)
        _check(_lib.tile_module_describe_source(
            source.encode(), name.encode(), ctypes.byref(opts),
            ctypes.byref(handle)))
        self._described = handle
        count = ctypes.c_size_t()
        _check(_lib.tile_module_num_kernels(handle, ctypes.byref(count)))
        self._kernels = {}
        for i in range(count.value):
            kname = ctypes.c_char_p()
            _check(_lib.tile_module_kernel_name(handle, i, ctypes.byref(kname)))
            self._kernels[kname.value.decode()] = None

    def __del__(self):
        if getattr(self, "_described", None) and _lib:
            _lib.tile_module_destroy(self._described)
            for handle in self._compiled.values():
                _lib.tile_module_destroy(handle)

    @property
    def kernels(self):
        return list(self._kernels)

    def kernel(self, name):
        if name not in self._kernels:
            raise AttributeError("%s has no kernel '%s' (it has: %s)"
                                 % (self.name, name, ", ".join(self._kernels)))
        k = self._kernels[name]
        if k is None:
            k = self._kernels[name] = Kernel(self, name)
        return k

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self.kernel(name)

    def _handle(self, device, num_warps, num_stages):
        key = (device, num_warps, num_stages)
        handle = self._compiled.get(key)
        if handle is None:
            handle = ctypes.c_void_p()
            opts = _options(self.constants, num_warps, num_stages, self.arch)
            _check(_lib.tile_module_compile_source(
                _runtime(device), self.source.encode(), self.name.encode(),
                ctypes.byref(opts), ctypes.byref(handle)))
            self._compiled[key] = handle
        return handle


def _fast_launcher(kernel):
    """A launch function generated for `kernel`'s signature, as Triton
    generates its launchers: `fast(grid, args)` launches when every argument
    is of the common kind (a contiguous CUDA torch.Tensor of the right dtype,
    all on one device; a Python int in range; a float) and returns True;
    otherwise it returns False having done nothing, and the checked path
    runs (and raises the precise error). One accessor call less per tensor
    and no per-parameter loop: the host loop's cost."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    names, checks, fills, env = [], [], [], {}
    tensors = []
    for i, p in enumerate(kernel.params):
        a = "a%d" % i
        names.append(a)
        if p.kind == "pointer":
            dtype = _torch_dtypes().get(p.element_type)
            if dtype is None:
                return None
            env["d%d" % i] = dtype
            checks.append("type(%s) is Tensor and %s.dtype is d%d and "
                          "%s.is_contiguous()" % (a, a, i, a))
            fills.append("buf[%d] = %s.data_ptr()" % (2 * i + 1, a))
            tensors.append(a)
        elif p.kind == "int":
            env["lo%d" % i], env["hi%d" % i] = p.low, p.high
            checks.append("type(%s) is int and lo%d <= %s < hi%d"
                          % (a, i, a, i))
            fills.append("buf[%d] = %s" % (2 * i + 1, a))
        else:
            checks.append("type(%s) is float" % a)
            fills.append("buf[%d] = bits(pack(%s))[0]" % (2 * i + 1, a))
    if not tensors:
        return None
    # get_device() is -1 for a CPU tensor: one call checks both.
    device = "dev = %s.get_device()\n    if dev < 0" % tensors[0]
    for t in tensors[1:]:
        device += " or %s.get_device() != dev" % t
    lines = ["def fast(grid, args):",
             "    if len(args) != %d:" % len(names),
             "        return False",
             "    %s, = args" % ", ".join(names),
             "    if not (%s):" % " and ".join(checks),
             "        return False",
             "    " + device + ":",
             "        return False",
             "    handle = handles.get(dev)",
             "    if handle is None:",
             "        return False"]
    lines += ["    " + f for f in fills]
    lines += ["    status = launch(handle, grid, stream(dev), address, %d)"
              % len(names),
              "    if status:",
              "        fail(status)",
              "    return True"]
    env.update(Tensor=torch.Tensor, buf=kernel._args,
               bits=_int64.unpack, pack=_double_bits.pack,
               handles=kernel._default_handles, launch=_launch,
               stream=_current_stream, address=kernel._args_address,
               fail=_raise)
    exec("\n".join(lines), env)
    return env["fast"]


class _Launcher:
    __slots__ = ("kernel", "grid", "fast")

    def __init__(self, kernel, grid):
        # A fixed grid is converted once; a function is called per launch.
        self.kernel = kernel
        self.grid = grid if callable(grid) else _grid(grid, None)
        self.fast = None
        if type(self.grid) is _capi.Grid:
            self.fast = getattr(kernel, "_fast", None)

    def __call__(self, *args, **options):
        if options:
            return self.kernel.launch(self.grid, *args, **options)
        fast = self.fast
        if fast and fast(self.grid, args):
            return None
        self.kernel._launch_default(self.grid, args)
        if fast is None and type(self.grid) is _capi.Grid:
            self.fast = getattr(self.kernel, "_fast", None)
        return None


class Kernel:
    """A kernel of a Module: `kernel[grid](*args, num_warps=, num_stages=,
    stream=)` launches it; `kernel.params` is its signature."""

    def __init__(self, module, name):
        self.module, self.name = module, name
        handle = ctypes.c_void_p()
        _check(_lib.tile_module_get_kernel(module._described, name.encode(),
                                           ctypes.byref(handle)))
        count = ctypes.c_size_t()
        _check(_lib.tile_kernel_num_params(handle, ctypes.byref(count)))
        params = []
        for i in range(count.value):
            info = _capi.ParamInfo()
            _check(_lib.tile_kernel_param(handle, i, ctypes.byref(info)))
            params.append(Param(info))
        count = ctypes.c_size_t()
        _check(_lib.tile_kernel_num_consts(handle, ctypes.byref(count)))
        constants = {}
        for i in range(count.value):
            cname, cvalue = ctypes.c_char_p(), ctypes.c_char_p()
            _check(_lib.tile_kernel_const(handle, i, ctypes.byref(cname),
                                          ctypes.byref(cvalue)))
            text = cvalue.value.decode()
            constants[cname.value.decode()] = (
                float(text) if "." in text or "e" in text else int(text))
        _lib.tile_kernel_destroy(handle)
        # The const values the kernel is compiled with: what grid functions
        # receive as `meta`.
        self.constants = constants
        self.params = params
        self._handles = {}  # (device, warps, stages) -> kernel handle
        self._default_handles = {}  # device -> handle, module's options
        # tile_arg[n] as int64 pairs (kind, value); the kinds are fixed.
        self._args = (ctypes.c_int64 * (2 * len(params)))()
        for i, p in enumerate(params):
            self._args[2 * i] = {"pointer": _capi.ARG_POINTER,
                                 "int": _capi.ARG_I64,
                                 "float": _capi.ARG_F64}[p.kind]
        self._args_address = ctypes.addressof(self._args)
        self._num_args = len(params)
        self._fast = None  # _fast_launcher's function, once generated

    def __del__(self):
        for handle in getattr(self, "_handles", {}).values():
            _lib.tile_kernel_destroy(handle)

    def __repr__(self):
        return "<tile kernel %s(%s)>" % (
            self.name, ", ".join(map(repr, self.params)))

    def __getitem__(self, grid):
        return _Launcher(self, grid)

    def _handle(self, device, num_warps, num_stages):
        key = (device, num_warps, num_stages)
        handle = self._handles.get(key)
        if handle is None:
            module = self.module._handle(device, num_warps, num_stages)
            handle = ctypes.c_void_p()
            _check(_lib.tile_module_get_kernel(module, self.name.encode(),
                                               ctypes.byref(handle)))
            self._handles[key] = handle
        return handle

    def _fill(self, args):
        """Checks `args` into the argument buffer; returns their device.
        The loop is the launch's hot path: the common cases (a contiguous
        CUDA tensor of the right dtype, an int in range) are inline."""
        params = self.params
        if len(args) != len(params):
            raise TypeError("%s() takes %d arguments (%s), got %d" % (
                self.name, len(params), ", ".join(map(repr, params)),
                len(args)))
        buf, device, i = self._args, None, 1
        for p, value in zip(params, args):
            kind = p.kind
            if kind == "pointer":
                want = p.torch_dtype
                if want is not None and getattr(value, "dtype", None) is want \
                        and value.is_cuda and value.is_contiguous():
                    buf[i] = value.data_ptr()
                    dev = value.get_device()
                else:
                    buf[i], dev = _pointer(value, self.name, params, i // 2)
                if dev != device and dev is not None:
                    if device is not None:
                        raise ValueError(
                            "%s: the tensor is on cuda:%d, an earlier one on "
                            "cuda:%d" % (_describe(self.name, params, i // 2),
                                         dev, device))
                    device = dev
            elif kind == "int" and type(value) is int and \
                    p.low <= value < p.high:
                buf[i] = value
            else:
                buf[i] = _scalar(value, self.name, params, i // 2)[1]
            i += 2
        return device

    def _launch_default(self, grid, args):
        """launch() without options: the host loop's path, one call less."""
        device = self._fill(args)
        if device is None:
            device = _default_device()
        handle = self._default_handles.get(device)
        if handle is None:
            handle = self._default_handles[device] = self._handle(
                device, self.module.num_warps, self.module.num_stages)
        status = _launch(handle, _grid(grid, self.constants),
                         _current_stream(device), self._args_address,
                         self._num_args)
        if status:
            _raise(status)
        if self._fast is None:
            # After a checked launch: the handle exists and torch is loaded.
            self._fast = _fast_launcher(self) or False

    def launch(self, grid, *args, num_warps=None, num_stages=None,
               stream=None):
        device = self._fill(args)
        if device is None:
            device = _default_device()
        if num_warps is None and num_stages is None:
            handle = self._default_handles.get(device)
            if handle is None:
                handle = self._default_handles[device] = self._handle(
                    device, self.module.num_warps, self.module.num_stages)
        else:
            handle = self._handle(device, num_warps or self.module.num_warps,
                                  num_stages or self.module.num_stages)
        if stream is None:
            stream = _current_stream(device)
        elif not isinstance(stream, int):
            stream = stream.cuda_stream
        status = _launch(handle, _grid(grid, self.constants), stream,
                         self._args_address, self._num_args)
        if status:
            _raise(status)

    def run_cpu(self, grid, *args):
        """Runs the kernel on the CPU interpreter (see tile.run_cpu)."""
        return run_cpu(self, grid, *args)


def compile(source, name=None, num_warps=None, num_stages=None, arch=None,
            **constants):
    """Compiles .tile source text, or the file at `source` when it names one
    (a path ending in .tile), with const overrides as keyword arguments."""
    if "\n" not in source and source.endswith(".tile"):
        if not os.path.exists(source):
            raise FileNotFoundError("tile.compile: no file '%s'" % source)
        with open(source) as f:
            text = f.read()
        return Module(text, name or source, constants, num_warps, num_stages,
                      arch)
    return Module(source, name or "<source>", constants, num_warps,
                  num_stages, arch)


# ---- The CPU interpreter ---------------------------------------------------------

# 8-bit floats have no NumPy or array type: their bits go as unsigned bytes.
_ARRAY_CODES = {"f32": "f", "f64": "d", "i8": "b", "i16": "h", "i32": "i",
                "i64": "q", "i1": "B", "f8e4m3": "B", "f8e5m2": "B",
                "u8": "B", "u16": "H", "u32": "I", "u64": "Q"}
_NUMPY_NAMES = {"f16": "float16", "f32": "float32", "f64": "float64",
                "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
                "i1": "bool", "f8e4m3": "uint8", "f8e5m2": "uint8",
                "u8": "uint8", "u16": "uint16", "u32": "uint32",
                "u64": "uint64"}


def run_cpu(kernel, grid, *args):
    """Runs `kernel` (a Kernel) on the CPU interpreter for every program of
    `grid`. Pointer arguments are NumPy arrays or array.array of the
    parameter's element type (updated in place), or lists of numbers
    (converted, and updated in place with the results). An 8-bit float
    buffer is a uint8 array (or array.array('B')) of the values' bits."""
    params = kernel.params
    if len(args) != len(params):
        raise TypeError("%s() takes %d arguments (%s), got %d" % (
            kernel.name, len(params), ", ".join(map(repr, params)), len(args)))
    cargs = (_capi.CpuArg * max(1, len(args)))()
    keep, write_back = [], []
    for i, (value, p) in enumerate(zip(args, params)):
        if p.kind != "pointer":
            kind, raw = _scalar(value, kernel.name, params, i)
            cargs[i].scalar.kind = kind
            cargs[i].scalar.value.integer = raw
            continue
        dtype = _capi.DTYPES[p.element_type]
        if type(value).__name__ == "ndarray":
            want = _NUMPY_NAMES.get(p.element_type)
            if str(value.dtype) != want:
                raise TypeError("%s: expected a %s array, got %s" % (
                    _describe(kernel.name, params, i), want, value.dtype))
            if not value.flags["C_CONTIGUOUS"] or not value.flags["WRITEABLE"]:
                raise ValueError("%s: the array must be contiguous and "
                                 "writeable" % _describe(kernel.name, params,
                                                         i))
            address, count = value.ctypes.data, value.size
        elif isinstance(value, _array.array):
            if value.typecode != _ARRAY_CODES.get(p.element_type):
                raise TypeError("%s: expected array.array('%s'), got '%s'" % (
                    _describe(kernel.name, params, i),
                    _ARRAY_CODES.get(p.element_type, "?"), value.typecode))
            address, count = value.buffer_info()
        elif isinstance(value, list):
            code = _ARRAY_CODES.get(p.element_type)
            if code is None or p.element_type.startswith("f8"):
                raise TypeError("%s: lists of %s are not supported; pass a "
                                "NumPy array" % (_describe(kernel.name, params,
                                                           i), p.element_type))
            converted = _array.array(code, value)
            keep.append(converted)
            write_back.append((value, converted))
            address, count = converted.buffer_info()
        else:
            raise TypeError("%s: expected a list, array.array or NumPy array, "
                            "got %s" % (_describe(kernel.name, params, i),
                                        type(value).__name__))
        if count == 0:
            raise ValueError("%s: the buffer is empty"
                             % _describe(kernel.name, params, i))
        cargs[i].data, cargs[i].dtype, cargs[i].count = address, dtype, count
    module = kernel.module
    opts = _options(module.constants, module.num_warps, module.num_stages,
                    module.arch)
    _check(_lib.tile_run_cpu(module.source.encode(), module.name.encode(),
                             kernel.name.encode(), ctypes.byref(opts),
                             _grid(grid, kernel.constants), cargs, len(args)))
    for original, converted in write_back:
        original[:] = converted.tolist()


# ---- Autotuning ----------------------------------------------------------------


class Config:
    """One configuration: const values plus num_warps and num_stages."""

    def __init__(self, kwargs, num_warps=4, num_stages=3):
        self.kwargs = dict(kwargs)
        self.num_warps, self.num_stages = num_warps, num_stages

    def text(self):
        items = ["%s=%s" % (k, v) for k, v in sorted(self.kwargs.items())]
        items += ["num_warps=%d" % self.num_warps,
                  "num_stages=%d" % self.num_stages]
        return ",".join(items)


class TunedKernel:
    """A kernel launched in the fastest of its configurations per key; the
    grid function receives the configuration's const values."""

    def __init__(self, kernel, configs, key):
        self.kernel, self.configs, self.key = kernel, list(configs), list(key)
        self._handles = {}
        self._grid = None
        # The C callback, kept alive as long as the kernel.
        self._grid_fn = _capi.GRID_FN(self._call_grid)
        self.last_config = None

    def __del__(self):
        for handle in getattr(self, "_handles", {}).values():
            _lib.tile_tuned_kernel_destroy(handle)

    def _call_grid(self, user, handle, index, out):
        try:
            meta = dict(self.kernel.constants)
            meta.update(self.configs[index].kwargs)
            g = _grid(self._grid, meta)
            out[0].x, out[0].y, out[0].z = g.x, g.y, g.z
            return 0
        except Exception as e:  # reported as the launch's error
            self._grid_error = e
            return 1

    def _handle(self, device):
        handle = self._handles.get(device)
        if handle is None:
            handle = ctypes.c_void_p()
            # The module's own const overrides hold in every configuration
            # unless the configuration sets them.
            module_consts = self.kernel.module.constants
            text = ";".join(
                Config({**module_consts, **c.kwargs}, c.num_warps,
                       c.num_stages).text() for c in self.configs).encode()
            keys = (ctypes.c_char_p * max(1, len(self.key)))(
                *[k.encode() for k in self.key])
            module = self.kernel.module
            _check(_lib.tile_tuned_kernel_create(
                _runtime(device), module.source.encode(), module.name.encode(),
                self.kernel.name.encode(), text, keys, len(self.key),
                ctypes.byref(handle)))
            self._handles[device] = handle
        return handle

    def __getitem__(self, grid):
        return _Launcher(self, grid)

    def _launch_default(self, grid, args):
        self.launch(grid, *args)

    def launch(self, grid, *args, stream=None):
        device = self.kernel._fill(args)
        if device is None:
            device = _default_device()
        handle = self._handle(device)
        if stream is None:
            stream = _current_stream(device)
        self._grid, self._grid_error = grid, None
        status = _lib.tile_tuned_kernel_launch(
            handle, self._grid_fn, None, stream, self.kernel._args_address,
            len(self.kernel.params))
        if self._grid_error is not None:
            raise self._grid_error
        if status:
            _raise(status)
        choice = ctypes.c_size_t()
        _check(_lib.tile_tuned_kernel_last_choice(handle, ctypes.byref(choice)))
        self.last_config = self.configs[choice.value]


def autotune(configs, key):
    """Mirrors triton.autotune: `tuned = tile.autotune(configs=[...],
    key=["M", "N"])(mod.kernel)`, launched as `tuned[grid](*args)` with a
    grid function of the chosen configuration's const values."""
    def wrap(kernel):
        names = {p.name for p in kernel.params}
        for k in key:
            if k not in names:
                raise ValueError("autotune key '%s' is not a parameter of %s"
                                 % (k, kernel.name))
        return TunedKernel(kernel, configs, key)
    return wrap
