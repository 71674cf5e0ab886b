//===- Driver.cpp - the compiler, from .tile source to any stage ----------===//
#include "tile/Driver/Driver.h"
#include "tile/Support/GitCommit.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Frontend/TypeRules.h"
#include "tile/InitAllDialects.h"
#include "tile/Pipeline/Pipeline.h"
#include "tile/Target/PTX.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tile;

std::string tile::checkOptions(const CompileOptions &options) {
  if (options.numWarps == 0 || (options.numWarps & (options.numWarps - 1)) ||
      options.numWarps > kMaxNumWarps)
    return "the number of warps must be a power of two from 1 to " +
           std::to_string(kMaxNumWarps) + ", got " +
           std::to_string(options.numWarps);
  if (!isSupportedArch(options.arch))
    return "unsupported architecture '" + options.arch +
           "' (supported: " + supportedArchList().str() + ")";
  return "";
}

/// The source spelling of a kernel parameter type.
static std::string spellType(Type type) { return scalarTypeName(type); }

/// Errors at the first op that computes 8-bit floats where `arch` has no
/// conversions for them (sm_89 brought cvt to and from e4m3/e5m2).
static LogicalResult checkF8Support(ModuleOp module, StringRef arch) {
  if (!arch.starts_with("sm_8"))
    return success();
  WalkResult result = module.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (isFloat8(getElementTypeOrSelf(v.getType()))) {
        op->emitError("8-bit floats need sm_89 or newer; the target is ")
            << arch;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The signatures of the kernels of a tile module (after specialization).
static std::vector<KernelInfo> describeKernels(ModuleOp module,
                                               unsigned numWarps) {
  std::vector<KernelInfo> kernels;
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    KernelInfo info;
    info.name = kernel.getSymName().str();
    info.numWarps = numWarps;
    for (BlockArgument arg : kernel.getBody().getArguments()) {
      ParamInfo param;
      param.name = getParamName(arg);
      setParamType(param, spellType(getParamSourceType(arg)));
      if (auto div = kernel.getArgAttrOfType<IntegerAttr>(
              arg.getArgNumber(),
              TileDialect::DivisibilityAttrHelper::getNameStr()))
        param.divisibility = div.getInt();
      param.equalToOne = static_cast<bool>(kernel.getArgAttr(
          arg.getArgNumber(), TileDialect::EqualToOneAttrHelper::getNameStr()));
      info.params.push_back(param);
    }
    if (DictionaryAttr constants = kernel.getConstantsAttr())
      for (NamedAttribute constant : constants) {
        std::string text;
        if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
          text = i.getType().isUnsignedInteger()
                     ? std::to_string(i.getValue().getZExtValue())
                     : std::to_string(i.getValue().getSExtValue());
        else
          text = std::to_string(
              cast<FloatAttr>(constant.getValue()).getValueAsDouble());
        info.constants.emplace_back(constant.getName().str(), text);
      }
    kernels.push_back(std::move(info));
  }
  return kernels;
}

/// Runs the passes `build` adds on `module`, with the caller's hook.
static LogicalResult
runPasses(ModuleOp module, PassManagerHook hook,
          llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  if (hook && failed(hook(pm)))
    return failure();
  build(pm);
  return pm.run(module);
}

LogicalResult tile::lowerModule(ModuleOp module, const CompileOptions &options,
                                std::vector<KernelInfo> &kernels,
                                PassManagerHook hook) {
  const Specialization &spec = options.specialization;
  if (options.stage != Stage::Tile &&
      failed(runPasses(module, hook, [&](OpPassManager &pm) {
        TileSpecializeOptions specialize;
        specialize.divisible.assign(spec.divisible.begin(),
                                    spec.divisible.end());
        specialize.pointersDivisible = spec.pointersDivisible;
        specialize.equalToOne.assign(spec.equalToOne.begin(),
                                     spec.equalToOne.end());
        pm.addPass(createTileSpecialize(specialize));
      })))
    return failure();
  kernels = describeKernels(module, options.numWarps);
  if (options.stage != Stage::Tile && options.stage != Stage::Layouts &&
      failed(checkF8Support(module, options.arch)))
    return failure();
  PipelineOptions pipeline;
  pipeline.numWarps = options.numWarps;
  pipeline.numStages = options.numStages;
  pipeline.maxSharedBytes = maxSharedBytesPerBlock(options.arch);
  pipeline.wgmma = options.arch == "sm_90a";
  pipeline.tma = options.tma;
  pipeline.warpSpecialize = options.warpSpecialize;
  pipeline.deferDotWaits = options.deferDotWaits;
  if (failed(runPasses(module, hook, [&](OpPassManager &pm) {
        switch (options.stage) {
        case Stage::Tile:
          return buildTilePipeline(pm, pipeline);
        case Stage::Layouts:
          return buildLayoutPipeline(pm, pipeline);
        case Stage::GPU:
          return buildGPUPipeline(pm, pipeline);
        default:
          return buildNVVMPipeline(pm, pipeline);
        }
      })))
    return failure();
  for (KernelInfo &k : kernels) {
    k.sharedBytes = kernelSharedBytes(module, k.name);
    k.tensorMaps = kernelTensorMaps(module, k.name);
    // A producer warpgroup (tile.producer) adds warps to the launch.
    if (int64_t threads = kernelThreads(module, k.name))
      k.numWarps = threads / 32;
  }
  return success();
}

OwningOpRef<ModuleOp> tile::compileSource(llvm::SourceMgr &sourceMgr,
                                          MLIRContext &context,
                                          const CompileOptions &options,
                                          std::vector<KernelInfo> &kernels,
                                          PassManagerHook hook) {
  std::string error = checkOptions(options);
  if (!error.empty()) {
    emitError(UnknownLoc::get(&context)) << error;
    return nullptr;
  }
  OwningOpRef<ModuleOp> module =
      compileTileSource(sourceMgr, context, options.constants);
  if (!module || failed(lowerModule(*module, options, kernels, hook)))
    return nullptr;
  return module;
}

LogicalResult tile::printStage(ModuleOp module, const CompileOptions &options,
                               ArrayRef<KernelInfo> kernels,
                               llvm::raw_ostream &os) {
  if (options.stage == Stage::LLVM)
    return emitLLVMIR(module, options.arch, os);
  if (options.stage != Stage::PTX) {
    module.print(os);
    os << "\n";
    return success();
  }
  std::string ptx;
  if (failed(emitPTX(module, options.arch, ptx)))
    return failure();
  for (const KernelInfo &kernel : kernels)
    os << formatSignature(kernel);
  os << ptx;
  return success();
}

void tile::registerDriverDialects(DialectRegistry &registry) {
  registerAllTileDialects(registry);
  registerPTXTranslations(registry);
}

llvm::StringRef tile::compilerVersion() {
  // Bump with releases; the runtime's caches also key on buildCommit().
  return "tile-0.5 (llvm " LLVM_VERSION_STRING ")";
}

llvm::StringRef tile::buildCommit() { return TILE_GIT_COMMIT; }

namespace {
/// A context of its own with a diagnostic handler that formats errors like
/// tilec into a string.
struct CompileSession {
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<llvm::raw_string_ostream> errorStream;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;

  CompileSession(llvm::StringRef source, llvm::StringRef bufferName,
                 std::string &errors) {
    registerDriverDialects(registry);
    context = std::make_unique<MLIRContext>(registry,
                                            MLIRContext::Threading::DISABLED);
    context->printOpOnDiagnostic(false);
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
        llvm::SMLoc());
    errorStream = std::make_unique<llvm::raw_string_ostream>(errors);
    handler = std::make_unique<SourceMgrDiagnosticHandler>(
        sourceMgr, context.get(), *errorStream);
  }
};
} // namespace

bool tile::describeSource(llvm::StringRef source, llvm::StringRef bufferName,
                          const CompileOptions &options,
                          std::vector<KernelInfo> &kernels,
                          std::string &errors) {
  CompileSession session(source, bufferName, errors);
  OwningOpRef<ModuleOp> module =
      compileTileSource(session.sourceMgr, *session.context, options.constants);
  if (!module)
    return false;
  kernels = describeKernels(*module, options.numWarps);
  return true;
}

bool tile::withTileModule(llvm::StringRef source, llvm::StringRef bufferName,
                          const CompileOptions &options,
                          llvm::function_ref<LogicalResult(ModuleOp)> body,
                          std::string &errors) {
  CompileSession session(source, bufferName, errors);
  CompileOptions tileOptions = options;
  tileOptions.stage = Stage::Tile;
  std::vector<KernelInfo> kernels;
  OwningOpRef<ModuleOp> module =
      compileSource(session.sourceMgr, *session.context, tileOptions, kernels);
  return module && succeeded(body(*module));
}

bool tile::compileToPTX(llvm::StringRef source, llvm::StringRef bufferName,
                        const CompileOptions &options, CompiledModule &result,
                        std::string &errors) {
  CompileSession session(source, bufferName, errors);
  CompileOptions ptxOptions = options;
  ptxOptions.stage = Stage::PTX;
  std::vector<KernelInfo> kernels;
  OwningOpRef<ModuleOp> module =
      compileSource(session.sourceMgr, *session.context, ptxOptions, kernels);
  if (!module)
    return false;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(printStage(*module, ptxOptions, kernels, os)))
    return false;
  result.ptx = std::move(text);
  result.kernels = std::move(kernels);
  return true;
}
