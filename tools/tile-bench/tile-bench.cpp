//===- tile-bench.cpp - benchmarks of the example kernels -----------------===//
//
// Medians (and 20%/80% quantiles) of CUDA-event-timed runs after warm-up,
// the L2 cache cleared before each run as triton.testing.do_bench does, on
// inputs drawn from a standard normal distribution as bench/peers.py draws
// them (torch.randn); bandwidth counts the bytes read and written once.
// Prints one JSON object per line (bench/report.py joins them with the
// peers' numbers).
//
//===----------------------------------------------------------------------===//
#include "MatmulVariants.h"

#include "tile/Driver/Driver.h"
#include "tile/Runtime/Autotune.h"
#include "tile/Runtime/Runtime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>

using namespace tile;
using namespace llvm;

/// tile-bench's own options: --help lists only these (not LLVM's).
static cl::OptionCategory benchCategory("tile-bench options");
static cl::opt<std::string> examplesDir("examples",
                                        cl::desc("examples directory"),
                                        cl::init("examples"),
                                        cl::cat(benchCategory));
static cl::opt<int> reps("reps", cl::desc("timed runs per shape"), cl::init(50),
                         cl::cat(benchCategory));
static cl::opt<int> warmup("warmup", cl::desc("untimed runs first"),
                           cl::init(10), cl::cat(benchCategory));
static cl::opt<std::string>
    only("only",
         cl::desc("run only these benchmarks (comma-separated: "
                  "vector_add,softmax,dropout,layernorm,matmul,linear,"
                  "compile)"),
         cl::init("vector_add,softmax,dropout,layernorm,matmul,linear,"
                  "compile"),
         cl::cat(benchCategory));
/// The matmul_relu configurations tuned over by default: Triton's usual
/// blocks for mma.sync GPUs plus the shapes that won some precision or size
/// in wider sweeps on the H100 (bench/NOTES.md v8, v11: 256x64x32 with two
/// stages fits two CTAs per SM, for f32 FMA), the four-stage tiles that
/// sm_90a's warpgroup MMAs run fastest with (v23; v37: the 8-warp BK 32
/// tiles with 4 stages, not 3, run tf32 TT 8% and NN 1.5% faster), and a
/// deep 128x64x64 pipeline for small shapes, whose few tiles per SM wait on
/// memory (v36: f16 1024^3 162 -> 209 TFLOP/s with 6 stages instead of 3),
/// and 64x256x32 with two stages, the transpose of f32 NN's fastest tile,
/// for f32 TT, which computes Cᵀ = Bᵀ Aᵀ as an NN dot (v41).
static constexpr const char *kMatmulConfigs =
    "BM=128,BN=128,BK=32,num_warps=4,num_stages=3;"
    "BM=128,BN=128,BK=64,num_warps=4,num_stages=3;"
    "BM=128,BN=128,BK=16,num_warps=4,num_stages=4;"
    "BM=256,BN=128,BK=32,num_warps=8,num_stages=4;"
    "BM=128,BN=256,BK=32,num_warps=8,num_stages=4;"
    "BM=256,BN=64,BK=32,num_warps=4,num_stages=3;"
    "BM=64,BN=128,BK=64,num_warps=4,num_stages=3;"
    "BM=128,BN=64,BK=64,num_warps=4,num_stages=3;"
    "BM=64,BN=64,BK=32,num_warps=4,num_stages=4;"
    "BM=256,BN=64,BK=32,num_warps=4,num_stages=2;"
    "BM=128,BN=256,BK=64,num_warps=8,num_stages=4;"
    "BM=128,BN=128,BK=64,num_warps=4,num_stages=4;"
    "BM=128,BN=64,BK=64,num_warps=4,num_stages=6;"
    "BM=64,BN=256,BK=32,num_warps=4,num_stages=2";
static cl::opt<std::string> matmulConfigs(
    "matmul-configs",
    cl::desc("matmul_relu configurations to tune over, ';'-separated "
             "NAME=VALUE lists (BM, BN, BK, num_warps, num_stages)"),
    cl::init(kMatmulConfigs), cl::cat(benchCategory));
static cl::opt<bool>
    listConfigs("list-configs",
                cl::desc("print the matmul configurations with their "
                         "indices and exit"),
                cl::cat(benchCategory));
static cl::opt<int> pinConfig(
    "pin-config",
    cl::desc("launch matmul configuration N (see --list-configs) for every "
             "shape instead of tuning"),
    cl::init(-1), cl::cat(benchCategory));
static cl::opt<bool>
    tuneVerbose("tune-verbose", cl::desc("print each tuning's times to stderr"),
                cl::cat(benchCategory));

static cl::opt<bool>
    benchTma("tma",
             cl::desc("with sm_90a, fill the matmuls' stages with the Tensor "
                      "Memory Accelerator where it applies (default true; "
                      "false: cp.async)"),
             cl::init(true), cl::cat(benchCategory));

static cl::opt<bool> benchWarpSpecialize(
    "warp-specialize",
    cl::desc("with TMA, producer warpgroups for the pipelines that transpose "
             "an operand into shared memory (default true)"),
    cl::init(true), cl::cat(benchCategory));

static cl::opt<std::string>
    benchArch("arch",
              cl::desc("architecture the matmuls compile for (sm_80, sm_90: "
                       "mma.sync; sm_90a: warpgroup MMAs; default: the "
                       "device's, sm_90a on an H100)"),
              cl::cat(benchCategory));

static cl::opt<std::string> matmulFilter(
    "matmul-filter",
    cl::desc("time only the matmul kernels whose name (matmul_f16, "
             "matmul_tf32_NT, ...) contains one of these comma-separated "
             "strings"),
    cl::cat(benchCategory));
static cl::opt<std::string> dumpKernels(
    "dump-kernels",
    cl::desc("write the matmul kernels timed (one .tile per variant and "
             "operand order) to this directory, created if missing, and exit"),
    cl::value_desc("dir"), cl::cat(benchCategory));

static cl::OptionCategory kernelCategory(
    "tile-bench --kernel options (time any kernel)");
static cl::opt<std::string> kernelFile(
    "kernel",
    cl::desc("time the kernel of this .tile file instead of the examples, "
             "launched with --grid and --arg"),
    cl::value_desc("file"), cl::cat(kernelCategory));
static cl::opt<std::string>
    kernelName("kernel-name",
               cl::desc("which kernel of the file (default: the only one)"),
               cl::cat(kernelCategory));
static cl::opt<std::string> gridSpec("grid",
                                     cl::desc("launch grid X[,Y[,Z]]"),
                                     cl::init("1"), cl::cat(kernelCategory));
static cl::list<std::string> kernelArgs(
    "arg",
    cl::desc("NAME=VALUE per parameter: a number for a scalar, an element "
             "count N (or rand:N, zeros:N) for a pointer, whose buffer is "
             "filled with standard normal floats or integers in [-100, 100]"),
    cl::value_desc("NAME=VALUE"), cl::cat(kernelCategory));
static cl::list<std::string> kernelDefines(
    "D", cl::Prefix, cl::desc("override a const parameter: -D NAME=VALUE"),
    cl::value_desc("NAME=VALUE"), cl::cat(kernelCategory));
static cl::opt<unsigned> kernelWarps("num-warps",
                                     cl::desc("warps per program (default 4)"),
                                     cl::init(4), cl::cat(kernelCategory));
static cl::opt<unsigned>
    kernelStages("num-stages", cl::desc("pipeline stages (default 3)"),
                 cl::init(3), cl::cat(kernelCategory));
static cl::opt<double> kernelBytes(
    "bytes", cl::desc("bytes one launch moves, to report GB/s"),
    cl::init(0), cl::cat(kernelCategory));
static cl::opt<double>
    kernelFlops("flops", cl::desc("operations of one launch, to report "
                                  "TFLOP/s"),
                cl::init(0), cl::cat(kernelCategory));

namespace {
/// One timed matmul: the example in a precision, with A or B stored
/// transposed (read through strides) where `order` says.
struct MatmulShape {
  const char *variant;
  int m, n, k;
  OperandOrder order = OperandOrder::NN;
  /// matmul_f16 for the example, matmul_f16_NT etc. for the other orders.
  std::string name() const {
    std::string n = std::string("matmul_") + variant;
    if (order != OperandOrder::NN)
      n += std::string("_") + orderName(order);
    return n;
  }
  std::string source(const std::string &example) const {
    return matmulOrderSource(example, variant, order, /*viaTrans=*/false);
  }
};
} // namespace

/// The example (NN) at several sizes and precisions, an edge shape that is
/// no multiple of 16, at 4096^3 every other operand order, and x @ W.T at
/// 4095^3, whose rows are aligned only to the element (no cp.async, no
/// TMA: the stages are filled by element copies).
static std::vector<MatmulShape> matmulShapes() {
  std::vector<MatmulShape> matmuls = {
      {"f16", 1024, 1024, 1024}, {"f16", 4096, 4096, 4096},
      {"f16", 8192, 8192, 8192}, {"bf16", 4096, 4096, 4096},
      {"bf16", 8192, 8192, 8192}, {"f32", 4096, 4096, 4096},
      {"tf32", 4096, 4096, 4096}, {"f16", 3000, 3000, 3000}};
  for (const char *variant : {"f16", "bf16", "tf32", "f32"})
    for (OperandOrder order :
         {OperandOrder::NT, OperandOrder::TN, OperandOrder::TT})
      matmuls.push_back({variant, 4096, 4096, 4096, order});
  matmuls.push_back({"f16", 4095, 4095, 4095, OperandOrder::NT});
  return matmuls;
}

static bool enabled(StringRef what) {
  SmallVector<StringRef> parts;
  StringRef(only).split(parts, ',');
  return llvm::is_contained(parts, what);
}

static void emit(const std::string &kernel, const std::string &shape,
                 const Timing &t, double bytes);

/// `count` values drawn from a standard normal distribution, stored as
/// `type` (f32, f16 or bf16, rounded to nearest even), in a new buffer.
static Buffer randomBuffer(Runtime &rt, size_t count, StringRef type,
                           unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  size_t bytes = type == "f32" ? 4 : 2;
  std::vector<unsigned char> host(count * bytes);
  for (size_t i = 0; i < count; ++i) {
    float f = normal(rng);
    if (type == "f32") {
      std::memcpy(&host[i * 4], &f, 4);
      continue;
    }
    uint16_t h;
    if (type == "f16") {
      _Float16 x = static_cast<_Float16>(f);
      std::memcpy(&h, &x, 2);
    } else {
      uint32_t u;
      std::memcpy(&u, &f, 4);
      h = uint16_t((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
    }
    std::memcpy(&host[i * 2], &h, 2);
  }
  Buffer buffer = rt.alloc(host.size());
  buffer.upload(host.data(), host.size());
  return buffer;
}

/// The median and quantiles as JSON fields.
static std::string timingFields(const Timing &t) {
  char text[128];
  std::snprintf(text, sizeof(text),
                "\"ms\": %.5f, \"ms_p20\": %.5f, \"ms_p80\": %.5f", t.median,
                t.p20, t.p80);
  return text;
}

static void emit(const std::string &kernel, const std::string &shape,
                 const Timing &t, double bytes) {
  std::printf("{\"impl\": \"tile\", \"kernel\": \"%s\", \"shape\": \"%s\", "
              "%s, \"gbps\": %.1f}\n",
              kernel.c_str(), shape.c_str(), timingFields(t).c_str(),
              bytes / t.median / 1e6);
  std::fflush(stdout);
}

/// The first JSON line of every run: what was measured, on what.
static void emitMachine(Runtime &rt) {
  const Runtime::DeviceInfo &d = rt.deviceInfo();
  std::printf("{\"impl\": \"tile\", \"machine\": {\"device\": \"%s\", "
              "\"arch\": \"%s\", \"sms\": %d, \"sm_clock_mhz\": %d, "
              "\"memory_clock_mhz\": %d, \"commit\": \"%s\", "
              "\"compiler\": \"%s\"}}\n",
              d.name.c_str(), d.arch.c_str(), d.multiprocessors, d.smClockMHz,
              d.memoryClockMHz, buildCommit().str().c_str(),
              compilerVersion().str().c_str());
  std::fflush(stdout);
}

/// Bytes of one element of a pointer parameter's pointee ("ptr<f16>": 2).
static size_t pointeeBytes(StringRef type) {
  StringRef t = type.drop_front(4).drop_back(); // ptr<...>
  if (t == "i1" || t == "i8")
    return 1;
  if (t == "i16" || t == "f16" || t == "bf16")
    return 2;
  if (t == "i64" || t == "f64")
    return 8;
  return 4;
}

/// tile-bench --kernel: times one kernel of a file on random buffers.
static void benchKernelFile(Runtime &rt, Buffer &flush) {
  ConstValues constants;
  for (const std::string &d : kernelDefines) {
    auto [name, value] = StringRef(d).split('=');
    if (value.empty())
      throw tile::Error("-D expects NAME=VALUE, got '" + d + "'");
    constants[name.str()] = value.str();
  }
  ModuleOptions options;
  options.numWarps = kernelWarps;
  options.numStages = kernelStages;
  options.tma = benchTma;
  options.warpSpecialize = benchWarpSpecialize;
  Module module = rt.compileFile(kernelFile, constants, options);
  const std::vector<KernelInfo> &kernels = module.kernels();
  std::string name = kernelName;
  if (name.empty()) {
    if (kernels.size() != 1)
      throw tile::Error(kernelFile + " has " + std::to_string(kernels.size()) +
                        " kernels; choose one with --kernel-name");
    name = kernels.front().name;
  }
  Kernel kernel = module.kernel(name);
  std::array<unsigned, 3> grid = {1, 1, 1};
  SmallVector<StringRef> gridParts;
  StringRef(gridSpec).split(gridParts, ',');
  for (auto [i, part] : llvm::enumerate(gridParts))
    if (i > 2 || part.trim().getAsInteger(10, grid[i]) || grid[i] == 0)
      throw tile::Error("--grid expects X[,Y[,Z]] of positive integers, got '" +
                        gridSpec + "'");

  std::map<std::string, std::string> values;
  for (const std::string &a : kernelArgs) {
    auto [n, v] = StringRef(a).split('=');
    values[n.str()] = v.str();
  }
  std::vector<Buffer> buffers; // owned here; args hold their addresses
  std::vector<Arg> args;       // in parameter order
  std::string missing;
  for (const ParamInfo &p : kernel.info().params) {
    auto it = values.find(p.name);
    if (it == values.end()) {
      missing += " " + p.name;
      continue;
    }
    StringRef v = it->second;
    values.erase(it);
    if (p.kind == ParamInfo::Kind::Pointer) {
      bool zeros = v.consume_front("zeros:");
      v.consume_front("rand:");
      size_t count;
      if (v.getAsInteger(10, count) || count == 0)
        throw tile::Error("--arg " + p.name + "=" + v.str() +
                          ": a pointer takes an element count N, rand:N or "
                          "zeros:N");
      size_t bytes = count * pointeeBytes(p.type);
      StringRef elem = StringRef(p.type).drop_front(4).drop_back();
      unsigned seed = unsigned(buffers.size());
      if (!zeros && (elem == "f32" || elem == "f16" || elem == "bf16")) {
        buffers.push_back(randomBuffer(rt, count, elem, seed));
      } else {
        std::vector<unsigned char> host(bytes, 0);
        if (!zeros) {
          std::mt19937 rng(seed);
          std::uniform_int_distribution<int> dist(-100, 100);
          size_t eb = pointeeBytes(p.type);
          for (size_t i = 0; i < count; ++i) {
            int64_t x = dist(rng);
            double f = x / 50.0;
            if (elem == "f64")
              std::memcpy(&host[i * 8], &f, 8);
            else if (elem == "i1")
              host[i] = x & 1;
            else
              std::memcpy(&host[i * eb], &x, eb); // little-endian low bytes
          }
        }
        buffers.push_back(rt.alloc(bytes));
        buffers.back().upload(host.data(), bytes);
      }
      args.push_back(Arg(buffers.back()));
      continue;
    }
    if (p.kind == ParamInfo::Kind::Float) {
      double f;
      if (v.getAsDouble(f))
        throw tile::Error("--arg " + p.name + "=" + v.str() + ": expected a number");
      args.push_back(p.bits == 64 ? Arg(f) : Arg(float(f)));
    } else {
      int64_t i;
      if (v.getAsInteger(10, i))
        throw tile::Error("--arg " + p.name + "=" + v.str() + ": expected an integer");
      args.push_back(p.bits == 64 ? Arg(i) : Arg(int32_t(i)));
    }
  }
  if (!missing.empty())
    throw tile::Error("missing --arg for:" + missing);
  if (!values.empty())
    throw tile::Error("--arg " + values.begin()->first + ": kernel '" + name +
                      "' has no such parameter");
  Grid g(grid[0], grid[1], grid[2]);
  Timing t = timeRuns(
      rt, warmup, reps, [&] { kernel.launchArgs(g, args); }, &flush);
  std::string rates;
  if (kernelBytes > 0)
    rates += ", \"gbps\": " + std::to_string(kernelBytes / t.median / 1e6);
  if (kernelFlops > 0)
    rates += ", \"tflops\": " + std::to_string(kernelFlops / t.median / 1e9);
  std::printf("{\"impl\": \"tile\", \"kernel\": \"%s\", \"shape\": "
              "\"%s grid=%s\", %s%s}\n",
              name.c_str(), kernelFile.c_str(), gridSpec.c_str(),
              timingFields(t).c_str(), rates.c_str());
  std::fflush(stdout);
}

static double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions({&benchCategory, &kernelCategory});
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-bench: benchmark the examples\n");
  // The matmul configurations, checked before anything needs a GPU.
  std::vector<Config> configs;
  try {
    configs = Config::parseList(matmulConfigs);
    if (pinConfig >= int(configs.size()))
      throw tile::Error("--pin-config=" + std::to_string(pinConfig) +
                        ": there are " + std::to_string(configs.size()) +
                        " configurations (--list-configs)");
  } catch (const tile::Error &e) {
    std::fprintf(stderr, "tile-bench: %s\n", e.what());
    return 1;
  }
  if (listConfigs) {
    for (size_t i = 0; i < configs.size(); ++i)
      std::printf("%zu %s\n", i, configs[i].str().c_str());
    return 0;
  }
  if (!dumpKernels.empty()) {
    std::string path = std::string(examplesDir) + "/matmul_relu.tile";
    auto text = MemoryBuffer::getFile(path);
    if (!text) {
      std::fprintf(stderr, "tile-bench: cannot read %s\n", path.c_str());
      return 1;
    }
    if (std::error_code ec = sys::fs::create_directories(dumpKernels)) {
      std::fprintf(stderr, "tile-bench: cannot create %s: %s\n",
                   dumpKernels.c_str(), ec.message().c_str());
      return 1;
    }
    for (const MatmulShape &s : matmulShapes()) {
      std::string file = std::string(dumpKernels) + "/" + s.name() + ".tile";
      std::error_code ec;
      raw_fd_ostream out(file, ec);
      if (ec) {
        std::fprintf(stderr, "tile-bench: cannot write %s: %s\n",
                     file.c_str(), ec.message().c_str());
        return 1;
      }
      out << s.source((*text)->getBuffer().str());
    }
    return 0;
  }
  std::string why;
  if (!Runtime::isAvailable(&why)) {
    std::fprintf(stderr, "tile-bench: no GPU: %s\n", why.c_str());
    return 1;
  }
  try {
    Runtime rt;
    std::fprintf(stderr, "device: %s (%s)\n", rt.deviceName().c_str(),
                 rt.deviceArch().c_str());
    emitMachine(rt);
    std::string dir = examplesDir;
    // Cleared before each timed run: larger than the L2 (50 MB on an H100).
    Buffer flush = rt.alloc(size_t(256) << 20);
    if (!kernelFile.empty()) {
      benchKernelFile(rt, flush);
      return 0;
    }

    // Vector add.
    Module va = rt.compileFile(dir + "/vector_add.tile");
    Kernel vk = va.kernel("vector_add");
    if (enabled("vector_add"))
      for (int64_t n : {int64_t(1) << 20, int64_t(1) << 24,
                        (int64_t(1) << 26) + 3, int64_t(1) << 28}) {
        Buffer x = randomBuffer(rt, n, "f32", 1), y = randomBuffer(rt, n, "f32", 2);
        Buffer out = rt.alloc(n * 4);
        unsigned grid = unsigned((n + 1023) / 1024);
        Timing t = timeRuns(
            rt, warmup, reps,
            [&] { vk.launch({grid}, x, y, out, int32_t(n)); }, &flush);
        emit("vector_add", std::to_string(n), t, 3.0 * n * 4);
      }

    // Seeded dropout (p = 0.5): the bytes of x read and out written.
    if (enabled("dropout")) {
      Module dm = rt.compileFile(dir + "/dropout.tile");
      Kernel dk = dm.kernel("dropout");
      for (int64_t n : {int64_t(1) << 24, (int64_t(1) << 26) + 3}) {
        Buffer x = randomBuffer(rt, n, "f32", 4), out = rt.alloc(n * 4);
        unsigned grid = unsigned((n + 1023) / 1024);
        Timing t = timeRuns(
            rt, warmup, reps,
            [&] {
              dk.launch({grid}, x, out, int32_t(n), 0.5f, int32_t(123));
            },
            &flush);
        emit("dropout", std::to_string(n), t, 2.0 * n * 4);
      }
    }

    // Softmax, with Triton tutorial's warps per block size.
    struct Shape {
      int rows, cols;
    } shapes[] = {{8192, 1024}, {8192, 4096}, {4096, 16384}, {16384, 781}};
    for (Shape s : shapes) {
      if (!enabled("softmax"))
        break;
      int block = 1;
      while (block < s.cols)
        block *= 2;
      ModuleOptions options;
      options.numWarps = block >= 8192 ? 16 : block >= 2048 ? 8 : 4;
      Module sm = rt.compileFile(dir + "/softmax.tile",
                                 {{"BLOCK", std::to_string(block)}}, options);
      Kernel sk = sm.kernel("softmax");
      size_t n = size_t(s.rows) * s.cols;
      Buffer in = randomBuffer(rt, n, "f32", 3), out = rt.alloc(n * 4);
      Timing t = timeRuns(
          rt, warmup, reps,
          [&] {
            sk.launch({unsigned(s.rows)}, out, in, int32_t(s.cols),
                      int32_t(s.cols));
          },
          &flush);
      emit("softmax", std::to_string(s.rows) + "x" + std::to_string(s.cols), t,
           2.0 * n * 4);
    }

    // Layer norm (examples/layernorm.tile), f32 and f16: the forward's x
    // read and y written; the backward's x and dy read and dx written (its
    // 32 rows per program's partial dw/db rows, and their sum, are timed but
    // not counted), as bench/layernorm.py counts them.
    for (int cols : {1024, 4096, 8192}) {
      if (!enabled("layernorm"))
        break;
      const int rows = 8192, perProgram = 32, programs = rows / perProgram;
      ModuleOptions options;
      options.numWarps = std::min(std::max(cols / 256, 1), 8);
      Module lm = rt.compileFile(dir + "/layernorm.tile",
                                 {{"BLOCK", std::to_string(cols)}}, options);
      for (StringRef type : {"f32", "f16"}) {
        std::string suffix = type == "f16" ? "_f16" : "";
        size_t n = size_t(rows) * cols, bytes = type == "f16" ? 2 : 4;
        Buffer x = randomBuffer(rt, n, type, 5),
               dy = randomBuffer(rt, n, type, 6),
               w = randomBuffer(rt, cols, type, 7),
               b = randomBuffer(rt, cols, type, 8), y = rt.alloc(n * bytes),
               dx = rt.alloc(n * bytes), mean = rt.alloc(rows * 4),
               rstd = rt.alloc(rows * 4),
               dwPart = rt.alloc(size_t(programs) * cols * 4),
               dbPart = rt.alloc(size_t(programs) * cols * 4),
               dw = rt.alloc(cols * bytes), db = rt.alloc(cols * bytes);
        Kernel fwd = lm.kernel("layernorm_fwd" + suffix),
               bwd = lm.kernel("layernorm_bwd" + suffix),
               dwdb = lm.kernel("layernorm_dwdb" + suffix);
        std::string shape = std::to_string(rows) + "x" + std::to_string(cols) +
                            " " + type.str();
        Timing t = timeRuns(
            rt, warmup, reps,
            [&] {
              fwd.launch({unsigned(rows)}, x, y, w, b, mean, rstd,
                         int32_t(cols), 1e-5f);
            },
            &flush);
        emit("layernorm_fwd", shape, t, 2.0 * n * bytes);
        t = timeRuns(
            rt, warmup, reps,
            [&] {
              bwd.launch({unsigned(programs)}, dy, x, w, mean, rstd, dx, dwPart,
                         dbPart, int32_t(rows), int32_t(cols),
                         int32_t(perProgram));
              dwdb.launch({unsigned((cols + 63) / 64)}, dwPart, dbPart, dw, db,
                          int32_t(programs), int32_t(cols));
            },
            &flush);
        emit("layernorm_bwd", shape, t, 3.0 * n * bytes);
      }
    }

    // matmul_relu: TFLOP/s counts 2 M N K; each precision's kernel tuned
    // over the configurations per shape (or pinned to one).
    if (enabled("matmul")) {
      auto text = MemoryBuffer::getFile(dir + "/matmul_relu.tile");
      if (!text)
        throw tile::Error("cannot read " + dir + "/matmul_relu.tile");
      std::vector<MatmulShape> matmuls = matmulShapes();
      AutotuneOptions tuning;
      tuning.key = {"M", "N", "K"};
      tuning.verbose = tuneVerbose;
      tuning.arch = benchArch;
      tuning.tma = benchTma;
      tuning.warpSpecialize = benchWarpSpecialize;
      std::map<std::string, TunedKernel> kernels;
      for (MatmulShape s : matmuls) {
        if (!matmulFilter.empty()) {
          SmallVector<StringRef> parts;
          StringRef(matmulFilter).split(parts, ',');
          if (llvm::none_of(parts, [&](StringRef part) {
                return StringRef(s.name()).contains(part);
              }))
            continue;
        }
        StringRef variant(s.variant);
        std::string name = s.name();
        auto it = kernels.find(name);
        if (it == kernels.end())
          it = kernels
                   .emplace(name, autotuneSource(
                                      rt, s.source((*text)->getBuffer().str()),
                                      name, "matmul_relu", configs, tuning))
                   .first;
        TunedKernel &mk = it->second;
        if (pinConfig >= 0)
          mk.pin(pinConfig);
        size_t eb = variant == "f16" || variant == "bf16" ? 2 : 4;
        StringRef storage = variant == "tf32" ? "f32" : variant;
        Buffer a = randomBuffer(rt, size_t(s.m) * s.k, storage, 4),
               b = randomBuffer(rt, size_t(s.k) * s.n, storage, 5),
               c = rt.alloc(size_t(s.m) * s.n * eb);
        GridFn grid = [&](const Config &config) {
          return Grid(ceilDiv(s.m, config.get("BM")),
                      ceilDiv(s.n, config.get("BN")));
        };
        std::vector<Arg> args = {a,
                                 b,
                                 c,
                                 int32_t(s.m),
                                 int32_t(s.n),
                                 int32_t(s.k),
                                 int32_t(isTransposedA(s.order) ? s.m : s.k),
                                 int32_t(isTransposedB(s.order) ? s.k : s.n),
                                 int32_t(s.n)};
        std::string chosen = "pinned";
        size_t index = pinConfig;
        if (pinConfig < 0) {
          TuningResult r = mk.tune(grid, args);
          chosen = r.fromDisk ? "disk" : "timed";
          index = r.best;
        }
        Timing t = timeRuns(
            rt, warmup, reps, [&] { mk.launchArgs(grid, args); }, &flush);
        std::string shape = std::to_string(s.m) + "x" + std::to_string(s.n) +
                            "x" + std::to_string(s.k);
        std::printf("{\"impl\": \"tile\", \"kernel\": \"%s\", "
                    "\"shape\": \"%s\", %s, \"tflops\": %.1f, "
                    "\"config\": \"%s\", \"tuning\": \"%s\"}\n",
                    name.c_str(), shape.c_str(), timingFields(t).c_str(),
                    2.0 * s.m * s.n * s.k / t.median / 1e9,
                    configs[index].str().c_str(), chosen.c_str());
        std::fflush(stdout);
      }
    }

    // examples/linear.tile (nn.Linear: W given N x K, bias, ReLU and a
    // residual in the store), tuned like the matmuls; TFLOP/s counts the
    // 2 M N K of the product.
    if (enabled("linear")) {
      AutotuneOptions tuning;
      tuning.key = {"M", "N", "K"};
      auto text = MemoryBuffer::getFile(dir + "/linear.tile");
      if (!text)
        throw tile::Error("cannot read " + dir + "/linear.tile");
      TunedKernel linear = autotuneSource(rt, (*text)->getBuffer().str(),
                                          "linear", "linear", configs, tuning);
      if (pinConfig >= 0)
        linear.pin(pinConfig);
      for (auto [m, n, k] : {std::array<int, 3>{4096, 4096, 4096},
                             std::array<int, 3>{8192, 1000, 3000}}) {
        Buffer x = randomBuffer(rt, size_t(m) * k, "f16", 6),
               w = randomBuffer(rt, size_t(n) * k, "f16", 7),
               bias = randomBuffer(rt, n, "f16", 8),
               r = randomBuffer(rt, size_t(m) * n, "f16", 9),
               y = rt.alloc(size_t(m) * n * 2);
        GridFn grid = [&](const Config &config) {
          return Grid(ceilDiv(m, config.get("BM")), ceilDiv(n, config.get("BN")));
        };
        std::vector<Arg> args = {x, w, bias, r, y, int32_t(m), int32_t(n),
                                 int32_t(k), int32_t(k), int32_t(k),
                                 int32_t(n), int32_t(n)};
        size_t index = pinConfig;
        if (pinConfig < 0)
          index = linear.tune(grid, args).best;
        Timing t = timeRuns(
            rt, warmup, reps, [&] { linear.launchArgs(grid, args); }, &flush);
        std::string shape = std::to_string(m) + "x" + std::to_string(n) + "x" +
                            std::to_string(k);
        std::printf("{\"impl\": \"tile\", \"kernel\": \"linear\", "
                    "\"shape\": \"%s\", %s, \"tflops\": %.1f, "
                    "\"config\": \"%s\"}\n",
                    shape.c_str(), timingFields(t).c_str(),
                    2.0 * m * n * k / t.median / 1e9,
                    configs[index].str().c_str());
        std::fflush(stdout);
      }
    }

    // Compile times: in process, cold (no cache), per example.
    if (enabled("compile")) {
      for (const char *name : {"vector_add", "softmax", "matmul_relu"}) {
        auto source = MemoryBuffer::getFile(dir + "/" + name + ".tile");
        CompileOptions options;
        CompiledModule compiled;
        std::string errors;
        auto start = std::chrono::steady_clock::now();
        if (!compileToPTX((*source)->getBuffer(), name, options, compiled,
                          errors))
          throw tile::Error(errors);
        std::printf("{\"impl\": \"tile\", \"kernel\": \"compile_cold\", "
                    "\"shape\": \"%s\", \"ms\": %.3f}\n",
                    name, seconds(start) * 1e3);
      }
      // The matmul as the runtime compiles its tuned configuration on this
      // device (4096^3 arguments: every one divisible by 16), to PTX in
      // process, then loaded: the driver's JIT (ptxas) at
      // cuModuleLoadDataEx, cold when the job sets CUDA_CACHE_DISABLE=1.
      auto source = MemoryBuffer::getFile(dir + "/matmul_relu.tile");
      CompileOptions options;
      options.arch =
          benchArch.empty() ? rt.defaultArch() : std::string(benchArch);
      options.constants = {{"BM", "128"}, {"BN", "256"}, {"BK", "64"}};
      options.numWarps = 8;
      options.numStages = 4;
      options.specialization.pointersDivisible = true;
      options.specialization.divisible = {"M", "N", "K", "lda", "ldb", "ldc"};
      CompiledModule compiled;
      std::string errors;
      auto start = std::chrono::steady_clock::now();
      if (!compileToPTX((*source)->getBuffer(), "matmul_relu", options,
                        compiled, errors))
        throw tile::Error(errors);
      double toPTX = seconds(start) * 1e3;
      start = std::chrono::steady_clock::now();
      Module loaded = rt.loadPTX(compiled.ptx, "matmul_relu");
      double load = seconds(start) * 1e3;
      std::string shape = "matmul_relu 128x256x64 " + options.arch;
      std::printf("{\"impl\": \"tile\", \"kernel\": \"compile_cold\", "
                  "\"shape\": \"%s to PTX\", \"ms\": %.3f}\n"
                  "{\"impl\": \"tile\", \"kernel\": \"compile_cold\", "
                  "\"shape\": \"%s loaded\", \"ms\": %.3f}\n",
                  shape.c_str(), toPTX, shape.c_str(), toPTX + load);
      std::fflush(stdout);
    }
    // A cache hit: the same module again, up to a launchable kernel whose
    // variant is already loaded.
    {
      Buffer b = rt.alloc(4096);
      auto start = std::chrono::steady_clock::now();
      Module again = rt.compileFile(dir + "/vector_add.tile");
      again.kernel("vector_add").launch({1}, b, b, b, int32_t(16));
      rt.synchronize();
      std::printf("{\"impl\": \"tile\", \"kernel\": \"compile_cached\", "
                  "\"shape\": \"vector_add\", \"ms\": %.3f}\n",
                  seconds(start) * 1e3);
      // Launch overhead: a host loop of launches, wall time per launch.
      const int launches = 20000;
      for (int i = 0; i < 100; ++i)
        vk.launch({1}, b, b, b, int32_t(16));
      rt.synchronize();
      start = std::chrono::steady_clock::now();
      for (int i = 0; i < launches; ++i)
        vk.launch({1}, b, b, b, int32_t(16));
      double perLaunch = seconds(start) / launches * 1e6;
      rt.synchronize();
      std::printf("{\"impl\": \"tile\", \"kernel\": \"launch_us\", "
                  "\"shape\": \"host loop\", \"us\": %.2f}\n",
                  perLaunch);
    }
    auto stats = rt.cacheStats();
    std::fprintf(stderr, "cache: %u compiles, %u disk hits, %u memory hits\n",
                 stats.compiles, stats.diskHits, stats.memoryHits);
  } catch (const tile::Error &e) {
    std::fprintf(stderr, "tile-bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
