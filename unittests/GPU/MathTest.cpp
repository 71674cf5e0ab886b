//===- MathTest.cpp - the math builtins on the GPU against libm -----------===//
//
// erf, tanh, sin, cos, sigmoid, pow, floor, ceil, fma, clamp, isnan and isinf
// in f32, f64, f16 and bf16 on fresh random inputs and the special values,
// each against the host's f64 libm with the bound docs/language.md states
// (in units in the last place of the result type, at the exact value).
// floor, ceil, fma, clamp and the predicates are exact.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace tile;

namespace {

const char *kSource = R"(
kernel unary32(x: ptr<f32>, e: ptr<f32>, t: ptr<f32>, s: ptr<f32>,
               c: ptr<f32>, g: ptr<f32>, ex: ptr<f32>, fl: ptr<f32>,
               ce: ptr<f32>, n: i32, const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  let v = load(x + offs, m);
  store(e + offs, erf(v), m);
  store(t + offs, tanh(v), m);
  store(s + offs, sin(v), m);
  store(c + offs, cos(v), m);
  store(g + offs, sigmoid(v), m);
  store(ex + offs, exp(v), m);
  store(fl + offs, floor(v), m);
  store(ce + offs, ceil(v), m);
}
kernel unary64(x: ptr<f64>, t: ptr<f64>, s: ptr<f64>, c: ptr<f64>,
               g: ptr<f64>, fl: ptr<f64>, ce: ptr<f64>, n: i32,
               const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  let v = load(x + offs, m);
  store(t + offs, tanh(v), m);
  store(s + offs, sin(v), m);
  store(c + offs, cos(v), m);
  store(g + offs, sigmoid(v), m);
  store(fl + offs, floor(v), m);
  store(ce + offs, ceil(v), m);
}
kernel binary32(x: ptr<f32>, y: ptr<f32>, z: ptr<f32>, pw: ptr<f32>,
                f: ptr<f32>, cl: ptr<f32>, flags: ptr<i32>, n: i32,
                const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  let a = load(x + offs, m);
  let b = load(y + offs, m);
  let c = load(z + offs, m);
  store(pw + offs, pow(a, b), m);
  store(f + offs, fma(a, b, c), m);
  store(cl + offs, clamp(a, b, c), m);
  store(flags + offs, cast(isnan(a), i32) * 2 + cast(isinf(a), i32), m);
}
kernel fma64(x: ptr<f64>, y: ptr<f64>, z: ptr<f64>, f: ptr<f64>, n: i32,
             const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  store(f + offs, fma(load(x + offs, m), load(y + offs, m), load(z + offs, m)),
        m);
}
)";

/// Instantiated for f16 and bf16 (T replaced).
const char *kHalfSource = R"(
kernel unary16(x: ptr<T>, e: ptr<T>, t: ptr<T>, s: ptr<T>, c: ptr<T>,
               g: ptr<T>, p: ptr<T>, n: i32, const BLOCK: i32 = 128) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  let v = load(x + offs, m);
  store(e + offs, erf(v), m);
  store(t + offs, tanh(v), m);
  store(s + offs, sin(v), m);
  store(c + offs, cos(v), m);
  store(g + offs, sigmoid(v), m);
  store(p + offs, pow(abs(v), v), m);
}
)";

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A floating-point format: significand bits after the point, least normal
/// exponent.
struct Format {
  int mantissa;
  int minExponent;
};
constexpr Format kF64{52, -1022}, kF32{23, -126}, kF16{10, -14}, kBF16{7, -126};

/// |got - want| in units in the last place of `want` in format `f` (0 for
/// two NaNs or equal values, huge for one NaN or a wrong infinity).
double ulps(double got, double want, Format f) {
  if (std::isnan(got) || std::isnan(want))
    return std::isnan(got) && std::isnan(want) ? 0 : 1e300;
  if (got == want)
    return 0;
  if (std::isinf(got) || std::isinf(want))
    return 1e300;
  int exponent =
      want == 0 ? f.minExponent : std::max(std::ilogb(want), f.minExponent);
  return std::fabs(got - want) / std::ldexp(1.0, exponent - f.mantissa);
}

/// bf16 <-> float by the bits (round to nearest even; NaN stays NaN).
uint16_t toBF16(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  if (std::isnan(v))
    return 0x7fc0;
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}
float fromBF16(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

/// The worst error of `got` against `reference` of `x` and where.
struct Worst {
  double maxUlps = 0;
  double at = 0, got = 0, want = 0;
  void add(double x, double g, double w, Format f) {
    double e = ulps(g, w, f);
    if (e > maxUlps) {
      maxUlps = e;
      at = x, got = g, want = w;
    }
  }
};

std::ostream &operator<<(std::ostream &os, const Worst &w) {
  return os << w.maxUlps << " ulp at x = " << w.at << ": got " << w.got
            << ", want " << w.want;
}

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// f32 inputs: uniform over several ranges, tiny and huge magnitudes, and
/// the special values.
std::vector<float> mathInputs(std::mt19937 &rng) {
  std::vector<float> x;
  auto uniform = [&](float lo, float hi, int n) {
    std::uniform_real_distribution<float> d(lo, hi);
    for (int i = 0; i < n; ++i)
      x.push_back(d(rng));
  };
  uniform(-1, 1, 20000);
  uniform(-6, 6, 20000);
  uniform(-30, 30, 10000);
  uniform(-1e5f, 1e5f, 5000);
  std::uniform_int_distribution<int> exponent(-149, 20);
  for (int i = 0; i < 5000; ++i)
    x.push_back(std::ldexp(i % 2 ? 1.0f : -1.0f, exponent(rng)) *
                std::uniform_real_distribution<float>(1, 2)(rng));
  // Near the zeros of sin and cos, where the reduction matters most.
  for (int k = -2000; k <= 2000; k += 7)
    x.push_back(float(k * M_PI_2));
  for (float v : {0.0f, -0.0f, 1.0f, -1.0f, 0.6f, -0.6f, 4.0f, 3.99f, 0.5f,
                  1e-30f, 1e-45f, 88.0f, -88.0f, 100.0f, -104.0f,
                  std::numeric_limits<float>::max(), float(kInf), -float(kInf),
                  float(kNaN)})
    x.push_back(v);
  return x;
}

TEST_F(GPUTest, MathF32) {
  Module m = rt->compileSource(kSource, "math.tile");
  std::vector<float> x = mathInputs(rng);
  size_t n = x.size();
  Buffer dx = upload(x);
  std::vector<Buffer> out;
  for (int i = 0; i < 8; ++i)
    out.push_back(poisoned(n + 1));
  m.kernel("unary32").launch({unsigned((n + 127) / 128)}, dx, out[0], out[1],
                             out[2], out[3], out[4], out[5], out[6], out[7],
                             int32_t(n));
  rt->synchronize();
  const char *names[] = {"erf", "tanh", "sin", "cos", "sigmoid", "exp"};
  std::function<double(double)> reference[] = {
      [](double v) { return std::erf(v); },
      [](double v) { return std::tanh(v); },
      [](double v) { return std::sin(v); },
      [](double v) { return std::cos(v); },
      sigmoid,
      [](double v) { return std::exp(v); }};
  // sin and cos over |x| <= 2^20. exp (and sigmoid through it) on
  // ex2.approx, which flushes subnormal results: checked where the result
  // is normal. sigmoid = 1 / (1 + exp(-x)) adds two roundings to exp's
  // error (about 1 in 80 runs measured 4.1 ulp near x = -16.6, where the
  // result is exp(x)).
  double bounds[] = {2, 2, 1, 1, 5, 4};
  for (int f = 0; f < 6; ++f) {
    auto got = download(out[f], n + 1);
    Worst worst;
    for (size_t i = 0; i < n; ++i) {
      bool inRange =
          f < 2 || (f < 4 ? std::fabs(x[i]) <= 0x1p20f : std::fabs(x[i]) <= 87);
      if (inRange || !std::isfinite(x[i]))
        worst.add(x[i], got[i], reference[f](x[i]), kF32);
    }
    std::printf("f32 %s: %g ulp\n", names[f], worst.maxUlps);
    EXPECT_LE(worst.maxUlps, bounds[f]) << names[f] << ": " << worst;
    EXPECT_TRUE(std::isnan(got[n])) << names[f] << " wrote past the end";
  }
  auto fl = download(out[6], n), ce = download(out[7], n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(ulps(fl[i], std::floor(x[i]), kF32), 0) << "floor " << x[i];
    EXPECT_EQ(ulps(ce[i], std::ceil(x[i]), kF32), 0) << "ceil " << x[i];
  }
}

TEST_F(GPUTest, MathF64) {
  Module m = rt->compileSource(kSource, "math.tile");
  std::vector<double> x;
  for (float v : mathInputs(rng))
    x.push_back(v);
  std::uniform_real_distribution<double> d(-4, 4);
  for (int i = 0; i < 20000; ++i)
    x.push_back(d(rng));
  size_t n = x.size();
  Buffer dx = uploadVector(*rt, x);
  std::vector<Buffer> out;
  for (int i = 0; i < 6; ++i) {
    out.push_back(rt->alloc(n * 8));
    out.back().fill(0xFF);
  }
  m.kernel("unary64").launch({unsigned((n + 127) / 128)}, dx, out[0], out[1],
                             out[2], out[3], out[4], out[5], int32_t(n));
  rt->synchronize();
  const char *names[] = {"tanh", "sin", "cos", "sigmoid"};
  std::function<double(double)> reference[] = {
      [](double v) { return std::tanh(v); },
      [](double v) { return std::sin(v); },
      [](double v) { return std::cos(v); }, sigmoid};
  double bounds[] = {2, 2, 2, 4};
  for (int f = 0; f < 4; ++f) {
    auto got = downloadVector<double>(out[f], n);
    Worst worst;
    for (size_t i = 0; i < n; ++i)
      if (f == 0 || f == 3 || std::fabs(x[i]) <= 0x1p20 || !std::isfinite(x[i]))
        worst.add(x[i], got[i], reference[f](x[i]), kF64);
    std::printf("f64 %s: %g ulp\n", names[f], worst.maxUlps);
    EXPECT_LE(worst.maxUlps, bounds[f]) << names[f] << ": " << worst;
  }
  auto fl = downloadVector<double>(out[4], n),
       ce = downloadVector<double>(out[5], n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(ulps(fl[i], std::floor(x[i]), kF64), 0) << "floor " << x[i];
    EXPECT_EQ(ulps(ce[i], std::ceil(x[i]), kF64), 0) << "ceil " << x[i];
  }
}

/// f16 and bf16: computed in f32 (or f64) and rounded once, so within one
/// ulp of the correctly rounded result (the f32 result can sit across a
/// rounding boundary).
TEST_F(GPUTest, MathHalf) {
  std::vector<float> x = random(20000, -6, 6);
  for (float v : {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.99f, 4.0f, 100.0f,
                  float(kInf), -float(kInf), float(kNaN)})
    x.push_back(v);
  size_t n = x.size();
  std::function<double(double)> reference[] = {
      [](double v) { return std::erf(v); },
      [](double v) { return std::tanh(v); },
      [](double v) { return std::sin(v); },
      [](double v) { return std::cos(v); },
      sigmoid,
      [](double v) { return std::pow(std::fabs(v), v); }};
  const char *names[] = {"erf", "tanh", "sin", "cos", "sigmoid", "pow"};
  for (bool bf16 : {false, true}) {
    std::string source = kHalfSource;
    for (size_t at; (at = source.find("ptr<T>")) != std::string::npos;)
      source.replace(at, 6, bf16 ? "ptr<bf16>" : "ptr<f16>");
    Module m =
        rt->compileSource(source, bf16 ? "math_bf16.tile" : "math_f16.tile");
    std::vector<uint16_t> bits(n);
    std::vector<double> values(n);
    for (size_t i = 0; i < n; ++i) {
      if (bf16) {
        bits[i] = toBF16(x[i]);
        values[i] = fromBF16(bits[i]);
      } else {
        _Float16 h = _Float16(x[i]);
        std::memcpy(&bits[i], &h, 2);
        values[i] = double(h);
      }
    }
    Buffer dx = uploadVector(*rt, bits);
    std::vector<Buffer> out;
    for (int i = 0; i < 6; ++i) {
      out.push_back(rt->alloc(n * 2));
      out.back().fill(0xFF);
    }
    m.kernel("unary16").launch({unsigned((n + 127) / 128)}, dx, out[0], out[1],
                               out[2], out[3], out[4], out[5], int32_t(n));
    rt->synchronize();
    for (int f = 0; f < 6; ++f) {
      auto got = downloadVector<uint16_t>(out[f], n);
      Worst worst;
      for (size_t i = 0; i < n; ++i) {
        double g;
        if (bf16) {
          g = fromBF16(got[i]);
        } else {
          _Float16 h;
          std::memcpy(&h, &got[i], 2);
          g = double(h);
        }
        // Against the reference rounded to the type (which may overflow).
        double want = reference[f](values[i]);
        want = bf16 ? double(fromBF16(toBF16(float(want))))
                    : double(_Float16(want));
        worst.add(values[i], g, want, bf16 ? kBF16 : kF16);
      }
      std::printf("%s %s: %g ulp\n", bf16 ? "bf16" : "f16", names[f],
                  worst.maxUlps);
      EXPECT_LE(worst.maxUlps, 1.0)
          << (bf16 ? "bf16 " : "f16 ") << names[f] << ": " << worst;
    }
  }
}

TEST_F(GPUTest, PowFmaClampPredicates) {
  Module m = rt->compileSource(kSource, "math.tile");
  std::vector<float> x = random(30000, 0, 10), y = random(30000, -12, 12),
                     z = random(30000, -5, 5);
  // Negative bases with integer exponents (odd and even) and without.
  for (int i = 0; i < 5000; ++i) {
    x.push_back(-std::uniform_real_distribution<float>(0.1f, 8)(rng));
    y.push_back(float(int(rng() % 41) - 20) + (i % 5 == 0 ? 0.5f : 0.0f));
    z.push_back(1.0f);
  }
  // C's special cases of pow, every pair.
  float specials[] = {0.0f,   -0.0f, 1.0f,        -1.0f,        0.5f,
                      -0.5f,  2.0f,  -2.0f,       3.0f,         -3.0f,
                      2.5f,   -2.5f, float(kInf), -float(kInf), float(kNaN),
                      1e-40f, 1e30f};
  for (float a : specials)
    for (float b : specials) {
      x.push_back(a);
      y.push_back(b);
      z.push_back(-b);
    }
  size_t n = x.size();
  Buffer dx = upload(x), dy = upload(y), dz = upload(z);
  Buffer pw = poisoned(n), f = poisoned(n), cl = poisoned(n),
         flags = poisoned(n);
  m.kernel("binary32")
      .launch({unsigned((n + 127) / 128)}, dx, dy, dz, pw, f, cl, flags,
              int32_t(n));
  rt->synchronize();
  auto gotPow = download(pw, n), gotFma = download(f, n),
       gotClamp = download(cl, n);
  auto gotFlags = downloadVector<int32_t>(flags, n);
  Worst worst;
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    double want = std::pow(double(x[i]), double(y[i]));
    worst.add(x[i] * 1000 + y[i], gotPow[i], float(want), kF32);
    float fma = std::fmaf(x[i], y[i], z[i]);
    // clamp = minimum(maximum(x, lo), hi), NaN from any operand.
    float clamp = std::isnan(x[i]) || std::isnan(y[i]) || std::isnan(z[i])
                      ? float(kNaN)
                      : std::min(std::max(x[i], y[i]), z[i]);
    int flag = std::isnan(x[i]) * 2 + std::isinf(x[i]);
    if (ulps(gotFma[i], fma, kF32) != 0 ||
        ulps(gotClamp[i], clamp, kF32) != 0 || gotFlags[i] != flag) {
      if (wrong++ < 5)
        ADD_FAILURE() << "x " << x[i] << " y " << y[i] << " z " << z[i]
                      << ": fma " << gotFma[i] << " (want " << fma
                      << "), clamp " << gotClamp[i] << " (want " << clamp
                      << "), flags " << gotFlags[i] << " (want " << flag << ")";
    }
  }
  // Reported as 1000 x + y: the rounded libm result is the reference.
  std::printf("f32 pow: %g ulp from libm rounded to f32\n", worst.maxUlps);
  EXPECT_LE(worst.maxUlps, 1.0) << "pow: " << worst;
  EXPECT_EQ(wrong, 0u);

  // f64 fma rounds once.
  std::vector<double> a(n), b(n), c(n);
  std::uniform_real_distribution<double> d(-1e3, 1e3);
  for (size_t i = 0; i < n; ++i)
    a[i] = d(rng), b[i] = d(rng), c[i] = -a[i] * b[i] + d(rng) * 1e-12;
  Buffer da = uploadVector(*rt, a), db = uploadVector(*rt, b),
         dc = uploadVector(*rt, c), dout = rt->alloc(n * 8);
  dout.fill(0xFF);
  m.kernel("fma64").launch({unsigned((n + 127) / 128)}, da, db, dc, dout,
                           int32_t(n));
  rt->synchronize();
  auto got64 = downloadVector<double>(dout, n);
  size_t wrong64 = 0;
  for (size_t i = 0; i < n; ++i)
    wrong64 += got64[i] != std::fma(a[i], b[i], c[i]);
  EXPECT_EQ(wrong64, 0u);
}

} // namespace

namespace {

/// prod over rows of n = 1000 (masked, padded with 1): f32 against an fp64
/// product (the GPU multiplies in a tree, the host in order: 1e-4 relative
/// for 1000 roundings), i32 bit for bit (wrapping multiplication gives the
/// same word in any order).
TEST_F(GPUTest, ProductReduction) {
  const char *source = R"(
kernel products(x: ptr<f32>, k: ptr<i32>, fout: ptr<f32>, iout: ptr<i32>,
                n: i32) {
  let offs = range(0, 1024);
  let m = offs < n;
  let row = program_id(0) * n;
  store(fout + program_id(0), prod(load(x + row + offs, m, 1.0)));
  store(iout + program_id(0), prod(load(k + row + offs, m, 1)));
}
)";
  Module m = rt->compileSource(source, "products.tile");
  const int rows = 37, n = 1000;
  std::vector<float> x = random(size_t(rows) * n, 0.99f, 1.01f);
  std::vector<int32_t> k(size_t(rows) * n);
  for (int32_t &v : k)
    v = int32_t(rng() % 11) - 5;
  Buffer dx = upload(x), dk = uploadVector(*rt, k), fout = poisoned(rows),
         iout = poisoned(rows);
  m.kernel("products").launch({unsigned(rows)}, dx, dk, fout, iout,
                              int32_t(n));
  rt->synchronize();
  auto gotF = download(fout, rows);
  auto gotI = downloadVector<int32_t>(iout, rows);
  for (int r = 0; r < rows; ++r) {
    double want = 1;
    uint32_t wantI = 1;
    for (int i = 0; i < n; ++i) {
      want *= x[size_t(r) * n + i];
      wantI *= uint32_t(k[size_t(r) * n + i]);
    }
    EXPECT_NEAR(gotF[r], want, 1e-4 * std::fabs(want)) << "row " << r;
    EXPECT_EQ(gotI[r], int32_t(wantI)) << "row " << r;
  }
}

/// The value of an 8-bit float code, by its definition: e4m3 (bias 7, 3
/// mantissa bits, S.1111.111 NaN, no infinities) or e5m2 (bias 15, 2
/// mantissa bits, exponent 31 infinities and NaNs).
double float8Reference(uint8_t code, bool e5m2) {
  int mantBits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int exponent = (code & 0x7F) >> mantBits, mant = code & ((1 << mantBits) - 1);
  double sign = code & 0x80 ? -1 : 1;
  if (e5m2 && exponent == 31)
    return mant ? NAN : sign * INFINITY;
  if (!e5m2 && (code & 0x7F) == 0x7F)
    return NAN;
  if (exponent == 0)
    return sign * std::ldexp(mant, 1 - bias - mantBits);
  return sign * std::ldexp((1 << mantBits) + mant, exponent - bias - mantBits);
}

/// The code of `x` rounded to nearest, ties to the even code, saturating
/// beyond the largest finite value (infinities included); NaN: -1.
int float8Encode(float x, bool e5m2) {
  if (std::isnan(x))
    return -1;
  uint8_t largest = e5m2 ? 0x7B : 0x7E;
  double a = std::fabs(double(x));
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (a >= float8Reference(largest, e5m2))
    return sign | largest;
  int best = 0;
  for (int c = 1; c <= largest; ++c) {
    double here = float8Reference(uint8_t(c), e5m2),
           was = float8Reference(uint8_t(best), e5m2);
    if (std::fabs(here - a) < std::fabs(was - a) ||
        (std::fabs(here - a) == std::fabs(was - a) && c % 2 == 0))
      best = c;
  }
  return sign | best;
}

/// Conversions to and from f8e4m3 and f8e5m2 (test/Interpreter/Inputs/
/// float8.tile) against the formats' definitions: every code decoded, and
/// specials, every tie between neighbouring codes, the floats next to each
/// tie and random magnitudes encoded bit for bit, over a length that is a
/// multiple of no block.
TEST_F(GPUTest, Float8Conversions) {
  std::vector<float> x = {0.0f,   -0.0f,   1.0f,     448.0f,
                          464.0f, 1000.0f, INFINITY, -INFINITY,
                          NAN,    1e6f,    57344.0f, 65536.0f};
  for (bool e5m2 : {false, true})
    for (int c = 0; c < (e5m2 ? 0x7B : 0x7E); ++c) {
      float tie = float((float8Reference(uint8_t(c), e5m2) +
                         float8Reference(uint8_t(c + 1), e5m2)) /
                        2);
      for (float v :
           {tie, std::nextafter(tie, 0.0f), std::nextafter(tie, INFINITY)}) {
        x.push_back(v);
        x.push_back(-v);
      }
    }
  std::uniform_real_distribution<float> exponent(-20, 17);
  while (x.size() < 4000)
    x.push_back((rng() % 2 ? -1.0f : 1.0f) * std::exp2(exponent(rng)));
  const int n = int(x.size());
  std::vector<int8_t> codes(n);
  for (int i = 0; i < n; ++i)
    codes[i] = int8_t(i & 0xFF);
  for (unsigned warps : {1u, 4u}) {
    ModuleOptions options;
    options.numWarps = warps;
    Module m = rt->compileFile(interpreterInput("float8.tile"), {}, options);
    Buffer dx = upload(x), q4 = rt->alloc(n + 1), q5 = rt->alloc(n + 1),
           back = poisoned(2 * n + 1), dc = uploadVector(*rt, codes),
           d = poisoned(2 * n + 1);
    q4.fill(0xAB);
    q5.fill(0xAB);
    m.kernel("float8").launch({unsigned((n + 255) / 256)}, dx, q4, q5, back, dc,
                              d, int32_t(n));
    rt->synchronize();
    auto got4 = downloadVector<uint8_t>(q4, n + 1),
         got5 = downloadVector<uint8_t>(q5, n + 1);
    auto gotBack = download(back, 2 * n + 1), gotD = download(d, 2 * n + 1);
    auto same = [](double a, double b) {
      return (std::isnan(a) && std::isnan(b)) || a == b;
    };
    int bad = 0;
    for (int i = 0; i < n; ++i)
      for (bool e5m2 : {false, true}) {
        uint8_t got = e5m2 ? got5[i] : got4[i];
        int want = float8Encode(x[i], e5m2);
        bool ok =
            want < 0 ? std::isnan(float8Reference(got, e5m2)) : got == want;
        if (!ok && bad++ < 8)
          ADD_FAILURE() << warps << " warps: " << x[i] << " as "
                        << (e5m2 ? "e5m2" : "e4m3") << " gave 0x" << std::hex
                        << int(got) << ", want 0x" << want << std::dec;
        double wantBack = want < 0 ? NAN : float8Reference(uint8_t(want), e5m2);
        if (!same(gotBack[e5m2 * n + i], wantBack) && bad++ < 8)
          ADD_FAILURE() << warps << " warps: back[" << e5m2 * n + i
                        << "] = " << gotBack[e5m2 * n + i] << ", want "
                        << wantBack;
        double wantD = float8Reference(uint8_t(codes[i]), e5m2);
        if (!same(gotD[2 * i + e5m2], wantD) && bad++ < 8)
          ADD_FAILURE() << warps << " warps: code 0x" << std::hex
                        << (codes[i] & 0xFF) << std::dec << " as "
                        << (e5m2 ? "e5m2" : "e4m3") << " = "
                        << gotD[2 * i + e5m2] << ", want " << wantD;
      }
    EXPECT_EQ(bad, 0) << warps << " warps";
    EXPECT_EQ(got4[n], 0xAB) << "element past the end written";
    EXPECT_EQ(got5[n], 0xAB) << "element past the end written";
    EXPECT_TRUE(std::isnan(gotBack[2 * n]) && std::isnan(gotD[2 * n]));
  }
}

} // namespace
