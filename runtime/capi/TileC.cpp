//===- TileC.cpp - the C interface over the C++ runtime -------------------===//
//
// Each entry point catches what the C++ runtime throws and turns it into a
// status plus the thread's last error message; handles own shared
// references to the C++ objects, so they may be destroyed in any order.
//
//===----------------------------------------------------------------------===//
#include "tile-c/tile.h"

#include "TileCImpl.h"

#include "tile/Driver/Driver.h"
#include "tile/Runtime/Autotune.h"
#include "tile/Runtime/Runtime.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

using namespace tile;
using namespace tile::capi;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static thread_local std::string lastError;

tile_status capi::fail(tile_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

const char *tile_last_error(void) { return lastError.c_str(); }

const char *tile_status_name(tile_status status) {
  switch (status) {
  case TILE_SUCCESS:
    return "TILE_SUCCESS";
  case TILE_ERROR_INVALID_ARGUMENT:
    return "TILE_ERROR_INVALID_ARGUMENT";
  case TILE_ERROR_COMPILE:
    return "TILE_ERROR_COMPILE";
  case TILE_ERROR_NOT_FOUND:
    return "TILE_ERROR_NOT_FOUND";
  case TILE_ERROR_NO_DEVICE:
    return "TILE_ERROR_NO_DEVICE";
  case TILE_ERROR_CUDA:
    return "TILE_ERROR_CUDA";
  case TILE_ERROR_INTERPRETER:
    return "TILE_ERROR_INTERPRETER";
  }
  return "TILE_ERROR_UNKNOWN";
}

int tile_api_version(void) { return TILE_API_VERSION; }

const char *tile_version(void) {
  static const std::string version =
      compilerVersion().str() + " (commit " + buildCommit().str() + ")";
  return version.c_str();
}

/// Runs `body`, mapping tile::Error to `onError` (the runtime's errors are
/// compile errors or driver errors depending on the call).
template <typename Body>
static tile_status guarded(tile_status onError, Body body) {
  try {
    return body();
  } catch (const Error &e) {
    return fail(onError, e.what());
  } catch (const std::exception &e) {
    return fail(onError, e.what());
  }
}

#define TILE_REQUIRE(cond, message)                                            \
  do {                                                                         \
    if (!(cond))                                                               \
      return fail(TILE_ERROR_INVALID_ARGUMENT, message);                       \
  } while (false)

//===----------------------------------------------------------------------===//
// Handles
//===----------------------------------------------------------------------===//

struct tile_runtime {
  std::shared_ptr<Runtime> runtime;
  std::string deviceName, deviceArch;
  /// Memory of tile_malloc, by address.
  std::map<uint64_t, Buffer> buffers;
};

struct tile_module {
  std::shared_ptr<Runtime> runtime;
  /// Absent in a module that was only described.
  std::optional<Module> module;
  std::vector<KernelInfo> kernels;
};

struct tile_kernel {
  std::shared_ptr<Runtime> runtime;
  std::optional<Kernel> kernel;
  KernelInfo info;
};

struct tile_tuned_kernel {
  std::shared_ptr<Runtime> runtime;
  TunedKernel kernel;
  std::vector<std::string> configTexts;
  size_t lastChoice = 0;
};

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

tile_status tile_runtime_create(int device, tile_runtime **out) {
  TILE_REQUIRE(out, "tile_runtime_create: `out` is null");
  *out = nullptr;
  std::string why;
  if (!Runtime::isAvailable(&why))
    return fail(TILE_ERROR_NO_DEVICE, "no GPU available: " + why);
  return guarded(TILE_ERROR_NO_DEVICE, [&] {
    auto rt = std::make_shared<Runtime>(device);
    const Runtime::DeviceInfo &info = rt->deviceInfo();
    *out = new tile_runtime{rt, info.name, info.arch, {}};
    return TILE_SUCCESS;
  });
}

void tile_runtime_destroy(tile_runtime *rt) { delete rt; }

int tile_runtime_available(void) { return Runtime::isAvailable() ? 1 : 0; }

tile_status tile_runtime_device(tile_runtime *rt, const char **name,
                                const char **arch) {
  TILE_REQUIRE(rt, "tile_runtime_device: the runtime is null");
  if (name)
    *name = rt->deviceName.c_str();
  if (arch)
    *arch = rt->deviceArch.c_str();
  return TILE_SUCCESS;
}

tile_status tile_runtime_synchronize(tile_runtime *rt) {
  TILE_REQUIRE(rt, "tile_runtime_synchronize: the runtime is null");
  return guarded(TILE_ERROR_CUDA, [&] {
    rt->runtime->synchronize();
    return TILE_SUCCESS;
  });
}

tile_status tile_malloc(tile_runtime *rt, size_t bytes, uint64_t *address) {
  TILE_REQUIRE(rt, "tile_malloc: the runtime is null");
  TILE_REQUIRE(address, "tile_malloc: `address` is null");
  TILE_REQUIRE(bytes > 0, "tile_malloc: cannot allocate 0 bytes");
  return guarded(TILE_ERROR_CUDA, [&] {
    Buffer buffer = rt->runtime->alloc(bytes);
    *address = buffer.ptr().address;
    rt->buffers.emplace(*address, std::move(buffer));
    return TILE_SUCCESS;
  });
}

tile_status tile_free(tile_runtime *rt, uint64_t address) {
  TILE_REQUIRE(rt, "tile_free: the runtime is null");
  TILE_REQUIRE(rt->buffers.erase(address),
               "tile_free: " + std::to_string(address) +
                   " is not an address tile_malloc returned (or it was "
                   "freed)");
  return TILE_SUCCESS;
}

tile_status tile_memcpy_to_device(tile_runtime *rt, uint64_t dst,
                                  const void *src, size_t bytes) {
  TILE_REQUIRE(rt, "tile_memcpy_to_device: the runtime is null");
  TILE_REQUIRE(src || bytes == 0, "tile_memcpy_to_device: `src` is null");
  return guarded(TILE_ERROR_CUDA, [&] {
    rt->runtime->copyToDevice(DevicePtr{dst}, src, bytes);
    return TILE_SUCCESS;
  });
}

tile_status tile_memcpy_to_host(tile_runtime *rt, void *dst, uint64_t src,
                                size_t bytes) {
  TILE_REQUIRE(rt, "tile_memcpy_to_host: the runtime is null");
  TILE_REQUIRE(dst || bytes == 0, "tile_memcpy_to_host: `dst` is null");
  return guarded(TILE_ERROR_CUDA, [&] {
    rt->runtime->copyToHost(dst, DevicePtr{src}, bytes);
    return TILE_SUCCESS;
  });
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

tile_status capi::readOptions(const tile_compile_options *options,
                              ConstValues &constants, ModuleOptions &module) {
  if (!options)
    return TILE_SUCCESS;
  TILE_REQUIRE(options->num_consts == 0 ||
                   (options->const_names && options->const_values),
               "tile_compile_options: num_consts is " +
                   std::to_string(options->num_consts) +
                   " but const_names or const_values is null");
  for (size_t i = 0; i < options->num_consts; ++i) {
    TILE_REQUIRE(options->const_names[i] && options->const_values[i],
                 "tile_compile_options: const " + std::to_string(i) +
                     " has a null name or value");
    constants[options->const_names[i]] = options->const_values[i];
  }
  if (options->num_warps)
    module.numWarps = options->num_warps;
  if (options->num_stages)
    module.numStages = options->num_stages;
  if (options->arch)
    module.arch = options->arch;
  return TILE_SUCCESS;
}

tile_status capi::readCompileOptions(const tile_compile_options *options,
                                     CompileOptions &compile) {
  ConstValues constants;
  ModuleOptions module;
  if (tile_status s = readOptions(options, constants, module))
    return s;
  compile.constants = constants;
  compile.numWarps = module.numWarps;
  compile.numStages = module.numStages;
  return TILE_SUCCESS;
}

/// Wraps a compiled module; compile errors (the diagnostics) are
/// TILE_ERROR_COMPILE.
template <typename Make>
static tile_status makeModule(tile_runtime *rt, tile_module **out,
                              tile_status onError, Make make) {
  return guarded(onError, [&] {
    Module module = make();
    *out = new tile_module{rt->runtime, module, module.kernels()};
    return TILE_SUCCESS;
  });
}

tile_status tile_module_compile_source(tile_runtime *rt, const char *source,
                                       const char *name,
                                       const tile_compile_options *options,
                                       tile_module **out) {
  TILE_REQUIRE(out, "tile_module_compile_source: `out` is null");
  *out = nullptr;
  TILE_REQUIRE(rt, "tile_module_compile_source: the runtime is null");
  TILE_REQUIRE(source, "tile_module_compile_source: `source` is null");
  ConstValues constants;
  ModuleOptions moduleOptions;
  if (tile_status s = readOptions(options, constants, moduleOptions))
    return s;
  return makeModule(rt, out, TILE_ERROR_COMPILE, [&] {
    return rt->runtime->compileSource(source, name ? name : "<source>",
                                      constants, moduleOptions);
  });
}

/// The contents of file `path`; false (and the error recorded) if it
/// cannot be read.
static bool readFile(const char *path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fail(TILE_ERROR_NOT_FOUND, std::string("cannot read '") + path +
                                   "': no such file or not readable");
    return false;
  }
  std::ostringstream os;
  os << in.rdbuf();
  text = os.str();
  return true;
}

tile_status tile_module_compile_file(tile_runtime *rt, const char *path,
                                     const tile_compile_options *options,
                                     tile_module **out) {
  TILE_REQUIRE(out, "tile_module_compile_file: `out` is null");
  *out = nullptr;
  TILE_REQUIRE(rt, "tile_module_compile_file: the runtime is null");
  TILE_REQUIRE(path, "tile_module_compile_file: `path` is null");
  std::string source;
  if (!readFile(path, source))
    return TILE_ERROR_NOT_FOUND;
  return tile_module_compile_source(rt, source.c_str(), path, options, out);
}

tile_status tile_module_load_ptx(tile_runtime *rt, const char *ptx,
                                 const char *name, tile_module **out) {
  TILE_REQUIRE(out, "tile_module_load_ptx: `out` is null");
  *out = nullptr;
  TILE_REQUIRE(rt, "tile_module_load_ptx: the runtime is null");
  TILE_REQUIRE(ptx, "tile_module_load_ptx: `ptx` is null");
  return makeModule(rt, out, TILE_ERROR_CUDA, [&] {
    return rt->runtime->loadPTX(ptx, name ? name : "<ptx>");
  });
}

tile_status tile_module_load_ptx_file(tile_runtime *rt, const char *path,
                                      tile_module **out) {
  TILE_REQUIRE(out, "tile_module_load_ptx_file: `out` is null");
  *out = nullptr;
  TILE_REQUIRE(rt, "tile_module_load_ptx_file: the runtime is null");
  TILE_REQUIRE(path, "tile_module_load_ptx_file: `path` is null");
  std::string ptx;
  if (!readFile(path, ptx))
    return TILE_ERROR_NOT_FOUND;
  return tile_module_load_ptx(rt, ptx.c_str(), path, out);
}

tile_status tile_module_describe_source(const char *source, const char *name,
                                        const tile_compile_options *options,
                                        tile_module **out) {
  TILE_REQUIRE(out, "tile_module_describe_source: `out` is null");
  *out = nullptr;
  TILE_REQUIRE(source, "tile_module_describe_source: `source` is null");
  CompileOptions compileOptions;
  if (tile_status s = readCompileOptions(options, compileOptions))
    return s;
  std::vector<KernelInfo> kernels;
  std::string errors;
  if (!describeSource(source, name ? name : "<source>", compileOptions, kernels,
                      errors))
    return fail(TILE_ERROR_COMPILE, errors);
  *out = new tile_module{nullptr, std::nullopt, std::move(kernels)};
  return TILE_SUCCESS;
}

void tile_module_destroy(tile_module *module) { delete module; }

tile_status tile_module_num_kernels(tile_module *module, size_t *count) {
  TILE_REQUIRE(module && count, "tile_module_num_kernels: null argument");
  *count = module->kernels.size();
  return TILE_SUCCESS;
}

tile_status tile_module_kernel_name(tile_module *module, size_t index,
                                    const char **name) {
  TILE_REQUIRE(module && name, "tile_module_kernel_name: null argument");
  const std::vector<KernelInfo> &kernels = module->kernels;
  TILE_REQUIRE(index < kernels.size(),
               "tile_module_kernel_name: index " + std::to_string(index) +
                   " out of range (the module has " +
                   std::to_string(kernels.size()) + " kernels)");
  *name = kernels[index].name.c_str();
  return TILE_SUCCESS;
}

tile_status tile_module_get_kernel(tile_module *module, const char *name,
                                   tile_kernel **out) {
  TILE_REQUIRE(out, "tile_module_get_kernel: `out` is null");
  *out = nullptr;
  TILE_REQUIRE(module && name, "tile_module_get_kernel: null argument");
  auto found = llvm::find_if(
      module->kernels, [&](const KernelInfo &k) { return k.name == name; });
  if (found == module->kernels.end()) {
    std::string names;
    for (const KernelInfo &k : module->kernels)
      names += (names.empty() ? "" : ", ") + k.name;
    return fail(TILE_ERROR_NOT_FOUND, std::string("no kernel '") + name +
                                          "' (it has: " + names + ")");
  }
  return guarded(TILE_ERROR_NOT_FOUND, [&] {
    std::optional<Kernel> kernel;
    if (module->module)
      kernel = module->module->kernel(name);
    *out = new tile_kernel{module->runtime, kernel, *found};
    return TILE_SUCCESS;
  });
}

void tile_kernel_destroy(tile_kernel *kernel) { delete kernel; }

//===----------------------------------------------------------------------===//
// Signatures and launches
//===----------------------------------------------------------------------===//

tile_status tile_kernel_name(tile_kernel *kernel, const char **name) {
  TILE_REQUIRE(kernel && name, "tile_kernel_name: null argument");
  *name = kernel->info.name.c_str();
  return TILE_SUCCESS;
}

tile_status tile_kernel_num_params(tile_kernel *kernel, size_t *count) {
  TILE_REQUIRE(kernel && count, "tile_kernel_num_params: null argument");
  *count = kernel->info.params.size();
  return TILE_SUCCESS;
}

tile_status tile_kernel_param(tile_kernel *kernel, size_t index,
                              tile_param_info *info) {
  TILE_REQUIRE(kernel && info, "tile_kernel_param: null argument");
  const std::vector<ParamInfo> &params = kernel->info.params;
  TILE_REQUIRE(index < params.size(),
               "tile_kernel_param: index " + std::to_string(index) +
                   " out of range (kernel '" + kernel->info.name + "' has " +
                   std::to_string(params.size()) + " parameters)");
  const ParamInfo &p = params[index];
  info->name = p.name.c_str();
  info->type = p.type.c_str();
  info->element_type = p.elementType.c_str();
  info->kind = p.kind == ParamInfo::Kind::Pointer ? TILE_PARAM_POINTER
               : p.kind == ParamInfo::Kind::Int   ? TILE_PARAM_INT
                                                  : TILE_PARAM_FLOAT;
  info->bits = p.bits;
  info->divisibility = p.divisibility;
  return TILE_SUCCESS;
}

tile_status tile_kernel_num_consts(tile_kernel *kernel, size_t *count) {
  TILE_REQUIRE(kernel && count, "tile_kernel_num_consts: null argument");
  *count = kernel->info.constants.size();
  return TILE_SUCCESS;
}

tile_status tile_kernel_const(tile_kernel *kernel, size_t index,
                              const char **name, const char **value) {
  TILE_REQUIRE(kernel && name && value, "tile_kernel_const: null argument");
  TILE_REQUIRE(index < kernel->info.constants.size(),
               "tile_kernel_const: index " + std::to_string(index) +
                   " out of range (kernel '" + kernel->info.name + "' has " +
                   std::to_string(kernel->info.constants.size()) +
                   " const parameters)");
  *name = kernel->info.constants[index].first.c_str();
  *value = kernel->info.constants[index].second.c_str();
  return TILE_SUCCESS;
}

tile_status tile_kernel_resources(tile_kernel *kernel, unsigned *num_warps,
                                  long *shared_bytes) {
  TILE_REQUIRE(kernel, "tile_kernel_resources: the kernel is null");
  if (num_warps)
    *num_warps = kernel->info.numWarps;
  if (shared_bytes)
    *shared_bytes = kernel->info.sharedBytes;
  return TILE_SUCCESS;
}

static const char *argKindName(tile_arg_kind kind) {
  switch (kind) {
  case TILE_ARG_POINTER:
    return "a pointer";
  case TILE_ARG_I32:
    return "an i32";
  case TILE_ARG_I64:
    return "an i64";
  case TILE_ARG_F32:
    return "an f32";
  case TILE_ARG_F64:
    return "an f64";
  }
  return "an argument of unknown kind";
}

tile_status capi::convertArgs(const KernelInfo &info, const tile_arg *args,
                              size_t numArgs, std::vector<Arg> &out) {
  auto where = [&](size_t i) {
    return "kernel '" + info.name + "' argument " + std::to_string(i + 1) +
           " '" + info.params[i].name + "' (" + info.params[i].type + ")";
  };
  if (numArgs != info.params.size()) {
    std::string names;
    for (const ParamInfo &p : info.params)
      names += (names.empty() ? "" : ", ") + p.name + ": " + p.type;
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "kernel '" + info.name + "' takes " +
                    std::to_string(info.params.size()) + " arguments (" +
                    names + "), got " + std::to_string(numArgs));
  }
  TILE_REQUIRE(args || numArgs == 0, "the argument array is null");
  out.clear();
  out.reserve(numArgs);
  for (size_t i = 0; i < numArgs; ++i) {
    const ParamInfo &p = info.params[i];
    const tile_arg &a = args[i];
    bool isInt = a.kind == TILE_ARG_I32 || a.kind == TILE_ARG_I64;
    bool isFloat = a.kind == TILE_ARG_F32 || a.kind == TILE_ARG_F64;
    switch (p.kind) {
    case ParamInfo::Kind::Pointer:
      TILE_REQUIRE(a.kind == TILE_ARG_POINTER,
                   where(i) + ": expected a pointer, got " +
                       argKindName(a.kind));
      out.emplace_back(DevicePtr{a.value.pointer});
      break;
    case ParamInfo::Kind::Int: {
      TILE_REQUIRE(isInt, where(i) + ": expected an integer, got " +
                              argKindName(a.kind));
      int64_t v = a.value.integer;
      if (p.bits == 64) {
        out.emplace_back(v);
        break;
      }
      bool fits = p.bits == 1    ? (v == 0 || v == 1)
                  : p.isUnsigned ? (v >= 0 && v < (int64_t(1) << p.bits))
                                 : (v >= -(int64_t(1) << (p.bits - 1)) &&
                                    v < (int64_t(1) << (p.bits - 1)));
      TILE_REQUIRE(fits, where(i) + ": " + std::to_string(v) +
                             " does not fit in " + p.type);
      Arg arg{int32_t(v)};
      arg.bits = std::max(8u, p.bits);
      arg.raw = uint64_t(v) & ((uint64_t(1) << arg.bits) - 1);
      out.push_back(arg);
      break;
    }
    case ParamInfo::Kind::Float:
      TILE_REQUIRE(isFloat || isInt, where(i) + ": expected a number, got " +
                                         argKindName(a.kind));
      double v = isFloat ? a.value.real : double(a.value.integer);
      if (p.bits == 64)
        out.emplace_back(v);
      else if (p.bits == 32)
        out.emplace_back(float(v));
      else
        return fail(TILE_ERROR_INVALID_ARGUMENT,
                    where(i) + ": scalar " + p.type +
                        " parameters cannot be launched; take an f32");
      break;
    }
  }
  return TILE_SUCCESS;
}

tile_status tile_kernel_launch(tile_kernel *kernel, tile_grid grid,
                               void *stream, const tile_arg *args,
                               size_t num_args) {
  TILE_REQUIRE(kernel, "tile_kernel_launch: the kernel is null");
  // Converted into a per-thread vector so launches do not allocate.
  static thread_local std::vector<Arg> converted;
  if (tile_status s = convertArgs(kernel->info, args, num_args, converted))
    return s;
  if (!kernel->kernel)
    return fail(TILE_ERROR_NO_DEVICE,
                "kernel '" + kernel->info.name +
                    "' comes from a described module (no GPU runtime); "
                    "compile it with a runtime to launch it");
  return guarded(TILE_ERROR_CUDA, [&] {
    kernel->kernel->launchArgs(Grid(grid.x, grid.y, grid.z), converted, stream);
    return TILE_SUCCESS;
  });
}

//===----------------------------------------------------------------------===//
// Autotuning
//===----------------------------------------------------------------------===//

tile_status tile_tuned_kernel_create(tile_runtime *rt, const char *source,
                                     const char *name, const char *kernel_name,
                                     const char *configs,
                                     const char *const *key, size_t num_key,
                                     tile_tuned_kernel **out) {
  TILE_REQUIRE(out, "tile_tuned_kernel_create: `out` is null");
  *out = nullptr;
  TILE_REQUIRE(rt && source && kernel_name && configs,
               "tile_tuned_kernel_create: null argument");
  TILE_REQUIRE(num_key == 0 || key, "tile_tuned_kernel_create: `key` is null");
  std::vector<Config> parsed;
  tile_status s = guarded(TILE_ERROR_INVALID_ARGUMENT, [&] {
    parsed = Config::parseList(configs);
    return TILE_SUCCESS;
  });
  if (s)
    return s;
  TILE_REQUIRE(!parsed.empty(), "tile_tuned_kernel_create: no configurations");
  AutotuneOptions options;
  for (size_t i = 0; i < num_key; ++i) {
    TILE_REQUIRE(key[i], "tile_tuned_kernel_create: key entry is null");
    options.key.push_back(key[i]);
  }
  options.verbose = std::getenv("TILE_VERBOSE") != nullptr;
  return guarded(TILE_ERROR_COMPILE, [&] {
    TunedKernel tuned =
        autotuneSource(*rt->runtime, source, name ? name : "<source>",
                       kernel_name, parsed, options);
    std::vector<std::string> texts;
    for (const Config &c : parsed)
      texts.push_back(c.str());
    *out = new tile_tuned_kernel{rt->runtime, tuned, std::move(texts), 0};
    return TILE_SUCCESS;
  });
}

void tile_tuned_kernel_destroy(tile_tuned_kernel *kernel) { delete kernel; }

tile_status tile_tuned_kernel_num_configs(tile_tuned_kernel *kernel,
                                          size_t *count) {
  TILE_REQUIRE(kernel && count, "tile_tuned_kernel_num_configs: null argument");
  *count = kernel->configTexts.size();
  return TILE_SUCCESS;
}

tile_status tile_tuned_kernel_config_value(tile_tuned_kernel *kernel,
                                           size_t config, const char *name,
                                           int64_t *value) {
  TILE_REQUIRE(kernel && name && value,
               "tile_tuned_kernel_config_value: null argument");
  TILE_REQUIRE(config < kernel->configTexts.size(),
               "tile_tuned_kernel_config_value: configuration " +
                   std::to_string(config) + " out of range");
  return guarded(TILE_ERROR_NOT_FOUND, [&] {
    *value = kernel->kernel.configs()[config].get(name);
    return TILE_SUCCESS;
  });
}

tile_status tile_tuned_kernel_config_text(tile_tuned_kernel *kernel,
                                          size_t config, const char **text) {
  TILE_REQUIRE(kernel && text, "tile_tuned_kernel_config_text: null argument");
  TILE_REQUIRE(config < kernel->configTexts.size(),
               "tile_tuned_kernel_config_text: configuration " +
                   std::to_string(config) + " out of range");
  *text = kernel->configTexts[config].c_str();
  return TILE_SUCCESS;
}

tile_status tile_tuned_kernel_launch(tile_tuned_kernel *kernel,
                                     tile_grid_fn grid, void *user_data,
                                     void *stream, const tile_arg *args,
                                     size_t num_args) {
  TILE_REQUIRE(kernel && grid, "tile_tuned_kernel_launch: null argument");
  // All configurations share the signature of the first.
  std::vector<Arg> converted;
  if (tile_status s =
          convertArgs(kernel->kernel.signature(), args, num_args, converted))
    return s;
  const std::vector<Config> &configs = kernel->kernel.configs();
  return guarded(TILE_ERROR_CUDA, [&] {
    GridFn gridFn = [&](const Config &c) {
      size_t index = 0;
      while (index < configs.size() && !(configs[index] == c))
        ++index;
      tile_grid g = {1, 1, 1};
      if (grid(user_data, kernel, index, &g) != 0)
        throw Error("the grid function failed for configuration " + c.str());
      kernel->lastChoice = index;
      return Grid(g.x, g.y, g.z);
    };
    kernel->kernel.launchArgs(gridFn, converted, stream);
    return TILE_SUCCESS;
  });
}

tile_status tile_tuned_kernel_last_choice(tile_tuned_kernel *kernel,
                                          size_t *config) {
  TILE_REQUIRE(kernel && config,
               "tile_tuned_kernel_last_choice: null argument");
  *config = kernel->lastChoice;
  return TILE_SUCCESS;
}
