//===- tile-fuzz-programs.cpp - random programs against four oracles ------===//
//
// For each seed, generates a valid .tile program (ProgramGenerator.h) and
// checks:
//  1. the compiler never fails, crashes or hangs on it (--timeout per
//     program, all the way to PTX);
//  2. the interpreter gives the same results on the IR after every pass of
//     the pipeline it can run (up to the shared-memory staging) as on the
//     frontend's IR;
//  3. (--gpu) the driver's JIT (ptxas) accepts the PTX;
//  4. (--gpu) the GPU computes what the interpreter computed: bit for bit
//     where the generator says every execution agrees, else within the
//     generator's error bound.
// A failure prints the seed and writes the program, its inputs (.npy) and a
// tilec --run command to reproduce it under --failures.
//
//===----------------------------------------------------------------------===//
#include "ProgramGenerator.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Driver/Driver.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Interpreter/NumpyFile.h"
#include "tile/Runtime/Runtime.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace tile;
using namespace tile::interp;

namespace {

cl::OptionCategory fuzzCategory("tile-fuzz-programs options");

cl::opt<uint64_t> firstSeed("seed", cl::cat(fuzzCategory),
                            cl::desc("Seed of the first program"), cl::init(1));
cl::opt<uint64_t> programCount("count", cl::cat(fuzzCategory),
                               cl::desc("Programs to generate and check"),
                               cl::init(100));
cl::opt<unsigned> jobs("jobs", cl::cat(fuzzCategory),
                       cl::desc("Threads checking programs (CPU oracles; "
                                "--gpu uses one)"),
                       cl::init(1));
cl::opt<unsigned> timeout("timeout", cl::cat(fuzzCategory),
                          cl::desc("Seconds one program may take (default 60)"),
                          cl::init(60));
cl::opt<bool> useGPU("gpu", cl::cat(fuzzCategory),
                     cl::desc("Also run every program on the GPU"));
cl::opt<bool> printSource("print", cl::cat(fuzzCategory),
                          cl::desc("Print each program's source"));
cl::opt<std::string> sourceOverride(
    "source", cl::cat(fuzzCategory),
    cl::desc("Check this .tile file instead of the generated source, with "
             "the seed's arguments and launch (to narrow down a failure: "
             "edit the printed program, e.g. to store an intermediate)"),
    cl::value_desc("file"));
cl::opt<std::string> ptxOverride(
    "ptx", cl::cat(fuzzCategory),
    cl::desc("With --gpu: run this PTX instead of the compiled one (to try "
             "hand-edited PTX against the interpreter's results)"),
    cl::value_desc("file"));
cl::opt<std::string>
    failuresDir("failures", cl::cat(fuzzCategory),
                cl::desc("Where to write failing programs (default: "
                         "fuzz-failures)"),
                cl::init("fuzz-failures"));

/// One program's buffers and scalars, as the interpreter takes them.
struct Inputs {
  std::vector<std::unique_ptr<HostBuffer>> buffers;
  std::vector<KernelArg> args;
};

ScalarKind kindOf(const std::string &type) {
  static const std::pair<const char *, ScalarKind> kinds[] = {
      {"i1", ScalarKind::I1},     {"i8", ScalarKind::I8},
      {"i16", ScalarKind::I16},   {"i32", ScalarKind::I32},
      {"i64", ScalarKind::I64},   {"f16", ScalarKind::F16},
      {"bf16", ScalarKind::BF16}, {"f32", ScalarKind::F32},
      {"f64", ScalarKind::F64}};
  for (auto &[n, k] : kinds)
    if (type == n)
      return k;
  return ScalarKind::F32;
}

/// Fresh inputs (floats uniform in [-8, 8], integers in [-100, 100]) and
/// poisoned outputs (NaN, integers all ones).
Inputs makeInputs(const fuzz::GeneratedProgram &p) {
  Inputs in;
  std::mt19937_64 rng(p.inputSeed);
  std::uniform_real_distribution<double> real(-8, 8);
  std::uniform_int_distribution<int64_t> integer(-100, 100);
  for (const fuzz::GeneratedArg &a : p.args) {
    if (!a.isPointer) {
      in.args.push_back(a.type[0] == 'f' ? KernelArg::ofFloat(a.value)
                                         : KernelArg::ofInt(int64_t(a.value)));
      continue;
    }
    auto b = std::make_unique<HostBuffer>(kindOf(a.type), size_t(a.elements));
    if (a.isOutput)
      b->fill(NAN);
    else
      for (size_t i = 0; i < b->size(); ++i)
        b->isFloat() ? b->setFloat(i, real(rng)) : b->setInt(i, integer(rng));
    in.args.push_back(KernelArg::ofBuffer(*b));
    in.buffers.push_back(std::move(b));
  }
  return in;
}

/// A copy of `in` (the same values), for another run.
Inputs copyInputs(const fuzz::GeneratedProgram &p, const Inputs &in) {
  Inputs out;
  size_t b = 0;
  for (size_t i = 0; i < p.args.size(); ++i) {
    if (!p.args[i].isPointer) {
      out.args.push_back(in.args[i]);
      continue;
    }
    const HostBuffer &src = *in.buffers[b++];
    auto copy = std::make_unique<HostBuffer>(src.kind(), src.size());
    std::memcpy(copy->data(), src.data(), src.byteSize());
    out.args.push_back(KernelArg::ofBuffer(*copy));
    out.buffers.push_back(std::move(copy));
  }
  return out;
}

/// The first difference between two runs' outputs, or "".
std::string compareOutputs(const fuzz::GeneratedProgram &p, const Inputs &want,
                           const Inputs &got, bool exact) {
  size_t b = 0;
  for (const fuzz::GeneratedArg &a : p.args) {
    if (!a.isPointer)
      continue;
    const HostBuffer &w = *want.buffers[b], &g = *got.buffers[b];
    ++b;
    if (!a.isOutput)
      continue;
    for (size_t i = 0; i < w.size(); ++i) {
      bool same;
      if (!w.isFloat()) {
        same = w.getInt(i) == g.getInt(i);
      } else {
        double x = w.getFloat(i), y = g.getFloat(i);
        double tolerance = exact ? 0 : a.tolerance;
        same = (std::isnan(x) && std::isnan(y)) || x == y ||
               std::fabs(x - y) <= tolerance;
      }
      if (!same) {
        std::string s;
        raw_string_ostream os(s);
        os << a.name << "[" << i << "]: expected ";
        if (w.isFloat())
          os << format("%.17g", w.getFloat(i)) << ", got "
             << format("%.17g", g.getFloat(i)) << " (tolerance "
             << (exact ? 0 : a.tolerance) << ")";
        else
          os << w.getInt(i) << ", got " << g.getInt(i);
        return s;
      }
    }
  }
  return "";
}

/// Interprets the module's kernel on a copy of `inputs`; the outputs, or
/// the diagnostics in `error`.
std::optional<Inputs> interpret(mlir::ModuleOp module,
                                const fuzz::GeneratedProgram &p,
                                const Inputs &inputs, std::string &error) {
  KernelOp kernel;
  module.walk([&](KernelOp k) { kernel = k; });
  if (!kernel) {
    error = "no tile.kernel in the module";
    return std::nullopt;
  }
  Inputs run = copyInputs(p, inputs);
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(module.getContext(),
                                        [&](mlir::Diagnostic &d) {
                                          diagnostics += d.str() + "\n";
                                          return mlir::success();
                                        });
  if (failed(runKernel(kernel, p.grid, run.args))) {
    error = diagnostics;
    return std::nullopt;
  }
  return run;
}

/// After every pass, the interpreter on the pass's output agrees with the
/// reference; stops checking at the first stage it cannot run (shared
/// memory staging, then the GPU dialects).
class StageOracle : public mlir::PassInstrumentation {
public:
  /// What the checks found (outlives the pass manager that owns this).
  struct Result {
    std::string failure;
    unsigned stages = 0;
  };
  StageOracle(const fuzz::GeneratedProgram &p, const Inputs &inputs,
              const Inputs &reference, Result &result)
      : program(p), inputs(inputs), reference(reference), result(result) {}
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    auto module = dyn_cast<mlir::ModuleOp>(op);
    if (done || !module || !result.failure.empty())
      return;
    bool runnable = true;
    module.walk([&](mlir::Operation *o) {
      if (isa<SharedAllocOp, AsyncCopyOp, SharedLoadOp, mlir::gpu::GPUModuleOp>(
              o))
        runnable = false;
    });
    if (!runnable) {
      done = true;
      return;
    }
    std::string error;
    std::optional<Inputs> got = interpret(module, program, inputs, error);
    ++result.stages;
    if (!got)
      result.failure =
          "the interpreter fails after " + pass->getName().str() + ": " + error;
    else if (std::string diff = compareOutputs(program, reference, *got, true);
             !diff.empty())
      result.failure = "after " + pass->getName().str() + ": " + diff;
  }

private:
  const fuzz::GeneratedProgram &program;
  const Inputs &inputs, &reference;
  Result &result;
  bool done = false;
};

/// Counters over all programs.
struct Totals {
  std::atomic<uint64_t> programs{0}, stages{0}, gpuChecked{0}, failures{0};
};

/// Writes a failing program, its inputs and a command that reruns it.
void saveFailure(const fuzz::GeneratedProgram &p, const Inputs &inputs,
                 uint64_t seed, const std::string &oracle,
                 const std::string &message, const std::string &ptx) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  errs() << "FAIL seed " << seed << " (" << oracle << "): " << message << "\n";
  SmallString<128> dir(failuresDir.getValue());
  sys::path::append(dir, "seed-" + std::to_string(seed));
  if (sys::fs::create_directories(dir))
    return;
  std::string command = "tilec " + std::string(dir) + "/program.tile --run" +
                        " --grid=" + std::to_string(p.grid[0]) + " --print-all";
  size_t b = 0;
  for (const fuzz::GeneratedArg &a : p.args) {
    if (!a.isPointer) {
      command += " --arg " + a.name + "=" +
                 (a.type[0] == 'f' ? std::to_string(a.value)
                                   : std::to_string(int64_t(a.value)));
      continue;
    }
    const HostBuffer &buffer = *inputs.buffers[b++];
    bool npy = numpyDescr(buffer.kind()) != nullptr;
    std::string file =
        std::string(dir) + "/" + a.name + (npy ? ".npy" : ".bin");
    std::string error;
    writeBufferFile(file, buffer, npy, error);
    command += " --arg " + a.name + "=file:" + file;
  }
  std::error_code ec;
  if (!ptx.empty()) {
    // The PTX the GPU ran, to study its SASS (ptxas, cuobjdump -sass).
    raw_fd_ostream ptxFile(std::string(dir) + "/program.ptx", ec);
    ptxFile << ptx;
  }
  raw_fd_ostream os(std::string(dir) + "/program.tile", ec);
  os << p.source << "// oracle: " << oracle << "\n// " << message << "\n// "
     << command << " --num-warps=" << p.numWarps
     << " --num-stages=" << p.numStages << "\n";
}

/// Runs the compiled PTX on the GPU with the same inputs.
std::string checkOnGPU(Runtime &rt, const fuzz::GeneratedProgram &p,
                       const std::string &ptx, const Inputs &inputs,
                       const Inputs &reference, std::string &oracle) {
  oracle = "ptxas";
  try {
    tile::Module module = rt.loadPTX(ptx, "fuzz.ptx");
    Kernel kernel = module.kernel(p.kernel);
    oracle = "gpu";
    std::vector<Buffer> buffers;
    std::vector<Arg> args;
    size_t b = 0;
    for (const fuzz::GeneratedArg &a : p.args) {
      if (!a.isPointer) {
        if (a.type == "f32")
          args.push_back(Arg(float(a.value)));
        else
          args.push_back(Arg(int32_t(a.value)));
        continue;
      }
      const HostBuffer &host = *inputs.buffers[b++];
      buffers.push_back(rt.alloc(host.byteSize()));
      buffers.back().upload(host.data(), host.byteSize());
      args.push_back(Arg(buffers.back()));
    }
    kernel.launchArgs(
        {unsigned(p.grid[0]), unsigned(p.grid[1]), unsigned(p.grid[2])}, args);
    rt.synchronize();
    Inputs got = copyInputs(p, inputs);
    for (size_t i = 0; i < buffers.size(); ++i)
      buffers[i].download(got.buffers[i]->data(), got.buffers[i]->byteSize());
    return compareOutputs(p, reference, got, false);
  } catch (const std::exception &e) {
    return e.what();
  }
}

/// Checks one program; false on a failure (reported).
bool checkProgram(uint64_t seed, Totals &totals, Runtime *rt) {
  fuzz::GeneratedProgram p = fuzz::generateProgram(seed);
  if (!sourceOverride.empty()) {
    auto file = MemoryBuffer::getFile(sourceOverride);
    if (!file) {
      errs() << "tile-fuzz-programs: cannot read " << sourceOverride << "\n";
      ++totals.failures;
      return false;
    }
    p.source = (*file)->getBuffer().str();
  }
  if (printSource)
    outs() << p.source << "// grid " << p.grid[0]
           << ", --num-warps=" << p.numWarps << " --num-stages=" << p.numStages
           << "\n\n";
  Inputs inputs = makeInputs(p);
  std::string ptx;
  auto fail = [&](const std::string &oracle, const std::string &message) {
    ++totals.failures;
    saveFailure(p, inputs, seed, oracle, message, ptx);
    return false;
  };

  CompileOptions options;
  options.numWarps = p.numWarps;
  options.numStages = p.numStages;
  options.specialization.pointersDivisible = true;
  mlir::DialectRegistry registry;
  registerDriverDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  std::string diagnostics;
  raw_string_ostream diagStream(diagnostics);

  // The frontend's IR and the reference results.
  options.stage = Stage::Tile;
  std::vector<KernelInfo> kernels;
  SourceMgr tileSources;
  tileSources.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(p.source, "fuzz.tile"), SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> tileModule;
  {
    mlir::SourceMgrDiagnosticHandler handler(tileSources, &context, diagStream);
    tileModule = compileSource(tileSources, context, options, kernels);
  }
  if (!tileModule)
    return fail("compile",
                "the frontend rejects a valid program:\n" + diagnostics);
  std::string error;
  std::optional<Inputs> reference = interpret(*tileModule, p, inputs, error);
  if (!reference)
    return fail("interpreter", error);

  // Every pass to PTX, the interpreter after each one it can run.
  options.stage = Stage::PTX;
  kernels.clear();
  SourceMgr sources;
  sources.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(p.source, "fuzz.tile"), SMLoc());
  StageOracle::Result stages;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    mlir::SourceMgrDiagnosticHandler handler(sources, &context, diagStream);
    module = compileSource(
        sources, context, options, kernels, [&](mlir::PassManager &pm) {
          pm.addInstrumentation(
              std::make_unique<StageOracle>(p, inputs, *reference, stages));
          return mlir::success();
        });
    if (module) {
      raw_string_ostream os(ptx);
      if (failed(printStage(*module, options, kernels, os)))
        module = nullptr;
    }
  }
  if (!stages.failure.empty())
    return fail("stages", stages.failure);
  if (!module)
    return fail("compile", "compiling to PTX fails:\n" + diagnostics);
  totals.stages += stages.stages;

  if (rt && !ptxOverride.empty()) {
    auto file = MemoryBuffer::getFile(ptxOverride);
    if (!file)
      return fail("ptx", "cannot read " + ptxOverride.getValue());
    ptx = (*file)->getBuffer().str();
  }
  if (rt) {
    std::string oracle;
    std::string diff = checkOnGPU(*rt, p, ptx, inputs, *reference, oracle);
    if (!diff.empty())
      return fail(oracle, diff);
    ++totals.gpuChecked;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  cl::HideUnrelatedOptions(fuzzCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-fuzz-programs: random valid .tile programs against the "
      "compiler, the interpreter and (--gpu) the GPU\n\n"
      "  tile-fuzz-programs --seed=1 --count=1000 --jobs=2\n");
  if (!ptxOverride.empty() && !useGPU) {
    errs() << "tile-fuzz-programs: error: --ptx replaces the PTX the GPU "
              "runs; it needs --gpu\n";
    return 1;
  }
  std::unique_ptr<Runtime> rt;
  if (useGPU) {
    std::string why;
    if (!Runtime::isAvailable(&why)) {
      errs() << "tile-fuzz-programs: error: --gpu, but " << why << "\n";
      return 1;
    }
    rt = std::make_unique<Runtime>();
  }

  Totals totals;
  std::atomic<uint64_t> next{0};
  // The watchdog: a program running past --timeout ends the run.
  std::vector<std::atomic<int64_t>> started(std::max(1u, jobs.getValue()));
  std::vector<std::atomic<uint64_t>> current(started.size());
  for (auto &s : started)
    s = -1;
  std::atomic<bool> finished{false};
  std::thread watchdog([&] {
    while (!finished) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                        std::chrono::steady_clock::now().time_since_epoch())
                        .count();
      for (size_t j = 0; j < started.size(); ++j)
        if (started[j] >= 0 && now - started[j] > int64_t(timeout)) {
          errs() << "FAIL seed " << current[j] << " (hang): no result after "
                 << timeout.getValue()
                 << " s; rerun it with --seed=" << current[j]
                 << " --count=1 --print\n";
          errs().flush();
          _exit(3);
        }
    }
  });
  auto worker = [&](size_t j) {
    for (uint64_t i; (i = next++) < programCount;) {
      uint64_t seed = firstSeed + i;
      current[j] = seed;
      started[j] = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::steady_clock::now().time_since_epoch())
                       .count();
      checkProgram(seed, totals, rt.get());
      started[j] = -1;
      uint64_t done = ++totals.programs;
      if (done % 1000 == 0) {
        errs() << done << " programs, " << totals.failures << " failures\n";
        errs().flush();
      }
    }
  };
  unsigned threads = rt ? 1 : std::max(1u, jobs.getValue());
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < threads; ++j)
    pool.emplace_back(worker, j);
  worker(0);
  for (std::thread &t : pool)
    t.join();
  finished = true;
  watchdog.join();
  outs() << "programs " << totals.programs << ", stages checked "
         << totals.stages << ", GPU checked " << totals.gpuChecked
         << ", failures " << totals.failures << "\n";
  return totals.failures ? 1 : 0;
}
