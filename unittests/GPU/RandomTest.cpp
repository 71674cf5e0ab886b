//===- RandomTest.cpp - randint, rand, randn on the GPU
//--------------------===//
//
// Philox 4x32-10 words at fresh random seeds and offsets (i32 and i64),
// against a host implementation: randint and rand bit for bit, randn to
// the accuracy of the approximate log and the f64 cos it uses.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include <array>
#include <cmath>
#include <cstring>

using namespace tile;

namespace {

const char *kSource = R"(
kernel random(ints: ptr<i32>, uniform: ptr<f32>, normal: ptr<f32>,
              seed: i64, base: i64, n: i32, const BLOCK: i32 = 256) {
  let i = program_id(0) * BLOCK + range(0, BLOCK);
  let m = i < n;
  let offs = base + cast(i, i64);
  store(ints + i, randint(seed, offs), m);
  store(uniform + i, rand(seed, offs), m);
  store(normal + i, randn(seed, offs), m);
}
)";

/// Philox 4x32 with 10 rounds.
std::array<uint32_t, 4> philox(std::array<uint32_t, 4> c, uint32_t k0,
                               uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(0xD2511F53) * c[0], p1 = uint64_t(0xCD9E8D57) * c[2];
    c = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1),
         uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
    k0 += 0x9E3779B9;
    k1 += 0xBB67AE85;
  }
  return c;
}

float uniform(uint32_t bits) {
  int32_t x = int32_t(bits);
  if (x < 0)
    x = -x - 1;
  return float(x) * 4.6566127342e-10f;
}

TEST_F(GPUTest, PhiloxRandomNumbers) {
  Module m = rt->compileSource(kSource, "random.tile");
  const int n = 50001;
  for (int trial = 0; trial < 2; ++trial) {
    int64_t seed = int64_t(rng()) << (trial ? 20 : 0);
    // The second trial crosses 2^32 within the offsets.
    int64_t base = trial ? (int64_t(1) << 32) - 777 : int64_t(rng() % 1000);
    Buffer ints = poisoned(n), uni = poisoned(n), normal = poisoned(n);
    m.kernel("random").launch({unsigned((n + 255) / 256)}, ints, uni, normal,
                              seed, base, int32_t(n));
    rt->synchronize();
    auto gotInts = downloadVector<int32_t>(ints, n);
    auto gotUniform = download(uni, n), gotNormal = download(normal, n);
    size_t wrong = 0;
    double worstNormal = 0;
    for (int i = 0; i < n; ++i) {
      uint64_t offset = uint64_t(base + i);
      auto words = philox({uint32_t(offset), uint32_t(offset >> 32), 0, 0},
                          uint32_t(seed), uint32_t(uint64_t(seed) >> 32));
      float u = uniform(words[0]);
      if (gotInts[i] != int32_t(words[0]) ||
          std::memcmp(&gotUniform[i], &u, 4) != 0) {
        if (wrong++ < 3)
          ADD_FAILURE() << "offset " << offset << ": randint " << gotInts[i]
                        << " (want " << int32_t(words[0]) << "), rand "
                        << gotUniform[i] << " (want " << u << ")";
      }
      double u1 = std::max(1e-7, double(u)), u2 = uniform(words[1]);
      double want = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
      worstNormal = std::max(worstNormal, std::fabs(gotNormal[i] - want));
    }
    EXPECT_EQ(wrong, 0u) << "seed " << seed << " base " << base;
    // log(u1) has lg2.approx's absolute error (about 1.1e-7 in ln units):
    // where u1 rounds near 1, r = sqrt(-2 log u1) is near 0 and off by up to
    // sqrt(2.2e-7) = 4.7e-4; elsewhere the error is below 1e-5.
    EXPECT_LT(worstNormal, 5e-4) << "seed " << seed;
    std::printf("seed %lld base %lld: randn worst abs error %g\n",
                (long long)seed, (long long)base, worstNormal);
  }
}

} // namespace

namespace {

/// examples/dropout.tile: the kept elements are exactly those whose Philox
/// uniform exceeds p (host reference), each x / (1 - p) against an fp64
/// reference within 1.5 ulp (the kernel multiplies by 1 / (1 - p), rounded
/// twice); the kept fraction is 1 - p within 4 standard
/// deviations; a second launch with the same seed gives the same output.
TEST_F(GPUTest, DropoutExample) {
  Module m = rt->compileFile(example("dropout.tile"));
  Kernel k = m.kernel("dropout");
  const int n = 1000003;
  const float p = 0.3f;
  int32_t seed = int32_t(rng() & 0x7fffffff);
  std::vector<float> x = random(n);
  Buffer dx = upload(x), out = poisoned(n + 1), again = poisoned(n);
  k.launch({unsigned((n + 1023) / 1024)}, dx, out, int32_t(n), p, seed);
  k.launch({unsigned((n + 1023) / 1024)}, dx, again, int32_t(n), p, seed);
  rt->synchronize();
  auto got = download(out, n + 1), got2 = download(again, n);
  size_t wrong = 0, kept = 0;
  for (int i = 0; i < n; ++i) {
    auto words = philox({uint32_t(i), 0, 0, 0}, uint32_t(seed), 0);
    bool keep = uniform(words[0]) > p;
    kept += keep;
    double want = keep ? double(x[i]) / (1.0 - double(p)) : 0.0;
    double ulp = std::ldexp(1.0, std::ilogb(want == 0 ? 1e-30 : want) - 23);
    bool ok = keep ? std::fabs(got[i] - want) <= 1.5 * ulp : got[i] == 0.0f;
    if (!ok && wrong++ < 3)
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", want "
                    << want;
  }
  EXPECT_EQ(wrong, 0u) << "seed " << seed;
  EXPECT_TRUE(std::isnan(got[n])) << "wrote past n";
  EXPECT_EQ(std::memcmp(got.data(), got2.data(), n * 4), 0)
      << "the same seed gave another mask";
  double fraction = double(kept) / n, sigma = std::sqrt(p * (1 - p) / n);
  EXPECT_NEAR(fraction, 1 - p, 4 * sigma);
}

} // namespace
