//===- Runtime.cpp - compile, load and launch tile kernels ----------------===//
#include "tile/Runtime/Runtime.h"

#include "CudaDriver.h"
#include "tile/Driver/Driver.h"
#include "tile/Runtime/Cache.h"
#include "tile/Support/Limits.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace tile;
using namespace tile::cuda;

/// Mask bits per parameter: a divisibility level (2 bits) and equal-to-one.
static constexpr unsigned kBitsPerParam = 3;
/// Parameters past this many are not specialized.
static constexpr size_t kMaxSpecialized = 64 / kBitsPerParam;
/// The divisors a level names: none, 4, 8, 16 (an f16 or f32 row stride
/// divisible by 8 or 4 still makes 16-byte rows).
static constexpr unsigned kDivisorOfLevel[] = {1, 4, 8, 16};

namespace tile {

/// A loaded CUmodule and its functions, in the order of `kernels`.
struct LoadedModule {
  const Driver *driver = nullptr;
  CUmodule module = nullptr;
  std::vector<CUfunction> functions;
  /// Dynamic shared memory each function's launch passes.
  std::vector<long> sharedBytes;
  /// Warps each function's launch runs (its signature's: a producer
  /// warpgroup's included).
  std::vector<unsigned> numWarps;
  /// The tensor maps each function takes after its parameters.
  std::vector<std::vector<TensorMapInfo>> tensorMaps;
  ~LoadedModule() {
    if (module)
      driver->cuModuleUnload(module);
  }
};

struct RuntimeImpl {
  const Driver *driver = nullptr;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int maxGrid[3] = {0, 0, 0};
  int maxShared = 0;
  Runtime::DeviceInfo info;
  DiskCache cache{DiskCache::defaultDirectory()};
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<LoadedModule>> loaded;
  /// Tensor maps already encoded, by everything they are encoded from.
  std::map<std::vector<unsigned long long>, CUtensorMap> tensorMaps;
  /// Kernel signatures of sources already described, by source and options.
  std::map<std::string, std::vector<KernelInfo>> described;
  Runtime::CacheStats stats;

  void check(CUresult result, const std::string &what) const {
    if (result != CUDA_SUCCESS)
      throw Error(what + ": " + describe(*driver, result));
  }
  /// The tensor map `map` of kernel `k` for the launch arguments `args`
  /// (encoded once per distinct tensor, box and swizzle).
  CUtensorMap tensorMap(const KernelInfo &k, const TensorMapInfo &map,
                        const std::vector<Arg> &args);
  /// Loads PTX whose signature lines describe `kernels`.
  std::shared_ptr<LoadedModule> load(const std::string &ptx,
                                     const std::vector<KernelInfo> &kernels,
                                     const std::string &name);
};

struct ModuleImpl {
  std::shared_ptr<RuntimeImpl> runtime;
  std::string name;
  std::vector<KernelInfo> kernels;
  /// Source modules: what a variant is compiled from.
  bool fromSource = false;
  std::string source;
  CompileOptions options;
  /// Compiled variants by kernel and specialization mask (bits 3i, 3i+1:
  /// parameter i's divisibility level, see kDivisorOfLevel; bit 3i+2:
  /// integer parameter i equal to 1); PTX modules have one, mask 0.
  std::mutex mutex;
  std::vector<std::tuple<size_t, uint64_t, std::shared_ptr<LoadedModule>>>
      variants;

  std::shared_ptr<LoadedModule> variant(size_t kernelIndex, uint64_t mask);
};

} // namespace tile

namespace {
/// Makes a runtime's context current for its lifetime, and then gives the
/// caller's current context (PyTorch's current device, say) back, so that
/// work on device 1 does not move the caller to it. With no context current
/// before, the runtime's stays current (what C++ callers of Buffer expect).
class ContextScope {
public:
  explicit ContextScope(const RuntimeImpl &rt)
      : driver(*rt.driver), context(rt.context) {
    rt.check(driver.cuCtxGetCurrent(&previous), "cuCtxGetCurrent");
    if (previous != context)
      rt.check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  }
  ~ContextScope() {
    if (previous && previous != context)
      driver.cuCtxSetCurrent(previous);
  }
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;

private:
  const Driver &driver;
  CUcontext context, previous = nullptr;
};
} // namespace

std::shared_ptr<LoadedModule>
RuntimeImpl::load(const std::string &ptx,
                  const std::vector<KernelInfo> &kernels,
                  const std::string &name) {
  auto result = std::make_shared<LoadedModule>();
  result->driver = driver;
  ContextScope scope(*this);
  char errorLog[16384] = {0}, infoLog[4096] = {0};
  int options[5] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                    CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                    CU_JIT_OPTIMIZATION_LEVEL};
  void *values[5] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog)),
                     infoLog, reinterpret_cast<void *>(sizeof(infoLog)),
                     nullptr};
  unsigned numOptions = 4;
  // TILE_JIT_OPT_LEVEL=0..4 sets ptxas' optimization level (default 4): to
  // tell a miscompilation by ptxas from one of ours.
  if (const char *env = std::getenv("TILE_JIT_OPT_LEVEL"); env && *env) {
    unsigned level = unsigned(std::strtoul(env, nullptr, 10));
    if (level > 4)
      throw Error("TILE_JIT_OPT_LEVEL must be 0..4, not '" + std::string(env) +
                  "'");
    values[numOptions++] = reinterpret_cast<void *>(uintptr_t(level));
  }
  CUresult r = driver->cuModuleLoadDataEx(&result->module, ptx.c_str(),
                                          numOptions, options, values);
  if (r != CUDA_SUCCESS)
    throw Error("cannot load the PTX of " + name + ": " + describe(*driver, r) +
                "\nJIT log:\n" + errorLog);
  for (const KernelInfo &k : kernels) {
    CUfunction fn = nullptr;
    check(driver->cuModuleGetFunction(&fn, result->module, k.name.c_str()),
          "kernel '" + k.name + "' of " + name);
    if (k.sharedBytes > maxShared)
      throw Error("kernel '" + k.name + "' needs " +
                  std::to_string(k.sharedBytes) +
                  " bytes of shared memory per block; the device has " +
                  std::to_string(maxShared));
    // Beyond 48 KiB a kernel must opt in to dynamic shared memory.
    if (k.sharedBytes > 48 * 1024)
      check(driver->cuFuncSetAttribute(
                fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                int(k.sharedBytes)),
            "cuFuncSetAttribute of kernel '" + k.name + "'");
    result->functions.push_back(fn);
    result->sharedBytes.push_back(k.sharedBytes);
    result->numWarps.push_back(k.numWarps);
    result->tensorMaps.push_back(k.tensorMaps);
  }
  return result;
}

CUtensorMap RuntimeImpl::tensorMap(const KernelInfo &k,
                                   const TensorMapInfo &map,
                                   const std::vector<Arg> &args) {
  auto what = [&](const std::string &why) {
    return Error("kernel '" + k.name + "': tensor map of '" + map.pointer +
                 "': " + why);
  };
  // A parameter's value or a decimal constant.
  auto valueOf = [&](const std::string &name) -> unsigned long long {
    for (size_t i = 0; i < k.params.size() && i < args.size(); ++i)
      if (k.params[i].name == name)
        return args[i].raw;
    char *end = nullptr;
    unsigned long long v = std::strtoull(name.c_str(), &end, 10);
    if (name.empty() || *end)
      throw what("no parameter '" + name + "'");
    return v;
  };
  int type;
  unsigned long long elemBytes;
  if (map.elementType == "f16" || map.elementType == "bf16") {
    type = map.elementType == "f16" ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                    : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    elemBytes = 2;
  } else if (map.elementType == "f32") {
    type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    elemBytes = 4;
  } else if (map.elementType == "i8") {
    type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    elemBytes = 1;
  } else {
    throw what("its element type '" + map.elementType +
               "' is not one of "
               "f16, bf16, f32, i8");
  }
  // Sizes and the pitch are i32 parameters: their low 32 bits, signed.
  auto asInt = [](unsigned long long raw) {
    return (long long)(int32_t)(uint32_t)raw;
  };
  long long size0 = asInt(valueOf(map.sizes[0]));
  long long size1 = asInt(valueOf(map.sizes[1]));
  long long pitch = asInt(valueOf(map.pitch));
  if (size0 <= 0 || size1 <= 0)
    throw what("its sizes (" + std::to_string(size0) + ", " +
               std::to_string(size1) +
               ") must be positive: the Tensor Memory Accelerator cannot "
               "read an empty tensor");
  if (pitch < size0)
    throw what("its row pitch " + std::to_string(pitch) +
               " is smaller than its row length " + std::to_string(size0));
  unsigned long long address = valueOf(map.pointer);
  unsigned swizzle = map.swizzleBytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                     : map.swizzleBytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                     : map.swizzleBytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                              : CU_TENSOR_MAP_SWIZZLE_NONE;
  // Slices of a packed 3-D tensor: the program bounds none (it reads the
  // slice its offset names), so the map takes as many as it may hold, 2^31.
  // Bounding them by the allocation the pointer lies in was wrong: memory
  // mapped in pieces (PyTorch's expandable segments) reports one piece.
  unsigned long long sliceBytes = 0, slices = 0;
  if (map.slices) {
    sliceBytes = (unsigned long long)size1 * pitch * elemBytes;
    if (sliceBytes >= (1ull << 40))
      throw what("its slices are " + std::to_string(sliceBytes) +
                 " bytes apart; the Tensor Memory Accelerator takes strides "
                 "below 2^40 bytes");
    slices = 1ull << 31;
  }
  std::vector<unsigned long long> key = {address,
                                         (unsigned long long)type,
                                         (unsigned long long)size0,
                                         (unsigned long long)size1,
                                         (unsigned long long)pitch,
                                         map.box[0],
                                         map.box[1],
                                         swizzle,
                                         slices};
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = tensorMaps.find(key);
    if (it != tensorMaps.end())
      return it->second;
  }
  CUtensorMap encoded;
  const unsigned long long sizes[3] = {(unsigned long long)size0,
                                       (unsigned long long)size1, slices};
  const unsigned long long strides[2] = {(unsigned long long)pitch * elemBytes,
                                         sliceBytes};
  const unsigned box[3] = {map.box[0], map.box[1], 1};
  const unsigned elementStrides[3] = {1, 1, 1};
  CUresult r = driver->cuTensorMapEncodeTiled(
      &encoded, type, map.slices ? 3 : 2, reinterpret_cast<void *>(address),
      sizes, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      int(swizzle), tensorMapL2Promotion(strides[0]),
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw what("cuTensorMapEncodeTiled: " + describe(*driver, r));
  std::lock_guard<std::mutex> lock(mutex);
  // Bounded: a program that cycles through many tensors re-encodes.
  if (tensorMaps.size() >= 1024)
    tensorMaps.clear();
  tensorMaps[key] = encoded;
  return encoded;
}

std::shared_ptr<LoadedModule> ModuleImpl::variant(size_t kernelIndex,
                                                  uint64_t mask) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!fromSource)
    return std::get<2>(variants.front());
  for (auto &[i, m, loaded] : variants)
    if (i == kernelIndex && m == mask)
      return loaded;
  // Compile the variant with the facts `mask` names.
  CompileOptions variantOptions = options;
  Specialization &spec = variantOptions.specialization;
  spec = Specialization();
  const KernelInfo &info = kernels[kernelIndex];
  for (size_t i = 0; i < info.params.size() && i < kMaxSpecialized; ++i) {
    uint64_t bits = mask >> (kBitsPerParam * i);
    unsigned divisor = kDivisorOfLevel[bits & 3];
    if (divisor == 16)
      spec.divisible.insert(info.params[i].name);
    else if (divisor > 1)
      spec.divisible.insert(info.params[i].name + ":" +
                            std::to_string(divisor));
    if (bits & 4)
      spec.equalToOne.insert(info.params[i].name);
  }
  std::string constants, divisible;
  for (auto &[k, v] : options.constants)
    constants += k + "=" + v + ";";
  for (const std::string &n : spec.divisible)
    divisible += n + ";";
  divisible += "|";
  for (const std::string &n : spec.equalToOne)
    divisible += n + ";";
  std::string warps = std::to_string(options.numWarps) + "/" +
                      std::to_string(options.numStages) +
                      (options.tma ? "" : "/cp.async") +
                      (options.warpSpecialize ? "" : "/one-role");
  std::string key =
      DiskCache::makeKey({compilerVersion(), buildCommit(), source, constants,
                          divisible, options.arch, warps});
  RuntimeImpl &rt = *runtime;
  std::shared_ptr<LoadedModule> loaded;
  {
    std::lock_guard<std::mutex> rtLock(rt.mutex);
    auto it = rt.loaded.find(key);
    if (it != rt.loaded.end()) {
      ++rt.stats.memoryHits;
      loaded = it->second;
    }
  }
  if (!loaded) {
    std::string ptx;
    std::vector<KernelInfo> described;
    std::string error;
    if (std::optional<std::string> hit = rt.cache.get(key)) {
      auto parsed = parseSignatures(*hit, error);
      if (parsed) {
        ptx = *hit;
        described = *parsed;
        std::lock_guard<std::mutex> rtLock(rt.mutex);
        ++rt.stats.diskHits;
      }
    }
    if (ptx.empty()) {
      CompiledModule compiled;
      if (!compileToPTX(source, name, variantOptions, compiled, error))
        throw Error("cannot compile " + name + ":\n" + error);
      ptx = compiled.ptx;
      described = compiled.kernels;
      rt.cache.put(key, ptx);
      std::lock_guard<std::mutex> rtLock(rt.mutex);
      ++rt.stats.compiles;
    }
    loaded = rt.load(ptx, described, name);
    std::lock_guard<std::mutex> rtLock(rt.mutex);
    rt.loaded[key] = loaded;
  }
  variants.emplace_back(kernelIndex, mask, loaded);
  return loaded;
}

//===----------------------------------------------------------------------===//
// Buffer, Arg
//===----------------------------------------------------------------------===//

namespace {
/// The driver of the process's Runtime (buffers outlive no Runtime).
const Driver *activeDriver() {
  std::string why;
  return load(why);
}
} // namespace

Buffer::Buffer(Buffer &&other) noexcept
    : address(other.address), bytes(other.bytes) {
  other.address = 0;
  other.bytes = 0;
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  std::swap(address, other.address);
  std::swap(bytes, other.bytes);
  return *this;
}

Buffer::~Buffer() {
  if (address)
    activeDriver()->cuMemFree(address);
}

void Buffer::upload(const void *data, size_t count) {
  if (count > bytes)
    throw Error("upload of " + std::to_string(count) + " bytes into a " +
                std::to_string(bytes) + "-byte buffer");
  const Driver *d = activeDriver();
  if (CUresult r = d->cuMemcpyHtoD(address, data, count))
    throw Error("cuMemcpyHtoD: " + describe(*d, r));
}

void Buffer::download(void *data, size_t count) const {
  if (count > bytes)
    throw Error("download of " + std::to_string(count) + " bytes from a " +
                std::to_string(bytes) + "-byte buffer");
  const Driver *d = activeDriver();
  if (CUresult r = d->cuMemcpyDtoH(data, address, count))
    throw Error("cuMemcpyDtoH: " + describe(*d, r));
}

void Buffer::fill(unsigned char value) {
  const Driver *d = activeDriver();
  if (CUresult r = d->cuMemsetD8(address, value, bytes))
    throw Error("cuMemsetD8: " + describe(*d, r));
}

Arg::Arg(float v) : kind(ParamInfo::Kind::Float), bits(32) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  raw = u;
}

Arg::Arg(double v) : kind(ParamInfo::Kind::Float), bits(64) {
  std::memcpy(&raw, &v, 8);
}

std::string Arg::typeName() const {
  switch (kind) {
  case ParamInfo::Kind::Pointer:
    return "a device pointer";
  case ParamInfo::Kind::Int:
    return "i" + std::to_string(bits);
  case ParamInfo::Kind::Float:
    return "f" + std::to_string(bits);
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Module, Kernel
//===----------------------------------------------------------------------===//

const std::vector<KernelInfo> &Module::kernels() const { return impl->kernels; }

Kernel Module::kernel(const std::string &name) const {
  for (size_t i = 0; i < impl->kernels.size(); ++i)
    if (impl->kernels[i].name == name)
      return Kernel(impl, i);
  std::string names;
  for (const KernelInfo &k : impl->kernels)
    names += (names.empty() ? "" : ", ") + k.name;
  throw Error("no kernel '" + name + "' in " + impl->name +
              " (it has: " + names + ")");
}

const KernelInfo &Kernel::info() const { return module->kernels[index]; }

/// True when the integer `arg` is 1.
static bool isOne(const Arg &arg) {
  return arg.bits == 32 ? uint32_t(arg.raw) == 1 : arg.raw == 1;
}

/// The divisibility level of `arg` (see kDivisorOfLevel); pointers only
/// 16-byte alignment (level 3) or none.
static unsigned divisibilityLevel(const ParamInfo &p, const Arg &arg) {
  if (p.kind == ParamInfo::Kind::Float)
    return 0;
  for (unsigned level = 3; level > 0; --level)
    if (arg.integer() % kDivisorOfLevel[level] == 0)
      return p.kind == ParamInfo::Kind::Pointer && level < 3 ? 0 : level;
  return 0;
}

/// Checks `args` against kernel `k`'s signature and returns the
/// specialization mask they select.
static uint64_t specializationMask(const KernelInfo &k, bool fromSource,
                                   const std::vector<Arg> &args) {
  if (args.size() != k.params.size()) {
    std::string names;
    for (const ParamInfo &p : k.params)
      names += (names.empty() ? "" : ", ") + p.name;
    throw Error("kernel '" + k.name + "' takes " +
                std::to_string(k.params.size()) + " arguments (" + names +
                "), got " + std::to_string(args.size()));
  }
  uint64_t mask = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const ParamInfo &p = k.params[i];
    const Arg &a = args[i];
    if (a.kind != p.kind ||
        (p.kind != ParamInfo::Kind::Pointer && a.bits != std::max(8u, p.bits)))
      throw Error("kernel '" + k.name + "' argument " + std::to_string(i + 1) +
                  " '" + p.name + "': expected " + p.type + ", got " +
                  a.typeName());
    unsigned level = divisibilityLevel(p, a);
    bool one = p.kind == ParamInfo::Kind::Int && isOne(a);
    if (fromSource) {
      if (i < kMaxSpecialized)
        mask |= (uint64_t(level) | uint64_t(one) << 2) << (kBitsPerParam * i);
    } else if (p.equalToOne && !one) {
      throw Error("kernel '" + k.name + "' argument '" + p.name +
                  "': the PTX was compiled for it being 1");
    } else if (p.divisibility > 1 && (p.kind == ParamInfo::Kind::Float ||
                                      a.integer() % p.divisibility != 0)) {
      throw Error("kernel '" + k.name + "' argument '" + p.name +
                  "': the PTX was compiled assuming it is divisible by " +
                  std::to_string(p.divisibility) +
                  " (a pointer: aligned to as many bytes); recompile with "
                  "tilec --divisible listing only arguments that are");
    }
  }
  return mask;
}

void Kernel::prepare(const std::vector<Arg> &args) const {
  module->variant(index, specializationMask(info(), module->fromSource, args));
}

void Kernel::launchArgs(Grid grid, const std::vector<Arg> &args,
                        void *stream) const {
  const KernelInfo &k = info();
  RuntimeImpl &rt = *module->runtime;
  uint64_t mask = specializationMask(k, module->fromSource, args);
  const unsigned dims[3] = {grid.x, grid.y, grid.z};
  for (int d = 0; d < 3; ++d)
    if (dims[d] == 0 || dims[d] > unsigned(rt.maxGrid[d]))
      throw Error("kernel '" + k.name + "': grid (" + std::to_string(grid.x) +
                  ", " + std::to_string(grid.y) + ", " +
                  std::to_string(grid.z) + ") is outside the device's limits " +
                  "(1.." + std::to_string(rt.maxGrid[0]) + ", 1.." +
                  std::to_string(rt.maxGrid[1]) + ", 1.." +
                  std::to_string(rt.maxGrid[2]) + ")");
  std::shared_ptr<LoadedModule> loaded = module->variant(index, mask);
  uint64_t storage[64];
  void *params[64];
  if (args.size() > 64)
    throw Error("kernel '" + k.name + "' has more than 64 parameters");
  for (size_t i = 0; i < args.size(); ++i) {
    storage[i] = args[i].raw;
    params[i] = &storage[i];
  }
  // Tensor maps follow the parameters, passed by value.
  const std::vector<TensorMapInfo> &maps = loaded->tensorMaps[index];
  if (args.size() + maps.size() > 64)
    throw Error("kernel '" + k.name + "' has more than 64 parameters");
  CUtensorMap encoded[8];
  if (maps.size() > 8)
    throw Error("kernel '" + k.name + "' takes more than 8 tensor maps");
  for (size_t m = 0; m < maps.size(); ++m) {
    encoded[m] = rt.tensorMap(k, maps[m], args);
    params[args.size() + m] = &encoded[m];
  }
  // The launch runs in the runtime's context (its device's primary one).
  CUresult r;
  {
    ContextScope scope(rt);
    r = rt.driver->cuLaunchKernel(loaded->functions[index], grid.x, grid.y,
                                  grid.z, 32 * loaded->numWarps[index], 1, 1,
                                  unsigned(loaded->sharedBytes[index]),
                                  static_cast<CUstream>(stream), params,
                                  nullptr);
  }
  if (r != CUDA_SUCCESS)
    throw Error("launch of kernel '" + k.name +
                "': " + describe(*rt.driver, r));
}

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

bool Runtime::isAvailable(std::string *why) {
  std::string reason;
  const Driver *d = load(reason);
  int count = 0;
  if (d) {
    if (CUresult r = d->cuInit(0))
      reason = "cuInit: " + describe(*d, r);
    else if (CUresult r = d->cuDeviceGetCount(&count))
      reason = "cuDeviceGetCount: " + describe(*d, r);
    else if (count == 0)
      reason = "no CUDA device";
  }
  if (why)
    *why = reason;
  return reason.empty();
}

Runtime::Runtime(int device) : impl(std::make_shared<RuntimeImpl>()) {
  std::string why;
  if (!isAvailable(&why))
    throw Error("no GPU available: " + why);
  RuntimeImpl &rt = *impl;
  rt.driver = load(why);
  rt.check(rt.driver->cuDeviceGet(&rt.device, device),
           "device " + std::to_string(device));
  rt.check(rt.driver->cuDevicePrimaryCtxRetain(&rt.context, rt.device),
           "cuDevicePrimaryCtxRetain");
  ContextScope scope(rt);
  char name[256] = {0};
  rt.driver->cuDeviceGetName(name, sizeof(name), rt.device);
  rt.info.name = name;
  int major = 0, minor = 0;
  auto attr = [&](int &out, int which) {
    rt.check(rt.driver->cuDeviceGetAttribute(&out, which, rt.device),
             "cuDeviceGetAttribute");
  };
  attr(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  attr(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  attr(rt.maxGrid[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  attr(rt.maxGrid[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  attr(rt.maxGrid[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  attr(rt.maxShared, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  rt.info.arch = "sm_" + std::to_string(major) + std::to_string(minor);
  int kHz = 0;
  attr(rt.info.multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  attr(kHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  rt.info.smClockMHz = kHz / 1000;
  attr(kHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  rt.info.memoryClockMHz = kHz / 1000;
}

Runtime::~Runtime() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  {
    ContextScope scope(*impl);
    impl->loaded.clear();
  }
  impl->driver->cuDevicePrimaryCtxRelease(impl->device);
}

std::string Runtime::deviceName() const { return impl->info.name; }
std::string Runtime::deviceArch() const { return impl->info.arch; }

std::string Runtime::defaultArch() const {
  // sm_90 devices run sm_90a code: its warpgroup MMAs.
  std::string arch = impl->info.arch == "sm_90" ? "sm_90a" : impl->info.arch;
  return isSupportedArch(arch) ? arch : "sm_90";
}
const Runtime::DeviceInfo &Runtime::deviceInfo() const { return impl->info; }
std::string Runtime::cacheDirectory() const { return impl->cache.directory(); }

Runtime::CacheStats Runtime::cacheStats() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->stats;
}

Module Runtime::compileSource(const std::string &source,
                              const std::string &name,
                              const ConstValues &constants,
                              const ModuleOptions &options) {
  auto module = std::make_shared<ModuleImpl>();
  module->runtime = impl;
  module->name = name;
  module->fromSource = true;
  module->source = source;
  for (auto &[k, v] : constants)
    module->options.constants[k] = v;
  module->options.numWarps = options.numWarps;
  module->options.numStages = options.numStages;
  module->options.tma = options.tma;
  module->options.warpSpecialize = options.warpSpecialize;
  module->options.arch = options.arch.empty() ? defaultArch() : options.arch;
  if (!isSupportedArch(module->options.arch))
    throw Error("unsupported arch '" + module->options.arch + "'");
  // Describe the kernels (and report errors in the source) now; variants
  // compile on the first launch with each specialization.
  std::string constantsText;
  for (auto &[k, v] : module->options.constants)
    constantsText += k + "=" + v + ";";
  std::string key = DiskCache::makeKey(
      {source, constantsText, std::to_string(module->options.numWarps)});
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    auto it = impl->described.find(key);
    if (it != impl->described.end()) {
      module->kernels = it->second;
      return Module(module);
    }
  }
  std::string errors;
  if (!describeSource(source, name, module->options, module->kernels, errors))
    throw Error("cannot compile " + name + ":\n" + errors);
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->described[key] = module->kernels;
  return Module(module);
}

Module Runtime::compileFile(const std::string &path,
                            const ConstValues &constants,
                            const ModuleOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    throw Error("cannot read " + path + ": " + buffer.getError().message());
  return compileSource((*buffer)->getBuffer().str(), path, constants, options);
}

Module Runtime::loadPTX(const std::string &ptx, const std::string &name) {
  std::string error;
  auto kernels = parseSignatures(ptx, error);
  if (!kernels)
    throw Error(name + ": " + error);
  if (kernels->empty())
    throw Error(name + ": no '// tile.kernel' signature lines (PTX from tilec "
                       "records each kernel's parameters)");
  auto module = std::make_shared<ModuleImpl>();
  module->runtime = impl;
  module->name = name;
  module->kernels = *kernels;
  module->variants.emplace_back(0, 0, impl->load(ptx, *kernels, name));
  return Module(module);
}

Module Runtime::loadPTXFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    throw Error("cannot read " + path + ": " + buffer.getError().message());
  return loadPTX((*buffer)->getBuffer().str(), path);
}

Buffer Runtime::alloc(size_t bytes) {
  CUdeviceptr address = 0;
  ContextScope scope(*impl);
  impl->check(impl->driver->cuMemAlloc(&address, std::max<size_t>(bytes, 1)),
              "cuMemAlloc of " + std::to_string(bytes) + " bytes");
  return Buffer(address, bytes);
}

void Runtime::copyToDevice(DevicePtr dst, const void *src, size_t bytes) {
  ContextScope scope(*impl);
  impl->check(impl->driver->cuMemcpyHtoD(dst.address, src, bytes),
              "cuMemcpyHtoD of " + std::to_string(bytes) + " bytes");
}

void Runtime::copyToHost(void *dst, DevicePtr src, size_t bytes) {
  ContextScope scope(*impl);
  impl->check(impl->driver->cuMemcpyDtoH(dst, src.address, bytes),
              "cuMemcpyDtoH of " + std::to_string(bytes) + " bytes");
}

void Runtime::synchronize() {
  ContextScope scope(*impl);
  impl->check(impl->driver->cuCtxSynchronize(), "cuCtxSynchronize");
}

Timing tile::timeRuns(Runtime &rt, int warmup, int reps,
                      const std::function<void()> &body, Buffer *flush) {
  std::string why;
  const Driver *d = load(why);
  auto check = [&](CUresult r, const char *what) {
    if (r != CUDA_SUCCESS)
      throw Error(std::string(what) + ": " + describe(*d, r));
  };
  // Events, flushes and launches in the runtime's context throughout.
  ContextScope scope(*rt.impl);
  for (int i = 0; i < warmup; ++i)
    body();
  rt.synchronize();
  CUevent start, stop;
  check(d->cuEventCreate(&start, 0), "cuEventCreate");
  check(d->cuEventCreate(&stop, 0), "cuEventCreate");
  std::vector<float> times;
  for (int i = 0; i < std::max(reps, 1); ++i) {
    if (flush)
      flush->fill(0);
    check(d->cuEventRecord(start, nullptr), "cuEventRecord");
    body();
    check(d->cuEventRecord(stop, nullptr), "cuEventRecord");
    check(d->cuEventSynchronize(stop), "cuEventSynchronize");
    float ms = 0;
    check(d->cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    times.push_back(ms);
  }
  d->cuEventDestroy(start);
  d->cuEventDestroy(stop);
  std::sort(times.begin(), times.end());
  auto quantile = [&](double q) {
    return times[size_t(q * (times.size() - 1))];
  };
  return {times[times.size() / 2], quantile(0.2), quantile(0.8)};
}

double tile::timeMedianMs(Runtime &rt, int warmup, int reps,
                          const std::function<void()> &body) {
  return timeRuns(rt, warmup, reps, body).median;
}
