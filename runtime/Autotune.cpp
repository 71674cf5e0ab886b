//===- Autotune.cpp - launch a kernel in its fastest configuration --------===//
#include "tile/Runtime/Autotune.h"

#include "tile/Driver/Driver.h"
#include "tile/Runtime/Cache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdio>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace tile;

//===----------------------------------------------------------------------===//
// Config
//===----------------------------------------------------------------------===//

int64_t Config::get(const std::string &name) const {
  auto it = constants.find(name);
  long long value = 0;
  if (it == constants.end() ||
      llvm::StringRef(it->second).getAsInteger(0, value))
    throw Error("configuration '" + str() + "' has no integer const '" + name +
                "'");
  return value;
}

std::string Config::str() const {
  std::string text;
  for (auto &[name, value] : constants)
    text += name + "=" + value + ",";
  return text + "num_warps=" + std::to_string(numWarps) +
         ",num_stages=" + std::to_string(numStages);
}

std::optional<Config> Config::parse(const std::string &text,
                                    std::string &error) {
  Config config;
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(text).split(items, ',', -1, /*KeepEmpty=*/false);
  if (items.empty()) {
    error = "empty configuration";
    return std::nullopt;
  }
  bool sawWarps = false, sawStages = false;
  for (llvm::StringRef item : items) {
    auto [name, value] = item.trim().split('=');
    name = name.trim();
    value = value.trim();
    if (name.empty() || value.empty() || !item.contains('=')) {
      error = "'" + item.trim().str() + "' is not NAME=VALUE";
      return std::nullopt;
    }
    if (name == "num_warps" || name == "num_stages") {
      unsigned number = 0;
      bool &seen = name == "num_warps" ? sawWarps : sawStages;
      if (value.getAsInteger(10, number) || seen ||
          (name == "num_warps" &&
           (number == 0 || number > 32 || (number & (number - 1))))) {
        error = seen ? name.str() + " given twice"
                     : "bad " + name.str() + " '" + value.str() +
                           (name == "num_warps" ? "' (a power of two, 1 to 32)"
                                                : "' (a number)");
        return std::nullopt;
      }
      seen = true;
      (name == "num_warps" ? config.numWarps : config.numStages) = number;
      continue;
    }
    if (!config.constants.emplace(name.str(), value.str()).second) {
      error = "const '" + name.str() + "' given twice";
      return std::nullopt;
    }
  }
  return config;
}

std::vector<Config> Config::parseList(const std::string &text) {
  std::vector<Config> configs;
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(text).split(items, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    if (item.trim().empty())
      continue;
    std::string error;
    std::optional<Config> config = Config::parse(item.str(), error);
    if (!config)
      throw Error("bad configuration '" + item.trim().str() + "': " + error);
    configs.push_back(*config);
  }
  if (configs.empty())
    throw Error("no configurations in '" + text + "'");
  return configs;
}

//===----------------------------------------------------------------------===//
// TunedKernel
//===----------------------------------------------------------------------===//

namespace tile {

struct TunedKernelImpl {
  Runtime *rt = nullptr;
  std::string source, name, kernelName;
  std::vector<Config> configs;
  AutotuneOptions options;
  KernelInfo info;
  DiskCache store;
  std::mutex mutex;
  /// Kernels per configuration, compiled on first use (nullopt: not yet).
  std::vector<std::optional<Kernel>> kernels;
  std::vector<std::string> compileErrors;
  std::optional<size_t> pinned;
  std::vector<TuningResult> results;

  TunedKernelImpl(std::string directory) : store(std::move(directory)) {}
  /// The kernel of configuration `index` (described, not yet compiled).
  Kernel kernel(size_t index) const;
  std::string shapeKey(const std::vector<Arg> &args) const;
  std::string storeKey(const std::string &shapeKey) const;
  TuningResult &resultFor(const GridFn &grid, const std::vector<Arg> &args);
  void compileAll(const std::vector<Arg> &args);
  double time(size_t index, const GridFn &grid, const std::vector<Arg> &args,
              std::string &failure);
};

} // namespace tile

Kernel TunedKernelImpl::kernel(size_t index) const {
  ModuleOptions moduleOptions;
  moduleOptions.numWarps = configs[index].numWarps;
  moduleOptions.numStages = configs[index].numStages;
  moduleOptions.arch = options.arch;
  moduleOptions.tma = options.tma;
  moduleOptions.warpSpecialize = options.warpSpecialize;
  return rt
      ->compileSource(source, name, configs[index].constants, moduleOptions)
      .kernel(kernelName);
}

std::string TunedKernelImpl::shapeKey(const std::vector<Arg> &args) const {
  if (args.size() != info.params.size())
    throw Error("kernel '" + kernelName + "' takes " +
                std::to_string(info.params.size()) + " arguments, got " +
                std::to_string(args.size()));
  std::string values, aligned;
  for (size_t i = 0; i < args.size(); ++i) {
    const ParamInfo &p = info.params[i];
    if (p.kind == ParamInfo::Kind::Pointer) {
      if (args[i].raw % 16 == 0)
        aligned += (aligned.empty() ? "" : ",") + p.name;
      continue;
    }
    bool inKey = options.key.empty() ? p.kind == ParamInfo::Kind::Int
                                     : llvm::is_contained(options.key, p.name);
    if (!inKey)
      continue;
    values += (values.empty() ? "" : ",") + p.name + "=" +
              std::to_string(args[i].integer());
  }
  return values + ";aligned=" + aligned;
}

std::string TunedKernelImpl::storeKey(const std::string &shape) const {
  std::string configList;
  for (const Config &c : configs)
    configList += c.str() + ";";
  return DiskCache::makeKey({compilerVersion(), buildCommit(), "autotune",
                             source, kernelName, configList, rt->deviceName(),
                             rt->deviceArch(),
                             options.arch + (options.tma ? "" : "/cp.async") +
                                 (options.warpSpecialize ? "" : "/one-role"),
                             shape});
}

void TunedKernelImpl::compileAll(const std::vector<Arg> &args) {
  // Each configuration is a separate compile with its own MLIR context:
  // compile them on as many threads as there are cores.
  std::vector<size_t> todo;
  for (size_t i = 0; i < configs.size(); ++i)
    if (!kernels[i] && compileErrors[i].empty())
      todo.push_back(i);
  std::vector<std::optional<Kernel>> compiled(configs.size());
  std::vector<std::string> errors(configs.size());
  auto work = [&](size_t i) {
    try {
      Kernel k = kernel(i);
      k.prepare(args);
      compiled[i] = k;
    } catch (const Error &e) {
      errors[i] = e.what();
    }
  };
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (size_t start = 0; start < todo.size(); start += threads) {
    std::vector<std::thread> pool;
    for (size_t j = start; j < std::min(todo.size(), start + threads); ++j)
      pool.emplace_back(work, todo[j]);
    for (std::thread &t : pool)
      t.join();
  }
  for (size_t i : todo) {
    kernels[i] = compiled[i];
    compileErrors[i] = errors[i];
  }
}

double TunedKernelImpl::time(size_t index, const GridFn &grid,
                             const std::vector<Arg> &args,
                             std::string &failure) {
  if (!compileErrors[index].empty()) {
    failure = compileErrors[index];
    return -1;
  }
  try {
    Grid g = grid(configs[index]);
    const Kernel &k = *kernels[index];
    k.launchArgs(g, args);
    rt->synchronize();
    return timeMedianMs(*rt, options.warmup, options.reps,
                        [&] { k.launchArgs(g, args); });
  } catch (const Error &e) {
    failure = e.what();
    return -1;
  }
}

TuningResult &TunedKernelImpl::resultFor(const GridFn &grid,
                                         const std::vector<Arg> &args) {
  std::string shape = shapeKey(args);
  for (TuningResult &r : results)
    if (r.key == shape)
      return r;
  TuningResult result;
  result.key = shape;
  std::string key = storeKey(shape);
  // A choice a previous process stored: the index of a configuration of
  // this same list (the key covers the list), checked again here.
  if (std::optional<std::string> stored = store.get(key)) {
    llvm::StringRef text(*stored);
    unsigned long long index = 0;
    if (text.consume_front("best ") &&
        !text.take_until([](char c) { return c == '\n'; })
             .getAsInteger(10, index) &&
        index < configs.size()) {
      result.best = index;
      result.fromDisk = true;
      results.push_back(result);
      return results.back();
    }
  }
  compileAll(args);
  result.ms.assign(configs.size(), -1);
  result.failures.assign(configs.size(), "");
  std::optional<size_t> best;
  bool progress = options.progress && !options.verbose && isatty(2);
  for (size_t i = 0; i < configs.size(); ++i) {
    result.ms[i] = time(i, grid, args, result.failures[i]);
    if (result.ms[i] >= 0 && (!best || result.ms[i] < result.ms[*best]))
      best = i;
    if (progress)
      std::fprintf(stderr, "tile: tuning %s [%s] %zu/%zu %s: %s\n",
                   kernelName.c_str(), shape.c_str(), i + 1, configs.size(),
                   configs[i].str().c_str(),
                   result.ms[i] >= 0
                       ? (std::to_string(result.ms[i]) + " ms").c_str()
                       : "failed");
  }
  if (options.verbose) {
    std::fprintf(stderr, "autotune %s [%s]:\n", kernelName.c_str(),
                 shape.c_str());
    for (size_t i = 0; i < configs.size(); ++i)
      std::fprintf(stderr, "  %c %-60s %s\n", best && *best == i ? '*' : ' ',
                   configs[i].str().c_str(),
                   result.ms[i] >= 0
                       ? (std::to_string(result.ms[i]) + " ms").c_str()
                       : "failed");
  }
  if (!best) {
    std::string why;
    for (size_t i = 0; i < configs.size(); ++i)
      why += "\n  " + configs[i].str() + ": " + result.failures[i];
    throw Error("autotuning kernel '" + kernelName + "' for " + shape +
                ": no configuration ran:" + why);
  }
  result.best = *best;
  std::string record = "best " + std::to_string(*best) + "\nconfig " +
                       configs[*best].str() + "\nkey " + shape + "\n";
  for (size_t i = 0; i < configs.size(); ++i)
    record +=
        "ms " + std::to_string(result.ms[i]) + " " + configs[i].str() + "\n";
  store.put(key, record);
  results.push_back(result);
  return results.back();
}

TuningResult TunedKernel::tune(const GridFn &grid,
                               const std::vector<Arg> &args) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->resultFor(grid, args);
}

void TunedKernel::launchArgs(const GridFn &grid, const std::vector<Arg> &args,
                             void *stream) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  size_t index =
      impl->pinned ? *impl->pinned : impl->resultFor(grid, args).best;
  // Chosen by an earlier process, or pinned: compile only this one.
  if (!impl->kernels[index])
    impl->kernels[index] = impl->kernel(index);
  impl->kernels[index]->launchArgs(grid(impl->configs[index]), args, stream);
}

const KernelInfo &TunedKernel::signature() const { return impl->info; }

const std::vector<Config> &TunedKernel::configs() const {
  return impl->configs;
}

void TunedKernel::pin(size_t index) {
  if (index >= impl->configs.size())
    throw Error("pin: configuration " + std::to_string(index) + " of kernel '" +
                impl->kernelName + "' does not exist (it has " +
                std::to_string(impl->configs.size()) + ")");
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->pinned = index;
}

void TunedKernel::unpin() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->pinned.reset();
}

std::vector<TuningResult> TunedKernel::results() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->results;
}

TunedKernel tile::autotuneSource(Runtime &rt, const std::string &source,
                                 const std::string &name,
                                 const std::string &kernel,
                                 const std::vector<Config> &configs,
                                 const AutotuneOptions &options) {
  if (configs.empty())
    throw Error("autotuning kernel '" + kernel + "': no configurations");
  for (size_t i = 0; i < configs.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (configs[i] == configs[j])
        throw Error("autotuning kernel '" + kernel + "': configuration '" +
                    configs[i].str() + "' is listed twice");
  auto impl =
      std::make_shared<TunedKernelImpl>(rt.cacheDirectory() + "/tuning");
  impl->rt = &rt;
  impl->source = source;
  impl->name = name;
  impl->kernelName = kernel;
  impl->configs = configs;
  impl->options = options;
  impl->kernels.resize(configs.size());
  impl->compileErrors.resize(configs.size());
  // Check the source and the kernel's name and key now, with the first
  // configuration's constants.
  impl->info = impl->kernel(0).info();
  for (const std::string &k : options.key) {
    auto it = llvm::find_if(impl->info.params,
                            [&](const ParamInfo &p) { return p.name == k; });
    if (it == impl->info.params.end() || it->kind != ParamInfo::Kind::Int)
      throw Error("autotuning kernel '" + kernel + "': key '" + k +
                  "' is not an integer argument");
  }
  return TunedKernel(impl);
}

TunedKernel tile::autotuneFile(Runtime &rt, const std::string &path,
                               const std::string &kernel,
                               const std::vector<Config> &configs,
                               const AutotuneOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    throw Error("cannot read " + path + ": " + buffer.getError().message());
  return autotuneSource(rt, (*buffer)->getBuffer().str(), path, kernel, configs,
                        options);
}
