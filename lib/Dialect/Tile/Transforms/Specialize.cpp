//===- Specialize.cpp - facts about kernel arguments ----------------------===//
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSet.h"

namespace tile {
#define GEN_PASS_DEF_TILESPECIALIZE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {
struct Specialize : tile::impl::TileSpecializeBase<Specialize> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringSet<> seen;
    Builder b(module.getContext());
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      for (BlockArgument arg : kernel.getBody().getArguments()) {
        auto name = dyn_cast<NameLoc>(arg.getLoc());
        if (!name)
          continue;
        StringRef argName = name.getName().strref();
        seen.insert(argName);
        bool isPointer = isa<PointerType>(arg.getType());
        if ((pointersDivisible && isPointer) ||
            llvm::is_contained(divisible, argName))
          kernel.setArgAttr(arg.getArgNumber(),
                            TileDialect::DivisibilityAttrHelper::getNameStr(),
                            b.getI32IntegerAttr(16));
        if (!llvm::is_contained(equalToOne, argName))
          continue;
        auto intType = dyn_cast<IntegerType>(arg.getType());
        if (!intType) {
          kernel.emitError("equal-to-one parameter '")
              << argName << "' is not an integer";
          return signalPassFailure();
        }
        kernel.setArgAttr(arg.getArgNumber(),
                          TileDialect::EqualToOneAttrHelper::getNameStr(),
                          b.getUnitAttr());
        OpBuilder ob = OpBuilder::atBlockBegin(&kernel.getBody().front());
        arg.replaceAllUsesWith(
            arith::ConstantIntOp::create(ob, arg.getLoc(), intType, 1));
      }
    }
    for (auto *names : {&divisible, &equalToOne})
      for (const std::string &n : *names)
        if (!seen.contains(n)) {
          module.emitError("no kernel has a parameter named '") << n << "'";
          return signalPassFailure();
        }
  }
};
} // namespace
