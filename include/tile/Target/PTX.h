//===- PTX.h - LLVM IR and PTX from the lowered module ----------*- C++ -*-===//
//
// The last stage of the pipeline, in process: the gpu.module of kernels (in
// the LLVM and NVVM dialects) is translated to LLVM IR, optimized at O3 and
// compiled to PTX by LLVM's NVPTX backend.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_TARGET_PTX_H
#define TILE_TARGET_PTX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tile {

/// Registers the translations from the LLVM, NVVM and GPU dialects to LLVM IR.
void registerPTXTranslations(mlir::DialectRegistry &registry);

/// Translates the module's single gpu.module to optimized LLVM IR for `arch`,
/// printed to `os`. Reports errors on the module.
mlir::LogicalResult emitLLVMIR(mlir::ModuleOp module, llvm::StringRef arch,
                               llvm::raw_ostream &os);

/// Compiles the module's single gpu.module to PTX for `arch` into `ptx`.
mlir::LogicalResult emitPTX(mlir::ModuleOp module, llvm::StringRef arch,
                            std::string &ptx);

} // namespace tile

#endif // TILE_TARGET_PTX_H
