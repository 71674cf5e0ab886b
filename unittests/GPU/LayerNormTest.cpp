//===- LayerNormTest.cpp - examples/layernorm.tile on the GPU -------------===//
//
// The layer-norm example's forward (one row per program, and looped) and
// backward (dx, then dw/db from per-program partial sums) in f32 and f16 on
// fresh random inputs, rows that are not powers of two, against fp64
// references; outputs poisoned before each launch.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include <cmath>
#include <cstring>

using namespace tile;

namespace {

constexpr double kEps = 1e-5;

uint16_t toHalf(float v) {
  _Float16 h = _Float16(v);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

double fromHalf(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return double(h);
}

/// Reference layer norm of `m` rows of `n` in fp64.
struct Reference {
  std::vector<double> y, mean, rstd, dx, dw, db;
  Reference(const std::vector<double> &x, const std::vector<double> &w,
            const std::vector<double> &b, const std::vector<double> &dy, int m,
            int n)
      : y(x.size()), mean(m), rstd(m), dx(x.size()), dw(n, 0.0), db(n, 0.0) {
    for (int i = 0; i < m; ++i) {
      const double *row = x.data() + size_t(i) * n;
      double mu = 0, var = 0;
      for (int j = 0; j < n; ++j)
        mu += row[j];
      mu /= n;
      for (int j = 0; j < n; ++j)
        var += (row[j] - mu) * (row[j] - mu);
      double r = 1 / std::sqrt(var / n + kEps);
      mean[i] = mu;
      rstd[i] = r;
      double c1 = 0, c2 = 0;
      for (int j = 0; j < n; ++j) {
        double xhat = (row[j] - mu) * r, g = dy[size_t(i) * n + j];
        y[size_t(i) * n + j] = xhat * w[j] + b[j];
        c1 += xhat * w[j] * g;
        c2 += w[j] * g;
        dw[j] += g * xhat;
        db[j] += g;
      }
      c1 /= n;
      c2 /= n;
      for (int j = 0; j < n; ++j) {
        double xhat = (row[j] - mu) * r;
        dx[size_t(i) * n + j] =
            (w[j] * dy[size_t(i) * n + j] - (xhat * c1 + c2)) * r;
      }
    }
  }
};

/// Elements of `got` further than `tol` (relative to `want`'s largest
/// magnitude) from `want`, reported by name.
size_t countWrong(const char *name, const std::vector<double> &got,
                  const std::vector<double> &want, double tol) {
  double scale = 0;
  for (double v : want)
    scale = std::max(scale, std::fabs(v));
  size_t wrong = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= tol * scale) && ++wrong <= 3)
      ADD_FAILURE() << name << "[" << i << "] = " << got[i] << ", want "
                    << want[i];
  return wrong;
}

class LayerNormTest : public GPUTest {
protected:
  /// Device data of element size 4 (f32) or 2 (f16), and its values.
  Buffer upload(const std::vector<double> &values, bool half) {
    if (!half) {
      std::vector<float> f(values.begin(), values.end());
      return GPUTest::upload(f);
    }
    std::vector<uint16_t> h(values.size());
    for (size_t i = 0; i < h.size(); ++i)
      h[i] = toHalf(float(values[i]));
    return uploadVector(*rt, h);
  }
  std::vector<double> values(const Buffer &b, size_t n, bool half) {
    std::vector<double> out(n);
    if (half) {
      auto h = downloadVector<uint16_t>(b, n);
      for (size_t i = 0; i < n; ++i)
        out[i] = fromHalf(h[i]);
    } else {
      auto f = download(b, n);
      out.assign(f.begin(), f.end());
    }
    return out;
  }
  /// Random values as the element type stores them.
  std::vector<double> inputs(size_t n, float lo, float hi, bool half) {
    std::vector<float> f = random(n, lo, hi);
    std::vector<double> out(n);
    for (size_t i = 0; i < n; ++i)
      out[i] = half ? fromHalf(toHalf(f[i])) : double(f[i]);
    return out;
  }
};

TEST_F(LayerNormTest, ForwardAndBackward) {
  struct Case {
    int n, block;
    unsigned warps;
    bool half, looped;
  };
  const int m = 37, rowsPerProgram = 4;
  for (Case c :
       {Case{1000, 1024, 4, false, false}, Case{1000, 1024, 4, true, false},
        Case{3000, 4096, 8, false, false}, Case{3000, 4096, 8, true, false},
        Case{5000, 1024, 4, false, true}}) {
    SCOPED_TRACE("n " + std::to_string(c.n) + (c.half ? " f16" : " f32") +
                 (c.looped ? " looped" : ""));
    ModuleOptions options;
    options.numWarps = c.warps;
    Module mod = rt->compileFile(example("layernorm.tile"),
                                 {{"BLOCK", std::to_string(c.block)}}, options);
    size_t total = size_t(m) * c.n;
    std::vector<double> x = inputs(total, -3, 5, c.half),
                        w = inputs(c.n, 0.5, 1.5, c.half),
                        b = inputs(c.n, -1, 1, c.half),
                        dy = inputs(total, -1, 1, c.half);
    Reference want(x, w, b, dy, m, c.n);
    double tol = c.half ? 4e-3 : 2e-5;
    size_t elem = c.half ? 2 : 4;
    Buffer dx = upload(x, c.half), dw = upload(w, c.half),
           db = upload(b, c.half), dgrad = upload(dy, c.half),
           y = rt->alloc(total * elem), mean = poisoned(m), rstd = poisoned(m);
    y.fill(0xFF);
    std::string suffix = c.half ? "_f16" : "";
    std::string fwd =
        c.looped ? "layernorm_fwd_looped" : "layernorm_fwd" + suffix;
    mod.kernel(fwd).launch({unsigned(m)}, dx, y, dw, db, mean, rstd,
                           int32_t(c.n), float(kEps));
    rt->synchronize();
    EXPECT_EQ(countWrong("y", values(y, total, c.half), want.y, tol), 0u);
    std::vector<double> gotMean(m), gotRstd(m);
    auto fm = download(mean, m), fr = download(rstd, m);
    gotMean.assign(fm.begin(), fm.end());
    gotRstd.assign(fr.begin(), fr.end());
    EXPECT_EQ(countWrong("mean", gotMean, want.mean, 1e-5), 0u);
    EXPECT_EQ(countWrong("rstd", gotRstd, want.rstd, 1e-5), 0u);
    if (c.looped)
      continue;

    int programs = (m + rowsPerProgram - 1) / rowsPerProgram;
    Buffer grad = rt->alloc(total * elem), dwPart = poisoned(programs * c.n),
           dbPart = poisoned(programs * c.n), gw = rt->alloc(c.n * elem),
           gb = rt->alloc(c.n * elem);
    for (Buffer *buf : {&grad, &gw, &gb})
      buf->fill(0xFF);
    mod.kernel("layernorm_bwd" + suffix)
        .launch({unsigned(programs)}, dgrad, dx, dw, mean, rstd, grad, dwPart,
                dbPart, int32_t(m), int32_t(c.n), int32_t(rowsPerProgram));
    mod.kernel("layernorm_dwdb" + suffix)
        .launch({unsigned((c.n + 63) / 64)}, dwPart, dbPart, gw, gb,
                int32_t(programs), int32_t(c.n));
    rt->synchronize();
    EXPECT_EQ(countWrong("dx", values(grad, total, c.half), want.dx, tol), 0u);
    EXPECT_EQ(countWrong("dw", values(gw, c.n, c.half), want.dw, tol), 0u);
    EXPECT_EQ(countWrong("db", values(gb, c.n, c.half), want.db, tol), 0u);
  }
}

} // namespace
