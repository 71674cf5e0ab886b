//===- Compile.h - .tile source to PTX in process ---------------*- C++ -*-===//
//
// The whole compiler as one call, for the runtime and for tools: parse,
// specialize, run the pipeline and the NVPTX backend, and describe each
// kernel's signature.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_PIPELINE_COMPILE_H
#define TILE_PIPELINE_COMPILE_H

#include "tile/Frontend/MLIRGen.h"
#include "tile/Pipeline/Pipeline.h"
#include "tile/Support/KernelSignature.h"

#include <string>
#include <vector>

namespace tile {

/// Everything that selects one compiled variant of a source.
struct CompileOptions {
  ConstOverrides constants;
  std::string arch = "sm_90";
  unsigned numWarps = 4;
  unsigned numStages = 3;
  Specialization specialization;
};

/// PTX with its signature lines first, and the kernels it holds.
struct CompiledModule {
  std::string ptx;
  std::vector<KernelInfo> kernels;
};

/// The signatures of the kernels of a tile module (after specialization).
std::vector<KernelInfo> describeKernels(mlir::ModuleOp module,
                                        unsigned numWarps);

/// Compiles `source` (named `bufferName` in diagnostics). On failure returns
/// false with the diagnostics, formatted like tilec's, in `errors`.
bool compileToPTX(llvm::StringRef source, llvm::StringRef bufferName,
                  const CompileOptions &options, CompiledModule &result,
                  std::string &errors);

/// Runs only the frontend on `source` to describe its kernels (no
/// specialization facts); false with the diagnostics in `errors`.
bool describeSource(llvm::StringRef source, llvm::StringRef bufferName,
                    const CompileOptions &options,
                    std::vector<KernelInfo> &kernels, std::string &errors);

/// A string that changes whenever the compiler's output may (part of cache
/// keys).
llvm::StringRef compilerVersion();

} // namespace tile

#endif // TILE_PIPELINE_COMPILE_H
