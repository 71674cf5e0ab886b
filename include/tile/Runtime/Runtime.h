//===- Runtime.h - compile, load and launch tile kernels --------*- C++ -*-===//
//
// The C++ runtime: a Runtime owns the CUDA driver context of one device;
// Modules come from .tile source compiled in process (cached in memory and on
// disk) or from PTX files tilec wrote; Kernels launch with arguments checked
// against the signature the compiler recorded.
//
//   tile::Runtime rt;
//   tile::Module m = rt.compileFile("examples/softmax.tile", {{"BLOCK",
//   "1024"}}); tile::Kernel k = m.kernel("softmax"); k.launch({rows}, out, in,
//   cols, cols); rt.synchronize();
//
// Every failure throws tile::Error with the driver's error name and message
// (and the JIT log, or the compiler's diagnostics, where there is one).
//
// tile/Runtime/Autotune.h launches a kernel in the fastest of several
// configurations (const values, num_warps, num_stages) per shape.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_RUNTIME_RUNTIME_H
#define TILE_RUNTIME_RUNTIME_H

#include "tile/Support/KernelSignature.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tile {

/// What the runtime throws.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A device address.
struct DevicePtr {
  uint64_t address = 0;
};

/// Device memory owned by the runtime user (freed on destruction).
class Buffer {
public:
  Buffer() = default;
  Buffer(Buffer &&other) noexcept;
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();
  DevicePtr ptr() const { return {address}; }
  size_t size() const { return bytes; }
  /// Copies `bytes` from host memory to the buffer's start.
  void upload(const void *data, size_t count);
  /// Copies the buffer's first `count` bytes to host memory.
  void download(void *data, size_t count) const;
  /// Sets every byte to `value`.
  void fill(unsigned char value);

private:
  friend class Runtime;
  Buffer(uint64_t address, size_t bytes) : address(address), bytes(bytes) {}
  uint64_t address = 0;
  size_t bytes = 0;
};

/// One launch argument with the C++ type it came from.
struct Arg {
  ParamInfo::Kind kind;
  unsigned bits;
  uint64_t raw = 0;
  Arg(DevicePtr p) : kind(ParamInfo::Kind::Pointer), bits(64), raw(p.address) {}
  Arg(const Buffer &b) : Arg(b.ptr()) {}
  Arg(int32_t v) : kind(ParamInfo::Kind::Int), bits(32), raw(uint32_t(v)) {}
  Arg(int64_t v) : kind(ParamInfo::Kind::Int), bits(64), raw(uint64_t(v)) {}
  /// Unsigned values for u32/u64 parameters (i32/i64 ones take them too).
  Arg(uint32_t v) : kind(ParamInfo::Kind::Int), bits(32), raw(v) {}
  Arg(uint64_t v) : kind(ParamInfo::Kind::Int), bits(64), raw(v) {}
  Arg(float v);
  Arg(double v);
  /// Describes the argument for messages ("i32", "f32", "pointer").
  std::string typeName() const;
  /// The value of an integer (a 32-bit one sign-extended) or the address
  /// of a pointer.
  int64_t integer() const {
    return bits == 32 ? int64_t(int32_t(uint32_t(raw))) : int64_t(raw);
  }
};

/// Launch grid: number of program instances along x, y, z.
struct Grid {
  Grid(unsigned x, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
  unsigned x, y, z;
};

/// How a Module compiles its source.
struct ModuleOptions {
  std::string arch; ///< default: the device's (sm_90a on an H100)
  unsigned numWarps = 4;
  /// Shared-memory stages of pipelined dot operands (< 2: none).
  unsigned numStages = 3;
  /// On sm_90a, fill the stages of whole-tile loads with the Tensor Memory
  /// Accelerator (false: cp.async).
  bool tma = true;
  /// With TMA, give pipelines that transpose an operand on its way into
  /// shared memory, or feed several dots on two warpgroups, a producer
  /// warpgroup (CompileOptions::warpSpecialize).
  bool warpSpecialize = true;
};

class Kernel;
struct ModuleImpl;
struct RuntimeImpl;

/// A set of kernels from one source (or PTX file).
class Module {
public:
  /// The kernel named `name`; throws if there is none.
  Kernel kernel(const std::string &name) const;
  /// The kernels' recorded signatures.
  const std::vector<KernelInfo> &kernels() const;

private:
  friend class Runtime;
  explicit Module(std::shared_ptr<ModuleImpl> impl) : impl(std::move(impl)) {}
  std::shared_ptr<ModuleImpl> impl;
};

/// A launchable kernel of a Module.
class Kernel {
public:
  /// Launches on the default stream; arguments in the kernel's order.
  template <typename... Args> void launch(Grid grid, const Args &...args) {
    launchArgs(grid, {Arg(args)...});
  }
  /// Launches on `stream` (a CUstream; null: the default stream).
  void launchArgs(Grid grid, const std::vector<Arg> &args,
                  void *stream = nullptr) const;
  /// Checks `args` and compiles and loads the variant they select, without
  /// launching (the first launch with such arguments does this itself).
  void prepare(const std::vector<Arg> &args) const;
  const KernelInfo &info() const;

private:
  friend class Module;
  Kernel(std::shared_ptr<ModuleImpl> module, size_t index)
      : module(std::move(module)), index(index) {}
  std::shared_ptr<ModuleImpl> module;
  size_t index;
};

/// Const overrides, by name, as text ("1024").
using ConstValues = std::map<std::string, std::string>;

struct Timing;

/// The CUDA context of one device and the kernel caches. Every call makes
/// the device's context current for its duration and gives the caller's
/// current context back after, so runtimes of several devices can be used
/// side by side and next to PyTorch.
class Runtime {
public:
  /// Opens the driver and device `device`'s primary context; throws if there
  /// is no driver or GPU.
  explicit Runtime(int device = 0);
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  /// True when a driver and a GPU are present; otherwise `why` says what is
  /// missing.
  static bool isAvailable(std::string *why = nullptr);

  /// Compiles a .tile file in process (cached in memory and on disk).
  Module compileFile(const std::string &path, const ConstValues &constants = {},
                     const ModuleOptions &options = {});
  /// Compiles .tile source named `name` in diagnostics.
  Module compileSource(const std::string &source, const std::string &name,
                       const ConstValues &constants = {},
                       const ModuleOptions &options = {});
  /// Loads a PTX file written by tilec (its signature lines give the kernels).
  Module loadPTXFile(const std::string &path);
  Module loadPTX(const std::string &ptx, const std::string &name);

  Buffer alloc(size_t bytes);
  /// Copies between host memory and any device memory of the context (a
  /// Buffer's, or another library's such as a torch.Tensor's).
  void copyToDevice(DevicePtr dst, const void *src, size_t bytes);
  void copyToHost(void *dst, DevicePtr src, size_t bytes);
  void synchronize();
  std::string deviceName() const;
  /// "sm_90" for compute capability 9.0.
  std::string deviceArch() const;
  /// The arch compileFile/compileSource use when ModuleOptions::arch is
  /// empty: sm_90a on sm_90 devices (warpgroup MMAs), else the device's if
  /// tile supports it, else sm_90.
  std::string defaultArch() const;
  /// What benchmarks record of the device.
  struct DeviceInfo {
    std::string name, arch;
    int multiprocessors = 0;
    /// Peak clocks the driver reports (not the current ones).
    int smClockMHz = 0, memoryClockMHz = 0;
  };
  const DeviceInfo &deviceInfo() const;

  /// Counters of the compile cache (for tests and tile-bench).
  struct CacheStats {
    unsigned memoryHits = 0, diskHits = 0, compiles = 0;
  };
  CacheStats cacheStats() const;
  /// Where compiled PTX is cached: $TILE_CACHE_DIR or ~/.cache/tile.
  std::string cacheDirectory() const;

private:
  std::shared_ptr<RuntimeImpl> impl;
  friend Timing timeRuns(Runtime &, int, int, const std::function<void()> &,
                         Buffer *);
};

/// Times of CUDA-event-timed runs, in milliseconds.
struct Timing {
  double median, p20, p80;
};

/// CUDA-event timing of `body` on the default stream: `reps` runs after
/// `warmup` runs. With `flush` (a buffer larger than the L2 cache), the
/// buffer is cleared before each timed run, outside the timed region, so
/// that every run starts with a cold L2, as triton.testing.do_bench does.
/// Throws Error when an event call fails.
Timing timeRuns(Runtime &rt, int warmup, int reps,
                const std::function<void()> &body, Buffer *flush = nullptr);

/// The median of timeRuns without a flush (the autotuner's measure).
double timeMedianMs(Runtime &rt, int warmup, int reps,
                    const std::function<void()> &body);

} // namespace tile

#endif // TILE_RUNTIME_RUNTIME_H
