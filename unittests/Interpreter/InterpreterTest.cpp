//===- InterpreterTest.cpp - kernels on the CPU vs fp64 references --------===//
//
// Runs the examples (and kernels with loops, branches and helpers) on the
// interpreter with fresh random inputs, sizes that are not multiples of the
// block, and outputs poisoned with NaN, and checks every element against a
// double-precision reference. Also checks that the tile pipeline preserves
// what each example computes.
//
//===----------------------------------------------------------------------===//
#include "tile/Frontend/MLIRGen.h"
#include "tile/InitAllDialects.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Pipeline/Pipeline.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace tile;
using namespace tile::interp;

namespace {

/// A compiled .tile program and the diagnostics its compilation produced.
struct Program {
  Program() : context(registry()) {}
  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    registerAllTileDialects(r);
    return r;
  }
  KernelOp kernel() { return *module->getOps<KernelOp>().begin(); }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string diagnostics;
};

/// Compiles `source` (or the example `name`.tile) with `overrides`; runs the
/// tile pipeline unless `raw`.
std::unique_ptr<Program> compile(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                 const ConstOverrides &overrides,
                                 bool raw = false) {
  auto program = std::make_unique<Program>();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mlir::ScopedDiagnosticHandler handler(
      &program->context, [&](mlir::Diagnostic &d) {
        program->diagnostics += d.str() + "\n";
        return mlir::success();
      });
  program->module = compileTileSource(sourceMgr, program->context, overrides);
  if (program->module && !raw) {
    mlir::PassManager pm(&program->context);
    buildTilePipeline(pm, PipelineOptions{});
    if (failed(pm.run(*program->module)))
      program->module = nullptr;
  }
  return program;
}

std::unique_ptr<Program> compileExample(llvm::StringRef name,
                                        const ConstOverrides &overrides,
                                        bool raw = false) {
  std::string path = std::string(TILE_EXAMPLES_DIR) + "/" + name.str() + ".tile";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return nullptr;
  return compile(std::move(*buffer), overrides, raw);
}

std::unique_ptr<Program> compileString(llvm::StringRef source) {
  return compile(llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), {});
}

/// A fresh random engine per test; the seed is printed on failure.
struct Rng {
  Rng() : seed(std::random_device{}()), engine(seed) {}
  void fill(HostBuffer &b, double lo, double hi) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (size_t i = 0; i < b.size(); ++i)
      b.setFloat(i, dist(engine));
  }
  unsigned seed;
  std::mt19937_64 engine;
};

/// Keeps the text of the latest diagnostic emitted in `context`.
struct LastDiagnostic : mlir::ScopedDiagnosticHandler {
  LastDiagnostic(mlir::MLIRContext &context, std::string &message)
      : mlir::ScopedDiagnosticHandler(&context, [&message](mlir::Diagnostic &d) {
          message = d.str();
          return mlir::success();
        }) {}
};

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

//===----------------------------------------------------------------------===//
// vector_add
//===----------------------------------------------------------------------===//

class VectorAdd : public ::testing::TestWithParam<int64_t> {};

TEST_P(VectorAdd, MatchesReference) {
  int64_t n = GetParam();
  Rng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed) + ", n " + std::to_string(n));
  auto program = compileExample("vector_add", {});
  ASSERT_TRUE(program && program->module) << program->diagnostics;
  HostBuffer x(ScalarKind::F32, n), y(ScalarKind::F32, n);
  HostBuffer out(ScalarKind::F32, n + 37); // Slack past n must stay poisoned.
  rng.fill(x, -10, 10);
  rng.fill(y, -10, 10);
  out.fill(NAN);
  ASSERT_TRUE(succeeded(runKernel(program->kernel(), {cdiv(n, 1024), 1, 1},
                                  {KernelArg::ofBuffer(x), KernelArg::ofBuffer(y),
                                   KernelArg::ofBuffer(out), KernelArg::ofInt(n)})))
      << program->diagnostics;
  for (int64_t i = 0; i < n; ++i) {
    double ref = x.getFloat(i) + y.getFloat(i);
    ASSERT_NEAR(out.getFloat(i), ref, 1e-6 * std::fabs(ref) + 1e-7) << "at " << i;
  }
  for (int64_t i = n; i < n + 37; ++i)
    ASSERT_TRUE(std::isnan(out.getFloat(i))) << "wrote past n at " << i;
}

INSTANTIATE_TEST_SUITE_P(Sizes, VectorAdd,
                         ::testing::Values(1, 1000, 1024, 1025, 5000));

//===----------------------------------------------------------------------===//
// softmax
//===----------------------------------------------------------------------===//

class Softmax
    : public ::testing::TestWithParam<std::tuple<int64_t, int64_t, int64_t>> {};

TEST_P(Softmax, MatchesReference) {
  auto [rows, cols, block] = GetParam();
  int64_t stride = cols + 5; // Rows padded: the padding must stay untouched.
  Rng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed));
  auto program = compileExample("softmax", {{"BLOCK", std::to_string(block)}});
  ASSERT_TRUE(program && program->module) << program->diagnostics;
  HostBuffer in(ScalarKind::F32, rows * stride), out(ScalarKind::F32, rows * stride);
  rng.fill(in, -8, 8);
  out.fill(NAN);
  ASSERT_TRUE(succeeded(runKernel(
      program->kernel(), {rows, 1, 1},
      {KernelArg::ofBuffer(out), KernelArg::ofBuffer(in),
       KernelArg::ofInt(stride), KernelArg::ofInt(cols)})))
      << program->diagnostics;
  for (int64_t r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      mx = std::max(mx, in.getFloat(r * stride + c));
    for (int64_t c = 0; c < cols; ++c)
      sum += std::exp(in.getFloat(r * stride + c) - mx);
    for (int64_t c = 0; c < cols; ++c) {
      double ref = std::exp(in.getFloat(r * stride + c) - mx) / sum;
      ASSERT_NEAR(out.getFloat(r * stride + c), ref, 1e-5 * ref + 1e-9)
          << "row " << r << " col " << c;
    }
    for (int64_t c = cols; c < stride; ++c)
      ASSERT_TRUE(std::isnan(out.getFloat(r * stride + c)))
          << "wrote padding at row " << r << " col " << c;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Softmax,
                         ::testing::Values(std::make_tuple(1, 1, 1024),
                                           std::make_tuple(3, 781, 1024),
                                           std::make_tuple(4, 1024, 1024),
                                           std::make_tuple(5, 100, 128)));

//===----------------------------------------------------------------------===//
// matmul_relu
//===----------------------------------------------------------------------===//

struct MatmulCase {
  int64_t m, n, k;
  const char *bm, *bn, *bk;
};

class MatmulRelu : public ::testing::TestWithParam<MatmulCase> {};

TEST_P(MatmulRelu, MatchesReference) {
  MatmulCase p = GetParam();
  int64_t lda = p.k + 3, ldb = p.n + 2, ldc = p.n + 1; // Strided rows.
  Rng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed));
  auto program = compileExample("matmul_relu",
                                {{"BM", p.bm}, {"BN", p.bn}, {"BK", p.bk}});
  ASSERT_TRUE(program && program->module) << program->diagnostics;
  HostBuffer a(ScalarKind::F16, p.m * lda), b(ScalarKind::F16, p.k * ldb);
  HostBuffer c(ScalarKind::F16, p.m * ldc);
  rng.fill(a, -1, 1);
  rng.fill(b, -1, 1);
  c.fill(NAN);
  int64_t bm = std::stoll(p.bm), bn = std::stoll(p.bn);
  ASSERT_TRUE(succeeded(runKernel(
      program->kernel(), {cdiv(p.m, bm), cdiv(p.n, bn), 1},
      {KernelArg::ofBuffer(a), KernelArg::ofBuffer(b), KernelArg::ofBuffer(c),
       KernelArg::ofInt(p.m), KernelArg::ofInt(p.n), KernelArg::ofInt(p.k),
       KernelArg::ofInt(lda), KernelArg::ofInt(ldb), KernelArg::ofInt(ldc)})))
      << program->diagnostics;
  for (int64_t i = 0; i < p.m; ++i) {
    for (int64_t j = 0; j < p.n; ++j) {
      double ref = 0;
      for (int64_t k = 0; k < p.k; ++k)
        ref += a.getFloat(i * lda + k) * b.getFloat(k * ldb + j);
      ref = std::max(ref, 0.0);
      ASSERT_NEAR(c.getFloat(i * ldc + j), ref, 1e-2 * ref + 1e-3)
          << "C[" << i << ", " << j << "]";
    }
    ASSERT_TRUE(std::isnan(c.getFloat(i * ldc + p.n)))
        << "wrote padding of row " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatmulRelu,
    ::testing::Values(MatmulCase{1, 1, 1, "128", "128", "32"},
                      MatmulCase{127, 129, 65, "32", "32", "16"},
                      MatmulCase{64, 48, 100, "64", "16", "32"}));

//===----------------------------------------------------------------------===//
// Language features
//===----------------------------------------------------------------------===//

TEST(Interpreter, LoopsBranchesHelpersAndEarlyReturn) {
  auto program = compileString(R"(
fn clamp01(v) { return minimum(maximum(v, 0.0), 1.0); }
kernel k(x: ptr<f32>, out: ptr<f32>, n: i32) {
  let pid = program_id(0);
  if pid * 64 >= n {
    return;
  }
  let offs = pid * 64 + range(0, 64);
  let mask = offs < n;
  var acc = zeros([64], f32);
  for i in range(0, 3) {
    acc = acc + load(x + offs, mask, other: 0.0) * cast(i, f32);
  }
  var scale = 1.0;
  if pid == 1 {
    scale = 2.0;
  }
  store(out + offs, clamp01(acc) * scale, mask);
}
)");
  ASSERT_TRUE(program->module) << program->diagnostics;
  Rng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed));
  int64_t n = 150;
  HostBuffer x(ScalarKind::F32, n), out(ScalarKind::F32, n);
  rng.fill(x, -0.5, 0.5);
  out.fill(NAN);
  // Grid of 4: program 3 starts at 192 >= n and returns early.
  ASSERT_TRUE(succeeded(runKernel(program->kernel(), {4, 1, 1},
                                  {KernelArg::ofBuffer(x), KernelArg::ofBuffer(out),
                                   KernelArg::ofInt(n)})))
      << program->diagnostics;
  for (int64_t i = 0; i < n; ++i) {
    double ref = std::min(std::max(3.0 * x.getFloat(i), 0.0), 1.0);
    if (i / 64 == 1)
      ref *= 2;
    ASSERT_NEAR(out.getFloat(i), ref, 1e-6) << "at " << i;
  }
}

TEST(Interpreter, TF32DotTruncatesInputs) {
  // precision: tf32 keeps each input's top 10 mantissa bits, truncated (what
  // the tensor core reads from f32 registers); ieee keeps them all.
  auto program = compileString(R"(
kernel k(a: ptr<f32>, b: ptr<f32>, tf: ptr<f32>, ieee: ptr<f32>) {
  let r = range(0, 16);
  let av = load(a + r[:, None] * 16 + r[None, :]);
  let bv = load(b + r[:, None] * 16 + r[None, :]);
  let offs = r[:, None] * 16 + r[None, :];
  store(tf + offs, dot(av, bv, precision: tf32));
  store(ieee + offs, dot(av, bv));
}
)");
  ASSERT_TRUE(program->module) << program->diagnostics;
  Rng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed));
  HostBuffer a(ScalarKind::F32, 256), b(ScalarKind::F32, 256);
  HostBuffer tf(ScalarKind::F32, 256), ieee(ScalarKind::F32, 256);
  rng.fill(a, -1, 1);
  rng.fill(b, -1, 1);
  tf.fill(NAN);
  ieee.fill(NAN);
  ASSERT_TRUE(succeeded(runKernel(
      program->kernel(), {1, 1, 1},
      {KernelArg::ofBuffer(a), KernelArg::ofBuffer(b), KernelArg::ofBuffer(tf),
       KernelArg::ofBuffer(ieee)})))
      << program->diagnostics;
  auto truncate = [](double x) {
    float f = static_cast<float>(x);
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    u &= ~0x1FFFu;
    std::memcpy(&f, &u, sizeof(f));
    return static_cast<double>(f);
  };
  int differs = 0;
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      double refTf = 0, refIeee = 0;
      for (int64_t k = 0; k < 16; ++k) {
        refTf += truncate(a.getFloat(i * 16 + k)) * truncate(b.getFloat(k * 16 + j));
        refIeee += a.getFloat(i * 16 + k) * b.getFloat(k * 16 + j);
      }
      EXPECT_NEAR(tf.getFloat(i * 16 + j), refTf, 1e-5) << i << ", " << j;
      EXPECT_NEAR(ieee.getFloat(i * 16 + j), refIeee, 1e-5) << i << ", " << j;
      differs += std::abs(tf.getFloat(i * 16 + j) - refIeee) > 1e-5;
    }
  // Truncation moves most sums by ~2^-11 relative: far more than 1e-5.
  EXPECT_GT(differs, 128);
}

TEST(Interpreter, IntegerSemantics) {
  auto program = compileString(R"(
kernel k(out: ptr<i32>, small: ptr<i8>) {
  let r = range(0, 8) - 4;
  store(out + range(0, 8), r / 3 + (r % 3) * 100 + cdiv(r, 3) * 10000);
  store(small + range(0, 8), cast(r * 40, i8));
}
)");
  ASSERT_TRUE(program->module) << program->diagnostics;
  HostBuffer out(ScalarKind::I32, 8), small(ScalarKind::I8, 8);
  ASSERT_TRUE(succeeded(runKernel(program->kernel(), {1, 1, 1},
                                  {KernelArg::ofBuffer(out),
                                   KernelArg::ofBuffer(small)})));
  for (int64_t i = 0; i < 8; ++i) {
    int64_t r = i - 4;
    int64_t q = r / 3, m = r % 3; // C semantics: truncation toward zero.
    int64_t c = (r % 3 != 0 && r > 0) ? q + 1 : q;
    EXPECT_EQ(out.getInt(i), q + m * 100 + c * 10000) << "r = " << r;
    EXPECT_EQ(small.getInt(i), static_cast<int8_t>(r * 40)) << "wraps to i8";
  }
}

TEST(Interpreter, ArgumentMismatchIsAnError) {
  auto program = compileExample("vector_add", {});
  ASSERT_TRUE(program && program->module);
  std::string message;
  LastDiagnostic handler(program->context, message);
  HostBuffer ints(ScalarKind::I32, 4), floats(ScalarKind::F32, 4);
  EXPECT_TRUE(failed(runKernel(program->kernel(), {1, 1, 1},
                               {KernelArg::ofBuffer(floats)})));
  EXPECT_EQ(message, "kernel 'vector_add' takes 4 argument(s), got 1");
  EXPECT_TRUE(failed(runKernel(program->kernel(), {1, 1, 1},
                               {KernelArg::ofBuffer(ints), KernelArg::ofBuffer(floats),
                                KernelArg::ofBuffer(floats), KernelArg::ofInt(4)})));
  EXPECT_EQ(message, "argument 0 is a buffer of i32 but the parameter is "
                     "'!tile.ptr<f32>'");
}

TEST(Interpreter, EmptyGridIsAnError) {
  auto program = compileExample("vector_add", {});
  ASSERT_TRUE(program && program->module);
  std::string message;
  LastDiagnostic handler(program->context, message);
  HostBuffer b(ScalarKind::F32, 4);
  EXPECT_TRUE(failed(runKernel(program->kernel(), {0, 1, 1},
                               {KernelArg::ofBuffer(b), KernelArg::ofBuffer(b),
                                KernelArg::ofBuffer(b), KernelArg::ofInt(4)})));
  EXPECT_EQ(message, "every grid dimension must be at least 1");
}

TEST(Interpreter, UnsupportedIRIsAnError) {
  // IR from outside the frontend may hold ops and constants the interpreter
  // does not execute; it says so instead of misbehaving.
  Program program;
  std::string message;
  LastDiagnostic handler(program.context, message);
  program.context.loadDialect<mlir::math::MathDialect>();
  program.module = mlir::parseSourceString<mlir::ModuleOp>(R"(
    tile.kernel @k(%x: f32) {
      %y = math.atan %x : f32
      tile.return
    })", &program.context);
  ASSERT_TRUE(program.module);
  EXPECT_TRUE(failed(runKernel(program.kernel(), {1, 1, 1},
                               {KernelArg::ofFloat(1.0)})));
  EXPECT_EQ(message, "the interpreter does not support 'math.atan'");

  program.module = mlir::parseSourceString<mlir::ModuleOp>(R"(
    tile.kernel @k() {
      %c = arith.constant dense_resource<blob> : tensor<2xf32>
      tile.return
    }
    {-#
      dialect_resources: {
        builtin: {
          blob: "0x040000000000803F00000040"
        }
      }
    #-})", &program.context);
  ASSERT_TRUE(program.module);
  EXPECT_TRUE(failed(runKernel(program.kernel(), {1, 1, 1}, {})));
  EXPECT_EQ(message, "the interpreter does not support this constant");
}

//===----------------------------------------------------------------------===//
// Pass preservation: the tile pipeline does not change what a kernel computes.
//===----------------------------------------------------------------------===//

TEST(PassPreservation, TilePipelineKeepsResults) {
  Rng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed));
  struct Run {
    const char *example;
    ConstOverrides overrides;
  };
  for (const Run &run :
       {Run{"vector_add", {}}, Run{"softmax", {}},
        Run{"matmul_relu", {{"BM", "32"}, {"BN", "32"}, {"BK", "16"}}}}) {
    SCOPED_TRACE(run.example);
    auto before = compileExample(run.example, run.overrides, /*raw=*/true);
    auto after = compileExample(run.example, run.overrides);
    ASSERT_TRUE(before && before->module && after && after->module);
    // One set of arguments: 3000 elements each, scalars that exercise masks.
    auto makeArgs = [&](KernelOp kernel, std::vector<HostBuffer> &buffers,
                        std::mt19937_64 engine) {
      std::vector<KernelArg> args;
      buffers.reserve(kernel.getNumArguments());
      std::uniform_real_distribution<double> dist(-1, 1);
      for (mlir::Type t : kernel.getArgumentTypes()) {
        if (auto ptr = llvm::dyn_cast<PointerType>(t)) {
          buffers.emplace_back(*scalarKindOf(ptr.getPointeeType()), 4096);
          for (size_t i = 0; i < 4096; ++i)
            buffers.back().setFloat(i, dist(engine));
          args.push_back(KernelArg::ofBuffer(buffers.back()));
        } else {
          args.push_back(KernelArg::ofInt(45)); // n, sizes and strides
        }
      }
      return args;
    };
    std::vector<HostBuffer> b1, b2;
    auto args1 = makeArgs(before->kernel(), b1, rng.engine);
    auto args2 = makeArgs(after->kernel(), b2, rng.engine);
    ASSERT_TRUE(succeeded(runKernel(before->kernel(), {2, 2, 1}, args1)))
        << before->diagnostics;
    ASSERT_TRUE(succeeded(runKernel(after->kernel(), {2, 2, 1}, args2)))
        << after->diagnostics;
    for (size_t b = 0; b < b1.size(); ++b)
      for (size_t i = 0; i < b1[b].size(); ++i) {
        double x = b1[b].getFloat(i), y = b2[b].getFloat(i);
        ASSERT_TRUE(x == y || (std::isnan(x) && std::isnan(y)))
            << "buffer " << b << " element " << i << ": " << x << " vs " << y;
      }
  }
}

} // namespace
