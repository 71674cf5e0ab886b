//===- Fuse.cpp - compute a dot's consumers on its accumulator registers --===//
//
// After tile-accelerate-dot, a dot's result is converted from the mma
// accumulator layout back to the kernel's blocked layout, and a loop-carried
// accumulator is converted both ways on every iteration. This pass keeps the
// accumulator in its mma layout instead: through `scf.for` iteration
// arguments, and forward through the elementwise ops (ReLU as `maximum`,
// casts, bias adds, `select`) and the `store` that consume it, so that the
// epilogue runs on the registers the mma wrote and stores them directly.
// The other operands of those ops get conversions to the mma layout, which
// tile-remove-layout-conversions rematerializes when they are ranges,
// splats and constants.
//
//===----------------------------------------------------------------------===//
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace tile {
#define GEN_PASS_DEF_TILEFUSE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {

RankedTensorType withEncoding(Type type, Attribute encoding) {
  return cast<RankedTensorType>(type).cloneWithEncoding(encoding);
}

/// True for a conversion out of an mma accumulator layout.
bool leavesMma(ConvertLayoutOp cvt) {
  auto from = dyn_cast_or_null<BlockedEncodingAttr>(
      cvt.getSrc().getType().getEncoding());
  return from && from.isMmaAccumulator();
}

/// True for ops that compute each element from the same element of their
/// operands, so they may run in any layout.
bool isElementwise(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

struct Fuse : tile::impl::TileFuseBase<Fuse> {
  void runOnOperation() override {
    // Loops first, innermost first, so an accumulator's layout reaches the
    // loop results before the epilogue is rewritten.
    getOperation().walk([&](scf::ForOp loop) { carryLayouts(loop); });
    SmallVector<ConvertLayoutOp> worklist;
    getOperation().walk([&](ConvertLayoutOp cvt) {
      if (leavesMma(cvt))
        worklist.push_back(cvt);
    });
    while (!worklist.empty())
      sinkConversion(worklist.pop_back_val(), worklist);
  }

  /// Keeps iteration argument i of `loop` in layout L when every use of it
  /// in the body converts it to L and the body yields a conversion from L.
  void carryLayouts(scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
      BlockArgument arg = loop.getRegionIterArgs()[i];
      auto yielded = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
      if (!yielded || !leavesMma(yielded))
        continue;
      Type carried = yielded.getSrc().getType();
      bool allConvert = llvm::all_of(arg.getUsers(), [&](Operation *user) {
        auto cvt = dyn_cast<ConvertLayoutOp>(user);
        return cvt && cvt.getType() == carried;
      });
      if (!allConvert)
        continue;
      Type original = arg.getType();
      OpBuilder b(loop);
      Value init = ConvertLayoutOp::create(b, loop.getLoc(), carried,
                                           loop.getInitArgs()[i]);
      loop.getInitArgsMutable()[i].assign(init);
      for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
        user->getResult(0).replaceAllUsesWith(arg);
        user->erase();
      }
      arg.setType(carried);
      yield->setOperand(i, yielded.getSrc());
      if (yielded->use_empty())
        yielded->erase();
      Value result = loop.getResult(i);
      result.setType(carried);
      b.setInsertionPointAfter(loop);
      auto back = ConvertLayoutOp::create(b, loop.getLoc(), original, result);
      result.replaceAllUsesExcept(back, back);
    }
  }

  /// Rewrites the elementwise and store users of `cvt` to use its source,
  /// converting their other operands to the source's layout instead.
  void sinkConversion(ConvertLayoutOp cvt,
                      SmallVector<ConvertLayoutOp> &worklist) {
    Value src = cvt.getSrc();
    Attribute layout = cast<RankedTensorType>(src.getType()).getEncoding();
    llvm::SetVector<Operation *> users(cvt->user_begin(), cvt->user_end());
    for (Operation *user : users) {
      // A conversion on to another layout (a store with a layout of its
      // own): converted from the source directly, and sunk further.
      if (auto next = dyn_cast<ConvertLayoutOp>(user)) {
        OpBuilder b(next);
        if (next.getType() == src.getType()) {
          next.replaceAllUsesWith(src);
        } else {
          auto direct = ConvertLayoutOp::create(b, next.getLoc(),
                                                next.getType(), src);
          next.replaceAllUsesWith(direct.getResult());
          worklist.push_back(direct);
        }
        next.erase();
        continue;
      }
      auto store = dyn_cast<StoreOp>(user);
      bool storesValue = store && store.getValue() == cvt.getResult() &&
                         store.getPtr() != cvt.getResult() &&
                         store.getMask() != cvt.getResult();
      if (!isElementwise(user) && !storesValue)
        continue;
      OpBuilder b(user);
      SmallVector<Value> operands;
      for (Value operand : user->getOperands()) {
        if (operand == cvt.getResult())
          operands.push_back(src);
        else if (isa<RankedTensorType>(operand.getType()))
          operands.push_back(ConvertLayoutOp::create(
              b, user->getLoc(), withEncoding(operand.getType(), layout),
              operand));
        else
          operands.push_back(operand);
      }
      if (store) {
        StoreOp::create(b, store.getLoc(), operands[0], operands[1],
                        store.getMask() ? operands[2] : Value());
        store.erase();
        continue;
      }
      OperationState state(user->getLoc(), user->getName());
      state.addOperands(operands);
      state.addTypes(withEncoding(user->getResult(0).getType(), layout));
      state.addAttributes(user->getAttrs());
      Operation *fused = b.create(state);
      auto back = ConvertLayoutOp::create(
          b, user->getLoc(), user->getResult(0).getType(), fused->getResult(0));
      user->getResult(0).replaceAllUsesWith(back);
      user->erase();
      worklist.push_back(back);
    }
    if (cvt->use_empty())
      cvt->erase();
  }
};

} // namespace
