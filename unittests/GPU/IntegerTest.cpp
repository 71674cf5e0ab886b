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

/// The model of unsigned_ops (test/Interpreter/Inputs/unsigned.tile) that
/// unsigned_model.py computes for the interpreter, for inputs x and y.
struct UnsignedModel {
  std::vector<uint32_t> o, red, top;
  std::vector<uint64_t> w;
  std::vector<float> f;

  UnsignedModel(const std::vector<uint32_t> &x, const std::vector<uint8_t> &y,
                int n, int block, uint32_t big)
      : o(8 * n + 1, ~0u), red(4 * ((n + block - 1) / block) + 1, ~0u),
        top(5, 0), w(n + 1, ~uint64_t(0)), f(n + 1, NAN) {
    int programs = (n + block - 1) / block;
    for (int p = 0; p < programs; ++p) {
      uint32_t mx = 0, mn = ~0u, arg = 0, sum = 0;
      for (int e = 0; e < block; ++e) {
        int r = p * block + e;
        bool m = r < n;
        uint32_t a = m ? x[r] * 2654435761u : 0;
        uint32_t b = m ? y[r] : 0;
        if (e == 0 || a > mx) { // argmax: the first largest
          mx = a;
          arg = e;
        }
        mn = std::min(mn, m ? a : big);
        sum += a;
        if (!m)
          continue;
        uint32_t b32 = b + 1;
        uint32_t *q = &o[8 * r];
        q[0] = a / b32;
        q[1] = a % b32;
        q[2] = a >> (b32 & 31);
        q[3] = (a > big) + (a >= b32) * 2 + (b > 200) * 4;
        q[4] = std::max(a, big) - std::min(a, b32 * 1000000u);
        q[5] = std::min(std::max(a, b32), big) +
               uint32_t((uint64_t(a) * big) >> 32);
        q[6] = (a / b32 + (a % b32 != 0)) * 3 - a;
        float scaled = float(a) * 0.75f;
        q[7] = uint32_t(scaled) ^ uint32_t(int32_t(b) - 100);
        w[r] = uint64_t(a) * a + (uint64_t(b) << 40) - (a >> 7);
        f[r] = float(a) + float(b) * 0.5f;
        top[r % 4] = std::max(top[r % 4], a);
      }
      uint32_t s = 0;
      for (uint32_t i = big % 7 + 3; i > 1; --i)
        s = s * 3 + i;
      for (uint32_t j = big - 3; j != big; ++j)
        s += j;
      red[4 * p] = mx;
      red[4 * p + 1] = mn;
      red[4 * p + 2] = arg;
      red[4 * p + 3] = s + sum;
    }
  }
};

/// Unsigned integers on the GPU (test/Interpreter/unsigned.test runs the
/// kernel on the interpreter): random u32 and u8 inputs, bounds on either
/// side of 2^31, 1 and 4 warps, a size that is a multiple of no block.
TEST_F(GPUTest, UnsignedIntegers) {
  const int n = 1000, block = 64, programs = (n + block - 1) / block;
  std::uniform_int_distribution<uint32_t> dist32;
  std::uniform_int_distribution<int> dist8(0, 255);
  std::vector<uint32_t> x(n);
  std::vector<uint8_t> y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = dist32(rng);
    y[i] = uint8_t(dist8(rng));
  }
  for (uint32_t big : {2147483650u, 1000u, 4294967295u}) {
    UnsignedModel want(x, y, n, block, big);
    for (unsigned warps : {1u, 4u}) {
      ModuleOptions options;
      options.numWarps = warps;
      Module m = rt->compileFile(interpreterInput("unsigned.tile"),
                                 {{"BLOCK", std::to_string(block)}}, options);
      Buffer dx = uploadVector(*rt, x), dy = uploadVector(*rt, y);
      Buffer o = rt->alloc(want.o.size() * 4), w = rt->alloc(want.w.size() * 8),
             f = poisoned(want.f.size()), red = rt->alloc(want.red.size() * 4),
             top = rt->alloc(want.top.size() * 4);
      for (Buffer *b : {&o, &w, &red})
        b->fill(0xFF);
      top.fill(0);
      m.kernel("unsigned_ops")
          .launch({unsigned(programs)}, dx, dy, o, w, f, red, top, n, big);
      rt->synchronize();
      std::string where = "big " + std::to_string(big) + ", warps " +
                          std::to_string(warps) + ": ";
      auto gotO = downloadVector<uint32_t>(o, want.o.size());
      auto gotW = downloadVector<uint64_t>(w, want.w.size());
      auto gotF = download(f, want.f.size());
      auto gotRed = downloadVector<uint32_t>(red, want.red.size());
      auto gotTop = downloadVector<uint32_t>(top, want.top.size());
      int bad = 0;
      for (size_t i = 0; i < want.o.size(); ++i)
        if (gotO[i] != want.o[i] && bad++ < 5)
          ADD_FAILURE() << where << "o[" << i << "] = " << gotO[i] << ", want "
                        << want.o[i] << " (element " << i / 8 << ")";
      for (size_t i = 0; i < want.w.size(); ++i)
        if (gotW[i] != want.w[i] && bad++ < 5)
          ADD_FAILURE() << where << "w[" << i << "] = " << gotW[i] << ", want "
                        << want.w[i];
      for (int i = 0; i < n; ++i)
        if (gotF[i] != want.f[i] && bad++ < 5)
          ADD_FAILURE() << where << "f[" << i << "] = " << gotF[i] << ", want "
                        << want.f[i];
      for (size_t i = 0; i < want.red.size(); ++i)
        if (gotRed[i] != want.red[i] && bad++ < 5)
          ADD_FAILURE() << where << "red[" << i << "] = " << gotRed[i]
                        << ", want " << want.red[i];
      for (size_t i = 0; i < want.top.size(); ++i)
        if (gotTop[i] != want.top[i] && bad++ < 5)
          ADD_FAILURE() << where << "top[" << i << "] = " << gotTop[i]
                        << ", want " << want.top[i];
      EXPECT_TRUE(std::isnan(gotF[n])) << where << "f past the end written";
      EXPECT_EQ(bad, 0) << where;
    }
  }
}

} // namespace
