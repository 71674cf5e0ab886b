//===- TileCInterpreter.cpp - tile_run_cpu: kernels without a GPU ---------===//
//
// Compiles the source to the tile stage (as `tilec --run` does) and runs
// the kernel on the interpreter over the caller's host memory, which is
// copied into interpreter buffers and back.
//
//===----------------------------------------------------------------------===//
#include "TileCImpl.h"

#include "tile/Driver/Driver.h"
#include "tile/Interpreter/Interpreter.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <memory>

using namespace tile;
using namespace tile::capi;

/// The interpreter's kind of a C dtype.
static interp::ScalarKind kindOf(tile_dtype dtype) {
  switch (dtype) {
  case TILE_I1:
    return interp::ScalarKind::I1;
  case TILE_I8:
    return interp::ScalarKind::I8;
  case TILE_I16:
    return interp::ScalarKind::I16;
  case TILE_I32:
    return interp::ScalarKind::I32;
  case TILE_I64:
    return interp::ScalarKind::I64;
  case TILE_F16:
    return interp::ScalarKind::F16;
  case TILE_BF16:
    return interp::ScalarKind::BF16;
  case TILE_F32:
    return interp::ScalarKind::F32;
  case TILE_F64:
    return interp::ScalarKind::F64;
  case TILE_F8E4M3:
    return interp::ScalarKind::F8E4M3;
  case TILE_F8E5M2:
    return interp::ScalarKind::F8E5M2;
  }
  return interp::ScalarKind::I32;
}

tile_status tile_run_cpu(const char *source, const char *name,
                         const char *kernel_name,
                         const tile_compile_options *options, tile_grid grid,
                         const tile_cpu_arg *args, size_t num_args) {
  if (!source || !kernel_name)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_run_cpu: `source` or `kernel_name` is null");
  if (num_args && !args)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_run_cpu: the argument array is null");
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_run_cpu: every grid dimension must be at least 1");
  CompileOptions compileOptions;
  if (tile_status s = readCompileOptions(options, compileOptions))
    return s;

  // Argument errors found while walking the kernel; they are the caller's,
  // not the source's.
  tile_status status = TILE_SUCCESS;
  std::string argumentError;
  auto run = [&](mlir::ModuleOp module) -> mlir::LogicalResult {
    KernelOp kernel;
    std::string names;
    for (KernelOp k : module.getOps<KernelOp>()) {
      names += (names.empty() ? "" : ", ") + k.getSymName().str();
      if (k.getSymName() == kernel_name)
        kernel = k;
    }
    if (!kernel) {
      status = TILE_ERROR_NOT_FOUND;
      argumentError = std::string("no kernel '") + kernel_name +
                      "' (the source has: " + names + ")";
      return mlir::failure();
    }
    auto types = kernel.getArgumentTypes();
    auto where = [&](size_t i) {
      return "kernel '" + kernel.getSymName().str() + "' argument " +
             std::to_string(i + 1) + " '" + interp::kernelParamName(kernel, i) +
             "'";
    };
    if (num_args != types.size()) {
      status = TILE_ERROR_INVALID_ARGUMENT;
      argumentError = "kernel '" + kernel.getSymName().str() + "' takes " +
                      std::to_string(types.size()) + " arguments, got " +
                      std::to_string(num_args);
      return mlir::failure();
    }
    std::vector<std::unique_ptr<interp::HostBuffer>> buffers(num_args);
    std::vector<interp::KernelArg> kernelArgs;
    for (size_t i = 0; i < num_args; ++i) {
      const tile_cpu_arg &a = args[i];
      if (auto ptr = mlir::dyn_cast<PointerType>(types[i])) {
        interp::ScalarKind want = *interp::scalarKindOf(ptr.getPointeeType());
        if (!a.data || a.count == 0 || kindOf(a.dtype) != want) {
          status = TILE_ERROR_INVALID_ARGUMENT;
          argumentError =
              where(i) + ": expected host memory of " +
              interp::scalarKindName(want) + " elements" +
              (a.data && a.count ? std::string(", got ") +
                                       interp::scalarKindName(kindOf(a.dtype))
                                 : std::string(", got none"));
          return mlir::failure();
        }
        buffers[i] = std::make_unique<interp::HostBuffer>(want, a.count);
        std::memcpy(buffers[i]->data(), a.data, buffers[i]->byteSize());
        kernelArgs.push_back(interp::KernelArg::ofBuffer(*buffers[i]));
        continue;
      }
      bool isFloatParam = mlir::isa<mlir::FloatType>(types[i]);
      bool isInt =
          a.scalar.kind == TILE_ARG_I32 || a.scalar.kind == TILE_ARG_I64;
      bool isFloat =
          a.scalar.kind == TILE_ARG_F32 || a.scalar.kind == TILE_ARG_F64;
      if (a.data || (!isInt && !isFloat) || (!isFloatParam && !isInt)) {
        status = TILE_ERROR_INVALID_ARGUMENT;
        argumentError = where(i) + ": expected " +
                        (isFloatParam ? "a number" : "an integer");
        return mlir::failure();
      }
      unsigned width = types[i].getIntOrFloatBitWidth();
      int64_t v = a.scalar.value.integer;
      // An unsigned parameter (u32) holds [0, 2^width).
      bool isUnsigned = getParamSourceType(kernel.getBody().getArgument(i))
                            .isUnsignedInteger();
      if (!isFloatParam && width < 64 &&
          !(width == 1   ? (v == 0 || v == 1)
            : isUnsigned ? llvm::isUIntN(width, uint64_t(v))
                         : llvm::isIntN(width, v))) {
        status = TILE_ERROR_INVALID_ARGUMENT;
        argumentError = where(i) + ": " + std::to_string(v) +
                        " does not fit in " + (isUnsigned ? "u" : "i") +
                        std::to_string(width);
        return mlir::failure();
      }
      if (isFloatParam)
        kernelArgs.push_back(interp::KernelArg::ofFloat(
            isFloat ? a.scalar.value.real : double(a.scalar.value.integer)));
      else
        kernelArgs.push_back(interp::KernelArg::ofInt(a.scalar.value.integer));
    }
    if (failed(
            interp::runKernel(kernel, {grid.x, grid.y, grid.z}, kernelArgs))) {
      status = TILE_ERROR_INTERPRETER;
      return mlir::failure();
    }
    for (size_t i = 0; i < num_args; ++i)
      if (buffers[i])
        std::memcpy(args[i].data, buffers[i]->data(), buffers[i]->byteSize());
    return mlir::success();
  };
  std::string errors;
  if (withTileModule(source, name ? name : "<source>", compileOptions, run,
                     errors))
    return TILE_SUCCESS;
  if (status == TILE_SUCCESS)
    status = TILE_ERROR_COMPILE;
  return fail(status, argumentError.empty() ? errors : argumentError);
}
