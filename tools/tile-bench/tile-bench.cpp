//===- tile-bench.cpp - benchmarks of the example kernels -----------------===//
//
// Medians of CUDA-event-timed runs after warm-up, on data larger than L2;
// bandwidth counts the bytes read and written once. Prints one JSON object
// per line (bench/report.py joins them with the peers' numbers).
//
//===----------------------------------------------------------------------===//
#include "tile/Pipeline/Compile.h"
#include "tile/Runtime/Runtime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <cstdio>

using namespace tile;
using namespace llvm;

static cl::opt<std::string> examplesDir("examples", cl::desc("examples directory"),
                                        cl::init("examples"));
static cl::opt<int> reps("reps", cl::desc("timed runs per shape"), cl::init(50));
static cl::opt<int> warmup("warmup", cl::desc("untimed runs first"), cl::init(10));

static void emit(const std::string &kernel, const std::string &shape,
                 double ms, double bytes) {
  std::printf("{\"impl\": \"tile\", \"kernel\": \"%s\", \"shape\": \"%s\", "
              "\"ms\": %.5f, \"gbps\": %.1f}\n",
              kernel.c_str(), shape.c_str(), ms, bytes / ms / 1e6);
  std::fflush(stdout);
}

static double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "tile-bench: benchmark the examples\n");
  std::string why;
  if (!Runtime::isAvailable(&why)) {
    std::fprintf(stderr, "tile-bench: no GPU: %s\n", why.c_str());
    return 1;
  }
  try {
    Runtime rt;
    std::fprintf(stderr, "device: %s (%s)\n", rt.deviceName().c_str(),
                 rt.deviceArch().c_str());
    std::string dir = examplesDir;

    // Vector add.
    Module va = rt.compileFile(dir + "/vector_add.tile");
    Kernel vk = va.kernel("vector_add");
    for (int64_t n : {int64_t(1) << 20, int64_t(1) << 24,
                      (int64_t(1) << 26) + 3, int64_t(1) << 28}) {
      Buffer x = rt.alloc(n * 4), y = rt.alloc(n * 4), out = rt.alloc(n * 4);
      x.fill(0);
      y.fill(0);
      unsigned grid = unsigned((n + 1023) / 1024);
      double ms = timeMedianMs(rt, warmup, reps, [&] {
        vk.launch({grid}, x, y, out, int32_t(n));
      });
      emit("vector_add", std::to_string(n), ms, 3.0 * n * 4);
    }

    // Softmax, with Triton tutorial's warps per block size.
    struct Shape {
      int rows, cols;
    } shapes[] = {{8192, 1024}, {8192, 4096}, {4096, 16384}, {16384, 781}};
    for (Shape s : shapes) {
      int block = 1;
      while (block < s.cols)
        block *= 2;
      ModuleOptions options;
      options.numWarps = block >= 8192 ? 16 : block >= 2048 ? 8 : 4;
      Module sm = rt.compileFile(dir + "/softmax.tile",
                                 {{"BLOCK", std::to_string(block)}}, options);
      Kernel sk = sm.kernel("softmax");
      size_t n = size_t(s.rows) * s.cols;
      Buffer in = rt.alloc(n * 4), out = rt.alloc(n * 4);
      in.fill(0);
      double ms = timeMedianMs(rt, warmup, reps, [&] {
        sk.launch({unsigned(s.rows)}, out, in, int32_t(s.cols), int32_t(s.cols));
      });
      emit("softmax", std::to_string(s.rows) + "x" + std::to_string(s.cols),
           ms, 2.0 * n * 4);
    }

    // Compile times: in process, cold (no cache), per example.
    for (const char *name : {"vector_add", "softmax", "matmul_relu"}) {
      auto source = MemoryBuffer::getFile(dir + "/" + name + ".tile");
      CompileOptions options;
      CompiledModule compiled;
      std::string errors;
      auto start = std::chrono::steady_clock::now();
      if (!compileToPTX((*source)->getBuffer(), name, options, compiled, errors))
        throw tile::Error(errors);
      std::printf("{\"impl\": \"tile\", \"kernel\": \"compile_cold\", "
                  "\"shape\": \"%s\", \"ms\": %.3f}\n",
                  name, seconds(start) * 1e3);
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
                  "\"shape\": \"host loop\", \"us\": %.2f}\n", perLaunch);
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
