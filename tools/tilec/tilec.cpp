//===- tilec.cpp - the tile compiler driver -------------------------------===//
//
// Compiles a .tile file through the tile pipeline and prints the requested
// stage. Errors are reported as `file:line:col: error: ...` with the source
// line and a caret; any error exits with status 1.
//
//===----------------------------------------------------------------------===//
#include "tile/Frontend/MLIRGen.h"
#include "tile/InitAllDialects.h"
#include "tile/Pipeline/Pipeline.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

namespace {
enum class Emit { Tile };

cl::OptionCategory tilecCategory("tilec options");

cl::list<std::string> inputFilenames(cl::Positional,
                                     cl::desc("<input .tile files>"),
                                     cl::OneOrMore, cl::cat(tilecCategory));
cl::opt<std::string> outputFilename("o", cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(tilecCategory));
cl::list<std::string> defines(
    "D", cl::Prefix,
    cl::desc("Override a const parameter: -D NAME=VALUE (repeatable)"),
    cl::value_desc("NAME=VALUE"), cl::cat(tilecCategory));
cl::opt<Emit> emit("emit", cl::desc("Stage to stop after and print"),
                   cl::values(clEnumValN(Emit::Tile, "tile",
                                         "tile dialect IR after the tile "
                                         "pipeline")),
                   cl::init(Emit::Tile), cl::cat(tilecCategory));
} // namespace

/// Parses the -D options into `overrides`; false (with a message) on error.
static bool parseDefines(tile::ConstOverrides &overrides) {
  for (const std::string &define : defines) {
    auto [name, value] = StringRef(define).split('=');
    if (name.empty() || value.empty() || !StringRef(define).contains('=')) {
      errs() << "tilec: error: -D expects NAME=VALUE, got '" << define << "'\n";
      return false;
    }
    overrides[name.str()] = value.str();
  }
  return true;
}

/// Compiles one .tile file through the tile pipeline; null after reporting
/// an error.
static mlir::OwningOpRef<mlir::ModuleOp>
compileFile(StringRef path, mlir::MLIRContext &context,
            const tile::ConstOverrides &overrides, mlir::TimingScope &timing) {
  std::string errorMessage;
  auto input = mlir::openInputFile(path, &errorMessage);
  if (!input) {
    errs() << "tilec: error: " << errorMessage << "\n";
    return nullptr;
  }
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      tile::compileTileSource(sourceMgr, context, overrides);
  if (!module)
    return nullptr;
  mlir::PassManager pm(&context);
  if (failed(mlir::applyPassManagerCLOptions(pm)))
    return nullptr;
  pm.enableTiming(timing);
  tile::buildTilePipeline(pm, tile::PipelineOptions{});
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  // Show tilec's own options and MLIR's (--mlir-*) in --help, not every
  // option that LLVM's backends register.
  cl::HideUnrelatedOptions(tilecCategory);
  for (auto &option : cl::getRegisteredOptions())
    if (option.first.starts_with("mlir-"))
      option.second->setHiddenFlag(cl::NotHidden);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilec: compile .tile kernels\n\n"
      "  tilec kernel.tile --emit=tile\n\n"
      "Several inputs are compiled one after the other; their outputs are\n"
      "separated by '// -----' lines (tile-opt --split-input-file reads them).\n");

  tile::ConstOverrides overrides;
  if (!parseDefines(overrides))
    return 1;

  mlir::DialectRegistry registry;
  tile::registerAllTileDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::DefaultTimingManager tm;
  mlir::applyDefaultTimingManagerCLOptions(tm);
  mlir::TimingScope timing = tm.getRootScope();

  SmallVector<mlir::OwningOpRef<mlir::ModuleOp>> modules;
  for (const std::string &path : inputFilenames) {
    modules.push_back(compileFile(path, context, overrides, timing));
    if (!modules.back())
      return 1;
  }

  std::string errorMessage;
  auto output = mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    errs() << "tilec: error: " << errorMessage << "\n";
    return 1;
  }
  for (auto [i, module] : llvm::enumerate(modules)) {
    if (i > 0)
      output->os() << "// -----\n";
    module->print(output->os());
    output->os() << "\n";
  }
  output->keep();
  return 0;
}
