//===- IRFuzzer.cpp - libFuzzer target: tile IR text through the passes ---===//
//
// Parses text as tile IR; what verifies goes through every tile pass and the
// lowering (coalescing with the axis analysis, layout-conversion removal,
// convert-tile-to-gpu and the upstream lowering to NVVM; the NVPTX backend is
// left out for speed). Crashes and sanitizer reports are bugs; passes may
// reject IR with a diagnostic.
//
//===----------------------------------------------------------------------===//
#include "tile/Driver/Driver.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::DialectRegistry registry = [] {
    mlir::DialectRegistry r;
    tile::registerDriverDialects(r);
    return r;
  }();
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::ParserConfig config(&context);
  // MLIR's lexer relies on the NUL after the text, which a std::string has.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  tile::CompileOptions options;
  options.stage = tile::Stage::NVVM;
  std::vector<tile::KernelInfo> kernels;
  (void)tile::lowerModule(*module, options, kernels);
  return 0;
}
