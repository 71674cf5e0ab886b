//===- Compile.cpp - .tile source to PTX in process -----------------------===//
#include "tile/Pipeline/Compile.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/Passes.h"
#include "tile/InitAllDialects.h"
#include "tile/Target/PTX.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tile;

/// The source spelling of a kernel parameter type.
static std::string spellType(Type type) {
  if (auto ptr = dyn_cast<PointerType>(type))
    return "ptr<" + spellType(ptr.getPointeeType()) + ">";
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

std::vector<KernelInfo> tile::describeKernels(ModuleOp module,
                                              unsigned numWarps) {
  std::vector<KernelInfo> kernels;
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    KernelInfo info;
    info.name = kernel.getSymName().str();
    info.numWarps = numWarps;
    for (BlockArgument arg : kernel.getBody().getArguments()) {
      ParamInfo param;
      auto name = dyn_cast<NameLoc>(arg.getLoc());
      param.name = name ? name.getName().str()
                        : "arg" + std::to_string(arg.getArgNumber());
      setParamType(param, spellType(arg.getType()));
      if (auto div = kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                          kDivisibilityAttr))
        param.divisibility = div.getInt();
      param.equalToOne = static_cast<bool>(
          kernel.getArgAttr(arg.getArgNumber(), kEqualToOneAttr));
      info.params.push_back(param);
    }
    kernels.push_back(std::move(info));
  }
  return kernels;
}

llvm::StringRef tile::compilerVersion() {
  // Bump when generated code changes for the same input.
  return "tile-0.3 (llvm " LLVM_VERSION_STRING ")";
}

namespace {
/// A context with the compiler's dialects and a diagnostic handler that
/// formats errors like tilec into a string.
struct CompileSession {
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<llvm::raw_string_ostream> errorStream;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;

  CompileSession(llvm::StringRef source, llvm::StringRef bufferName,
                 std::string &errors) {
    registerAllTileDialects(registry);
    registerPTXTranslations(registry);
    context = std::make_unique<MLIRContext>(registry,
                                            MLIRContext::Threading::DISABLED);
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
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

bool tile::compileToPTX(llvm::StringRef source, llvm::StringRef bufferName,
                        const CompileOptions &options, CompiledModule &result,
                        std::string &errors) {
  CompileSession session(source, bufferName, errors);
  MLIRContext &context = *session.context;
  if (options.numWarps == 0 || (options.numWarps & (options.numWarps - 1))) {
    errors = "num_warps must be a power of two, got " +
             std::to_string(options.numWarps);
    return false;
  }
  OwningOpRef<ModuleOp> module =
      compileTileSource(session.sourceMgr, context, options.constants);
  if (!module)
    return false;
  applySpecialization(*module, options.specialization);
  std::vector<KernelInfo> kernels = describeKernels(*module, options.numWarps);
  PassManager pm(&context);
  PipelineOptions pipelineOptions;
  pipelineOptions.numWarps = options.numWarps;
  pipelineOptions.numStages = options.numStages;
  pipelineOptions.maxSharedBytes = maxSharedBytesPerBlock(options.arch);
  buildNVVMPipeline(pm, pipelineOptions);
  if (failed(pm.run(*module)))
    return false;
  for (KernelInfo &k : kernels)
    k.sharedBytes = kernelSharedBytes(*module, k.name);
  std::string ptx;
  if (failed(emitPTX(*module, options.arch, ptx)))
    return false;
  result.ptx.clear();
  for (const KernelInfo &k : kernels)
    result.ptx += formatSignature(k);
  result.ptx += ptx;
  result.kernels = std::move(kernels);
  return true;
}
