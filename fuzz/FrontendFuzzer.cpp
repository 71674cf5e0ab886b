//===- FrontendFuzzer.cpp - libFuzzer target: .tile source to tile IR -----===//
//
// Feeds bytes to the frontend (lexer, parser, MLIRGen, verifier) and, when a
// program compiles, runs the tile pipeline on it. Any crash, sanitizer report
// or verifier failure after a successful compile is a bug.
//
//===----------------------------------------------------------------------===//
#include "tile/Driver/Driver.h"
#include "tile/Frontend/MLIRGen.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::DialectRegistry registry = [] {
    mlir::DialectRegistry r;
    tile::registerDriverDialects(r);
    return r;
  }();
  // A fresh context per input keeps inputs independent.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.tile"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tile::compileTileSource(sourceMgr, context, {});
  if (!module)
    return 0;
  tile::CompileOptions options;
  options.stage = tile::Stage::Tile;
  std::vector<tile::KernelInfo> kernels;
  if (mlir::failed(tile::lowerModule(*module, options, kernels)) ||
      mlir::failed(mlir::verify(*module)))
    std::abort(); // A program that compiled must survive the pipeline.
  return 0;
}
