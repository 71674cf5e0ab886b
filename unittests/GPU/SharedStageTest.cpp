//===- SharedStageTest.cpp - one pipeline stage read by several dots ------===//
//
// A K loop whose B tile feeds two dots, one per half of the program's rows
// (the shape of attention written with its query rows in two halves): the
// tile is staged once and each dot reads the stage (warpgroup MMAs through
// descriptors where each half is 64 rows per warpgroup, mma.sync fragments
// otherwise); with warpgroup MMAs the first dot's result is waited for only
// where it is first read, after the second dot's MMAs are issued
// (tile-defer-dot-waits). Against an fp64 reference of the f16 inputs, at
// sizes that are multiples of no block, with C poisoned.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include <cmath>
#include <cstring>

using namespace tile;

namespace {

const char *kHalvesSource = R"(
kernel halves(a: ptr<f16>, b: ptr<f16>, c: ptr<f32>, M: i32, N: i32, K: i32,
              const BM: i32 = 128, const BN: i32 = 64, const BK: i32 = 32) {
  let top = program_id(0) * BM + range(0, BM / 2);
  let bottom = top + BM / 2;
  let rn = program_id(1) * BN + range(0, BN);
  let rk0 = range(0, BK);
  var acc_top = zeros([BM / 2, BN], f32);
  var acc_bottom = zeros([BM / 2, BN], f32);
  for k in range(0, K, BK) {
    let rk = k + rk0;
    let bt = load(b + rk[:, None] * N + rn[None, :],
                  (rk[:, None] < K) & (rn[None, :] < N), other: 0.0);
    let at = load(a + top[:, None] * K + rk[None, :],
                  (top[:, None] < M) & (rk[None, :] < K), other: 0.0);
    let ab = load(a + bottom[:, None] * K + rk[None, :],
                  (bottom[:, None] < M) & (rk[None, :] < K), other: 0.0);
    acc_top = dot(at, bt, acc_top);
    acc_bottom = dot(ab, bt, acc_bottom);
  }
  store(c + top[:, None] * N + rn[None, :], acc_top,
        (top[:, None] < M) & (rn[None, :] < N));
  store(c + bottom[:, None] * N + rn[None, :], acc_bottom,
        (bottom[:, None] < M) & (rn[None, :] < N));
}
)";

class SharedStageTest : public GPUTest {};

uint16_t toHalf(float v, double &rounded) {
  _Float16 h = _Float16(v);
  rounded = double(h);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

TEST_F(SharedStageTest, TwoDotsReadOneStage) {
  const int m = 300, n = 136, k = 200;
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<double> a(size_t(m) * k), b(size_t(k) * n);
  auto make = [&](std::vector<double> &ref) {
    std::vector<uint16_t> bits(ref.size());
    for (size_t i = 0; i < ref.size(); ++i)
      bits[i] = toHalf(dist(rng), ref[i]);
    return uploadVector(*rt, bits);
  };
  Buffer da = make(a), db = make(b);
  std::vector<double> want(size_t(m) * n), magnitude(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int t = 0; t < k; ++t) {
        double term = a[size_t(i) * k + t] * b[size_t(t) * n + j];
        want[size_t(i) * n + j] += term;
        magnitude[size_t(i) * n + j] += std::abs(term);
      }
  struct Config {
    int bm;
    unsigned warps, stages;
    const char *arch;
  };
  // 128 rows on 4 warps and 256 on 8: halves of 64 rows per warpgroup
  // (warpgroup MMAs on sm_90a); 64 rows on 4 warps: halves of 32 rows
  // (mma.sync); sm_80's mma.sync path for the first as well.
  for (Config config :
       {Config{128, 4, 3, "sm_90a"}, Config{128, 4, 2, "sm_90a"},
        Config{256, 8, 3, "sm_90a"}, Config{64, 4, 3, "sm_90a"},
        Config{128, 4, 3, "sm_80"}}) {
    SCOPED_TRACE("BM " + std::to_string(config.bm) + ", " +
                 std::to_string(config.warps) + " warps, " +
                 std::to_string(config.stages) + " stages, " + config.arch);
    ModuleOptions options;
    options.arch = config.arch;
    options.numWarps = config.warps;
    options.numStages = config.stages;
    Module module =
        rt->compileSource(kHalvesSource, "halves.tile",
                          {{"BM", std::to_string(config.bm)}}, options);
    size_t count = size_t(m) * n;
    Buffer dc = poisoned(count + 1);
    module.kernel("halves").launch(
        Grid(unsigned((m + config.bm - 1) / config.bm),
             unsigned((n + 63) / 64)),
        da, db, dc, int32_t(m), int32_t(n), int32_t(k));
    rt->synchronize();
    std::vector<float> got = download(dc, count + 1);
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i)
      if (!(std::abs(got[i] - want[i]) <= 1e-3 * magnitude[i] + 1e-6) &&
          wrong++ < 3)
        ADD_FAILURE() << "(" << i / n << ", " << i % n << "): " << got[i]
                      << ", want " << want[i];
    EXPECT_EQ(wrong, 0u);
    EXPECT_TRUE(std::isnan(got[count])) << "written past C";
  }
}

} // namespace
