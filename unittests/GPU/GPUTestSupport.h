//===- GPUTestSupport.h - the fixture of the GPU tests ------------*- C++
//-*-===//
//
// One Runtime for every GPU test of the binary; tests skip with the reason
// where no driver or GPU is present. Inputs are fresh random numbers (the
// seed is printed), outputs are poisoned before each launch.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_UNITTESTS_GPU_GPUTESTSUPPORT_H
#define TILE_UNITTESTS_GPU_GPUTESTSUPPORT_H

#include "tile/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tile {

class GPUTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    std::string why;
    if (!Runtime::isAvailable(&why)) {
      skipReason = why;
      return;
    }
    rt = new Runtime();
  }
  static void TearDownTestSuite() {
    delete rt;
    rt = nullptr;
  }
  void SetUp() override {
    if (!rt)
      GTEST_SKIP() << "no GPU: " << skipReason;
    seed = std::random_device{}();
    std::printf("seed %u\n", seed);
    rng.seed(seed);
  }
  std::vector<float> random(size_t n, float lo = -4, float hi = 4) {
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float &x : v)
      x = dist(rng);
    return v;
  }
  Buffer upload(const std::vector<float> &v) {
    Buffer b = rt->alloc(v.size() * sizeof(float));
    b.upload(v.data(), v.size() * sizeof(float));
    return b;
  }
  /// A buffer of `n` floats, every byte 0xFF (NaN).
  Buffer poisoned(size_t n) {
    Buffer b = rt->alloc(n * sizeof(float));
    b.fill(0xFF);
    return b;
  }
  std::vector<float> download(const Buffer &b, size_t n) {
    std::vector<float> v(n);
    b.download(v.data(), n * sizeof(float));
    return v;
  }
  static inline Runtime *rt = nullptr;
  static inline std::string skipReason;
  unsigned seed = 0;
  std::mt19937 rng;
};

/// A directory from the environment (for runs on the GPU machine, where the
/// build tree's paths do not exist) or the build's default.
/// A device copy of `v`.
template <typename T>
Buffer uploadVector(Runtime &rt, const std::vector<T> &v) {
  Buffer b = rt.alloc(v.size() * sizeof(T));
  b.upload(v.data(), v.size() * sizeof(T));
  return b;
}

/// The first `n` elements of `b` as T.
template <typename T> std::vector<T> downloadVector(const Buffer &b, size_t n) {
  std::vector<T> v(n);
  b.download(v.data(), n * sizeof(T));
  return v;
}

inline std::string dirFromEnv(const char *variable, const char *fallback) {
  const char *value = getenv(variable);
  return value ? value : fallback;
}

inline std::string example(const char *name) {
  return dirFromEnv("TILE_EXAMPLES_DIR", TILE_EXAMPLES_DIR) + "/" + name;
}

/// A kernel the interpreter's lit tests also run (test/Interpreter/Inputs,
/// beside examples/ in the source tree), so that both check one source.
inline std::string interpreterInput(const char *name) {
  return dirFromEnv("TILE_EXAMPLES_DIR", TILE_EXAMPLES_DIR) +
         "/../test/Interpreter/Inputs/" + name;
}

/// A kernel a lit test of the lowering compiles (test/Target/Inputs).
inline std::string targetInput(const char *name) {
  return dirFromEnv("TILE_EXAMPLES_DIR", TILE_EXAMPLES_DIR) +
         "/../test/Target/Inputs/" + name;
}

/// The text of the file at `path` (empty when it cannot be read).
inline std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// True under compute-sanitizer runs, which skip the largest sizes.
inline bool smallOnly() { return getenv("TILE_GPU_TEST_SMALL") != nullptr; }

} // namespace tile

#endif // TILE_UNITTESTS_GPU_GPUTESTSUPPORT_H
