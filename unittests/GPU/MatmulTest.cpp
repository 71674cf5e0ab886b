//===- MatmulTest.cpp - matmul_relu in every precision on the GPU ---------===//
//
// The matmul_relu example as written (f16), and the same kernel with bf16 and
// f32 inputs (f32 `ieee` on the FMA path, `tf32` on tensor cores), at sizes
// on and off the block edges and with leading dimensions longer than the
// rows; and with A or B (or both) stored transposed. Every output element is compared with a double-precision reference
// computed from the same (rounded) inputs: |got - want| must stay below
// `tolerance * sum_k |a_ik b_kj|`, the bound that fits the input precision
// (f32 ieee 1e-5, tf32 2e-3, f16/bf16 1e-2). Padding between rows is NaN in
// the inputs and must stay poisoned in the output.
//
//===----------------------------------------------------------------------===//
#include "GPUTestSupport.h"

#include "MatmulVariants.h"
#include "tile/Runtime/Autotune.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <thread>

using namespace tile;

namespace {

enum class Precision { f16, bf16, f32, tf32 };

struct Case {
  Precision precision;
  int m, n, k;
  /// Leading dimensions: A is M x lda (K x lda when transposed), B K x ldb
  /// (N x ldb), C M x ldc.
  int lda, ldb, ldc;
  OperandOrder order = OperandOrder::NN;
  bool transA() const { return isTransposedA(order); }
  bool transB() const { return isTransposedB(order); }
};

const char *name(Precision p) {
  switch (p) {
  case Precision::f16:
    return "f16";
  case Precision::bf16:
    return "bf16";
  case Precision::f32:
    return "f32";
  case Precision::tf32:
    return "tf32";
  }
  return "?";
}

/// Bytes of one element of the inputs (and of the output: f32 inputs give
/// f32 outputs so that output rounding stays inside the f32 bounds).
size_t elementBytes(Precision p) {
  return p == Precision::f16 || p == Precision::bf16 ? 2 : 4;
}

double tolerance(Precision p) {
  switch (p) {
  case Precision::f32:
    return 1e-5;
  case Precision::tf32:
    return 2e-3;
  default:
    return 1e-2;
  }
}

/// The text of examples/NAME.
std::string readExample(const char *name) { return readText(example(name)); }

/// The kernel's source: the example itself for f16, its types and the dot's
/// precision replaced otherwise.
std::string kernelSource(Precision p) {
  return matmulVariantSource(readExample("matmul_relu.tile"), name(p));
}

/// Rounds `f` to the storage type; returns the bits and the rounded value.
uint32_t toStorage(Precision p, float f, double &rounded) {
  if (p == Precision::f16) {
    _Float16 h = static_cast<_Float16>(f);
    rounded = double(h);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
  }
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (p == Precision::bf16) {
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16; // round to nearest even
    uint32_t back = u << 16;
    float r;
    std::memcpy(&r, &back, 4);
    rounded = r;
    return u;
  }
  rounded = f;
  return u;
}

double fromStorage(Precision p, const unsigned char *bytes) {
  if (p == Precision::f16) {
    _Float16 h;
    std::memcpy(&h, bytes, 2);
    return double(h);
  }
  uint32_t u = 0;
  if (p == Precision::bf16) {
    uint16_t b;
    std::memcpy(&b, bytes, 2);
    u = uint32_t(b) << 16;
  } else {
    std::memcpy(&u, bytes, 4);
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// Runs `body(row)` for every row on all host threads.
template <typename F> void parallelRows(int rows, F body) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = t; i < rows; i += threads)
        body(i);
    });
  for (std::thread &th : pool)
    th.join();
}

/// Launches matmul_relu for case `c` with arguments (a, b, c, M, N, K, lda,
/// ldb, ldc).
using Launcher = std::function<void(const Case &, const std::vector<Arg> &)>;

class MatmulTest : public GPUTest {
protected:
  /// Runs case `c` with `launch` (default: the example's module, 128x128
  /// blocks) and checks every output element.
  void check(const Case &c, const Launcher &launch = {}) {
    SCOPED_TRACE(std::string(name(c.precision)) + " " + orderName(c.order) +
                 " M=" + std::to_string(c.m) +
                 " N=" + std::to_string(c.n) + " K=" + std::to_string(c.k) +
                 " lda=" + std::to_string(c.lda) + " ldb=" +
                 std::to_string(c.ldb) + " ldc=" + std::to_string(c.ldc));
    size_t eb = elementBytes(c.precision);
    // Inputs with NaN padding; the reference keeps A and B^T as doubles.
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<unsigned char> a(size_t(c.transA() ? c.k : c.m) * c.lda * eb,
                                 0xFF),
        b(size_t(c.transB() ? c.n : c.k) * c.ldb * eb, 0xFF);
    std::vector<double> ad(size_t(c.m) * c.k), btd(size_t(c.n) * c.k);
    auto put = [&](std::vector<unsigned char> &dst, size_t index,
                   uint32_t bits) { std::memcpy(&dst[index * eb], &bits, eb); };
    for (int i = 0; i < c.m; ++i)
      for (int kk = 0; kk < c.k; ++kk)
        put(a, c.transA() ? size_t(kk) * c.lda + i : size_t(i) * c.lda + kk,
            toStorage(c.precision, dist(rng), ad[size_t(i) * c.k + kk]));
    for (int kk = 0; kk < c.k; ++kk)
      for (int j = 0; j < c.n; ++j)
        put(b, c.transB() ? size_t(j) * c.ldb + kk : size_t(kk) * c.ldb + j,
            toStorage(c.precision, dist(rng), btd[size_t(j) * c.k + kk]));
    size_t outElems = size_t(c.m) * c.ldc + 1; // one past the end
    Buffer da = rt->alloc(a.size()), db = rt->alloc(b.size()),
           dc = rt->alloc(outElems * eb);
    da.upload(a.data(), a.size());
    db.upload(b.data(), b.size());
    dc.fill(0xFF);
    std::vector<Arg> args = {da,
                             db,
                             dc,
                             int32_t(c.m),
                             int32_t(c.n),
                             int32_t(c.k),
                             int32_t(c.lda),
                             int32_t(c.ldb),
                             int32_t(c.ldc)};
    if (launch) {
      launch(c, args);
    } else {
      const unsigned block = 128; // BM = BN of the example's defaults
      moduleFor(c.precision)
          .kernel("matmul_relu")
          .launchArgs({ceilDiv(c.m, block), ceilDiv(c.n, block)}, args);
    }
    rt->synchronize();
    std::vector<unsigned char> out(outElems * eb);
    dc.download(out.data(), out.size());

    std::vector<double> worstRow(c.m, 0);
    std::vector<int> unpoisoned(c.m, 0);
    parallelRows(c.m, [&](int i) {
      const double *ar = &ad[size_t(i) * c.k];
      for (int j = 0; j < c.ldc; ++j) {
        const unsigned char *got = &out[(size_t(i) * c.ldc + j) * eb];
        if (j >= c.n) {
          for (size_t e = 0; e < eb; ++e)
            unpoisoned[i] += got[e] != 0xFF;
          continue;
        }
        const double *br = &btd[size_t(j) * c.k];
        double sum = 0, magnitude = 0;
        for (int kk = 0; kk < c.k; ++kk) {
          sum += ar[kk] * br[kk];
          magnitude += std::abs(ar[kk] * br[kk]);
        }
        double want = std::max(sum, 0.0);
        double value = fromStorage(c.precision, got);
        double err = std::isnan(value)
                         ? INFINITY
                         : std::abs(value - want) / std::max(magnitude, 1e-30);
        worstRow[i] = std::max(worstRow[i], err);
      }
    });
    double worst = 0;
    int padWritten = 0;
    for (int i = 0; i < c.m; ++i) {
      worst = std::max(worst, worstRow[i]);
      padWritten += unpoisoned[i];
    }
    std::printf("%s %s M=%d N=%d K=%d: worst error / sum|ab| = %.3g\n",
                name(c.precision), orderName(c.order), c.m, c.n, c.k, worst);
    EXPECT_LE(worst, tolerance(c.precision));
    EXPECT_EQ(padWritten, 0) << "bytes between rows of C were written";
    for (size_t e = 0; e < eb; ++e)
      EXPECT_EQ(out[(outElems - 1) * eb + e], 0xFF)
          << "element past the end written";
  }

  Module &moduleFor(Precision p) {
    auto &slot = modules[int(p)];
    if (!slot)
      slot = std::make_unique<Module>(rt->compileSource(
          kernelSource(p), std::string("matmul_relu_") + name(p)));
    return *slot;
  }

  void runShapes(Precision p) {
    std::vector<std::array<int, 3>> shapes = {
        {1, 1, 1}, {127, 129, 65}, {1000, 1000, 1000}};
    if (!smallOnly()) {
      shapes.push_back({4096, 4096, 4096});
      shapes.push_back({256, 4096, 8192});
    }
    for (auto [m, n, k] : shapes)
      check({p, m, n, k, k, n, n});
    // Leading dimensions longer than the rows, divisible by 16 and not.
    check({p, 127, 129, 65, 80, 144, 160});
    check({p, 200, 136, 72, 77, 139, 141});
  }

  /// A matmul_relu configuration: the tile's constants, warps and stages.
  struct Tiling {
    const char *bm, *bn, *bk;
    unsigned warps, stages;
  };
  /// Checks one case of an order sweep: M, N, K, the padding of A's and
  /// B's leading dimensions past their rows, and C's leading dimension.
  using RunCase =
      std::function<void(int m, int n, int k, int padA, int padB, int ldc)>;

  /// Every operand order.
  static std::vector<OperandOrder> allOrders() {
    return {OperandOrder::NN, OperandOrder::NT, OperandOrder::TN,
            OperandOrder::TT};
  }

  /// For each tiling, order and precision: compiles matmul_relu
  /// (examples/matmul_relu.tile for NN, else with the operands read in that
  /// order, through strides and, where `viaTransToo(order)`, through
  /// trans() as well) for `arch` (empty: the default) and runs `cases` on
  /// it; `edit`, when given, rewrites each source first.
  void sweepOrders(const std::string &label, const std::string &arch,
                   std::initializer_list<Tiling> tilings,
                   const std::vector<OperandOrder> &orders,
                   std::initializer_list<Precision> precisions,
                   std::function<bool(OperandOrder)> viaTransToo,
                   std::function<void(const RunCase &)> cases,
                   std::function<std::string(std::string)> edit = {}) {
    std::string text = readExample("matmul_relu.tile");
    for (Tiling config : tilings)
      for (OperandOrder order : orders)
        for (Precision p : precisions)
          for (bool viaTrans : {false, true}) {
            if (viaTrans && !viaTransToo(order))
              continue;
            ModuleOptions options;
            if (!arch.empty())
              options.arch = arch;
            options.numWarps = config.warps;
            options.numStages = config.stages;
            std::string source =
                order == OperandOrder::NN
                    ? kernelSource(p)
                    : matmulOrderSource(text, name(p), order, viaTrans);
            if (edit)
              source = edit(source);
            Module module = rt->compileSource(
                source,
                "matmul_" + label + "_" + orderName(order) + "_" + name(p) +
                    (viaTrans ? "_trans" : ""),
                {{"BM", config.bm}, {"BN", config.bn}, {"BK", config.bk}},
                options);
            int bm = std::stoi(config.bm), bn = std::stoi(config.bn);
            SCOPED_TRACE(std::string("BM=") + config.bm + " BN=" + config.bn +
                         " BK=" + config.bk +
                         " warps=" + std::to_string(config.warps) +
                         " stages=" + std::to_string(config.stages));
            Launcher launch = [&](const Case &c, const std::vector<Arg> &args) {
              module.kernel("matmul_relu")
                  .launchArgs({ceilDiv(c.m, bm), ceilDiv(c.n, bn)}, args);
            };
            cases([&](int m, int n, int k, int padA, int padB, int ldc) {
              Case c{p, m, n, k, 0, 0, ldc, order};
              c.lda = (c.transA() ? m : k) + padA;
              c.ldb = (c.transB() ? k : n) + padB;
              check(c, launch);
            });
          }
  }

  std::unique_ptr<Module> modules[4];
};

/// Without the cp.async pipeline (num_stages = 1) each dot stages its own
/// operands through shared memory: the FMA path's store + barrier and the
/// tensor-core path's conversion to fragments, on and off the block edges.
TEST_F(MatmulTest, Unpipelined) {
  for (Precision p : {Precision::f32, Precision::tf32, Precision::f16}) {
    ModuleOptions options;
    options.numStages = 1;
    Module module = rt->compileSource(
        kernelSource(p), std::string("matmul_relu_1stage_") + name(p),
        {{"BK", "16"}}, options);
    Launcher launch = [&](const Case &c, const std::vector<Arg> &args) {
      module.kernel("matmul_relu")
          .launchArgs({ceilDiv(c.m, 128), ceilDiv(c.n, 128)}, args);
    };
    check({p, 127, 129, 65, 65, 129, 129}, launch);
    check({p, 200, 136, 72, 77, 139, 141}, launch);
  }
}

/// A (M x K or K x M) and B (K x N or N x K) in every order, read through
/// strides and through trans(), in every precision: tight leading
/// dimensions that are not multiples of 16 (masked, element copies), padded
/// ones, and sizes whose rows are 16-byte aligned (16-byte cp.async, the
/// transposed shared layouts and ldmatrix with and without .trans).
TEST_F(MatmulTest, OperandOrders) {
  // The example's own tiling (its default constants, warps and stages).
  sweepOrders(
      "orders", "", {Tiling{"128", "128", "32", 4, 3}},
      {OperandOrder::NT, OperandOrder::TN, OperandOrder::TT},
      {Precision::f16, Precision::bf16, Precision::tf32, Precision::f32},
      [](OperandOrder) { return true; },
      [&](const RunCase &run) {
        run(127, 129, 65, 0, 0, 129);
        run(200, 136, 72, 5, 3, 141);
        run(1, 64, 48, 0, 0, 64);
        if (!smallOnly())
          run(768, 512, 1024, 0, 16, 512);
      });
}

/// f32 ieee on CUDA cores in every operand order, in tuned configurations
/// of tile-bench's list (one and two rows of warps, 2 to 4 stages, BK 16
/// to 64): the FMA dot's layouts for transposed stages (each thread's rows
/// consecutive; one column per lane for B stored [n][k]; TT computed as
/// Cᵀ = Bᵀ Aᵀ, also where the inner dot's layout is the kernel's own, as in
/// 128x64x64) at edge sizes, with padded leading dimensions and through
/// trans().
TEST_F(MatmulTest, FmaOperandOrders) {
  sweepOrders(
      "fma", "",
      {Tiling{"128", "256", "32", 8, 3}, Tiling{"256", "64", "32", 4, 2},
       Tiling{"128", "128", "16", 4, 4}, Tiling{"64", "64", "32", 4, 4},
       Tiling{"64", "256", "32", 4, 2}, Tiling{"128", "64", "64", 4, 3}},
      allOrders(), {Precision::f32},
      [](OperandOrder order) { return order != OperandOrder::NN; },
      [&](const RunCase &run) {
        run(127, 129, 65, 0, 0, 129);
        run(200, 136, 72, 5, 3, 141);
        run(300, 264, 40, 4, 8, 264);
        run(1, 64, 48, 0, 0, 64);
        if (!smallOnly())
          run(768, 512, 1024, 0, 16, 512);
      });
}

/// sm_90a: dots from stages stored for warpgroup MMAs (wgmma.mma_async
/// with descriptors; an A given K x M from registers, read by
/// ldmatrix.trans) in every operand order, f16 and bf16, through strides and
/// through trans(), with the 32-, 64- and 128-byte swizzles (BK 16, 32, 64),
/// one and two warpgroups, N up to 256, three stages (each dot waits for its
/// MMAs) and four (MMAs in flight across iterations, copies two ahead); at edge
/// sizes, with K below one block, and with padded leading dimensions.
TEST_F(MatmulTest, WarpgroupMma) {
  sweepOrders(
      "wgmma", "sm_90a",
      {Tiling{"128", "128", "32", 4, 3}, Tiling{"128", "256", "64", 8, 3},
       Tiling{"64", "64", "16", 4, 3}, Tiling{"128", "256", "64", 8, 4},
       Tiling{"128", "128", "32", 4, 4}},
      allOrders(), {Precision::f16, Precision::bf16},
      [](OperandOrder order) { return order != OperandOrder::NN; },
      [&](const RunCase &run) {
        run(127, 129, 65, 0, 0, 129);
        run(200, 136, 72, 5, 3, 141);
        run(130, 260, 8, 0, 0, 260);
        run(1, 64, 48, 0, 0, 64);
        // Rows of 16-byte multiples: the variant the runtime compiles for
        // them fills the NN/NT stages with the TMA (tensor maps bounded by
        // M, N and K, not block multiples; K below a stage).
        run(200, 136, 72, 8, 8, 141);
        run(130, 264, 8, 0, 0, 264);
        if (!smallOnly())
          run(768, 512, 1024, 0, 16, 512);
      });
}

/// sm_90a, a dot outside loops (matmul_relu without its K loop: one block
/// of K, K <= BK): with 3 stages tile-promote-shared copies the loaded
/// operands once into one-stage buffers stored for wgmma and the MMAs read
/// them through descriptors; with 1 nothing is staged (mma.sync on
/// ldmatrix fragments). Every f16/bf16 order, through strides and trans(),
/// one and two warpgroups, at edge sizes and K below one block.
TEST_F(MatmulTest, WgmmaLoneDot) {
  auto unloop = [](std::string source) {
    const std::string loop = "for k in range(0, K, BK) {";
    const std::string end = "acc = dot(av, bv, acc);\n  }";
    size_t at = source.find(loop), endAt = source.find(end);
    if (at == std::string::npos || endAt == std::string::npos) {
      ADD_FAILURE() << "no K loop in\n" << source;
      return source;
    }
    source.replace(endAt, end.size(), "acc = dot(av, bv, acc);");
    source.replace(at, loop.size(), "let k = 0;");
    return source;
  };
  sweepOrders(
      "wgmma_lone", "sm_90a",
      {Tiling{"128", "128", "64", 4, 3}, Tiling{"128", "256", "64", 8, 3},
       Tiling{"128", "128", "64", 4, 1}},
      allOrders(), {Precision::f16, Precision::bf16},
      [](OperandOrder order) { return order != OperandOrder::NN; },
      [&](const RunCase &run) {
        run(127, 129, 64, 0, 0, 129);
        run(200, 136, 40, 5, 3, 141);
        run(130, 264, 8, 0, 0, 264);
        run(1, 64, 48, 0, 0, 64);
      },
      unloop);
}

/// sm_90a, tf32: warpgroup MMAs (m64nNk8 tf32) on stages the TMA fills
/// where rows are 16-byte multiples, cp.async otherwise: NT from
/// descriptors, TT with A read into registers, NN computed transposed
/// (Cᵀ = Bᵀ Aᵀ), TN with A read into registers and B stored K-major
/// through registers: by a producer warpgroup where A is a TMA copy and
/// B's tile fits (128x128x32, 64x64x16, and 256x128x32 on 8 warps: 384
/// threads, registers moved with setmaxnreg), by the kernel's own warps
/// otherwise. Every order, through strides and trans(), one and two
/// warpgroups, BK 16 to 64 (64- and 128-byte swizzles, two panels), MMAs
/// waited for (3 stages) and in flight (4), at edge sizes, K below one
/// block and padded leading dimensions.
TEST_F(MatmulTest, WarpgroupMmaTf32) {
  sweepOrders(
      "wgmma", "sm_90a",
      {Tiling{"128", "128", "32", 4, 3}, Tiling{"128", "256", "32", 8, 4},
       Tiling{"64", "64", "16", 4, 3}, Tiling{"128", "128", "64", 4, 4},
       Tiling{"256", "128", "32", 8, 4}},
      allOrders(), {Precision::tf32},
      [](OperandOrder order) { return order != OperandOrder::NN; },
      [&](const RunCase &run) {
        run(127, 129, 65, 0, 0, 129);
        run(200, 136, 72, 5, 3, 141);
        run(130, 260, 8, 0, 0, 260);
        run(1, 64, 48, 0, 0, 64);
        // 16-byte rows: the TMA fills the NT stages.
        run(200, 136, 72, 8, 8, 141);
        run(130, 264, 12, 4, 4, 264);
        if (!smallOnly())
          run(768, 512, 1024, 0, 16, 512);
      });
}

/// Small wgmma kernels (4 stages, MMAs in flight, BM 128, BN 64, BK 32) at
/// edge sizes: NN, whose A and B rows are one panel, so that the TMA fills
/// both stages, and TN, whose A (given K x M) reaches the MMAs in registers
/// through ldmatrix.trans while cp.async fills the stages; tf32 NN, computed
/// transposed, with Bᵀ read from its TMA-filled stage into registers in two
/// groups of MMAs per iteration; tf32 TN, whose B is copied element by
/// element into K-major stages. What
/// scripts/gpu runs under compute-sanitizer's racecheck and synccheck (the
/// full WarpgroupMma sweep is too slow there).
TEST_F(MatmulTest, WgmmaPipelineSmall) {
  ModuleOptions options;
  options.arch = "sm_90a";
  options.numStages = 4;
  std::string text = readExample("matmul_relu.tile");
  for (OperandOrder order : {OperandOrder::NN, OperandOrder::TN})
    for (Precision p : {Precision::f16, Precision::bf16, Precision::tf32}) {
      Module module = rt->compileSource(
          order == OperandOrder::NN
              ? kernelSource(p)
              : matmulOrderSource(text, name(p), order, /*viaTrans=*/false),
          std::string("matmul_wgmma_small_") + orderName(order) + "_" + name(p),
          {{"BM", "128"}, {"BN", "64"}, {"BK", "32"}}, options);
      Launcher launch = [&](const Case &c, const std::vector<Arg> &args) {
        module.kernel("matmul_relu")
            .launchArgs({ceilDiv(c.m, 128), ceilDiv(c.n, 64)}, args);
      };
      // Rows padded to 16-byte multiples (tensor maps for NN); M, N, K not
      // block multiples, then K below one stage.
      bool transA = order == OperandOrder::TN;
      check(Case{p, 200, 136, 72, transA ? 208 : 80, 144, 141, order}, launch);
      check(Case{p, 130, 264, 8, transA ? 136 : 8, 264, 264, order}, launch);
    }
}

/// A computed in the loop (its load fills masked elements with 0.5, which
/// cp.async cannot, so it stays in registers; B's zeros keep the products
/// of those elements 0): the warpgroup MMAs take A from the registers it
/// is loaded into, and with four stages they may not stay in flight (the
/// next iteration's A could reuse their registers). NN and NT, f16/bf16,
/// at edge sizes.
TEST_F(MatmulTest, WgmmaComputedA) {
  std::string text = readExample("matmul_relu.tile");
  const std::string from = "(ka[None, :] < K), other: 0.0)";
  for (OperandOrder order : {OperandOrder::NN, OperandOrder::NT})
    for (Precision p : {Precision::f16, Precision::bf16})
      for (unsigned stages : {3u, 4u}) {
        std::string source = order == OperandOrder::NN
                                 ? kernelSource(p)
                                 : matmulOrderSource(text, name(p), order,
                                                     /*viaTrans=*/false);
        size_t at = source.find(from);
        ASSERT_NE(at, std::string::npos) << source;
        source.replace(at, from.size(), "(ka[None, :] < K), other: 0.5)");
        ModuleOptions options;
        options.arch = "sm_90a";
        options.numStages = stages;
        Module module = rt->compileSource(
            source,
            std::string("matmul_wgmma_computed_a_") + orderName(order) + "_" +
                name(p) + "_" + std::to_string(stages),
            {{"BM", "128"}, {"BN", "128"}, {"BK", "32"}}, options);
        SCOPED_TRACE("stages=" + std::to_string(stages));
        Launcher launch = [&](const Case &c, const std::vector<Arg> &args) {
          module.kernel("matmul_relu")
              .launchArgs({ceilDiv(c.m, 128), ceilDiv(c.n, 128)}, args);
        };
        bool transB = order == OperandOrder::NT;
        check(Case{p, 200, 136, 72, 77, transB ? 75 : 139, 141, order}, launch);
        check(Case{p, 130, 264, 8, 8, transB ? 8 : 264, 264, order}, launch);
        check(Case{p, 257, 300, 1000, 1000, transB ? 1000 : 300, 300, order},
              launch);
      }
}

/// examples/linear.tile: Y = relu(X W^T + bias) + R, W given N x K, the
/// bias and the residual fused into the store; against an fp64 reference
/// of the f16-rounded inputs (within 1e-2 of sum |x w| + |bias| + |r|,
/// plus the f16 rounding of the output), at block edges and on them.
TEST_F(MatmulTest, LinearEpilogue) {
  Module module = rt->compileFile(example("linear.tile"));
  auto half = [&](std::vector<double> &ref, size_t n) {
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<uint16_t> bits(n);
    ref.resize(n);
    for (size_t i = 0; i < n; ++i) {
      double r;
      bits[i] = uint16_t(toStorage(Precision::f16, dist(rng), r));
      ref[i] = r;
    }
    Buffer b = rt->alloc(n * 2);
    b.upload(bits.data(), n * 2);
    return b;
  };
  std::vector<std::array<int, 3>> shapes = {{200, 136, 72}, {1, 64, 48}};
  if (!smallOnly()) {
    shapes.push_back({513, 257, 1000});
    shapes.push_back({256, 384, 512});
  }
  for (auto [m, n, k] : shapes) {
    SCOPED_TRACE("M=" + std::to_string(m) + " N=" + std::to_string(n) +
                 " K=" + std::to_string(k));
    std::vector<double> x, w, bias, r;
    Buffer dx = half(x, size_t(m) * k), dw = half(w, size_t(n) * k),
           db = half(bias, n), dr = half(r, size_t(m) * n);
    Buffer dy = rt->alloc(size_t(m) * n * 2 + 2);
    dy.fill(0xFF);
    module.kernel("linear").launch(
        Grid(ceilDiv(m, 128), ceilDiv(n, 128)), dx, dw, db, dr, dy,
        int32_t(m), int32_t(n), int32_t(k), int32_t(k), int32_t(k),
        int32_t(n), int32_t(n));
    rt->synchronize();
    std::vector<uint16_t> y(size_t(m) * n + 1);
    dy.download(y.data(), y.size() * 2);
    std::vector<double> worstRow(m, 0);
    parallelRows(m, [&](int i) {
      for (int j = 0; j < n; ++j) {
        double sum = 0, magnitude = std::abs(bias[j]) + std::abs(r[i * n + j]);
        for (int kk = 0; kk < k; ++kk) {
          double t = x[size_t(i) * k + kk] * w[size_t(j) * k + kk];
          sum += t;
          magnitude += std::abs(t);
        }
        double want = std::max(sum + bias[j], 0.0) + r[size_t(i) * n + j];
        double got = fromStorage(
            Precision::f16,
            reinterpret_cast<const unsigned char *>(&y[size_t(i) * n + j]));
        double err = std::isnan(got) ? INFINITY
                                     : std::abs(got - want) /
                                           (magnitude + std::abs(want));
        worstRow[i] = std::max(worstRow[i], err);
      }
    });
    double worst = *std::max_element(worstRow.begin(), worstRow.end());
    std::printf("linear M=%d N=%d K=%d: worst error = %.3g\n", m, n, k,
                worst);
    EXPECT_LE(worst, 1e-2);
    EXPECT_EQ(y.back(), 0xFFFF) << "element past the end written";
  }
}

TEST_F(MatmulTest, F16) { runShapes(Precision::f16); }
TEST_F(MatmulTest, BF16) { runShapes(Precision::bf16); }
TEST_F(MatmulTest, F32IEEE) { runShapes(Precision::f32); }
TEST_F(MatmulTest, TF32) { runShapes(Precision::tf32); }

/// The launch of a tuned kernel: the grid from the configuration's blocks.
Launcher tunedLauncher(TunedKernel &tuned) {
  return [&tuned](const Case &c, const std::vector<Arg> &args) {
    tuned.launchArgs(
        [&](const Config &config) {
          return Grid(ceilDiv(c.m, config.get("BM")),
                      ceilDiv(c.n, config.get("BN")));
        },
        args);
  };
}

TEST_F(MatmulTest, Autotuned) {
  // A source no earlier run tuned (the tuning store is keyed by it), with
  // configurations whose blocks differ, so a grid from the wrong one leaves
  // output unwritten; the last does not compile (BM not a power of two).
  std::string source = kernelSource(Precision::f16) + "// autotune test " +
                       std::to_string(seed) + "\n";
  std::vector<Config> configs =
      Config::parseList("BM=64,BN=64,BK=32,num_warps=4,num_stages=2;"
                        "BM=128,BN=128,BK=32,num_warps=4,num_stages=3;"
                        "BM=128,BN=64,BK=64,num_warps=4,num_stages=4;"
                        "BM=96,BN=64,BK=32");
  AutotuneOptions options;
  options.key = {"M", "N", "K"};
  TunedKernel tuned = autotuneSource(*rt, source, "tuned.tile", "matmul_relu",
                                     configs, options);
  const Case first{Precision::f16, 300, 200, 100, 100, 200, 200};
  check(first, tunedLauncher(tuned));
  std::vector<TuningResult> results = tuned.results();
  ASSERT_EQ(results.size(), 1u);
  const TuningResult &r = results[0];
  EXPECT_FALSE(r.fromDisk);
  EXPECT_EQ(r.key, "M=300,N=200,K=100;aligned=a,b,c");
  ASSERT_EQ(r.ms.size(), 4u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_GT(r.ms[i], 0) << configs[i].str() << ": " << r.failures[i];
  EXPECT_LT(r.ms[3], 0);
  EXPECT_NE(r.failures[3].find("power of two"), std::string::npos)
      << r.failures[3];
  EXPECT_LT(r.best, 3u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_LE(r.ms[r.best], r.ms[i]);

  // The same shape key (other leading dimensions are not part of it): no
  // tuning; another shape: tuned.
  check({Precision::f16, 300, 200, 100, 112, 208, 216}, tunedLauncher(tuned));
  EXPECT_EQ(tuned.results().size(), 1u);
  check({Precision::f16, 129, 257, 33, 33, 257, 257}, tunedLauncher(tuned));
  EXPECT_EQ(tuned.results().size(), 2u);

  // A new TunedKernel, as in a second process, reads the choice from disk.
  TunedKernel again = autotuneSource(*rt, source, "tuned.tile", "matmul_relu",
                                     configs, options);
  check(first, tunedLauncher(again));
  ASSERT_EQ(again.results().size(), 1u);
  EXPECT_TRUE(again.results()[0].fromDisk);
  EXPECT_EQ(again.results()[0].best, r.best);
  EXPECT_TRUE(again.results()[0].ms.empty());

  // Pinned: that configuration for every shape, nothing tuned.
  again.pin(2);
  check({Precision::f16, 513, 77, 250, 250, 77, 77}, tunedLauncher(again));
  EXPECT_EQ(again.results().size(), 1u);
  EXPECT_THROW(again.pin(4), Error);
  again.unpin();
  check({Precision::f16, 64, 64, 64, 64, 64, 64}, tunedLauncher(again));
  EXPECT_EQ(again.results().size(), 2u);
}

TEST_F(MatmulTest, AutotuneErrors) {
  std::string source = kernelSource(Precision::f16);
  std::vector<Config> configs =
      Config::parseList("BM=64,BN=64,BK=32;BM=128,BN=128,BK=32");
  AutotuneOptions options;
  options.key = {"M", "Q"};
  try {
    autotuneSource(*rt, source, "tuned.tile", "matmul_relu", configs, options);
    ADD_FAILURE() << "unknown key accepted";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("key 'Q' is not an integer argument"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(autotuneSource(*rt, source, "tuned.tile", "matmul_relu",
                              {configs[0], configs[0]}),
               Error);
  // No configuration can launch (a grid of 0 blocks): the error lists each
  // configuration with its reason.
  TunedKernel tuned =
      autotuneSource(*rt, source, "tuned.tile", "matmul_relu", configs);
  Buffer buffer = rt->alloc(1 << 16);
  try {
    tuned.launch([](const Config &) { return Grid(0); }, buffer, buffer, buffer,
                 int32_t(16), int32_t(16), int32_t(16), int32_t(16),
                 int32_t(16), int32_t(16));
    ADD_FAILURE() << "launch with no runnable configuration";
  } catch (const Error &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("no configuration ran"), std::string::npos) << what;
    EXPECT_NE(what.find("BK=32,BM=64,BN=64,num_warps=4,num_stages=3: "),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("outside the device's limits"), std::string::npos)
        << what;
  }
}

/// One attention kernel: element type, head dim, mask, configuration and
/// example.
struct AttentionCase {
  bool bf16;
  int d;
  bool causal;
  int bm, bn, warps;
  std::string example = "attention.tile";
  /// False: cp.async stages (no TMA, no producer; attention_fa3's turns
  /// beside the pipeline's block barriers).
  bool tma = true;
  /// attention_persistent.tile's programs (its grid; 0: one program per
  /// query block and head, the other examples' grid).
  unsigned programs = 0;
  /// The sequence length (0: the test's).
  int n = 0;
};

/// examples/attention.tile and attention_fa3.tile against an fp64
/// softmax(Q Kᵀ s) V of the rounded inputs, for head dims 64 and 128,
/// causal and not, f16 and bf16, in block configurations the autotuner may
/// pick (attention_fa3 on 8 warps: a producer warpgroup, warpgroups taking
/// turns), at a sequence length that is a multiple of no block; and
/// attention_persistent.tile on fewer programs than tiles (each takes
/// several; the producer's copy of the tile loop feeds them), on more, and
/// with an odd count of query blocks (a causal pair of one block).
TEST_F(MatmulTest, AttentionExample) {
  auto sourceOf = [&](const AttentionCase &c) {
    std::string source = readExample(c.example.c_str());
    if (c.bf16)
      for (size_t at = 0; (at = source.find("f16", at)) != std::string::npos;
           at += 4)
        source.replace(at, 3, "bf16");
    return source;
  };
  const int heads = 3, length = smallOnly() ? 200 : 1000;
  std::vector<AttentionCase> cases;
  for (int d : {64, 128})
    for (bool causal : {false, true})
      for (auto [bm, bn, warps] : std::vector<std::array<int, 3>>{
               {128, 64, 4}, {128, 64, 8}, {64, 32, 4}, {128, 128, 8}})
        cases.push_back({false, d, causal, bm, bn, warps});
  // Key blocks longer than query blocks (the causal unmasked loop ends at
  // a whole key block).
  cases.push_back({false, 64, true, 64, 128, 4});
  cases.push_back({true, 64, false, 128, 64, 4});
  cases.push_back({true, 128, true, 128, 64, 8});
  // Head dimension 256 with the default stages: on sm_90a Q (128 x 256) is
  // copied once into shared memory and the loops' pipelines leave it room
  // (two stages).
  cases.push_back({false, 256, false, 128, 64, 4});
  cases.push_back({false, 256, true, 128, 64, 8});
  for (int d : {64, 128})
    for (bool causal : {false, true})
      for (auto [bm, bn, warps] : std::vector<std::array<int, 3>>{
               {128, 128, 8}, {128, 64, 8}, {128, 64, 4}})
        cases.push_back(
            {false, d, causal, bm, bn, warps, "attention_fa3.tile"});
  cases.push_back({true, 128, true, 128, 128, 8, "attention_fa3.tile"});
  for (bool causal : {false, true})
    cases.push_back(
        {false, 128, causal, 128, 128, 8, "attention_fa3.tile", false});
  const std::string persistent = "attention_persistent.tile";
  for (int d : {64, 128})
    for (bool causal : {false, true})
      for (auto [bm, bn] :
           std::vector<std::array<int, 2>>{{128, 128}, {128, 64}})
        cases.push_back({false, d, causal, bm, bn, 8, persistent, true, 7});
  cases.push_back({true, 128, true, 128, 128, 8, persistent, true, 5});
  cases.push_back({false, 64, true, 128, 128, 8, persistent, true, 1000});
  cases.push_back({false, 128, true, 128, 128, 8, persistent, true, 4, 1100});
  cases.push_back({false, 64, true, 64, 64, 4, persistent, true, 9});
  cases.push_back({false, 128, true, 128, 128, 8, persistent, false, 6});
  for (const AttentionCase &c : cases) {
    SCOPED_TRACE(c.example + (c.bf16 ? " bf16" : " f16") +
                 " D=" + std::to_string(c.d) + (c.causal ? " causal" : "") +
                 " BM=" + std::to_string(c.bm) + " BN=" + std::to_string(c.bn) +
                 " warps=" + std::to_string(c.warps) +
                 (c.tma ? "" : " cp.async") +
                 (c.programs ? " programs=" + std::to_string(c.programs) : "") +
                 (c.n ? " N=" + std::to_string(c.n) : ""));
    ModuleOptions options;
    options.numWarps = c.warps;
    options.tma = c.tma;
    // The persistent example with two stages, as bench/attention.py tunes
    // it.
    if (c.programs)
      options.numStages = 2;
    Module m = rt->compileSource(sourceOf(c), c.example,
                                 {{"D", std::to_string(c.d)},
                                  {"BM", std::to_string(c.bm)},
                                  {"BN", std::to_string(c.bn)},
                                  {"CAUSAL", c.causal ? "1" : "0"}},
                                 options);
    Precision precision = c.bf16 ? Precision::bf16 : Precision::f16;
    const int n = c.n ? c.n : length;
    size_t count = size_t(heads) * n * c.d;
    std::uniform_real_distribution<float> dist(-2, 2);
    std::vector<double> q(count), k(count), v(count);
    auto make = [&](std::vector<double> &ref) {
      std::vector<uint16_t> bits(count);
      for (size_t i = 0; i < count; ++i)
        bits[i] = uint16_t(toStorage(precision, dist(rng), ref[i]));
      return uploadVector(*rt, bits);
    };
    Buffer dq = make(q), dk = make(k), dv = make(v);
    Buffer dout = rt->alloc((count + 1) * 2);
    dout.fill(0xFF);
    float scale = 1.0f / std::sqrt(float(c.d));
    if (c.programs)
      m.kernel("attention")
          .launch(Grid(c.programs), dq, dk, dv, dout, int32_t(n), scale,
                  int32_t(heads));
    else
      m.kernel("attention")
          .launch(Grid(unsigned((n + c.bm - 1) / c.bm), heads), dq, dk, dv,
                  dout, int32_t(n), scale);
    rt->synchronize();
    std::vector<uint16_t> out = downloadVector<uint16_t>(dout, count + 1);
    // |O - ref| within 1e-2 of the weighted mean of |V| (the rounding of P
    // to 16 bits and of the output), per element.
    std::vector<double> worstRow(size_t(heads) * n, 0);
    parallelRows(heads * n, [&](int row) {
      int h = row / n, i = row % n;
      const double *qi = &q[size_t(row) * c.d];
      int keys = c.causal ? i + 1 : n;
      std::vector<double> p(keys);
      double mx = -INFINITY;
      for (int j = 0; j < keys; ++j) {
        const double *kj = &k[(size_t(h) * n + j) * c.d];
        double s = 0;
        for (int t = 0; t < c.d; ++t)
          s += qi[t] * kj[t];
        p[j] = s * double(scale);
        mx = std::max(mx, p[j]);
      }
      double sum = 0;
      for (int j = 0; j < keys; ++j)
        sum += p[j] = std::exp(p[j] - mx);
      for (int t = 0; t < c.d; ++t) {
        double want = 0, magnitude = 0;
        for (int j = 0; j < keys; ++j) {
          double vj = v[(size_t(h) * n + j) * c.d + t];
          want += p[j] * vj;
          magnitude += p[j] * std::abs(vj);
        }
        double got =
            fromStorage(precision, reinterpret_cast<const unsigned char *>(
                                       &out[size_t(row) * c.d + t]));
        double err = std::isnan(got)
                         ? INFINITY
                         : std::abs(got - want / sum) / (magnitude / sum);
        worstRow[row] = std::max(worstRow[row], err);
      }
    });
    size_t wrong = 0;
    for (size_t row = 0; row < worstRow.size(); ++row)
      if (worstRow[row] > 1e-2 && wrong++ < 3)
        ADD_FAILURE() << "head " << row / n << " row " << row % n
                      << ": relative error " << worstRow[row];
    double worst = *std::max_element(worstRow.begin(), worstRow.end());
    std::printf("%s %s D=%d%s BM=%d BN=%d warps=%d%s programs=%u N=%d: "
                "worst error %.3g\n",
                c.example.c_str(), c.bf16 ? "bf16" : "f16", c.d,
                c.causal ? " causal" : "", c.bm, c.bn, c.warps,
                c.tma ? "" : " cp.async", c.programs, n, worst);
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(out[count], 0xFFFF) << "element past the end written";
  }
}

/// sm_90a: attention's K and V go through 3-D tensor maps, one slice per
/// head. K given as a view one head into a larger allocation (the head
/// before it NaN) gives the same output as K in an allocation of its own,
/// and so does K in an allocation of one head more than it needs (the map
/// reads the heads the program names, wherever the allocation ends).
TEST_F(MatmulTest, AttentionHeadSlices) {
  const int heads = 2, n = 200, d = 64;
  ModuleOptions options;
  options.arch = "sm_90a";
  options.numStages = 2;
  Module m =
      rt->compileSource(readExample("attention.tile"), "attention.tile",
                        {{"D", "64"}, {"BM", "64"}, {"BN", "64"}}, options);
  size_t count = size_t(heads) * n * d;
  std::uniform_real_distribution<float> dist(-2, 2);
  auto randomHalves = [&](size_t elements) {
    std::vector<uint16_t> bits(elements);
    double unused;
    for (uint16_t &b : bits)
      b = uint16_t(toStorage(Precision::f16, dist(rng), unused));
    return bits;
  };
  std::vector<uint16_t> kHost = randomHalves(count);
  Buffer q = uploadVector(*rt, randomHalves(count));
  Buffer v = uploadVector(*rt, randomHalves(count));
  Buffer k = uploadVector(*rt, kHost);
  std::vector<uint16_t> shifted(size_t(n) * d, 0xFFFF);
  shifted.insert(shifted.end(), kHost.begin(), kHost.end());
  Buffer kView = uploadVector(*rt, shifted);
  auto run = [&](Arg kArg) {
    Buffer out = rt->alloc(count * 2);
    out.fill(0xFF);
    m.kernel("attention")
        .launch(Grid(unsigned((n + 63) / 64), heads), q, kArg, v, out,
                int32_t(n), 0.125f);
    rt->synchronize();
    return downloadVector<uint16_t>(out, count);
  };
  std::vector<uint16_t> own = run(k);
  std::vector<uint16_t> view =
      run(DevicePtr{kView.ptr().address + size_t(n) * d * 2});
  size_t nans = 0, differ = 0;
  for (size_t i = 0; i < count; ++i) {
    nans += (own[i] & 0x7C00) == 0x7C00;
    differ += own[i] != view[i];
  }
  EXPECT_EQ(nans, 0u);
  EXPECT_EQ(differ, 0u);
  std::vector<uint16_t> padded = kHost;
  padded.resize(count + size_t(n) * d, 0xFFFF);
  Buffer kPadded = uploadVector(*rt, padded);
  std::vector<uint16_t> roomy = run(kPadded);
  size_t differPadded = 0;
  for (size_t i = 0; i < count; ++i)
    differPadded += own[i] != roomy[i];
  EXPECT_EQ(differPadded, 0u);
}

/// sm_90a: loops whose loads are tiles of one slice of packed 3-D tensors
/// (per head h: C_h = A_h B_h, A_h at a + h * M * K, B_h at b + h * K * N,
/// both read through 3-D tensor maps), with the MMAs in flight (3 stages:
/// copies branched around, behind the dot's wait) and without (2 stages:
/// predicated copies after the dot); sizes multiples of no block, against
/// an fp64 reference within 1e-3 of sum |a b|.
TEST_F(MatmulTest, HeadSlicesInLoops) {
  const char *source = R"(
kernel head_matmul(a: ptr<f16>, b: ptr<f16>, c: ptr<f32>, M: i32, N: i32, K: i32,
                   const BM: i32 = 64, const BN: i32 = 64, const BK: i32 = 32) {
  let h = program_id(2);
  let rm = program_id(0) * BM + range(0, BM);
  let rn = program_id(1) * BN + range(0, BN);
  let rk0 = range(0, BK);
  var acc = zeros([BM, BN], f32);
  for k in range(0, K, BK) {
    let rk = k + rk0;
    let at = load(a + h * M * K + rm[:, None] * K + rk[None, :],
                  (rm[:, None] < M) & (rk[None, :] < K), other: 0.0);
    let bt = load(b + h * K * N + rk[:, None] * N + rn[None, :],
                  (rk[:, None] < K) & (rn[None, :] < N), other: 0.0);
    acc = dot(at, bt, acc);
  }
  store(c + h * M * N + rm[:, None] * N + rn[None, :], acc,
        (rm[:, None] < M) & (rn[None, :] < N));
}
)";
  const int heads = 3, m = 200, n = 136, k = 104;
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<double> a(size_t(heads) * m * k), b(size_t(heads) * k * n);
  auto make = [&](std::vector<double> &ref) {
    std::vector<uint16_t> bits(ref.size());
    for (size_t i = 0; i < ref.size(); ++i)
      bits[i] = uint16_t(toStorage(Precision::f16, dist(rng), ref[i]));
    return uploadVector(*rt, bits);
  };
  Buffer da = make(a), db = make(b);
  for (unsigned stages : {3u, 2u}) {
    SCOPED_TRACE("stages " + std::to_string(stages));
    ModuleOptions options;
    options.arch = "sm_90a";
    options.numStages = stages;
    Module module = rt->compileSource(source, "head_matmul.tile", {}, options);
    size_t count = size_t(heads) * m * n;
    Buffer dc = rt->alloc(count * 4);
    dc.fill(0xFF);
    module.kernel("head_matmul")
        .launch(Grid(unsigned((m + 63) / 64), unsigned((n + 63) / 64), heads),
                da, db, dc, int32_t(m), int32_t(n), int32_t(k));
    rt->synchronize();
    std::vector<float> got = downloadVector<float>(dc, count);
    size_t wrong = 0;
    for (int h = 0; h < heads; ++h)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          double want = 0, magnitude = 0;
          for (int t = 0; t < k; ++t) {
            double term =
                a[(size_t(h) * m + i) * k + t] * b[(size_t(h) * k + t) * n + j];
            want += term;
            magnitude += std::abs(term);
          }
          double value = got[(size_t(h) * m + i) * n + j];
          if (!(std::abs(value - want) <= 1e-3 * magnitude + 1e-6) &&
              wrong++ < 3)
            ADD_FAILURE() << "head " << h << " (" << i << ", " << j
                          << "): " << value << ", want " << want;
        }
    EXPECT_EQ(wrong, 0u);
  }
}

/// Batched (3-D) dots (test/Interpreter/Inputs/batched_dot.tile: B given
/// [B, N, K], an accumulator loaded from memory), computed as one 2-D dot
/// per batch by tile-decompose-batched-dot, on the tensor cores the shapes
/// allow (m16n8 mma.sync, and m64 warpgroup MMAs where M is 64 per 4
/// warps); against an fp64 reference of the f16 inputs, within 1e-3 of
/// sum |a b| + |c|.
TEST_F(MatmulTest, BatchedDot) {
  struct Shape {
    int batches, m, k, n;
    unsigned warps;
  };
  for (Shape s : {Shape{2, 16, 32, 16, 4}, Shape{4, 64, 64, 64, 4},
                  Shape{2, 64, 32, 128, 4}, Shape{8, 32, 16, 8, 1}}) {
    ModuleOptions options;
    options.numWarps = s.warps;
    Module module = rt->compileFile(interpreterInput("batched_dot.tile"),
                                    {{"B", std::to_string(s.batches)},
                                     {"M", std::to_string(s.m)},
                                     {"K", std::to_string(s.k)},
                                     {"N", std::to_string(s.n)}},
                                    options);
    size_t na = size_t(s.batches) * s.m * s.k,
           nb = size_t(s.batches) * s.n * s.k,
           nc = size_t(s.batches) * s.m * s.n;
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<uint16_t> a(na), b(nb);
    std::vector<double> ra(na), rb(nb);
    for (size_t i = 0; i < na; ++i)
      a[i] = uint16_t(toStorage(Precision::f16, dist(rng), ra[i]));
    for (size_t i = 0; i < nb; ++i)
      b[i] = uint16_t(toStorage(Precision::f16, dist(rng), rb[i]));
    std::vector<float> c(nc);
    for (float &v : c)
      v = dist(rng);
    // Operands loaded per batch; and a loop over K in steps of 16 whose
    // carried accumulator's batches are taken out of it each iteration.
    for (const char *name : {"batched", "batched_loop"}) {
      Buffer da = uploadVector(*rt, a), db = uploadVector(*rt, b),
             dc = uploadVector(*rt, c), out = poisoned(nc + 1);
      module.kernel(name).launch({1}, da, db, dc, out);
      rt->synchronize();
      std::vector<float> got = download(out, nc + 1);
      int bad = 0;
      for (int i = 0; i < s.batches; ++i)
        for (int m = 0; m < s.m; ++m)
          for (int n = 0; n < s.n; ++n) {
            size_t at = (size_t(i) * s.m + m) * s.n + n;
            double want = c[at], scale = std::abs(c[at]);
            for (int k = 0; k < s.k; ++k) {
              double p = ra[(size_t(i) * s.m + m) * s.k + k] *
                         rb[(size_t(i) * s.n + n) * s.k + k];
              want += p;
              scale += std::abs(p);
            }
            if (!(std::abs(got[at] - want) <= 1e-3 * scale) && bad++ < 5)
              ADD_FAILURE()
                  << name << " " << s.batches << "x" << s.m << "x" << s.k << "x"
                  << s.n << " warps " << s.warps << ": [" << i << ", " << m
                  << ", " << n << "] = " << got[at] << ", want " << want;
          }
      EXPECT_EQ(bad, 0) << name;
      EXPECT_TRUE(std::isnan(got[nc]))
          << name << ": element past the end written";
    }
  }
}

} // namespace
