//===- Passes.h - conversions out of the tile dialect -----------*- C++ -*-===//
#ifndef TILE_CONVERSION_PASSES_H
#define TILE_CONVERSION_PASSES_H

#include "tile/Support/KernelSignature.h"
#include "tile/Support/Limits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace tile {

#define GEN_PASS_DECL
#include "tile/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Conversion/Passes.h.inc"

/// Name of the gpu.module that holds the lowered kernels.
inline constexpr llvm::StringLiteral kGPUModuleName = "tile_kernels";

/// Name of the shared-memory scratch buffer of kernel `kernelName`.
std::string sharedBufferName(llvm::StringRef kernelName);

/// The dynamic shared memory kernel `kernelName` of lowered `module` needs
/// (0: none).
int64_t kernelSharedBytes(mlir::ModuleOp module, llvm::StringRef kernelName);

/// The threads per block kernel `kernelName` of lowered `module` is launched
/// with (its known block size: the kernel's warps and a producer's); 0 when
/// the module is not lowered that far.
int64_t kernelThreads(mlir::ModuleOp module, llvm::StringRef kernelName);

/// The attribute of a lowered kernel that lists its tensor-map parameters
/// (an array of `tmap=` strings, see KernelSignature.h).
inline constexpr llvm::StringLiteral kTensorMapsAttrName = "tile.tensor_maps";

/// The attribute of a lowered gpu.module giving the PTX ISA version (times
/// ten) its instructions need when above the default 8.0.
inline constexpr llvm::StringLiteral kMinPtxVersionAttrName = "tile.min_ptx";

/// The tensor maps kernel `kernelName` of a lowered module takes after its
/// parameters.
std::vector<TensorMapInfo> kernelTensorMaps(mlir::ModuleOp module,
                                            llvm::StringRef kernelName);

} // namespace tile

#endif // TILE_CONVERSION_PASSES_H
