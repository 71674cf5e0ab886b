//===- CudaDriver.cpp - the CUDA Driver API, opened at run time -----------===//
#include "CudaDriver.h"

#include <dlfcn.h>
#include <mutex>

using namespace tile::cuda;

const Driver *tile::cuda::load(std::string &why) {
  static Driver driver;
  static std::string failure;
  static bool loaded = false;
  static std::once_flag once;
  std::call_once(once, [] {
    // TILE_CUDA_DRIVER names another library (tests use it to simulate a
    // machine without a driver).
    const char *name = getenv("TILE_CUDA_DRIVER");
    void *lib = dlopen(name ? name : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      failure = std::string("cannot open the CUDA driver (") + dlerror() + ")";
      return;
    }
    auto bind = [&](auto &fn, const char *symbol, const char *alt = nullptr) {
      void *p = dlsym(lib, symbol);
      if (!p && alt)
        p = dlsym(lib, alt);
      if (!p && failure.empty())
        failure = std::string("the CUDA driver lacks ") + symbol;
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    bind(driver.cuInit, "cuInit");
    bind(driver.cuDeviceGetCount, "cuDeviceGetCount");
    bind(driver.cuDeviceGet, "cuDeviceGet");
    bind(driver.cuDeviceGetName, "cuDeviceGetName");
    bind(driver.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    bind(driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(driver.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    bind(driver.cuCtxSetCurrent, "cuCtxSetCurrent");
    bind(driver.cuCtxGetCurrent, "cuCtxGetCurrent");
    bind(driver.cuCtxSynchronize, "cuCtxSynchronize");
    bind(driver.cuModuleLoadDataEx, "cuModuleLoadDataEx");
    bind(driver.cuModuleUnload, "cuModuleUnload");
    bind(driver.cuModuleGetFunction, "cuModuleGetFunction");
    bind(driver.cuLaunchKernel, "cuLaunchKernel");
    bind(driver.cuFuncSetAttribute, "cuFuncSetAttribute");
    bind(driver.cuMemAlloc, "cuMemAlloc_v2");
    bind(driver.cuMemFree, "cuMemFree_v2");
    bind(driver.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    bind(driver.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    bind(driver.cuMemsetD8, "cuMemsetD8_v2");
    bind(driver.cuEventCreate, "cuEventCreate");
    bind(driver.cuEventRecord, "cuEventRecord");
    bind(driver.cuEventSynchronize, "cuEventSynchronize");
    bind(driver.cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
    bind(driver.cuEventDestroy, "cuEventDestroy_v2");
    bind(driver.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
    bind(driver.cuGetErrorName, "cuGetErrorName");
    bind(driver.cuGetErrorString, "cuGetErrorString");
    loaded = failure.empty();
  });
  if (!loaded) {
    why = failure;
    return nullptr;
  }
  return &driver;
}

std::string tile::cuda::describe(const Driver &driver, CUresult result) {
  const char *name = nullptr, *message = nullptr;
  driver.cuGetErrorName(result, &name);
  driver.cuGetErrorString(result, &message);
  std::string text = std::string(name ? name : "CUDA_ERROR_UNKNOWN") + " (" +
                     std::to_string(result) +
                     "): " + (message ? message : "no message");
  // 710, CUDA_ERROR_ASSERT: what a failing device_assert leaves.
  if (result == 710)
    text += " (a device_assert failed; the device printed its message, file "
            "and line; this process cannot use the GPU any more)";
  return text;
}
