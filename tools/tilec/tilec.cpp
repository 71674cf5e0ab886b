//===- tilec.cpp - the tile compiler driver -------------------------------===//
//
// Compiles a .tile file through the tile pipeline and prints the requested
// stage. Errors are reported as `file:line:col: error: ...` with the source
// line and a caret; any error exits with status 1.
//
//===----------------------------------------------------------------------===//
#include "tile/Driver/Driver.h"
#include "tile/Driver/ExplainLayout.h"
#include "tile/Interpreter/RunCommand.h"
#include "tile/Runtime/Cache.h"

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

cl::OptionCategory tilecCategory("tilec options");

cl::list<std::string> inputFilenames(cl::Positional,
                                     cl::desc("<input .tile files>"),
                                     cl::ZeroOrMore, cl::cat(tilecCategory));
cl::opt<bool> clearCache(
    "clear-cache",
    cl::desc("Remove the runtime's cached kernels and tuning results "
             "($TILE_CACHE_DIR or ~/.cache/tile; capped at "
             "$TILE_CACHE_MAX_MB, default 1024) and exit"),
    cl::cat(tilecCategory));
cl::opt<std::string> outputFilename("o",
                                    cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(tilecCategory));
cl::list<std::string>
    defines("D", cl::Prefix,
            cl::desc("Override a const parameter: -D NAME=VALUE (repeatable)"),
            cl::value_desc("NAME=VALUE"), cl::cat(tilecCategory));
cl::opt<tile::Stage> emit(
    "emit", cl::desc("Stage to stop after and print (default: ptx)"),
    cl::values(clEnumValN(tile::Stage::Tile, "tile",
                          "tile IR after the tile pipeline"),
               clEnumValN(tile::Stage::Layouts, "layouts",
                          "tile IR with layouts (after the layout passes)"),
               clEnumValN(tile::Stage::GPU, "gpu",
                          "gpu.module of kernels (after convert-tile-to-gpu)"),
               clEnumValN(tile::Stage::NVVM, "nvvm", "LLVM and NVVM dialects"),
               clEnumValN(tile::Stage::LLVM, "llvm",
                          "LLVM IR, optimized, for the NVPTX target"),
               clEnumValN(tile::Stage::PTX, "ptx",
                          "PTX assembly with signature comments")),
    cl::init(tile::Stage::PTX), cl::cat(tilecCategory));
cl::opt<std::string> arch("arch",
                          cl::desc("GPU architecture: sm_80, sm_90 (default) "
                                   "or sm_90a"),
                          cl::init("sm_90"), cl::cat(tilecCategory));
cl::opt<unsigned> numWarps("num-warps",
                           cl::desc("Warps per program instance, a power of "
                                    "two from 1 to 32 (default 4)"),
                           cl::init(4), cl::cat(tilecCategory));
cl::opt<unsigned> numStages(
    "num-stages",
    cl::desc("Shared-memory stages of the software pipeline that feeds "
             "dot operands; 2 or more also issues the loads of loops "
             "without dots an iteration ahead (default 3; 0 or 1: no "
             "pipelining)"),
    cl::init(3), cl::cat(tilecCategory));
cl::opt<bool> tma(
    "tma",
    cl::desc("With --arch=sm_90a, fill the shared-memory stages of dot "
             "operands that are whole tiles of a tensor with the Tensor Memory "
             "Accelerator (the kernel then takes tensor maps the runtime "
             "encodes; default true; --tma=false: cp.async)"),
    cl::init(true), cl::cat(tilecCategory));
cl::opt<bool> warpSpecialize(
    "warp-specialize",
    cl::desc("With --tma, fill the stages of a pipeline whose operand is "
             "transposed on its way into shared memory (tf32 B stored along "
             "N), or whose TMA copies feed two or more dots on 8 warps "
             "(attention), from a producer warpgroup: the kernel runs 4 more "
             "warps than --num-warps (default true)"),
    cl::init(true), cl::cat(tilecCategory));
cl::opt<bool> deferDotWaits(
    "defer-dot-waits",
    cl::desc("With --arch=sm_90a, wait for a dot's warpgroup MMAs where its "
             "result is first read, so that the ops in between (other dots, "
             "copies, arithmetic) run beside them (default true; false: "
             "each dot waits right after its MMAs)"),
    cl::init(true), cl::cat(tilecCategory));
cl::list<std::string> divisibleArgs(
    "divisible", cl::CommaSeparated,
    cl::desc("Arguments the code may assume divisible by 16 (a pointer: "
             "16-byte aligned), or by D for NAME:D (2, 4, 8), checked at "
             "launch; default: every pointer argument; 'none' for no "
             "assumption"),
    cl::value_desc("NAME[:D],..."), cl::cat(tilecCategory));

cl::list<std::string> equalToOneArgs(
    "equal-to-one", cl::CommaSeparated,
    cl::desc("Integer arguments the code may assume equal to 1 (compiled as "
             "the constant), checked at launch"),
    cl::value_desc("NAME,..."), cl::cat(tilecCategory));

cl::opt<std::string> explainLayout(
    "explain-layout",
    cl::desc("Draw which thread and register hold each element of the tile "
             "bound to NAME (a let or var) in every layout the compiler "
             "gives it: a text grid, or SVG when -o names a .svg file; "
             "--kernel picks the kernel"),
    cl::value_desc("NAME"), cl::cat(tilecCategory));

cl::OptionCategory runCategory("tilec --run options (CPU interpreter)");
cl::opt<bool> run("run",
                  cl::desc("Run the kernel on the CPU interpreter instead of "
                           "printing IR; prints a summary of each buffer"),
                  cl::cat(runCategory));
cl::opt<std::string>
    kernelName("kernel",
               cl::desc("Kernel to run or explain (default: the only one)"),
               cl::value_desc("name"), cl::cat(runCategory));
cl::opt<std::string> gridSpec("grid",
                              cl::desc("Launch grid X[,Y[,Z]] (default 1)"),
                              cl::value_desc("X,Y,Z"), cl::init("1"),
                              cl::cat(runCategory));
cl::list<std::string> argSpecs(
    "arg",
    cl::desc("A kernel argument NAME=VALUE: a number for a scalar; for a "
             "pointer a buffer: rand:N, zeros:N, iota:N, fill:V:N or "
             "file:PATH (a .npy file of the pointee's dtype, or raw "
             "little-endian elements)"),
    cl::value_desc("NAME=VALUE"), cl::cat(runCategory));
cl::opt<unsigned> seed("seed", cl::desc("Seed of rand: buffers (default 0)"),
                       cl::init(0), cl::cat(runCategory));
cl::opt<bool> printAll("print-all",
                       cl::desc("Print every element of every buffer"),
                       cl::cat(runCategory));
cl::list<std::string>
    showBuffers("show", cl::CommaSeparated,
                cl::desc("Print only these buffers (default: all)"),
                cl::value_desc("NAME,..."), cl::cat(runCategory));
cl::opt<std::string> dumpDir(
    "dump",
    cl::desc("Write every buffer after the run to DIR/NAME.npy (NAME.bin, "
             "raw, for bf16)"),
    cl::value_desc("DIR"), cl::cat(runCategory));
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

/// Compiles one .tile file to the stage of `options`; null after reporting
/// an error. Diagnostics go through `sourceMgr`, which the caller keeps alive
/// while the module is used.
static mlir::OwningOpRef<mlir::ModuleOp>
compileFile(StringRef path, SourceMgr &sourceMgr, mlir::MLIRContext &context,
            const tile::CompileOptions &options,
            std::vector<tile::KernelInfo> &kernels, mlir::TimingScope &timing) {
  std::string errorMessage;
  auto input = mlir::openInputFile(path, &errorMessage);
  if (!input) {
    errs() << "tilec: error: " << errorMessage << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  return tile::compileSource(sourceMgr, context, options, kernels,
                             [&](mlir::PassManager &pm) {
                               pm.enableTiming(timing);
                               return mlir::applyPassManagerCLOptions(pm);
                             });
}

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  // Show tilec's own options and MLIR's (--mlir-*) in --help, not every
  // option that LLVM's backends register.
  cl::HideUnrelatedOptions({&tilecCategory, &runCategory});
  cl::AddExtraVersionPrinter([](raw_ostream &os) {
    os << tile::compilerVersion() << ", commit " << tile::buildCommit() << "\n";
  });
  for (auto &option : cl::getRegisteredOptions())
    if (option.first.starts_with("mlir-"))
      option.second->setHiddenFlag(cl::NotHidden);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilec: compile .tile kernels\n\n"
      "  tilec kernel.tile --emit=tile\n\n"
      "Several inputs are compiled one after the other; their outputs are\n"
      "separated by '// -----' lines (tile-opt --split-input-file reads "
      "them).\n");

  if (clearCache) {
    std::string dir = tile::DiskCache::defaultDirectory();
    unsigned removed =
        tile::DiskCache(dir).clear() + tile::DiskCache(dir + "/tuning").clear();
    outs() << "tilec: removed " << removed << " cache entries from '" << dir
           << "'\n";
    return 0;
  }
  if (inputFilenames.empty()) {
    errs() << "tilec: error: no input file (tilec --help lists the "
              "options)\n";
    return 1;
  }
  if (!run && (!argSpecs.empty() || gridSpec.getNumOccurrences() ||
               seed.getNumOccurrences() || printAll || !showBuffers.empty() ||
               !dumpDir.empty())) {
    errs() << "tilec: error: --arg, --grid, --seed, --print-all, --show and "
              "--dump need --run\n";
    return 1;
  }
  bool explaining = explainLayout.getNumOccurrences();
  if (!run && !explaining && kernelName.getNumOccurrences()) {
    errs() << "tilec: error: --kernel needs --run or --explain-layout\n";
    return 1;
  }
  if (explaining && (run || emit.getNumOccurrences())) {
    errs() << "tilec: error: --explain-layout prints a picture, not a stage: "
              "it cannot be combined with --run or --emit\n";
    return 1;
  }
  tile::CompileOptions options;
  if (!parseDefines(options.constants))
    return 1;
  options.arch = arch;
  options.numWarps = numWarps;
  options.numStages = numStages;
  options.tma = tma;
  options.warpSpecialize = warpSpecialize;
  options.deferDotWaits = deferDotWaits;
  // --run interprets the tile IR as written: no layouts, no specialization.
  options.stage = run          ? tile::Stage::Tile
                  : explaining ? tile::Stage::Layouts
                               : emit;
  tile::Specialization &spec = options.specialization;
  spec.pointersDivisible = divisibleArgs.empty();
  for (const std::string &name : divisibleArgs)
    if (name != "none")
      spec.divisible.insert(name);
  spec.equalToOne.insert(equalToOneArgs.begin(), equalToOneArgs.end());
  std::string invalid = tile::checkOptions(options);
  if (!invalid.empty()) {
    errs() << "tilec: error: " << invalid << "\n";
    return 1;
  }

  mlir::DialectRegistry registry;
  tile::registerDriverDialects(registry);
  mlir::MLIRContext context(registry);
  // Errors point at the source; the op in generic IR form is for compiler
  // developers, who ask for it with --mlir-print-op-on-diagnostic.
  if (!cl::getRegisteredOptions()["mlir-print-op-on-diagnostic"]
           ->getNumOccurrences())
    context.printOpOnDiagnostic(false);
  mlir::DefaultTimingManager tm;
  mlir::applyDefaultTimingManagerCLOptions(tm);
  mlir::TimingScope timing = tm.getRootScope();

  if ((run || explaining) && inputFilenames.size() != 1) {
    errs() << "tilec: error: " << (run ? "--run" : "--explain-layout")
           << " takes exactly one input file\n";
    return 1;
  }
  SmallVector<mlir::OwningOpRef<mlir::ModuleOp>> modules;
  std::vector<std::vector<tile::KernelInfo>> signatures;
  for (const std::string &path : inputFilenames) {
    SourceMgr sourceMgr;
    mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
    modules.push_back(compileFile(path, sourceMgr, context, options,
                                  signatures.emplace_back(), timing));
    if (!modules.back())
      return 1;
    if (run) {
      tile::interp::RunOptions runOptions;
      runOptions.kernel = kernelName;
      runOptions.grid = gridSpec;
      runOptions.args.assign(argSpecs.begin(), argSpecs.end());
      runOptions.dumpDir = dumpDir;
      runOptions.show.assign(showBuffers.begin(), showBuffers.end());
      runOptions.seed = seed;
      runOptions.printAll = printAll;
      return failed(
                 tile::interp::runCommand(*modules.back(), runOptions, outs()))
                 ? 1
                 : 0;
    }
  }

  std::string errorMessage;
  auto output = mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    errs() << "tilec: error: " << errorMessage << "\n";
    return 1;
  }
  if (explaining) {
    auto picture = StringRef(outputFilename).ends_with(".svg")
                       ? tile::LayoutPicture::SVG
                       : tile::LayoutPicture::Text;
    std::string error = tile::explainLayout(
        *modules.front(), kernelName, explainLayout, picture, output->os());
    if (!error.empty()) {
      errs() << "tilec: error: " << error << "\n";
      return 1;
    }
    output->keep();
    return 0;
  }
  for (auto [i, module] : llvm::enumerate(modules)) {
    if (i > 0)
      output->os() << "// -----\n";
    if (failed(tile::printStage(*module, options, signatures[i], output->os())))
      return 1;
  }
  output->keep();
  return 0;
}
