"""Tests of the Python package that need no GPU: import, compile and
signatures, argument checks, and run_cpu on the interpreter (random inputs,
sizes not multiples of the block, poisoned outputs, float64 references).
Run by ctest (`python`) with TILE_LIBRARY naming the built libtile.so."""
import array
import math
import os
import random

import numpy as np
import pytest

import tile

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
rng = np.random.default_rng()


def test_version_and_import():
    assert tile.version().startswith("tile-")
    assert isinstance(tile.gpu_available(), bool)


def test_signature_from_file():
    mod = tile.compile(os.path.join(EXAMPLES, "vector_add.tile"))
    assert mod.kernels == ["vector_add"]
    k = mod.vector_add
    assert [p.name for p in k.params] == ["x", "y", "out", "n"]
    assert [p.type for p in k.params] == ["ptr<f32>"] * 3 + ["i32"]
    assert k.params[0].element_type == "f32" and k.params[0].kind == "pointer"
    assert k.params[3].kind == "int" and k.params[3].bits == 32
    assert "vector_add(x: ptr<f32>" in repr(k)


def test_compile_errors():
    with pytest.raises(tile.CompileError, match=r"bad\.tile:2:"):
        tile.compile("kernel k(x: ptr<f32>) {\n  store(x, y);\n}\n",
                     name="bad.tile")
    with pytest.raises(FileNotFoundError):
        tile.compile("no/such/file.tile")
    mod = tile.compile(os.path.join(EXAMPLES, "vector_add.tile"))
    with pytest.raises(AttributeError, match="it has: vector_add"):
        mod.nope


def test_run_cpu_vector_add_numpy():
    n = int(rng.integers(1500, 4000))
    n += n % 1024 == 0  # never a multiple of the block
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, dtype=np.float32)
    mod = tile.compile(os.path.join(EXAMPLES, "vector_add.tile"))
    assert mod.vector_add.constants == {"BLOCK": 1024}
    # The grid function sees the const values (defaults included).
    mod.vector_add.run_cpu(lambda meta: (tile.cdiv(n, meta["BLOCK"]),), x, y,
                           out, n)
    expected = (x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
    assert np.array_equal(out, expected)


def test_run_cpu_softmax_and_consts():
    rows, cols = int(rng.integers(3, 9)), int(rng.integers(100, 500))
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    out = np.full((rows, cols), np.nan, dtype=np.float32)
    mod = tile.compile(os.path.join(EXAMPLES, "softmax.tile"), BLOCK=512)
    tile.run_cpu(mod.softmax, (rows,), out, x, cols, cols)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    assert np.allclose(out, expected, rtol=1e-5, atol=1e-7)
    # A grid as a function of the const values.
    out[:] = np.nan
    mod.softmax.run_cpu(lambda meta: (rows,), out, x, cols, cols)
    assert np.allclose(out, expected, rtol=1e-5, atol=1e-7)


def test_run_cpu_lists_and_arrays():
    src = """
kernel scale(x: ptr<f64>, out: ptr<i32>, alpha: f32, n: i32) {
  let r = range(0, 64);
  let m = r < n;
  store(out + r, cast(load(x + r, m) * alpha, i32), m);
}"""
    n = random.randint(10, 63)
    x = [random.uniform(-100, 100) for _ in range(n)]
    out = [-7] * n
    alpha = random.uniform(0.5, 2)
    k = tile.compile(src).scale
    k.run_cpu(1, x, out, alpha, n)
    f32 = lambda v: float(np.float32(v))
    assert out == [math.trunc(f32(f32(v) * f32(alpha))) for v in x] or \
        out == [math.trunc(f32(v * f32(alpha))) for v in x]
    xa = array.array("d", x)
    oa = array.array("i", [0] * n)
    k.run_cpu(1, xa, oa, alpha, n)
    assert list(oa) == out


def test_run_cpu_misuse():
    mod = tile.compile(os.path.join(EXAMPLES, "vector_add.tile"))
    k = mod.vector_add
    x = np.zeros(10, dtype=np.float32)
    with pytest.raises(TypeError, match=r"takes 4 arguments \(x: ptr<f32>"):
        k.run_cpu(1, x, x, x)
    with pytest.raises(TypeError, match="argument 1 'x' .* expected a float32 "
                                        "array, got float64"):
        k.run_cpu(1, np.zeros(10), x, x, 10)
    with pytest.raises(ValueError, match="4000000000 does not fit in i32"):
        k.run_cpu(1, x, x, x, 4000000000)
    with pytest.raises(TypeError, match="argument 4 'n' .* expected an int"):
        k.run_cpu(1, x, x, x, 2.5)
    with pytest.raises(TileErrorOrValue, match="out-of-bounds"):
        k.run_cpu(1, x, x, x, 11)
    with pytest.raises(ValueError, match="grid has 1 to 3 dimensions"):
        k.run_cpu((1, 1, 1, 1), x, x, x, 10)


TileErrorOrValue = tile.TileError


class FakeTensor:
    """Duck-types the parts of torch.Tensor the launcher reads."""

    def __init__(self, cuda=True, contiguous=True):
        self.is_cuda, self._contiguous = cuda, contiguous
        self.dtype = "float32"

    def is_contiguous(self):
        return self._contiguous

    def data_ptr(self):
        return 4096

    def get_device(self):
        return 0


class FakeArray:
    def __init__(self, typestr, strides=None):
        self.__cuda_array_interface__ = {"data": (4096, False),
                                         "typestr": typestr, "shape": (10,),
                                         "strides": strides, "version": 3}


def test_launch_checks_before_the_gpu(monkeypatch):
    k = tile.compile(os.path.join(EXAMPLES, "vector_add.tile")).vector_add
    a = FakeArray("<f4")
    with pytest.raises(TypeError, match=r"takes 4 arguments"):
        k[(1,)](a, a, a)
    with pytest.raises(TypeError, match="argument 2 'y' .* expected f32 "
                                        "elements, got typestr <f8"):
        k[(1,)](a, FakeArray("<f8"), a, 10)
    with pytest.raises(ValueError, match="not contiguous"):
        k[(1,)](a, FakeArray("<f4", strides=(8,)), a, 10)
    with pytest.raises(TypeError, match="expected a CUDA tensor"):
        k[(1,)](a, [1.0], a, 10)
    with pytest.raises(ValueError, match="2147483648 does not fit in i32"):
        k[(1,)](a, a, a, 2 ** 31)
    # Tensors: the dtype table needs torch; a stand-in module gives it.
    import types
    fake_torch = types.SimpleNamespace(
        float16="float16", bfloat16="bfloat16", float32="float32",
        float64="float64", int8="int8", int16="int16", int32="int32",
        int64="int64", bool="bool")
    monkeypatch.setitem(__import__("sys").modules, "torch", fake_torch)
    monkeypatch.setattr(tile, "_TORCH_DTYPES", None)
    with pytest.raises(ValueError, match="tensor is on the CPU"):
        k[(1,)](FakeTensor(cuda=False), a, a, 10)
    with pytest.raises(ValueError, match=r"not contiguous; pass \.contiguous"):
        k[(1,)](FakeTensor(contiguous=False), a, a, 10)
    t = FakeTensor()
    t.dtype = "float16"
    with pytest.raises(TypeError, match="expected a tensor of float32, got "
                                        "float16"):
        k[(1,)](t, a, a, 10)
    monkeypatch.setattr(tile, "_TORCH_DTYPES", None)


def test_generated_launcher(monkeypatch):
    """The launcher generated per signature writes the arguments as the
    checked path does, and declines (returning False, launching nothing)
    whatever it does not handle, so the checked path raises the error."""
    import types

    class Tensor(FakeTensor):
        def __init__(self, ptr, device=0, **kw):
            super().__init__(**kw)
            self.ptr, self.device = ptr, device

        def data_ptr(self):
            return self.ptr

        def get_device(self):
            return self.device if self.is_cuda else -1

    fake_torch = types.SimpleNamespace(
        Tensor=Tensor, float16="float16", bfloat16="bfloat16",
        float32="float32", float64="float64", int8="int8", int16="int16",
        int32="int32", int64="int64", bool="bool")
    monkeypatch.setitem(__import__("sys").modules, "torch", fake_torch)
    monkeypatch.setattr(tile, "_TORCH_DTYPES", None)
    launched = []
    monkeypatch.setattr(tile, "_launch", lambda *a: launched.append(a) or 0)
    monkeypatch.setattr(tile, "_current_stream", lambda d: 1000 + d)
    src = ("kernel k(x: ptr<f32>, y: ptr<f16>, n: i32, s: f32) {\n"
           "  store(x, cast(load(y), f32) * s + cast(n, f32));\n}\n")
    k = tile.compile(src).k
    k._default_handles[0] = "handle0"
    fast = tile._fast_launcher(k)
    grid = tile._capi.Grid(3, 1, 1)
    x, y = Tensor(4096), Tensor(8192)
    y.dtype = "float16"
    n = random.randrange(-2 ** 31, 2 ** 31)
    s = random.uniform(-10, 10)
    assert fast(grid, (x, y, n, s)) is True
    (handle, g, stream, address, count), = launched
    assert (handle, g.x, stream, address, count) == (
        "handle0", 3, 1000, k._args_address, 4)
    assert list(k._args)[1::2] == [
        4096, 8192, n, tile._int64.unpack(tile._double_bits.pack(s))[0]]
    # Declined: wrong count, dtype, a CPU or non-contiguous tensor, tensors
    # on two devices, a device without a compiled kernel, an int out of
    # range, a bool, an int for a float, a tensor subclass of no kind.
    declined = [(x, y, n), (x, x, n, s), (Tensor(1, cuda=False), y, n, s),
                (Tensor(1, contiguous=False), y, n, s),
                (x, Tensor(1, device=1), n, s), (Tensor(1, device=1),
                                                  Tensor(2, device=1), n, s),
                (x, y, 2 ** 31, s), (x, y, True, s), (x, y, n, 1),
                (FakeTensor(), y, n, s)]
    declined[4][1].dtype = declined[5][1].dtype = "float16"
    for args in declined:
        assert fast(grid, args) is False, args
    assert len(launched) == 1
    monkeypatch.setattr(tile, "_TORCH_DTYPES", None)


@pytest.mark.skipif(tile.gpu_available(), reason="a GPU is present")
def test_launch_without_gpu():
    k = tile.compile(os.path.join(EXAMPLES, "vector_add.tile")).vector_add
    a = FakeArray("<f4")
    with pytest.raises(tile.TileError, match="no GPU available") as info:
        k[(1,)](a, a, a, 10)
    assert info.value.status == "TILE_ERROR_NO_DEVICE"


def test_autotune_checks_key():
    k = tile.compile(os.path.join(EXAMPLES, "vector_add.tile")).vector_add
    configs = [tile.Config({"BLOCK": 256}), tile.Config({"BLOCK": 1024},
                                                        num_warps=8)]
    assert configs[1].text() == "BLOCK=1024,num_warps=8,num_stages=3"
    with pytest.raises(ValueError, match="'m' is not a parameter"):
        tile.autotune(configs, key=["m"])(k)
    assert tile.autotune(configs, key=["n"])(k).configs == configs


def test_run_cpu_float8_bits():
    """8-bit float buffers are their bits in uint8 arrays: quantize_fp8's
    kernels on hand-encoded e4m3 values (1.0 is 0 0111 000, 0x38; 448 the
    largest, 0x7E, where 1000 saturates; -0 is 0x80; 3.0 is 0 1000 100)."""
    mod = tile.compile(os.path.join(EXAMPLES, "quantize_fp8.tile"),
                       BLOCK=4)
    x = np.array([1.0, -2.0, 0.5, 448.0, 1000.0, 0.0, -0.0, 3.0, 7.0],
                 dtype=np.float16)
    q = np.full(10, 0xAA, dtype=np.uint8)
    n = 9  # three programs of 4, the last partial
    mod.quantize.run_cpu(3, x, q, 1.0, n)
    assert list(q) == [0x38, 0xC0, 0x30, 0x7E, 0x7E, 0x00, 0x80, 0x44, 0x4E,
                       0xAA]
    y = np.full(10, np.nan, dtype=np.float16)
    mod.dequantize.run_cpu(3, q, y, 0.5, n)
    want = [0.5, -1.0, 0.25, 224.0, 224.0, 0.0, -0.0, 1.5, 3.5]
    assert y[:n].tolist() == want and np.signbit(y[6]) and np.isnan(y[n])
    with pytest.raises(TypeError, match="expected a uint8 array"):
        mod.quantize.run_cpu(3, x, q.astype(np.int8), 1.0, n)
    with pytest.raises(TypeError, match="lists of f8e4m3 are not supported"):
        mod.quantize.run_cpu(3, x, [0] * 9, 1.0, n)


UNSIGNED = """
kernel mix(x: ptr<u32>, y: ptr<u8>, o: ptr<u64>, n: i32, k: u32,
           const BLOCK: i32 = 8) {
  let r = program_id(0) * BLOCK + range(0, BLOCK);
  let m = r < n;
  let a = load(x + r, m, 0);
  let b = cast(load(y + r, m, 0), u32) + 1;
  store(o + r, cast(a / b + (a >> 1) + k, u64) * 3 + cast(a > k, u64), m);
}
"""


def test_run_cpu_unsigned():
    """Unsigned integers in NumPy's unsigned arrays and Python ints up to
    2^32 - 1: u32 division, shifts and comparisons as unsigned, the u64
    product wrapping; random inputs over the whole range."""
    mod = tile.compile(UNSIGNED)
    assert [p.type for p in mod.mix.params] == ["ptr<u32>", "ptr<u8>",
                                                 "ptr<u64>", "i32", "u32"]
    n = 21  # three programs of 8, the last partial
    x = rng.integers(0, 2**32, n, dtype=np.uint32)
    y = rng.integers(0, 256, n, dtype=np.uint8)
    k = int(rng.integers(2**31, 2**32))
    o = np.full(n + 1, 0xDEADBEEF, dtype=np.uint64)
    mod.mix.run_cpu(3, x, y, o, n, k)
    M32 = 2**32 - 1
    want = [((((int(a) // (int(b) + 1)) + (int(a) >> 1) + k) & M32) * 3 +
             (int(a) > k)) % 2**64 for a, b in zip(x, y)]
    assert o[:n].tolist() == want and int(o[n]) == 0xDEADBEEF
    # array.array of unsigned codes and the range of u32 scalars.
    xa = array.array("I", x.tolist())
    oa = array.array("Q", [0] * n)
    mod.mix.run_cpu(3, xa, y, oa, n, k)
    assert list(oa) == want
    with pytest.raises(ValueError, match="does not fit in u32"):
        mod.mix.run_cpu(3, x, y, o, n, -1)
    with pytest.raises(ValueError, match="does not fit in u32"):
        mod.mix.run_cpu(3, x, y, o, n, 2**32)
    with pytest.raises(TypeError, match="expected a uint32 array"):
        mod.mix.run_cpu(3, x.astype(np.int32), y, o, n, k)
