//===- IntegerTest.cpp - i8/i16 wrap-around on the GPU --------------------===//
//
// Found by tile-fuzz-programs: ptxas treats 16-bit signed PTX arithmetic as
// if it could not overflow, so `-x` of -32768 followed by `>>`, `abs`, a
// product leaving the range or a min reduction gave values no i16 can hold.
// The compiler computes i8/i16 arithmetic in 32 bits
// (lib/Target/PtxasWorkarounds.cpp); checked here against two's
// complement wrap-around computed on the host, on random inputs with the
// extreme values mixed in, at a size that is not a multiple of the block.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include <algorithm>
#include <climits>
#include <cstdint>

using namespace tile;

namespace {

const char *kSource = R"(
kernel wrap(a: ptr<i16>, b: ptr<i8>, o: ptr<i16>, red: ptr<i16>, n: i32,
            const BLOCK: i32 = 256) {
  let r = program_id(0) * BLOCK + range(0, BLOCK);
  let m = r < n;
  let x = load(a + r, m, 0);
  let y = load(b + r, m, 0);
  store(o + r * 5, (full([BLOCK], 0, i8) - y) >> (x & 7), m);
  store(o + r * 5 + 1, (-x) >> 1, m);
  store(o + r * 5 + 2, cdiv(99, abs(x) + 1), m);
  store(o + r * 5 + 3, (x * -2) >> 1, m);
  store(o + r * 5 + 4, cast((x << 8) < 0, i16), m);
  store(red + program_id(0), min(where(m, -x, 32767)));
}
)";

int16_t wrap16(int64_t v) { return int16_t(uint16_t(uint64_t(v))); }

TEST_F(GPUTest, NarrowIntegerWrapAround) {
  Module module = rt->compileSource(kSource, "wrap.tile");
  const int n = 1000, block = 256, programs = (n + block - 1) / block;
  std::uniform_int_distribution<int> dist16(-32768, 32767), dist8(-128, 127);
  std::vector<int16_t> x(n);
  std::vector<int8_t> y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = int16_t(dist16(rng));
    y[i] = int8_t(dist8(rng));
  }
  // The values whose negation, abs or doubling wraps, in every program.
  const int16_t extremes[] = {-32768, 32767, -32767, 16384, -16384, -1, 0, 128};
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < 8; ++i) {
      int at = std::min(n - 1, p * block + 17 * i + p);
      x[at] = extremes[i];
      y[at] = int8_t(i % 2 ? -128 : 127);
    }
  Buffer dx = uploadVector(*rt, x), dy = uploadVector(*rt, y);
  Buffer out = poisoned(n * 5 / 2 + 1), red = poisoned(programs);
  module.kernel("wrap").launch({unsigned(programs)}, dx, dy, out, red, n);
  rt->synchronize();

  std::vector<int16_t> got = downloadVector<int16_t>(out, n * 5);
  std::vector<int16_t> gotMin = downloadVector<int16_t>(red, programs);
  std::vector<int16_t> wantMin(programs, 32767);
  for (int i = 0; i < n; ++i) {
    int16_t v = x[i];
    int16_t negated = wrap16(-int64_t(v));
    int16_t divisor = wrap16((v < 0 ? int64_t(negated) : v) + 1);
    int16_t quotient = wrap16(99 / divisor);
    if (99 % divisor != 0 && divisor > 0)
      ++quotient;
    int16_t want[5] = {
        int16_t(int8_t(uint8_t(-int(y[i]))) >> (v & 7)),
        int16_t(negated >> 1),
        quotient,
        int16_t(wrap16(int64_t(v) * -2) >> 1),
        int16_t(wrap16(int64_t(uint16_t(v)) << 8) < 0),
    };
    for (int k = 0; k < 5; ++k)
      EXPECT_EQ(got[i * 5 + k], want[k])
          << "output " << k << " of x = " << v << ", y = " << int(y[i]);
    wantMin[i / block] = std::min(wantMin[i / block], negated);
  }
  for (int p = 0; p < programs; ++p)
    EXPECT_EQ(gotMin[p], wantMin[p]) << "min of -x in program " << p;
}

/// ptxas took abs.s32 to be non-negative, so that `abs(x) < 0` was false
/// for the minimum (seed 13084647: cdiv(-5, abs(x) + 1) gave 0, not 1).
TEST_F(GPUTest, AbsOfMinimum) {
  const char *source = R"(
kernel absmin(a: ptr<i32>, b: ptr<i64>, o: ptr<i32>, w: ptr<i64>, n: i32) {
  let r = program_id(0) * 128 + range(0, 128);
  let m = r < n;
  let x = load(a + r, m, 0);
  let y = load(b + r, m, 0);
  store(o + r * 2, cdiv(-5, abs(x) + 1), m);
  store(o + r * 2 + 1, cast(abs(x) < 0, i32), m);
  store(w + r, cast(abs(y) < 0, i64) + cast(abs(y) >> 62, i64), m);
}
)";
  Module module = rt->compileSource(source, "absmin.tile");
  const int n = 300;
  std::uniform_int_distribution<int32_t> dist32(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int64_t> dist64(INT64_MIN, INT64_MAX);
  std::vector<int32_t> x(n);
  std::vector<int64_t> y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = dist32(rng);
    y[i] = dist64(rng);
  }
  for (int i : {0, 5, 130, 299}) {
    x[i] = INT32_MIN;
    y[i] = INT64_MIN;
  }
  x[7] = INT32_MAX;
  x[8] = -1;
  Buffer dx = uploadVector(*rt, x), dy = uploadVector(*rt, y);
  Buffer out = poisoned(2 * n), wide = poisoned(2 * n);
  module.kernel("absmin").launch({3}, dx, dy, out, wide, n);
  rt->synchronize();
  std::vector<int32_t> got = downloadVector<int32_t>(out, 2 * n);
  std::vector<int64_t> gotWide = downloadVector<int64_t>(wide, n);
  for (int i = 0; i < n; ++i) {
    // Two's complement: abs of the minimum is the minimum.
    int32_t a = x[i] < 0 ? int32_t(0u - uint32_t(x[i])) : x[i];
    int32_t d = int32_t(uint32_t(a) + 1u);
    int32_t q = -5 / d + ((-5 % d != 0 && d < 0) ? 1 : 0);
    EXPECT_EQ(got[2 * i], q) << "cdiv(-5, abs(" << x[i] << ") + 1)";
    EXPECT_EQ(got[2 * i + 1], a < 0 ? 1 : 0) << "abs(" << x[i] << ") < 0";
    int64_t b = y[i] < 0 ? int64_t(0ull - uint64_t(y[i])) : y[i];
    EXPECT_EQ(gotWide[i], (b < 0 ? 1 : 0) + (b >> 62)) << "abs(" << y[i] << ")";
  }
}

} // namespace
