//===- Driver.h - the compiler, from .tile source to any stage --*- C++ -*-===//
//
// The one compile flow that tilec, the runtime, tile-bench and the fuzzers
// share: parse and type-check the source, specialize the kernels for facts
// about their arguments (tile-specialize), describe their signatures, run
// the pipeline up to a stage, and print that stage (PTX with signature
// lines first).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_DRIVER_DRIVER_H
#define TILE_DRIVER_DRIVER_H

#include "tile/Frontend/MLIRGen.h"
#include "tile/Support/KernelSignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <set>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tile {

/// Where a compilation stops, in pipeline order.
enum class Stage {
  Tile,    ///< tile IR after the tile pipeline (no layouts, no specialization)
  Layouts, ///< after the layout passes
  GPU,     ///< after convert-tile-to-gpu
  NVVM,    ///< in the LLVM and NVVM dialects
  LLVM,    ///< LLVM IR, optimized for the NVPTX target
  PTX      ///< PTX assembly
};

/// What a compiled variant assumes of its arguments; facts the launch
/// checks.
struct Specialization {
  /// Names of the arguments assumed divisible by 16 (a pointer: its address
  /// 16-byte aligned).
  std::set<std::string> divisible;
  /// Every pointer argument is 16-byte aligned (tilec's default).
  bool pointersDivisible = false;
  /// Names of integer arguments assumed to be 1: compiled as the constant,
  /// so a stride of 1 makes accesses contiguous.
  std::set<std::string> equalToOne;
};

/// Everything that selects one compiled variant of a source.
struct CompileOptions {
  ConstOverrides constants;
  std::string arch = "sm_90";
  unsigned numWarps = 4;
  unsigned numStages = 3;
  /// On sm_90a, fill the wgmma stages of whole-tile loads with the Tensor
  /// Memory Accelerator (PipelineOptions::tma).
  bool tma = true;
  /// With tma, a producer warpgroup for pipelines that transpose an operand
  /// on its way into shared memory or feed several dots on two warpgroups
  /// (PipelineOptions::warpSpecialize).
  bool warpSpecialize = true;
  /// On sm_90a, wait for a dot's MMAs where its result is first read
  /// (PipelineOptions::deferDotWaits).
  bool deferDotWaits = true;
  Specialization specialization;
  Stage stage = Stage::PTX;
};

/// Checks the options that do not depend on the source: "" when they are
/// valid, else the message.
std::string checkOptions(const CompileOptions &options);

/// Called with each pass manager the driver runs, to add instrumentation
/// (tilec: the --mlir-* options).
using PassManagerHook =
    llvm::function_ref<mlir::LogicalResult(mlir::PassManager &)>;

/// Compiles the main buffer of `sourceMgr` up to `options.stage`, the
/// kernels' signatures into `kernels`. Diagnostics go to the context's
/// handler; null after an error. For Stage::LLVM and Stage::PTX the module
/// is left in the NVVM stage: printStage translates it.
mlir::OwningOpRef<mlir::ModuleOp>
compileSource(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
              const CompileOptions &options, std::vector<KernelInfo> &kernels,
              PassManagerHook hook = {});

/// Runs what follows the frontend on a tile module, as compileSource does.
mlir::LogicalResult lowerModule(mlir::ModuleOp module,
                                const CompileOptions &options,
                                std::vector<KernelInfo> &kernels,
                                PassManagerHook hook = {});

/// Prints a module compiled to `options.stage`: IR for the MLIR stages,
/// LLVM IR, or the signature lines and PTX.
mlir::LogicalResult printStage(mlir::ModuleOp module,
                               const CompileOptions &options,
                               llvm::ArrayRef<KernelInfo> kernels,
                               llvm::raw_ostream &os);

/// Registers every dialect, interface and translation the driver uses.
void registerDriverDialects(mlir::DialectRegistry &registry);

/// PTX with its signature lines first, and the kernels it holds.
struct CompiledModule {
  std::string ptx;
  std::vector<KernelInfo> kernels;
};

/// Compiles `source` (named `bufferName` in diagnostics) to PTX in a context
/// of its own. On failure returns false with the diagnostics, formatted like
/// tilec's, in `errors`.
bool compileToPTX(llvm::StringRef source, llvm::StringRef bufferName,
                  const CompileOptions &options, CompiledModule &result,
                  std::string &errors);

/// Runs only the frontend on `source` to describe its kernels (no
/// specialization facts); false with the diagnostics in `errors`.
bool describeSource(llvm::StringRef source, llvm::StringRef bufferName,
                    const CompileOptions &options,
                    std::vector<KernelInfo> &kernels, std::string &errors);

/// Compiles `source` to the tile stage (what `tilec --run` interprets) in a
/// context of its own and calls `body` on the module. False with the
/// diagnostics, those `body` emits included, in `errors`.
bool withTileModule(
    llvm::StringRef source, llvm::StringRef bufferName,
    const CompileOptions &options,
    llvm::function_ref<mlir::LogicalResult(mlir::ModuleOp)> body,
    std::string &errors);

/// The release and LLVM versions. Cache keys take buildCommit() as well:
/// this string changes only by hand and missed changes of the generated code.
llvm::StringRef compilerVersion();

/// The git commit the compiler was built from ("-dirty-" and a hash of the
/// uncommitted changes to tracked files, if any; "unknown" outside a
/// checkout).
llvm::StringRef buildCommit();

} // namespace tile

#endif // TILE_DRIVER_DRIVER_H
