//===- Autotune.h - launch a kernel in its fastest configuration -*- C++ -*-===//
//
// A TunedKernel holds one kernel of a source and a list of configurations
// (const values plus num_warps and num_stages). The first launch with a new
// shape key compiles every configuration (in parallel), times each (median
// of CUDA-event-timed runs after warm-up) and launches the fastest from then
// on. The choice is stored beside the compile cache ($TILE_CACHE_DIR/tuning),
// so a later process with the same source, configurations, device and shape
// key launches it without timing anything.
//
//   std::vector<tile::Config> configs = tile::Config::parseList(
//       "BM=128,BN=128,BK=32,num_warps=4,num_stages=3;"
//       "BM=64,BN=128,BK=32,num_warps=4,num_stages=4");
//   tile::AutotuneOptions options;
//   options.key = {"M", "N", "K"};
//   tile::TunedKernel mm = tile::autotuneFile(rt, "matmul_relu.tile",
//                                             "matmul_relu", configs, options);
//   mm.launch([&](const tile::Config &c) {
//     return tile::Grid(ceilDiv(M, c.get("BM")), ceilDiv(N, c.get("BN")));
//   }, a, b, c, M, N, K, K, N, N);
//
// Tuning launches the kernel many times with the arguments of that first
// launch (the chosen configuration runs last), so a kernel that reads what
// it writes must be tuned on scratch buffers.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_RUNTIME_AUTOTUNE_H
#define TILE_RUNTIME_AUTOTUNE_H

#include "tile/Runtime/Runtime.h"

#include <optional>

namespace tile {

/// One configuration of a kernel: const values and compile options.
struct Config {
  ConstValues constants;
  unsigned numWarps = 4;
  unsigned numStages = 3;

  /// The integer value of const `name`; throws if the configuration has
  /// none.
  int64_t get(const std::string &name) const;
  /// "BM=128,BN=128,num_warps=4,num_stages=3" (constants sorted by name).
  std::string str() const;
  /// Parses str()'s form (num_warps and num_stages may be left out: 4 and
  /// 3); nullopt with `error` set on malformed text.
  static std::optional<Config> parse(const std::string &text,
                                     std::string &error);
  /// Parses configurations separated by ';'; throws Error on malformed text.
  static std::vector<Config> parseList(const std::string &text);
  bool operator==(const Config &other) const {
    return constants == other.constants && numWarps == other.numWarps &&
           numStages == other.numStages;
  }
};

/// The launch grid of a configuration (a function of its const values).
using GridFn = std::function<Grid(const Config &)>;

/// How a TunedKernel tunes.
struct AutotuneOptions {
  /// Names of the integer arguments whose values form the shape key (empty:
  /// every integer argument). Pointer alignment is always part of the key.
  std::vector<std::string> key;
  /// Untimed and timed launches per configuration.
  int warmup = 3, reps = 10;
  /// Print each tuning (configurations, times, choice) to stderr.
  bool verbose = false;
  /// Print one line per configuration timed while tuning, when stderr is a
  /// terminal (silent otherwise).
  bool progress = true;
  /// The architecture to compile for (empty: the runtime's default for the
  /// device, as Runtime::compileSource picks it).
  std::string arch;
  /// On sm_90a, TMA copies where they apply (ModuleOptions::tma).
  bool tma = true;
  /// Producer warpgroups where they apply (ModuleOptions::warpSpecialize).
  bool warpSpecialize = true;
};

/// What tuning found for one shape key.
struct TuningResult {
  /// "M=4096,N=4096,K=4096;aligned=a,b,c".
  std::string key;
  /// Index of the chosen configuration.
  size_t best = 0;
  /// Median milliseconds per configuration (negative: it failed, see
  /// `failures`); empty when the choice came from disk or a pin.
  std::vector<double> ms;
  /// Why each configuration failed ("" where it ran).
  std::vector<std::string> failures;
  /// The choice was read from disk (no timing in this process).
  bool fromDisk = false;
};

struct TunedKernelImpl;

/// A kernel launched in the fastest of several configurations (made by
/// autotuneSource/autotuneFile; it must not outlive its Runtime).
class TunedKernel {
public:
  explicit TunedKernel(std::shared_ptr<TunedKernelImpl> impl)
      : impl(std::move(impl)) {}
  /// Launches with the chosen configuration for these arguments' shape key
  /// (tuning first if there is none yet).
  template <typename... Args>
  void launch(const GridFn &grid, const Args &...args) {
    launchArgs(grid, {Arg(args)...});
  }
  void launchArgs(const GridFn &grid, const std::vector<Arg> &args,
                  void *stream = nullptr);
  /// Tunes for these arguments' shape key if not yet (launching the kernel
  /// many times, on the default stream) and returns the result.
  TuningResult tune(const GridFn &grid, const std::vector<Arg> &args);
  /// The configurations, in the order given.
  const std::vector<Config> &configs() const;
  /// The kernel's parameters (the same in every configuration).
  const KernelInfo &signature() const;
  /// Launch `configs()[index]` for every shape, without tuning; throws if
  /// out of range.
  void pin(size_t index);
  /// Back to tuning.
  void unpin();
  /// The results of the shape keys seen so far, in order.
  std::vector<TuningResult> results() const;

private:
  std::shared_ptr<TunedKernelImpl> impl;
};

/// Kernel `kernel` of .tile `source` (named `name` in diagnostics) under
/// `configs`. The source is checked now (errors throw); configurations
/// compile when first tuned.
TunedKernel autotuneSource(Runtime &rt, const std::string &source,
                           const std::string &name, const std::string &kernel,
                           const std::vector<Config> &configs,
                           const AutotuneOptions &options = {});
/// The same for a .tile file.
TunedKernel autotuneFile(Runtime &rt, const std::string &path,
                         const std::string &kernel,
                         const std::vector<Config> &configs,
                         const AutotuneOptions &options = {});

/// Ceiling of a / b for grids.
inline unsigned ceilDiv(int64_t a, int64_t b) {
  return unsigned((a + b - 1) / b);
}

} // namespace tile

#endif // TILE_RUNTIME_AUTOTUNE_H
