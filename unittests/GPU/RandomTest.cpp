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
    // |randn| <= 5.7 (u1 >= 1e-7); log's relative 2^-22 and the f32 steps.
    EXPECT_LT(worstNormal, 2e-5) << "seed " << seed;
    std::printf("seed %lld base %lld: randn worst abs error %g\n",
                (long long)seed, (long long)base, worstNormal);
  }
}

} // namespace
