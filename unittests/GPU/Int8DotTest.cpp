//===- Int8DotTest.cpp - i8 dots with i32 sums on the GPU -----------------===//
//
// The strided i8 matmul the interpreter's lit test runs
// (test/Target/Inputs/matmul_strided_i8.tile: C = A @ B + C0) in every
// operand order, on tensor cores (wgmma m64nNk32 for K-major operands on
// sm_90a, mma.sync m16n8k32 otherwise) and on CUDA cores (BK below the
// instruction's k32), compared exactly with sums computed on the
// host: inputs over the whole i8 range, C0 near both ends of i32 so that
// sums wrap, sizes that are not multiples of the block, padded leading
// dimensions, and poison between and past C's rows. Then the int8 linear
// example (per-row and per-column scales, f16 out) against an fp64
// reference.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include <array>
#include <cmath>
#include <cstring>

using namespace tile;

namespace {

/// Two's complement wrap-around of `v` to 32 bits.
int32_t wrap32(int64_t v) { return int32_t(uint32_t(uint64_t(v))); }

struct Config {
  const char *bm, *bn, *bk;
  unsigned warps, stages;
  const char *arch; ///< "" for the device's (sm_90a on an H100)
};

class Int8DotTest : public GPUTest {
protected:
  /// Runs C = A @ B + C0 for M x N x K with A given K x M when `transA`
  /// and B given N x K when `transB`, rows padded by `pad` elements, and
  /// checks every element of C.
  void check(Module &module, unsigned bm, unsigned bn, int m, int n, int k,
             bool transA, bool transB, int pad) {
    SCOPED_TRACE("M=" + std::to_string(m) + " N=" + std::to_string(n) +
                 " K=" + std::to_string(k) + (transA ? " A^T" : "") +
                 (transB ? " B^T" : "") + " pad=" + std::to_string(pad));
    int lda = (transA ? m : k) + pad, ldb = (transB ? k : n) + pad;
    int ldc = n + pad;
    std::uniform_int_distribution<int> byte(-128, 127);
    std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
    // Within a few products of the ends: most sums there wrap.
    std::uniform_int_distribution<int32_t> near(0, 1 << 10);
    std::vector<int8_t> a(size_t(transA ? k : m) * lda, 0x55),
        b(size_t(transB ? n : k) * ldb, 0x55);
    for (int8_t &x : a)
      x = int8_t(byte(rng));
    for (int8_t &x : b)
      x = int8_t(byte(rng));
    std::vector<int32_t> c0(size_t(m) * ldc);
    for (size_t i = 0; i < c0.size(); ++i)
      c0[i] = i % 3 == 0   ? INT32_MAX - near(rng)
              : i % 3 == 1 ? INT32_MIN + near(rng)
                           : any(rng);
    Buffer da = uploadVector(*rt, a), db = uploadVector(*rt, b),
           dc0 = uploadVector(*rt, c0);
    size_t outElems = size_t(m) * ldc + 1; // one past the end
    Buffer dc = poisoned(outElems);
    int sam = transA ? 1 : lda, sak = transA ? lda : 1;
    int sbk = transB ? 1 : ldb, sbn = transB ? ldb : 1;
    module.kernel("matmul_i8")
        .launchArgs({unsigned(ceilDiv(m, bm)), unsigned(ceilDiv(n, bn))},
                    {da, db, dc0, dc, int32_t(m), int32_t(n), int32_t(k),
                     int32_t(sam), int32_t(sak), int32_t(sbk), int32_t(sbn),
                     int32_t(ldc)});
    rt->synchronize();
    std::vector<int32_t> got = downloadVector<int32_t>(dc, outElems);
    int bad = 0, wrapped = 0, padWritten = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < ldc; ++j) {
        int32_t value = got[size_t(i) * ldc + j];
        if (j >= n) {
          padWritten += value != -1;
          continue;
        }
        int64_t sum = c0[size_t(i) * ldc + j];
        for (int kk = 0; kk < k; ++kk)
          sum +=
              int64_t(a[transA ? size_t(kk) * lda + i : size_t(i) * lda + kk]) *
              b[transB ? size_t(j) * ldb + kk : size_t(kk) * ldb + j];
        int32_t want = wrap32(sum);
        wrapped += want != sum;
        if (value != want && ++bad <= 5)
          ADD_FAILURE() << "C[" << i << ", " << j << "] = " << value
                        << ", want " << want;
      }
    EXPECT_EQ(bad, 0) << "elements differ";
    EXPECT_GT(wrapped, 0) << "no sum wrapped: the test lost its edge";
    EXPECT_EQ(padWritten, 0) << "elements between rows of C were written";
    EXPECT_EQ(got[outElems - 1], -1) << "element past the end written";
  }

  unsigned ceilDiv(int a, unsigned b) { return (unsigned(a) + b - 1) / b; }

  /// `source` (named `name`) compiled with `cfg`'s blocks, warps, stages
  /// and arch.
  Module compile(const std::string &source, const std::string &name,
                 const Config &cfg) {
    ModuleOptions options;
    options.numWarps = cfg.warps;
    options.numStages = cfg.stages;
    options.arch = cfg.arch;
    return rt->compileSource(source, name,
                             {{"BM", cfg.bm}, {"BN", cfg.bn}, {"BK", cfg.bk}},
                             options);
  }
};

/// "BMxBNxBK W warps S stages ARCH", for traces.
std::string describe(const Config &cfg) {
  return std::string(cfg.bm) + "x" + cfg.bn + "x" + cfg.bk + " " +
         std::to_string(cfg.warps) + " warps " + std::to_string(cfg.stages) +
         " stages " + cfg.arch;
}

TEST_F(Int8DotTest, EveryOrderExact) {
  std::string source = readText(targetInput("matmul_strided_i8.tile"));
  ASSERT_FALSE(source.empty());
  // On sm_90a the K-major order (A row-major, B given N x K) runs on
  // warpgroup MMAs fed by the TMA, every other order on mma.sync.
  const Config configs[] = {
      {"128", "128", "64", 4, 3, ""},     // 64-byte swizzle
      {"128", "256", "64", 8, 3, ""},     // two warpgroups
      {"64", "128", "128", 4, 4, ""},     // 128-byte swizzle, MMAs in flight
      {"64", "64", "128", 4, 3, "sm_80"}, // mma.sync, 2 x 2 warps
      {"32", "32", "16", 4, 3, ""},       // BK below k32: CUDA cores
  };
  for (const Config &cfg : configs) {
    SCOPED_TRACE(describe(cfg));
    Module module = compile(source, "matmul_strided_i8.tile", cfg);
    unsigned bm = std::stoi(cfg.bm), bn = std::stoi(cfg.bn);
    for (bool transA : {false, true})
      for (bool transB : {false, true}) {
        check(module, bm, bn, 127, 129, 65, transA, transB, 0);
        check(module, bm, bn, 200, 136, 144, transA, transB, 16);
        check(module, bm, bn, 1, 64, 48, transA, transB, 3);
        if (!smallOnly() && &cfg == &configs[0])
          check(module, bm, bn, 1000, 520, 1000, transA, transB, 0);
      }
  }
}

/// The value of OCP e4m3 (FN) code `c` (finite codes only).
double decodeE4M3(uint8_t c) {
  int e = (c >> 3) & 15, m = c & 7;
  double v = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
  return c & 0x80 ? -v : v;
}

/// test/Target/Inputs/matmul_strided_f8.tile: C = A @ B of f8e4m3 tiles
/// with f32 sums in every operand order, on warpgroup MMAs (K-major, on
/// sm_90a), mma.sync m16n8k32 e4m3 (the other orders, and sm_90) and CUDA
/// cores on f16 copies (BK below k32); every finite code appears in the
/// inputs. The bound is f16's (1e-2 of sum |a b|): the hardware's f32 sums
/// of 8-bit products are not IEEE f32 additions.
TEST_F(Int8DotTest, Float8EveryOrder) {
  std::string source = readText(targetInput("matmul_strided_f8.tile"));
  ASSERT_FALSE(source.empty());
  const Config configs[] = {
      {"128", "128", "64", 4, 3, ""},
      {"64", "128", "128", 4, 4, ""},
      {"64", "64", "64", 4, 3, "sm_90"},
      {"32", "32", "16", 4, 3, ""},
  };
  for (const Config &cfg : configs) {
    SCOPED_TRACE(describe(cfg));
    Module module = compile(source, "matmul_strided_f8.tile", cfg);
    unsigned bm = std::stoi(cfg.bm), bn = std::stoi(cfg.bn);
    for (bool transA : {false, true})
      for (bool transB : {false, true})
        for (auto [m, n, k, pad] : {std::array<int, 4>{127, 129, 96, 0},
                                    std::array<int, 4>{200, 136, 520, 16},
                                    std::array<int, 4>{1, 64, 48, 3}}) {
          SCOPED_TRACE("M=" + std::to_string(m) + " N=" + std::to_string(n) +
                       " K=" + std::to_string(k) + (transA ? " A^T" : "") +
                       (transB ? " B^T" : ""));
          int lda = (transA ? m : k) + pad, ldb = (transB ? k : n) + pad;
          int ldc = n + pad;
          std::uniform_int_distribution<int> code(0, 253);
          auto finite = [&] {
            int c = code(rng);
            return uint8_t(c >= 0x7F ? c + 1 : c); // skip 0x7F and 0xFF
          };
          std::vector<uint8_t> a(size_t(transA ? k : m) * lda, 0x7F),
              b(size_t(transB ? n : k) * ldb, 0x7F);
          for (uint8_t &x : a)
            x = finite();
          for (uint8_t &x : b)
            x = finite();
          Buffer da = uploadVector(*rt, a), db = uploadVector(*rt, b);
          size_t outElems = size_t(m) * ldc + 1;
          Buffer dc = poisoned(outElems);
          int sam = transA ? 1 : lda, sak = transA ? lda : 1;
          int sbk = transB ? 1 : ldb, sbn = transB ? ldb : 1;
          module.kernel("matmul_f8")
              .launchArgs({ceilDiv(m, bm), ceilDiv(n, bn)},
                          {da, db, dc, int32_t(m), int32_t(n), int32_t(k),
                           int32_t(sam), int32_t(sak), int32_t(sbk),
                           int32_t(sbn), int32_t(ldc)});
          rt->synchronize();
          std::vector<float> got = download(dc, outElems);
          double worst = 0;
          int padWritten = 0;
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < ldc; ++j) {
              float value = got[size_t(i) * ldc + j];
              if (j >= n) {
                padWritten += !std::isnan(value);
                continue;
              }
              double sum = 0, magnitude = 0;
              for (int kk = 0; kk < k; ++kk) {
                double p = decodeE4M3(a[transA ? size_t(kk) * lda + i
                                               : size_t(i) * lda + kk]) *
                           decodeE4M3(b[transB ? size_t(j) * ldb + kk
                                               : size_t(kk) * ldb + j]);
                sum += p;
                magnitude += std::abs(p);
              }
              double err = std::isnan(value) ? INFINITY
                                             : std::abs(value - sum) /
                                                   std::max(magnitude, 1e-30);
              worst = std::max(worst, err);
            }
          EXPECT_LE(worst, 1e-2) << "worst error / sum |ab|";
          EXPECT_EQ(padWritten, 0) << "elements between rows of C written";
          EXPECT_TRUE(std::isnan(got[outElems - 1]))
              << "element past the end written";
        }
  }
}

/// examples/linear_int8.tile: Y = (X @ W^T) * xs[:, None] * ws[None, :] in
/// f16, against the exact sum scaled in fp64 (the f32 product of two scales
/// and the f16 store round: 2^-10 relative plus f16's smallest step).
TEST_F(Int8DotTest, LinearExample) {
  Module module = rt->compileFile(example("linear_int8.tile"));
  for (auto [m, n, k] :
       {std::array<int, 3>{1, 72, 80}, std::array<int, 3>{333, 257, 200},
        std::array<int, 3>{512, 768, 4096}}) {
    if (smallOnly() && m > 500)
      continue;
    SCOPED_TRACE("M=" + std::to_string(m) + " N=" + std::to_string(n) +
                 " K=" + std::to_string(k));
    std::uniform_int_distribution<int> byte(-128, 127);
    std::uniform_real_distribution<float> scale(1e-3f, 4e-3f);
    std::vector<int8_t> x(size_t(m) * k), w(size_t(n) * k);
    for (int8_t &v : x)
      v = int8_t(byte(rng));
    for (int8_t &v : w)
      v = int8_t(byte(rng));
    std::vector<float> xs(m), ws(n);
    for (float &s : xs)
      s = scale(rng);
    for (float &s : ws)
      s = scale(rng);
    Buffer dx = uploadVector(*rt, x), dw = uploadVector(*rt, w),
           dxs = uploadVector(*rt, xs), dws = uploadVector(*rt, ws);
    size_t outElems = size_t(m) * n + 1;
    Buffer dy = rt->alloc(outElems * 2);
    dy.fill(0xFF);
    module.kernel("linear_int8")
        .launchArgs({unsigned((m + 127) / 128 * ((n + 127) / 128))},
                    {dx, dw, dxs, dws, dy, int32_t(m), int32_t(n), int32_t(k),
                     int32_t(k), int32_t(k), int32_t(n)});
    rt->synchronize();
    std::vector<_Float16> got = downloadVector<_Float16>(dy, outElems);
    int bad = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        int64_t sum = 0;
        for (int kk = 0; kk < k; ++kk)
          sum += int64_t(x[size_t(i) * k + kk]) * w[size_t(j) * k + kk];
        double want = double(sum) * xs[i] * ws[j];
        double value = double(got[size_t(i) * n + j]);
        if (!(std::abs(value - want) <= std::abs(want) * 0x1p-10 + 0x1p-24) &&
            ++bad <= 5)
          ADD_FAILURE() << "Y[" << i << ", " << j << "] = " << value
                        << ", want " << want;
      }
    EXPECT_EQ(bad, 0) << "elements outside the bound";
    uint16_t past;
    std::memcpy(&past, &got[outElems - 1], 2);
    EXPECT_EQ(past, 0xFFFF) << "element past the end written";
  }
}

} // namespace
