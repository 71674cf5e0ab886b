//===- GPUTest.cpp - the examples and the runtime on a real GPU -----------===//
//
// Label `gpu`. Every test skips (with the reason) where no driver or GPU is
// present. Inputs are fresh random numbers (the seed is printed), outputs are
// poisoned with NaN bytes before each launch, and every element is compared
// with a double-precision CPU reference.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include "tile/Driver/Driver.h"
#include "tile/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace tile;

namespace {

TEST_F(GPUTest, VectorAdd) {
  Module m = rt->compileFile(example("vector_add.tile"));
  Kernel k = m.kernel("vector_add");
  for (int64_t n :
       {int64_t(1), int64_t(1000), int64_t(1) << 20, (int64_t(1) << 26) + 3}) {
    if (smallOnly() && n > 5000)
      continue;
    auto x = random(n), y = random(n);
    Buffer dx = upload(x), dy = upload(y);
    // One extra element past the end must stay poisoned.
    Buffer out = poisoned(n + 1);
    k.launch({unsigned((n + 1023) / 1024)}, dx, dy, out, int32_t(n));
    rt->synchronize();
    auto got = download(out, n + 1);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i)
      if (got[i] != float(double(x[i]) + double(y[i])))
        ++bad;
    EXPECT_EQ(bad, 0) << "n=" << n;
    EXPECT_TRUE(std::isnan(got[n])) << "element past the end written, n=" << n;
  }
}

/// reshape, permute, join and split move elements exactly: 3-D permutes
/// of a reshaped block, join/split of f32 and of i1 tiles, in 1, 4 and 8
/// warps, over a length that is a multiple of no block (masked loads fill
/// the tail with known values), against host index arithmetic. The kernel
/// is test/Interpreter/Inputs/moves.tile (blocks of 8 x 16 x 4 here).
TEST_F(GPUTest, ShapeBuiltins) {
  const int A = 8, B = 16, C = 4, block = A * B * C;
  for (unsigned warps : {1u, 4u, 8u}) {
    ModuleOptions options;
    options.numWarps = warps;
    Module m = rt->compileFile(interpreterInput("moves.tile"), {}, options);
    const int n = 1000; // two blocks, the second partial
    auto x = random(n), y = random(n);
    Buffer dx = upload(x), dy = upload(y), out = poisoned(6 * n + 1);
    unsigned grid = (n + block - 1) / block;
    m.kernel("moves").launch({grid}, dx, dy, out, int32_t(n));
    rt->synchronize();
    auto got = download(out, 6 * n + 1);
    auto value = [&](const std::vector<float> &v, int i, float other) {
      return i < n ? v[i] : other;
    };
    std::vector<float> want(6 * n);
    for (int i = 0; i < n; ++i) {
      int blk = i / block * block, e = i % block;
      // Result [b][c][a] = source [a][b][c]: e = (b C + c) A + a.
      int pa = e % A, pb = e / A / C, pc = e / A % C;
      want[i] = value(x, blk + (pa * B + pb) * C + pc, -1.0f);
      want[3 * n + i] = value(x, blk + (e ^ 1), -1.0f);
    }
    for (int i = 0; i < 2 * n; ++i) {
      int blk = i / (2 * block) * block, e = i % (2 * block);
      float ai = value(x, blk + e / 2, -1.0f),
            bi = value(y, blk + e / 2, -2.0f);
      want[n + i] = e % 2 ? bi : ai;
      want[4 * n + i] = (e % 2 ? bi > ai : ai > 0.0f) ? 1.0f : 0.0f;
    }
    int bad = 0;
    for (int i = 0; i < 6 * n; ++i)
      if (!(got[i] == want[i]) && bad++ < 5)
        ADD_FAILURE() << "warps " << warps << ": o[" << i << "] = " << got[i]
                      << ", want " << want[i];
    EXPECT_EQ(bad, 0) << "warps " << warps;
    EXPECT_TRUE(std::isnan(got[6 * n])) << "element past the end written";
  }
}

/// while loops: per-element Collatz step counts (a loop over a tile until
/// every element reaches 1), a scalar loop carrying a tile, and a loop that
/// never runs, in 1, 4 and 8 warps over random starts and a length that
/// is a multiple of no block. test/Interpreter/Inputs/while.tile.
TEST_F(GPUTest, WhileLoops) {
  const int n = 1000;
  std::uniform_int_distribution<int32_t> start(0, 100000);
  std::vector<int32_t> x(n);
  for (int32_t &v : x)
    v = start(rng);
  std::vector<int32_t> wantSteps(n + 1, 5);
  for (int i = 0; i < n; ++i) {
    int64_t v = x[i];
    int32_t c = 0;
    for (; v > 1; ++c)
      v = v % 2 ? 3 * v + 1 : v / 2;
    wantSteps[i] = c;
  }
  double s = 1, scale = 1;
  for (; s < n; s *= 3)
    scale *= 2;
  for (unsigned warps : {1u, 4u, 8u}) {
    ModuleOptions options;
    options.numWarps = warps;
    Module m = rt->compileFile(interpreterInput("while.tile"), {}, options);
    Buffer dx = uploadVector(*rt, x), steps = rt->alloc((n + 2) * 4),
           acc = poisoned(n + 1);
    steps.fill(0xFF);
    m.kernel("collatz").launch({unsigned((n + 127) / 128)}, dx, steps, acc,
                               int32_t(n));
    rt->synchronize();
    auto gotSteps = downloadVector<int32_t>(steps, n + 2);
    auto gotAcc = download(acc, n + 1);
    int bad = 0;
    for (int i = 0; i <= n; ++i)
      if (gotSteps[i] != wantSteps[i] && bad++ < 5)
        ADD_FAILURE() << "warps " << warps << ": steps[" << i
                      << "] = " << gotSteps[i] << ", want " << wantSteps[i];
    for (int i = 0; i < n; ++i) {
      float want = float(double(i % 3) * scale + s);
      if (gotAcc[i] != want && bad++ < 5)
        ADD_FAILURE() << "warps " << warps << ": acc[" << i
                      << "] = " << gotAcc[i] << ", want " << want;
    }
    EXPECT_EQ(bad, 0) << "warps " << warps;
    EXPECT_EQ(gotSteps[n + 1], -1) << "element past the end written";
    EXPECT_TRUE(std::isnan(gotAcc[n])) << "element past the end written";
  }
}

/// A grid-stride loop, which carries nothing (its body's only argument is
/// the induction variable): with n divisible by 16 the runtime's
/// specialization lets its chunks move as 16-byte vectors (the axis
/// analysis knows the induction variable's divisibility), otherwise
/// element by element; a few programs each take many chunks, the last one
/// partial.
TEST_F(GPUTest, GridStrideLoops) {
  const char *source = R"(
kernel scale(x: ptr<f32>, y: ptr<f32>, n: i32, const BLOCK: i32 = 512) {
  let r = range(0, BLOCK);
  for start in range(program_id(0) * BLOCK, n, num_programs(0) * BLOCK) {
    let offs = start + r;
    store(y + offs, load(x + offs, offs < n) * 2.0, offs < n);
  }
}
)";
  Module m = rt->compileSource(source, "grid_stride.tile");
  Kernel k = m.kernel("scale");
  for (int64_t n : {int64_t(1000), int64_t(4112), (int64_t(1) << 20) + 48,
                    int64_t(100003)}) {
    if (smallOnly() && n > 5000)
      continue;
    auto x = random(n);
    Buffer dx = upload(x), out = poisoned(n + 1);
    k.launch({7}, dx, out, int32_t(n));
    rt->synchronize();
    auto got = download(out, n + 1);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i)
      if (got[i] != float(2.0 * double(x[i])) && bad++ < 5)
        ADD_FAILURE() << "n=" << n << ": y[" << i << "] = " << got[i]
                      << ", want " << 2.0 * double(x[i]);
    EXPECT_EQ(bad, 0) << "n=" << n;
    EXPECT_TRUE(std::isnan(got[n])) << "element past the end written, n=" << n;
  }
}

/// Loops whose loads tile-prefetch-loads issues an iteration ahead: a GEMV
/// over chunks of K (tile loads; K = 0 runs no iteration, K below and above
/// a chunk, not a multiple of one) and a weighted row sum whose per-chunk
/// weight is a scalar load and whose row pointers the loop advances, against
/// double-precision references; outputs poisoned past the end.
TEST_F(GPUTest, PrefetchedLoopLoads) {
  const char *source = R"(
kernel gemv(w: ptr<f32>, x: ptr<f32>, y: ptr<f32>, N: i32, K: i32,
            const BN: i32 = 16, const BK: i32 = 128) {
  let rn = program_id(0) * BN + range(0, BN);
  let rk0 = range(0, BK);
  var acc = zeros([BN, BK], f32);
  for start in range(0, K, BK) {
    let rk = start + rk0;
    let mask = (rn[:, None] < N) & (rk[None, :] < K);
    acc = acc + load(w + rn[:, None] * K + rk[None, :], mask, other: 0.0) *
                load(x + rk, rk < K, other: 0.0)[None, :];
  }
  store(y + rn, sum(acc, axis: 1), rn < N);
}
kernel weighted(x: ptr<f32>, cw: ptr<f32>, y: ptr<f32>, K: i32,
                const BK: i32 = 256) {
  let r = range(0, BK);
  var acc = 0.0;
  var p = x + program_id(0) * K + r;
  for c in range(0, cdiv(K, BK)) {
    let k = c * BK + r;
    acc = acc + load(cw + c) * sum(load(p, k < K, other: 0.0), axis: 0);
    p = p + BK;
  }
  store(y + program_id(0), acc);
}
)";
  Module m = rt->compileSource(source, "prefetched_loops.tile");
  Kernel gemv = m.kernel("gemv"), weighted = m.kernel("weighted");
  for (auto [n, k] : {std::pair<int64_t, int64_t>{33, 1000},
                      {5, 0},
                      {17, 100},
                      {100, 257},
                      {64, 4096}}) {
    auto w = random(size_t(n * k)), x = random(size_t(k));
    Buffer dw = upload(w.empty() ? random(1) : w),
           dx = upload(x.empty() ? random(1) : x), out = poisoned(n + 1);
    gemv.launch({unsigned((n + 15) / 16)}, dw, dx, out, int32_t(n), int32_t(k));
    rt->synchronize();
    auto got = download(out, n + 1);
    for (int64_t i = 0; i < n; ++i) {
      double want = 0, scale = 1;
      for (int64_t j = 0; j < k; ++j) {
        want += double(w[i * k + j]) * double(x[j]);
        scale += std::abs(double(w[i * k + j]) * double(x[j]));
      }
      EXPECT_NEAR(got[i], want, 1e-5 * scale)
          << "gemv N=" << n << " K=" << k << " row " << i;
    }
    EXPECT_TRUE(std::isnan(got[n])) << "gemv wrote past N=" << n;
  }
  for (int64_t k : {int64_t(1), int64_t(255), int64_t(256), int64_t(1000)}) {
    const int rows = 3;
    int64_t chunks = (k + 255) / 256;
    auto x = random(size_t(rows * k)), cw = random(size_t(chunks));
    Buffer dx = upload(x), dcw = upload(cw), out = poisoned(rows + 1);
    weighted.launch({rows}, dx, dcw, out, int32_t(k));
    rt->synchronize();
    auto got = download(out, rows + 1);
    for (int r = 0; r < rows; ++r) {
      double want = 0, scale = 1;
      for (int64_t j = 0; j < k; ++j) {
        want += double(cw[j / 256]) * double(x[r * k + j]);
        scale += std::abs(double(cw[j / 256]) * double(x[r * k + j]));
      }
      EXPECT_NEAR(got[r], want, 1e-5 * scale)
          << "weighted K=" << k << " row " << r;
    }
    EXPECT_TRUE(std::isnan(got[rows])) << "weighted wrote past its rows";
  }
}

/// Softmax rows against a double-precision reference.
void checkSoftmax(GPUTest *, Runtime &rt, Kernel &k, int rows, int cols,
                  std::mt19937 &rng, int blockOverride) {
  std::uniform_real_distribution<float> dist(-8, 8);
  int stride = cols;
  std::vector<float> in(size_t(rows) * stride);
  for (float &v : in)
    v = dist(rng);
  Buffer din = rt.alloc(in.size() * 4), out = rt.alloc(in.size() * 4 + 4);
  din.upload(in.data(), in.size() * 4);
  out.fill(0xFF);
  k.launch({unsigned(rows)}, out, din, int32_t(stride), int32_t(cols));
  rt.synchronize();
  std::vector<float> got(in.size() + 1);
  out.download(got.data(), got.size() * 4);
  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    const float *row = &in[size_t(r) * stride];
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, double(row[c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(row[c]) - mx);
    for (int c = 0; c < cols; ++c) {
      double want = std::exp(double(row[c]) - mx) / sum;
      double g = got[size_t(r) * stride + c];
      double err =
          std::isnan(g) ? INFINITY : std::abs(g - want) / std::max(want, 1e-30);
      worst = std::max(worst, err);
    }
  }
  EXPECT_LT(worst, 2e-5) << rows << "x" << cols << " BLOCK=" << blockOverride;
  EXPECT_TRUE(std::isnan(got[in.size()])) << "element past the end written";
}

TEST_F(GPUTest, Softmax) {
  struct Case {
    int rows, cols, block;
  } cases[] = {
      {1, 1, 1024}, {3, 781, 1024}, {8192, 1024, 1024}, {4096, 16384, 16384}};
  for (Case c : cases) {
    if (smallOnly())
      c.rows = std::min(c.rows, 4);
    Module m = rt->compileFile(example("softmax.tile"),
                               {{"BLOCK", std::to_string(c.block)}});
    Kernel k = m.kernel("softmax");
    checkSoftmax(this, *rt, k, c.rows, c.cols, rng, c.block);
  }
}

TEST_F(GPUTest, MatmulReluSmall) {
  // The FMA lowering of dot (tensor cores come with issue 4): f16 inputs,
  // f32 accumulation, f16 output; sizes off the block edges.
  for (int block : {32, 128}) {
    int bk = block == 32 ? 16 : 32;
    Module m = rt->compileFile(example("matmul_relu.tile"),
                               {{"BM", std::to_string(block)},
                                {"BN", std::to_string(block)},
                                {"BK", std::to_string(bk)}});
    Kernel k = m.kernel("matmul_relu");
    int M = 127, N = 129, K = 65;
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<uint16_t> a(M * K), b(K * N);
    std::vector<double> af(M * K), bf(K * N);
    auto toHalf = [](float f, double &back) {
      // Round through _Float16 for the reference's exact inputs.
      _Float16 h = static_cast<_Float16>(f);
      back = double(h);
      uint16_t bits;
      std::memcpy(&bits, &h, 2);
      return bits;
    };
    for (int i = 0; i < M * K; ++i)
      a[i] = toHalf(dist(rng), af[i]);
    for (int i = 0; i < K * N; ++i)
      b[i] = toHalf(dist(rng), bf[i]);
    Buffer da = rt->alloc(a.size() * 2), db = rt->alloc(b.size() * 2),
           dc = rt->alloc(size_t(M) * N * 2 + 2);
    da.upload(a.data(), a.size() * 2);
    db.upload(b.data(), b.size() * 2);
    dc.fill(0xFF);
    k.launch(
        {unsigned((M + block - 1) / block), unsigned((N + block - 1) / block)},
        da, db, dc, int32_t(M), int32_t(N), int32_t(K), int32_t(K), int32_t(N),
        int32_t(N));
    rt->synchronize();
    std::vector<_Float16> c(size_t(M) * N + 1);
    dc.download(c.data(), c.size() * 2);
    double worst = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double want = 0;
        for (int kk = 0; kk < K; ++kk)
          want += af[i * K + kk] * bf[kk * N + j];
        want = std::max(want, 0.0);
        double got = double(c[i * N + j]);
        worst = std::max(worst, std::isnan(got)
                                    ? INFINITY
                                    : std::abs(got - want) /
                                          std::max(1.0, std::abs(want)));
      }
    EXPECT_LT(worst, 1e-2) << "BM=BN=" << block;
    uint16_t tail;
    std::memcpy(&tail, &c[size_t(M) * N], 2);
    EXPECT_EQ(tail, 0xFFFF) << "element past the end written";
  }
}

/// FMA dots with A stored [k][m] and B stored [n][k] (TT), which
/// tile-accelerate-dot computes as Cᵀ = Bᵀ Aᵀ, in types and places the
/// matmul example does not have: f64 in a K loop accumulating onto a loaded
/// C (sizes off the blocks), and an f16 dot too narrow for tensor cores
/// (M = 8) outside any loop, written with trans().
TEST_F(GPUTest, FmaTransposedDots) {
  const char *f64Source = R"(
kernel tt64(a: ptr<f64>, b: ptr<f64>, c: ptr<f64>, M: i32, N: i32, K: i32,
            const BM: i32 = 64, const BN: i32 = 64, const BK: i32 = 16) {
  let rm = program_id(0) * BM + range(0, BM);
  let rn = program_id(1) * BN + range(0, BN);
  let rk = range(0, BK);
  let cmask = (rm[:, None] < M) & (rn[None, :] < N);
  var acc = load(c + rm[:, None] * N + rn[None, :], cmask, other: 0.0);
  for k in range(0, K, BK) {
    let ka = k + rk;
    let av = load(a + ka[None, :] * M + rm[:, None],
                  (rm[:, None] < M) & (ka[None, :] < K), other: 0.0);
    let bv = load(b + rn[None, :] * K + ka[:, None],
                  (ka[:, None] < K) & (rn[None, :] < N), other: 0.0);
    acc = dot(av, bv, acc);
  }
  store(c + rm[:, None] * N + rn[None, :], acc, cmask);
}
)";
  for (unsigned stages : {1u, 3u}) {
    ModuleOptions options;
    options.numStages = stages;
    Module module = rt->compileSource(f64Source, "fma_tt_f64", {}, options);
    const int M = 100, N = 70, K = 45;
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<double> a(size_t(K) * M), b(size_t(N) * K), c(size_t(M) * N);
    for (double &x : a)
      x = dist(rng);
    for (double &x : b)
      x = dist(rng);
    for (double &x : c)
      x = dist(rng);
    Buffer da = uploadVector(*rt, a), db = uploadVector(*rt, b),
           dc = uploadVector(*rt, c);
    module.kernel("tt64").launch({2, 2}, da, db, dc, int32_t(M), int32_t(N),
                                 int32_t(K));
    rt->synchronize();
    std::vector<double> got = downloadVector<double>(dc, c.size());
    double worst = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double want = c[size_t(i) * N + j];
        for (int kk = 0; kk < K; ++kk)
          want += a[size_t(kk) * M + i] * b[size_t(j) * K + kk];
        double g = got[size_t(i) * N + j];
        worst = std::max(worst, std::isnan(g) ? INFINITY : std::abs(g - want));
      }
    EXPECT_LT(worst, 1e-12) << "f64 TT, stages " << stages;
  }

  const char *f16Source = R"(
kernel tt16(a: ptr<f16>, b: ptr<f16>, c: ptr<f32>) {
  let r8 = range(0, 8);
  let r32 = range(0, 32);
  let at = load(a + r32[:, None] * 8 + r8[None, :]);
  let bt = load(b + r32[:, None] * 32 + r32[None, :]);
  store(c + r8[:, None] * 32 + r32[None, :],
        dot(trans(at), trans(bt), zeros([8, 32], f32)));
}
)";
  Module module = rt->compileSource(f16Source, "fma_tt_f16");
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<_Float16> a(32 * 8), b(32 * 32);
  for (_Float16 &x : a)
    x = static_cast<_Float16>(dist(rng));
  for (_Float16 &x : b)
    x = static_cast<_Float16>(dist(rng));
  Buffer da = uploadVector(*rt, a), db = uploadVector(*rt, b),
         dc = poisoned(8 * 32);
  module.kernel("tt16").launch({1}, da, db, dc);
  rt->synchronize();
  std::vector<float> got = download(dc, 8 * 32);
  double worst = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 32; ++j) {
      double want = 0;
      for (int kk = 0; kk < 32; ++kk)
        want += double(a[kk * 8 + i]) * double(b[j * 32 + kk]);
      double g = got[i * 32 + j];
      worst = std::max(worst, std::isnan(g) ? INFINITY : std::abs(g - want));
    }
  EXPECT_LT(worst, 1e-4) << "f16 TT outside loops";
}

TEST_F(GPUTest, PTXFromTilecRoundTrip) {
  // A PTX file as tilec writes it, with the signature line, loads and runs;
  // an unaligned pointer is refused because the PTX assumes alignment.
  Module m = rt->compileFile(example("vector_add.tile"));
  (void)m;
  std::string path =
      dirFromEnv("TILE_GPU_PTX_DIR", TILE_GPU_PTX_DIR) + "/vector_add.ptx";
  Module p = rt->loadPTXFile(path);
  Kernel k = p.kernel("vector_add");
  auto x = random(5000), y = random(5000);
  Buffer dx = upload(x), dy = upload(y), out = poisoned(5000);
  k.launch({5}, dx, dy, out, int32_t(5000));
  rt->synchronize();
  auto got = download(out, 5000);
  for (int i = 0; i < 5000; ++i)
    ASSERT_EQ(got[i], x[i] + y[i]) << i;
  DevicePtr unaligned{dx.ptr().address + 4};
  EXPECT_THROW(k.launch({1}, unaligned, dy, out, int32_t(10)), Error);
}

TEST_F(GPUTest, StrideSpecializedToOne) {
  // The same module launched with stride 1 (the variant compiled with the
  // constant, vector loads) and stride 3 (the general one): both right.
  const char *source =
      "kernel column(x: ptr<f32>, out: ptr<f32>, stride: i32) {\n"
      "  let r = range(0, 256);\n"
      "  store(out + r, load(x + r * stride));\n"
      "}\n";
  Module m = rt->compileSource(source, "column.tile");
  Kernel k = m.kernel("column");
  auto x = random(256 * 3);
  Buffer dx = upload(x);
  for (int32_t stride : {1, 3}) {
    Buffer out = poisoned(256);
    k.launch({1}, dx, out, stride);
    rt->synchronize();
    auto got = download(out, 256);
    for (int i = 0; i < 256; ++i)
      ASSERT_EQ(got[i], x[i * stride]) << "stride " << stride << " i " << i;
  }
  // PTX compiled for stride 1 refuses another stride.
  CompileOptions options;
  options.specialization.equalToOne = {"stride"};
  options.specialization.divisible = {"x", "out"};
  CompiledModule compiled;
  std::string errors;
  ASSERT_TRUE(compileToPTX(source, "column.tile", options, compiled, errors))
      << errors;
  Kernel fixed = rt->loadPTX(compiled.ptx, "column.ptx").kernel("column");
  Buffer out = poisoned(256);
  fixed.launch({1}, dx, out, int32_t(1));
  rt->synchronize();
  EXPECT_EQ(download(out, 256)[255], x[255]);
  try {
    fixed.launch({1}, dx, out, int32_t(3));
    ADD_FAILURE() << "stride 3 accepted by PTX compiled for 1";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("compiled for it being 1"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(GPUTest, DynamicSharedMemoryOver48KiB) {
  // A 128x128 f32 transpose goes through 64 KiB of shared memory: more than
  // a static allocation may have, so the launch opts in to dynamic shared
  // memory. Rows of 130 elements make the input and output strided.
  const char *source =
      "kernel transpose(x: ptr<f32>, out: ptr<f32>, ld: i32) {\n"
      "  let r = range(0, 128);\n"
      "  let t = load(x + r[:, None] * ld + r[None, :]);\n"
      "  store(out + r[:, None] * ld + r[None, :], trans(t));\n"
      "}\n";
  Kernel k = rt->compileSource(source, "transpose.tile").kernel("transpose");
  const int ld = 130;
  auto x = random(128 * ld);
  Buffer dx = upload(x), out = poisoned(128 * ld);
  k.launch({1}, dx, out, int32_t(ld));
  rt->synchronize();
  auto got = download(out, 128 * ld);
  for (int i = 0; i < 128; ++i)
    for (int j = 0; j < ld; ++j) {
      if (j < 128)
        ASSERT_EQ(got[i * ld + j], x[j * ld + i]) << i << "," << j;
      else
        ASSERT_TRUE(std::isnan(got[i * ld + j])) << "gap " << i << "," << j;
    }
}

/// The message of the Error `body` throws ("" if none).
template <typename F> std::string errorOf(F body) {
  try {
    body();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST_F(GPUTest, MisuseIsReportedClearly) {
  Module m = rt->compileFile(example("vector_add.tile"));
  Kernel k = m.kernel("vector_add");
  Buffer b = rt->alloc(64);
  EXPECT_NE(errorOf([&] {
              k.launch({1}, b, b, b);
            }).find("takes 4 arguments (x, y, out, n), got 3"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              k.launch({1}, b, b, b, 1.0f);
            }).find("argument 4 'n': expected i32, got f32"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              k.launch({1}, b, int32_t(3), b, int32_t(1));
            }).find("argument 2 'y': expected ptr<f32>, got i32"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              k.launch({0}, b, b, b, int32_t(1));
            }).find("outside the device's limits"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              k.launch({1, 70000}, b, b, b, int32_t(1));
            }).find("grid (1, 70000, 1)"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { m.kernel("nope"); }).find("no kernel 'nope'"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              rt->loadPTX("// tile.kernel k warps=4 shared=0\n"
                          ".version 8.0\n.target sm_90\nbogus;\n",
                          "bad.ptx");
            }).find("JIT log"),
            std::string::npos);
  // Shared memory beyond what a block can have (227 KiB on sm_90): refused
  // before any launch, with the numbers: from source by the compiler, from
  // PTX by the runtime.
  ModuleOptions wide;
  wide.numWarps = 32;
  Module big = rt->compileSource(
      "kernel transpose(x: ptr<f64>, out: ptr<f64>) {\n"
      "  let r = range(0, 256);\n"
      "  let c = range(0, 128);\n"
      "  let t = load(x + r[:, None] * 128 + c[None, :]);\n"
      "  store(out + c[:, None] * 256 + r[None, :], trans(t));\n"
      "}\n",
      "big.tile", {}, wide);
  EXPECT_NE(errorOf([&] { big.kernel("transpose").launch({1}, b, b); })
                .find("kernel needs 262144 bytes of shared memory, more than "
                      "the 232448"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              rt->loadPTX("// tile.kernel k warps=4 shared=300000\n"
                          ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k() { ret; }\n",
                          "huge.ptx");
            }).find("needs 300000 bytes of shared memory per block; the "
                    "device has"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              rt->compileSource("kernel k(x: i32) { let y = ; }",
                                "broken.tile");
            }).find("broken.tile:1:"),
            std::string::npos);
}

/// A kernel that prints its tile of x and asserts that each element is
/// below the limit.
constexpr const char *kDebugSource =
    "kernel dbg(x: ptr<f32>, n: i32, limit: f32, const B: i32 = 8) {\n"
    "  let offs = program_id(0) * B + range(0, B);\n"
    "  let v = load(x + offs, offs < n, other: 0.0);\n"
    "  print(\"v = \", v);\n"
    "  device_assert(v < limit, \"v below the limit\");\n"
    "}\n";

/// print on the GPU (vprintf): one line per element from its owner thread,
/// the same lines as the interpreter prints, in any order; a
/// device_assert that holds prints nothing. stdout is redirected to a file
/// around the launch (the driver prints the device's buffer at the sync).
TEST_F(GPUTest, DevicePrint) {
  Module m = rt->compileSource(kDebugSource, "debug.tile");
  const int n = 21, programs = 3;
  std::vector<float> x = random(n);
  Buffer xb = upload(x);
  std::fflush(stdout);
  char path[] = "/tmp/tile-print-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  int saved = dup(1);
  dup2(fd, 1);
  m.kernel("dbg").launch({programs}, xb, int32_t(n), 100.0f);
  rt->synchronize();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::remove(path);
  std::vector<std::string> expected;
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < 8; ++i) {
      int at = p * 8 + i;
      char line[128];
      std::snprintf(line, sizeof(line), "pid (%d, 0, 0) idx (%d) v = %.9g", p,
                    i, at < n ? double(x[at]) : 0.0);
      expected.push_back(line);
    }
  std::sort(lines.begin(), lines.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(lines, expected);
}

/// The child of DeviceAssertFailure (skipped unless that test started it):
/// launches the kernel with one element past the limit and prints the
/// runtime's error to stderr.
TEST_F(GPUTest, DeviceAssertChild) {
  if (!std::getenv("TILE_GPU_ASSERT_CHILD"))
    GTEST_SKIP() << "run by DeviceAssertFailure in a process of its own";
  Module m = rt->compileSource(kDebugSource, "debug.tile");
  std::vector<float> x = random(16);
  x[11] = 500;
  Buffer xb = upload(x);
  std::string error = errorOf([&] {
    m.kernel("dbg").launch({2}, xb, int32_t(16), 100.0f);
    rt->synchronize();
  });
  std::fprintf(stderr, "child error: %s\n", error.c_str());
  std::fflush(nullptr);
  // The CUDA context is unusable now: leave without tearing it down.
  std::_Exit(error.empty() ? 1 : 3);
}

/// A failing device_assert makes the launch fail with CUDA_ERROR_ASSERT,
/// which the runtime reports as such; the device prints the message, file
/// and line. The CUDA context is unusable afterwards, so the launch runs in
/// a child process (this binary again, running DeviceAssertChild).
TEST_F(GPUTest, DeviceAssertFailure) {
  char path[] = "/tmp/tile-assert-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::string command =
      "TILE_GPU_ASSERT_CHILD=1 /proc/" + std::to_string(getpid()) +
      "/exe --gtest_filter=GPUTest.DeviceAssertChild > " + path + " 2>&1";
  int status = std::system(command.c_str());
  std::string output = readText(path);
  std::remove(path);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 3) << output;
  EXPECT_NE(output.find("child error: "), std::string::npos) << output;
  EXPECT_NE(output.find("CUDA_ERROR_ASSERT"), std::string::npos) << output;
  EXPECT_NE(output.find("a device_assert failed"), std::string::npos) << output;
  // __assertfail's report: the message and the source file.
  EXPECT_NE(output.find("v below the limit"), std::string::npos) << output;
  EXPECT_NE(output.find("debug.tile"), std::string::npos) << output;
}

} // namespace
