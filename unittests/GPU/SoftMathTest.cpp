//===- SoftMathTest.cpp - fmod and f64 exp/log on the GPU -----------------===//
//
// `%` on floats and f64 exp/exp2/log/log2 are built from integer and f64
// arithmetic (lib/Conversion/TileToGPU/SoftMath.cpp). Checked against the
// host's libm: the remainder bit for bit in f16, f32 and f64 (C's fmod is
// exact), the f64 functions within 2 ulp (exp2 of integers and log2 of
// powers of two exactly), over the whole exponent range, subnormals and the
// special values.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tile;

namespace {

const char *kSource = R"(
kernel math64(x: ptr<f64>, e: ptr<f64>, e2: ptr<f64>, l: ptr<f64>,
              l2: ptr<f64>, n: i32, const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  let v = load(x + offs, m);
  store(e + offs, exp(v), m);
  store(e2 + offs, exp2(v), m);
  store(l + offs, log(v), m);
  store(l2 + offs, log2(v), m);
}
kernel rem64(x: ptr<f64>, y: ptr<f64>, out: ptr<f64>, n: i32,
             const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  store(out + offs, load(x + offs, m) % load(y + offs, m), m);
}
kernel rem32(x: ptr<f32>, y: ptr<f32>, out: ptr<f32>, n: i32,
             const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  store(out + offs, load(x + offs, m) % load(y + offs, m), m);
}
kernel rem16(x: ptr<f16>, y: ptr<f16>, out: ptr<f16>, n: i32,
             const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  store(out + offs, load(x + offs, m) % load(y + offs, m), m);
}
)";

/// Distance in units in the last place between two doubles of one sign
/// (0 when both are NaN; huge when only one is).
double ulps(double got, double want) {
  if (std::isnan(got) || std::isnan(want))
    return std::isnan(got) && std::isnan(want) ? 0 : 1e300;
  if (got == want)
    return 0;
  if (std::isinf(got) || std::isinf(want))
    return 1e300;
  int64_t a, b;
  std::memcpy(&a, &got, 8);
  std::memcpy(&b, &want, 8);
  if ((a < 0) != (b < 0))
    return 1e300;
  return std::abs(double(a - b));
}

/// Doubles spread over the whole range: random significands at random
/// binary exponents in [lo, hi], both signs when `negative`.
std::vector<double> spread(std::mt19937 &rng, size_t n, int lo, int hi,
                           bool negative) {
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(lo, hi);
  std::vector<double> v(n);
  for (double &x : v) {
    x = std::ldexp(mantissa(rng), exponent(rng));
    if (negative && (rng() & 1))
      x = -x;
  }
  return v;
}

TEST_F(GPUTest, SoftMathF64) {
  Module m = rt->compileSource(kSource, "softmath.tile");
  Kernel k = m.kernel("math64");
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  // Values for exp (most in [-760, 720]) and for log (positive, every
  // exponent, subnormals), then the special values.
  std::vector<double> x;
  std::uniform_real_distribution<double> wide(-760, 720), near(-2, 2);
  for (int i = 0; i < 20000; ++i)
    x.push_back(i % 2 ? wide(rng) : near(rng));
  for (double v : spread(rng, 20000, -1074, 1023, false))
    x.push_back(v);
  for (int e = -1074; e <= 1023; ++e)
    x.push_back(std::ldexp(1.0, e));
  for (double v : {0.0,
                   -0.0,
                   1.0,
                   -1.0,
                   inf,
                   -inf,
                   nan,
                   709.782712893383,
                   709.7827128933841,
                   -745.13321910194,
                   -745.1332191019412,
                   -708.4,
                   1023.999,
                   1024.0,
                   -1074.0,
                   -1075.0,
                   -1076.0,
                   4.9406564584124654e-324,
                   2.2250738585072014e-308,
                   std::nextafter(1.0, 0.0),
                   std::nextafter(1.0, 2.0),
                   M_SQRT2,
                   M_SQRT1_2,
                   -3.0,
                   0.5})
    x.push_back(v);
  size_t n = x.size();
  Buffer dx = uploadVector(*rt, x);
  std::vector<Buffer> out;
  for (int i = 0; i < 4; ++i) {
    out.push_back(rt->alloc(n * 8));
    out.back().fill(0xFF);
  }
  k.launch({unsigned((n + 127) / 128)}, dx, out[0], out[1], out[2], out[3],
           int32_t(n));
  rt->synchronize();
  const char *names[] = {"exp", "exp2", "log", "log2"};
  double (*reference[])(double) = {std::exp, std::exp2, std::log, std::log2};
  for (int f = 0; f < 4; ++f) {
    auto got = downloadVector<double>(out[f], n);
    double worst = 0;
    size_t worstAt = 0, inexact = 0;
    for (size_t i = 0; i < n; ++i) {
      double want = reference[f](x[i]);
      double err = ulps(got[i], want);
      if (err > worst)
        worst = err, worstAt = i;
      // exp2 of an integer and log2 of a power of two are exact.
      bool exactCase = (f == 1 && x[i] == std::rint(x[i])) ||
                       (f == 3 && x[i] > 0 && std::isfinite(x[i]) &&
                        std::exp2(std::rint(std::log2(x[i]))) == x[i]);
      if (exactCase && err != 0)
        ++inexact;
    }
    EXPECT_LE(worst, 2.0) << names[f] << "(" << x[worstAt] << ") = "
                          << downloadVector<double>(out[f], n)[worstAt]
                          << ", libm " << reference[f](x[worstAt]);
    EXPECT_EQ(inexact, 0u) << names[f] << " of exact cases";
  }
}

TEST_F(GPUTest, SoftRemainder) {
  Module m = rt->compileSource(kSource, "softmath.tile");
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  // x and y over every exponent gap, plus zeros, subnormals and specials.
  std::vector<double> x = spread(rng, 30000, -1074, 1023, true);
  std::vector<double> y = spread(rng, 30000, -1074, 1023, true);
  std::vector<double> close = spread(rng, 10000, -30, 30, true);
  for (size_t i = 0; i + 1 < close.size(); i += 2) {
    x.push_back(close[i]);
    y.push_back(close[i + 1]);
  }
  double specials[] = {
      0.0,    -0.0, 1.0, -1.5, inf, -inf, nan, 3.0, 4.9406564584124654e-324,
      1e-310, 1e308};
  for (double a : specials)
    for (double b : specials) {
      x.push_back(a);
      y.push_back(b);
    }
  size_t n = x.size();
  auto check = [&](const char *kernel, auto zero, auto narrow) {
    using T = decltype(zero);
    std::vector<T> xs(n), ys(n);
    for (size_t i = 0; i < n; ++i) {
      xs[i] = narrow(x[i]);
      ys[i] = narrow(y[i]);
    }
    Buffer dx = uploadVector(*rt, xs), dy = uploadVector(*rt, ys);
    Buffer out = rt->alloc(n * sizeof(T) + sizeof(T));
    out.fill(0xFF);
    m.kernel(kernel).launch({unsigned((n + 127) / 128)}, dx, dy, out,
                            int32_t(n));
    rt->synchronize();
    auto got = downloadVector<T>(out, n + 1);
    size_t bad = 0, firstBad = n;
    for (size_t i = 0; i < n; ++i) {
      T want = T(std::fmod(double(xs[i]), double(ys[i])));
      bool same = std::memcmp(&got[i], &want, sizeof(T)) == 0 ||
                  (std::isnan(double(got[i])) && std::isnan(double(want)));
      if (!same && bad++ == 0)
        firstBad = i;
    }
    EXPECT_EQ(bad, 0u) << kernel << ": first at fmod(" << double(xs[firstBad])
                       << ", " << double(ys[firstBad])
                       << ") = " << double(got[firstBad < n ? firstBad : 0]);
    EXPECT_TRUE(std::isnan(double(got[n]))) << kernel << " wrote past the end";
  };
  check("rem64", 0.0, [](double v) { return v; });
  check("rem32", 0.0f, [](double v) { return float(v); });
  check("rem16", _Float16(0), [](double v) { return _Float16(v); });
}

} // namespace

namespace {

/// Found by tile-fuzz-programs: float-to-integer casts of NaN and of values
/// out of range (LLVM's fptosi is poison there) and float max/min
/// reductions over NaN (maxnum dropped it) must give what the language
/// defines and the interpreter computes.
TEST_F(GPUTest, SaturatingCastsAndNaNReductions) {
  const char *source = R"(
kernel k(x: ptr<f32>, h: ptr<f16>, i8out: ptr<i8>, i32out: ptr<i32>,
         i64out: ptr<i64>, rmax: ptr<f32>, rmin: ptr<f32>) {
  let r = range(0, 64);
  let v = load(x + r);
  store(i8out + r, cast(v, i8));
  store(i32out + r, cast(load(h + r), i32));
  store(i64out + r, cast(v, i64));
  store(rmax + program_id(0), max(v));
  store(rmin + program_id(0), min(v));
}
)";
  Module m = rt->compileSource(source, "casts.tile");
  constexpr float inf = std::numeric_limits<float>::infinity();
  constexpr float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = random(64, -1e3f, 1e3f);
  float specials[] = {nan, inf, -inf, 1e20f, -1e20f, 127.9f, -128.9f, 300.f};
  std::copy(std::begin(specials), std::end(specials), x.begin() + 5);
  std::vector<_Float16> h(64);
  for (int i = 0; i < 64; ++i)
    h[i] = _Float16(x[i] / 16);
  h[0] = _Float16(nan);
  h[1] = _Float16(65504.0f);
  Buffer dx = uploadVector(*rt, x), dh = uploadVector(*rt, h);
  Buffer o8 = poisoned(64), o32 = poisoned(64), o64 = poisoned(128),
         omax = poisoned(1), omin = poisoned(1);
  m.kernel("k").launch({1}, dx, dh, o8, o32, o64, omax, omin);
  rt->synchronize();
  auto saturate = [](double v, int bits) -> int64_t {
    if (std::isnan(v))
      return 0;
    double lo = -std::ldexp(1.0, bits - 1), hi = -lo - 1;
    return int64_t(std::max(lo, std::min(hi, std::trunc(v))));
  };
  auto g8 = downloadVector<int8_t>(o8, 64);
  auto g32 = downloadVector<int32_t>(o32, 64);
  auto g64 = downloadVector<int64_t>(o64, 64);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(g8[i], saturate(x[i], 8)) << "i8 of " << x[i];
    EXPECT_EQ(g32[i], saturate(double(h[i]), 32)) << "i32 of " << double(h[i]);
    EXPECT_EQ(g64[i], saturate(x[i], 64)) << "i64 of " << x[i];
  }
  EXPECT_TRUE(std::isnan(download(omax, 1)[0])) << "max over a NaN";
  EXPECT_TRUE(std::isnan(download(omin, 1)[0])) << "min over a NaN";
}

} // namespace
