//===- ReductionTest.cpp - argmax/argmin, scans and atomics on the GPU ----===//
//
// Fresh random inputs with many ties (and NaNs) for argmax/argmin, scans over
// tiles that wrap, fit and repeat across one to eight warps, and atomics
// whose final values and returned old values are checked against the host:
// integers bit for bit, float sums against fp64 within their rounding.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

using namespace tile;

namespace {

/// First index of the largest (smallest) element; a NaN beats every number.
template <typename T> int32_t firstExtreme(const T *v, int n, bool max) {
  int best = 0;
  for (int i = 1; i < n; ++i) {
    double x = double(v[i]), y = double(v[best]);
    if (std::isnan(y))
      break;
    if (std::isnan(x) || (max ? x > y : x < y))
      best = i;
  }
  return best;
}

/// f16 bits of a small integer (exact).
uint16_t halfOf(int v) {
  if (v == 0)
    return 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  unsigned a = unsigned(std::abs(v)), e = 0;
  while ((a >> e) > 1)
    ++e;
  uint16_t mant = uint16_t(((a << 10) >> e) & 0x3FF);
  return uint16_t(sign | ((e + 15) << 10) | mant);
}

TEST_F(GPUTest, ArgMaxArgMin) {
  const char *source = R"(
kernel rows(x: ptr<f32>, h: ptr<f16>, k: ptr<i32>, out: ptr<i32>, n: i32,
            const BLOCK: i32 = 1024) {
  let offs = range(0, BLOCK);
  let m = offs < n;
  let at = program_id(0) * n + offs;
  let o = out + program_id(0) * 6;
  store(o, argmax(load(x + at, m, -inf)));
  store(o + 1, argmin(load(x + at, m, inf)));
  store(o + 2, argmax(load(h + at, m, -inf)));
  store(o + 3, argmin(load(h + at, m, inf)));
  store(o + 4, argmax(load(k + at, m, -1000000)));
  store(o + 5, argmin(load(k + at, m, 1000000)));
}
kernel cols(x: ptr<f32>, out: ptr<i32>, rows: i32, const R: i32 = 64,
            const C: i32 = 32) {
  let r = range(0, R);
  let c = range(0, C);
  let m = (r[:, None] < rows) & (c[None, :] < C);
  let p = x + r[:, None] * C + c[None, :];
  store(out + c, argmax(load(p, m, -inf), axis: 0));
  store(out + C + r, argmin(load(p, m, inf), axis: 1), r < rows);
}
)";
  const int n = 1000, rows = 41;
  std::vector<float> x(size_t(rows) * n);
  std::vector<uint16_t> h(x.size());
  std::vector<int32_t> k(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    int v = int(rng() % 61) - 30; // many ties
    x[i] = float(v);
    h[i] = halfOf(v);
    k[i] = v * 1000 + int(rng() % 3);
  }
  // NaNs: none in most rows, one or two in some.
  for (int r = 0; r < rows; r += 5)
    for (int j = 0; j < 1 + r % 2; ++j) {
      size_t at = size_t(r) * n + rng() % n;
      x[at] = std::numeric_limits<float>::quiet_NaN();
      h[at] = 0x7E00;
    }
  for (unsigned warps : {1u, 4u, 8u}) {
    ModuleOptions options;
    options.numWarps = warps;
    Module m = rt->compileSource(source, "argext.tile", {}, options);
    Buffer dx = upload(x), dh = uploadVector(*rt, h), dk = uploadVector(*rt, k),
           out = poisoned(size_t(rows) * 6);
    m.kernel("rows").launch({unsigned(rows)}, dx, dh, dk, out, int32_t(n));
    rt->synchronize();
    auto got = downloadVector<int32_t>(out, size_t(rows) * 6);
    for (int r = 0; r < rows; ++r) {
      const float *xr = x.data() + size_t(r) * n;
      const int32_t *kr = k.data() + size_t(r) * n;
      // h holds x's values (small integers, NaNs where x has them).
      int32_t want[6] = {firstExtreme(xr, n, true), firstExtreme(xr, n, false),
                         firstExtreme(xr, n, true), firstExtreme(xr, n, false),
                         firstExtreme(kr, n, true), firstExtreme(kr, n, false)};
      for (int j = 0; j < 6; ++j)
        EXPECT_EQ(got[r * 6 + j], want[j])
            << "row " << r << " result " << j << " warps " << warps;
    }

    // Along axis 0 and 1 of a 2-D tile, 50 of its 64 rows used.
    const int R = 64, C = 32, used = 50;
    std::vector<float> y(size_t(used) * C);
    for (float &v : y)
      v = float(int(rng() % 21) - 10);
    y[rng() % y.size()] = std::numeric_limits<float>::quiet_NaN();
    Buffer dy = upload(y), out2 = poisoned(C + R);
    m.kernel("cols").launch({1}, dy, out2, int32_t(used));
    rt->synchronize();
    auto got2 = downloadVector<int32_t>(out2, C + R);
    for (int c = 0; c < C; ++c) {
      std::vector<float> col(used);
      for (int r = 0; r < used; ++r)
        col[r] = y[size_t(r) * C + c];
      EXPECT_EQ(got2[c], firstExtreme(col.data(), used, true))
          << "column " << c << " warps " << warps;
    }
    for (int r = 0; r < used; ++r)
      EXPECT_EQ(got2[C + r], firstExtreme(y.data() + size_t(r) * C, C, false))
          << "row " << r << " warps " << warps;
  }
}

TEST_F(GPUTest, CumulativeSumsAndProducts) {
  const char *source = R"(
kernel scans(x: ptr<f32>, k: ptr<i32>, fs: ptr<f32>, ks: ptr<i32>,
             kp: ptr<i32>, n: i32, const BLOCK: i32 = 1024) {
  let offs = range(0, BLOCK);
  let m = offs < n;
  let at = program_id(0) * n + offs;
  store(fs + at, cumsum(load(x + at, m, 0.0)), m);
  store(ks + at, cumsum(load(k + at, m, 0)), m);
  store(kp + at, cumprod(load(k + at, m, 1)), m);
}
kernel grid(k: ptr<i32>, out0: ptr<i32>, out1: ptr<i32>, rows: i32,
            cols: i32, const R: i32 = 64, const C: i32 = 128) {
  let r = range(0, R);
  let c = range(0, C);
  let m = (r[:, None] < rows) & (c[None, :] < cols);
  let p = r[:, None] * cols + c[None, :];
  let v = load(k + p, m, 0);
  store(out0 + p, cumsum(v, axis: 0), m);
  store(out1 + p, cumsum(v, axis: 1), m);
}
)";
  struct Shape {
    int block, n;
  };
  const int rows = 7;
  for (unsigned warps : {1u, 4u, 8u})
    for (Shape s : {Shape{16, 13}, Shape{1024, 1000}, Shape{4096, 4001}}) {
      ModuleOptions options;
      options.numWarps = warps;
      Module m = rt->compileSource(
          source, "scans.tile", {{"BLOCK", std::to_string(s.block)}}, options);
      size_t total = size_t(rows) * s.n;
      std::vector<float> x = random(total, -1, 1);
      std::vector<int32_t> k(total);
      for (int32_t &v : k)
        v = int32_t(rng());
      Buffer dx = upload(x), dk = uploadVector(*rt, k), fs = poisoned(total),
             ks = poisoned(total), kp = poisoned(total);
      m.kernel("scans").launch({unsigned(rows)}, dx, dk, fs, ks, kp,
                               int32_t(s.n));
      rt->synchronize();
      auto gotF = download(fs, total);
      auto gotS = downloadVector<int32_t>(ks, total);
      auto gotP = downloadVector<int32_t>(kp, total);
      size_t wrong = 0;
      for (int r = 0; r < rows; ++r) {
        double sum = 0, abs = 0;
        uint32_t isum = 0, iprod = 1;
        for (int i = 0; i < s.n; ++i) {
          size_t at = size_t(r) * s.n + i;
          sum += x[at];
          abs += std::fabs(x[at]);
          isum += uint32_t(k[at]);
          iprod *= uint32_t(k[at]);
          // f32 partial sums in a tree: within a few roundings of the
          // running magnitude.
          if (std::fabs(gotF[at] - sum) > 1e-6 * abs + 1e-7 ||
              gotS[at] != int32_t(isum) || gotP[at] != int32_t(iprod)) {
            if (++wrong <= 5)
              ADD_FAILURE()
                  << "block " << s.block << " warps " << warps << " row " << r
                  << " i " << i << ": " << gotF[at] << " vs " << sum << ", "
                  << gotS[at] << " vs " << int32_t(isum) << ", " << gotP[at]
                  << " vs " << int32_t(iprod);
          }
        }
      }
      EXPECT_EQ(wrong, 0u);
    }

  // 2-D, along each axis, 50 x 100 of a 64 x 128 tile.
  for (unsigned warps : {1u, 4u, 8u}) {
    ModuleOptions options;
    options.numWarps = warps;
    Module m = rt->compileSource(source, "scans.tile", {}, options);
    const int used = 50, cols = 100;
    std::vector<int32_t> k(size_t(used) * cols);
    for (int32_t &v : k)
      v = int32_t(rng() % 2001) - 1000;
    Buffer dk = uploadVector(*rt, k), o0 = poisoned(k.size()),
           o1 = poisoned(k.size());
    m.kernel("grid").launch({1}, dk, o0, o1, int32_t(used), int32_t(cols));
    rt->synchronize();
    auto got0 = downloadVector<int32_t>(o0, k.size());
    auto got1 = downloadVector<int32_t>(o1, k.size());
    size_t wrong = 0;
    for (int r = 0; r < used; ++r)
      for (int c = 0; c < cols; ++c) {
        int32_t down = 0, across = 0;
        for (int i = 0; i <= r; ++i)
          down += k[size_t(i) * cols + c];
        for (int j = 0; j <= c; ++j)
          across += k[size_t(r) * cols + j];
        wrong += got0[size_t(r) * cols + c] != down;
        wrong += got1[size_t(r) * cols + c] != across;
      }
    EXPECT_EQ(wrong, 0u) << "warps " << warps;
  }
}

TEST_F(GPUTest, Atomics) {
  const char *source = R"(
kernel atomics(v: ptr<i32>, f: ptr<f32>, bins: ptr<i32>, tickets: ptr<i32>,
               counter: ptr<i32>, fsum: ptr<f32>, hsum: ptr<f16>,
               ext: ptr<i32>, fext: ptr<f32>, bits: ptr<i32>,
               order: ptr<i32>, n: i32, const BLOCK: i32 = 512) {
  let i = program_id(0) * BLOCK + range(0, BLOCK);
  let m = i < n;
  let x = load(v + i, m, 0);
  let y = load(f + i, m, 0.0);
  atomic_add(bins + (x & 63), 1, m);
  store(tickets + i, atomic_add(counter + i * 0, 1, m, sem: relaxed), m);
  atomic_add(fsum + (i & 7), y, m);
  atomic_add(hsum + (i & 7), cast(x % 3, f16), m);
  atomic_max(ext, x, m);
  atomic_min(ext + 1, x, m);
  atomic_max(fext, y, m);
  atomic_min(fext + 1, y, m);
  atomic_or(bits, 1 << (x & 31), m);
  atomic_xor(bits + 1, x, m);
  atomic_and(bits + 2, ~(1 << (x & 31)), m, scope: gpu);
  // Scalars: one update per program, the old value seen by every thread.
  let ticket = atomic_add(counter + 1, 1);
  store(order + program_id(0), ticket);
  store(order + num_programs(0) + program_id(0),
        atomic_xchg(counter + 2, program_id(0) + 1, sem: acq_rel));
  store(order + 2 * num_programs(0) + program_id(0),
        atomic_cas(counter + 3 + program_id(0) % 4, 0, program_id(0) + 1,
                   sem: acquire, scope: sys));
}
)";
  const int n = 100003, block = 512, programs = (n + block - 1) / block;
  Module m = rt->compileSource(source, "atomics.tile");
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = int32_t(rng());
  std::vector<float> f = random(n, -1, 1);
  Buffer dv = uploadVector(*rt, v), df = upload(f);
  Buffer bins = rt->alloc(64 * 4), tickets = poisoned(n),
         counter = rt->alloc(7 * 4), fsum = rt->alloc(8 * 4),
         hsum = rt->alloc(8 * 2), ext = rt->alloc(8), fext = rt->alloc(8),
         bits = rt->alloc(12), order = poisoned(3 * programs);
  for (Buffer *b : {&bins, &counter, &fsum, &hsum})
    b->fill(0);
  std::vector<int32_t> extInit = {std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max()};
  std::vector<float> fextInit = {-INFINITY, INFINITY};
  std::vector<int32_t> bitsInit = {0, 0, -1};
  ext.upload(extInit.data(), 8);
  fext.upload(fextInit.data(), 8);
  bits.upload(bitsInit.data(), 12);
  m.kernel("atomics").launch({unsigned(programs)}, dv, df, bins, tickets,
                             counter, fsum, hsum, ext, fext, bits, order,
                             int32_t(n));
  rt->synchronize();

  std::vector<int32_t> wantBins(64, 0);
  double wantF[8] = {};
  int wantH[8] = {};
  int32_t wantOr = 0, wantXor = 0, wantAnd = -1;
  for (int i = 0; i < n; ++i) {
    ++wantBins[v[i] & 63];
    wantF[i & 7] += f[i];
    wantH[i & 7] += v[i] % 3;
    wantOr |= int32_t(1u << (v[i] & 31));
    wantXor ^= v[i];
    wantAnd &= ~int32_t(1u << (v[i] & 31));
  }
  EXPECT_EQ(downloadVector<int32_t>(bins, 64), wantBins);
  // Every element got a distinct ticket: the old values are 0 .. n-1.
  auto got = downloadVector<int32_t>(tickets, n);
  std::sort(got.begin(), got.end());
  std::vector<int32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0);
  EXPECT_EQ(got, iota);
  auto counters = downloadVector<int32_t>(counter, 7);
  EXPECT_EQ(counters[0], n);
  EXPECT_EQ(counters[1], programs);
  auto sums = download(fsum, 8);
  for (int j = 0; j < 8; ++j)
    EXPECT_NEAR(sums[j], wantF[j], 5e-3) << "f32 bin " << j;
  auto halves = downloadVector<uint16_t>(hsum, 8);
  for (int j = 0; j < 8; ++j)
    EXPECT_EQ(halves[j], halfOf(wantH[j])) << "f16 bin " << j;
  auto exts = downloadVector<int32_t>(ext, 2);
  EXPECT_EQ(exts[0], *std::max_element(v.begin(), v.end()));
  EXPECT_EQ(exts[1], *std::min_element(v.begin(), v.end()));
  auto fexts = download(fext, 2);
  EXPECT_EQ(fexts[0], *std::max_element(f.begin(), f.end()));
  EXPECT_EQ(fexts[1], *std::min_element(f.begin(), f.end()));
  auto words = downloadVector<int32_t>(bits, 3);
  EXPECT_EQ(words[0], wantOr);
  EXPECT_EQ(words[1], wantXor);
  EXPECT_EQ(words[2], wantAnd);

  // Scalar atomics: tickets 0 .. programs-1; the exchanges form a chain
  // (the olds and the final value are 0, 1, ..., programs); each CAS slot
  // was won once, by the program whose number it holds.
  auto orders = downloadVector<int32_t>(order, 3 * programs);
  std::vector<int32_t> tick(orders.begin(), orders.begin() + programs);
  std::sort(tick.begin(), tick.end());
  std::vector<int32_t> upTo(programs);
  std::iota(upTo.begin(), upTo.end(), 0);
  EXPECT_EQ(tick, upTo);
  std::vector<int32_t> chain(orders.begin() + programs,
                             orders.begin() + 2 * programs);
  chain.push_back(counters[2]);
  std::sort(chain.begin(), chain.end());
  std::vector<int32_t> chainWant(programs + 1);
  std::iota(chainWant.begin(), chainWant.end(), 0);
  EXPECT_EQ(chain, chainWant);
  for (int slot = 0; slot < 4; ++slot) {
    int winners = 0;
    for (int p = slot; p < programs; p += 4)
      if (orders[2 * programs + p] == 0) {
        ++winners;
        EXPECT_EQ(counters[3 + slot], p + 1) << "CAS slot " << slot;
      } else {
        EXPECT_EQ(orders[2 * programs + p], counters[3 + slot]);
      }
    EXPECT_EQ(winners, 1) << "CAS slot " << slot;
  }
}

} // namespace

namespace {

/// Conditional expressions, a loop counting down, selects of pointers and
/// bitcasts, with fresh random sizes.
TEST_F(GPUTest, ConditionalsCountdownAndPointerSelects) {
  const char *source = R"(
kernel control(a: ptr<i32>, b: ptr<i32>, out: ptr<i32>, bits: ptr<i32>,
               n: i32, const BLOCK: i32 = 256) {
  static_assert(BLOCK % 32 == 0, "whole warps");
  let r = program_id(0) * BLOCK + range(0, BLOCK);
  let m = r < n;
  let v = load(a + r, m, 0);
  store(bits + r, bitcast(cast(v, f32) * 0.37, i32), m);
  store(out + r, v * 2 if v > 0 else 0 - v if v < -5 else 7, m);
  store(where((r & 1) == 0, a + r, b + r), r, m);
  var count = 0;
  for i in range(n, 0, -BLOCK) {
    count = count + i;
  }
  store(out + n + program_id(0), count);
}
)";
  Module m = rt->compileSource(source, "control.tile");
  const int n = 1000 + int(rng() % 1000), block = 256;
  const int programs = (n + block - 1) / block;
  std::vector<int32_t> a(n), b(n, -1);
  for (int32_t &v : a)
    v = int32_t(rng() % 41) - 20;
  std::vector<int32_t> origA = a;
  Buffer da = uploadVector(*rt, a), db = uploadVector(*rt, b),
         out = poisoned(n + programs), bits = poisoned(n);
  m.kernel("control").launch({unsigned(programs)}, da, db, out, bits,
                             int32_t(n));
  rt->synchronize();
  auto got = downloadVector<int32_t>(out, n + programs);
  auto gotA = downloadVector<int32_t>(da, n);
  auto gotB = downloadVector<int32_t>(db, n);
  auto gotBits = downloadVector<int32_t>(bits, n);
  int32_t count = 0;
  for (int i = n; i > 0; i -= block)
    count += i;
  for (int i = 0; i < n; ++i) {
    int32_t v = origA[i];
    ASSERT_EQ(got[i], v > 0 ? v * 2 : v < -5 ? -v : 7) << i;
    ASSERT_EQ(gotA[i], i % 2 == 0 ? i : v) << i;
    ASSERT_EQ(gotB[i], i % 2 == 0 ? -1 : i) << i;
    float f = float(v) * 0.37f;
    int32_t fbits;
    std::memcpy(&fbits, &f, 4);
    ASSERT_EQ(gotBits[i], fbits) << i;
  }
  for (int p = 0; p < programs; ++p)
    EXPECT_EQ(got[n + p], count) << "program " << p;
}

} // namespace

namespace {

/// multiple_of/max_contiguous: a copy at a runtime offset stated a multiple
/// of 4 (16-byte accesses in the PTX) moves every element, masked at the
/// edge, at fresh random offsets and lengths.
TEST_F(GPUTest, HintedOffsets) {
  const char *source = R"(
kernel shifted(x: ptr<f32>, y: ptr<f32>, start: i32, n: i32,
               const BLOCK: i32 = 512) {
  let base = multiple_of(start, 4);
  let r = max_contiguous(program_id(0) * BLOCK + range(0, BLOCK), BLOCK);
  let m = r < n;
  store(y + base + r, load(x + base + r, m) * 3.0, m);
}
)";
  Module m = rt->compileSource(source, "hinted.tile");
  for (int trial = 0; trial < 3; ++trial) {
    int start = 4 * int(rng() % 1000), n = 5000 + int(rng() % 5000);
    size_t total = size_t(start) + n + 8;
    std::vector<float> x = random(total);
    Buffer dx = upload(x), dy = poisoned(total);
    m.kernel("shifted").launch({unsigned((n + 511) / 512)}, dx, dy,
                               int32_t(start), int32_t(n));
    rt->synchronize();
    auto got = downloadVector<uint32_t>(dy, total);
    for (size_t i = 0; i < total; ++i) {
      bool inside = i >= size_t(start) && i < size_t(start) + n;
      float want = x[i] * 3.0f;
      uint32_t wantBits;
      std::memcpy(&wantBits, &want, 4);
      ASSERT_EQ(got[i], inside ? wantBits : 0xFFFFFFFFu)
          << "element " << i << ", start " << start << ", n " << n;
    }
  }
}

/// reduce and scan with combine functions (test/Interpreter/Inputs/
/// combine.tile): commutative ones (largest magnitude, bitwise or, running
/// maximum, the widest float with ties) and order-sensitive scans (`last`,
/// `first`), over rows that fit one warp, span several and repeat, in 1, 4
/// and 8 warps, with a row count that is a multiple of no block; exact.
TEST_F(GPUTest, CombineFunctions) {
  struct Shape {
    int rows, cols;
  } shapes[] = {{4, 32}, {2, 128}, {8, 16}, {1, 512}};
  const int m = 37;
  auto scramble = [](int32_t raw) { return (raw * 37) % 101 - 50; };
  auto wider = [](float a, float b) {
    return std::fabs(a) > std::fabs(b) ||
                   (std::fabs(a) == std::fabs(b) && a > b)
               ? a
               : b;
  };
  std::uniform_int_distribution<int32_t> integer(-100000, 100000);
  // Quarters of small integers: many ties in magnitude.
  std::uniform_int_distribution<int> quarter(-12, 12);
  for (Shape s : shapes) {
    int n = m * s.cols, grid = (m + s.rows - 1) / s.rows;
    std::vector<int32_t> x(n);
    std::vector<float> f(n);
    for (int i = 0; i < n; ++i) {
      x[i] = integer(rng);
      f[i] = quarter(rng) / 4.0f;
    }
    std::vector<int32_t> wantO(2 * m + 3 * n + grid);
    std::vector<float> wantF(m + n);
    for (int p = 0; p < grid; ++p) {
      auto v = [&](int r, int c) {
        return scramble(r < m ? x[r * s.cols + c] : -7);
      };
      int32_t every = 0;
      for (int r = p * s.rows; r < (p + 1) * s.rows; ++r) {
        int32_t largest = 0, ored = 0, running = 0;
        float widest = 0;
        for (int c = 0; c < s.cols; ++c) {
          every |= v(r, c);
          if (r >= m)
            continue;
          largest = std::max(largest, std::abs(v(r, c)));
          ored |= v(r, c);
          running = c == 0 ? v(r, c) : std::max(running, v(r, c));
          widest = c == 0 ? f[r * s.cols] : wider(widest, f[r * s.cols + c]);
          int at = r * s.cols + c;
          wantO[2 * m + at] = v(r, c);
          wantO[2 * m + n + at] = v(p * s.rows, c);
          wantO[2 * m + 2 * n + at] = running;
          wantF[m + at] = widest;
        }
        if (r < m) {
          wantO[r] = largest;
          wantO[m + r] = ored;
          wantF[r] = widest;
        }
      }
      wantO[2 * m + 3 * n + p] = every;
    }
    for (unsigned warps : {1u, 4u, 8u}) {
      ModuleOptions options;
      options.numWarps = warps;
      Module mod = rt->compileFile(
          interpreterInput("combine.tile"),
          {{"R", std::to_string(s.rows)}, {"C", std::to_string(s.cols)}},
          options);
      Buffer dx = uploadVector(*rt, x), df = upload(f),
             o = rt->alloc((wantO.size() + 1) * 4), of = poisoned(m + n + 1);
      o.fill(0xFF);
      mod.kernel("combine").launch({unsigned(grid)}, dx, df, o, of, int32_t(m));
      rt->synchronize();
      auto gotO = downloadVector<int32_t>(o, wantO.size() + 1);
      auto gotF = download(of, m + n + 1);
      std::string where = std::to_string(s.rows) + "x" +
                          std::to_string(s.cols) + ", " +
                          std::to_string(warps) + " warps";
      int bad = 0;
      for (size_t i = 0; i < wantO.size(); ++i)
        if (gotO[i] != wantO[i] && bad++ < 5)
          ADD_FAILURE() << where << ": o[" << i << "] = " << gotO[i]
                        << ", want " << wantO[i];
      for (size_t i = 0; i < wantF.size(); ++i)
        if (!(gotF[i] == wantF[i]) && bad++ < 5)
          ADD_FAILURE() << where << ": of[" << i << "] = " << gotF[i]
                        << ", want " << wantF[i];
      EXPECT_EQ(bad, 0) << where;
      EXPECT_EQ(gotO.back(), -1) << where << ": element past the end written";
      EXPECT_TRUE(std::isnan(gotF.back())) << where;
    }
  }
}

} // namespace
