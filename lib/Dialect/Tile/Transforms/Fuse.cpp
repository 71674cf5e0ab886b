//===- Fuse.cpp - compute a dot's consumers on its accumulator registers --===//
//
// After tile-accelerate-dot, a dot's result is converted from the mma
// accumulator layout back to the kernel's blocked layout, and a loop-carried
// accumulator is converted both ways on every iteration. This pass keeps
// what is computed from the accumulator in its mma layout instead: through
// `scf.for` iteration arguments, and forward through the elementwise ops
// (ReLU as `maximum`, casts, bias adds, `select`), reductions (into slices
// of the mma layout: attention's row max and sum), `expand_dims` and
// `broadcast` of those, and the `store` that consume it, so that the
// epilogue and the online softmax run on the registers the mma wrote. The
// other operands of those ops get conversions to the mma layout, which
// tile-remove-layout-conversions rematerializes when they are ranges,
// splats and constants.
//
//===----------------------------------------------------------------------===//
#include "Rematerialize.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
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

/// The layouts tile-accelerate-dot gave dots: the mma accumulator layout
/// and its transpose (a dot computed as Cᵀ = Bᵀ Aᵀ: C is `trans` of an mma
/// accumulator), an FMA dot's for transposed operands, which, unlike the
/// layouts of dots it left alone, is not its A operand's, and for an FMA dot
/// computed as Cᵀ = Bᵀ Aᵀ the transpose of its layout, which C lives in
/// (its own may be the kernel's layout, which C is converted to after).
llvm::DenseSet<Attribute> collectDotLayouts(Operation *root) {
  llvm::DenseSet<Attribute> layouts;
  root->walk([&](DotOp dot) {
    Attribute layout = dot.getType().getEncoding();
    auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(layout);
    if (blocked && blocked.isMmaAccumulator()) {
      layouts.insert(layout);
      layouts.insert(blocked.getTransposed());
    } else if (blocked && dot.getAcc().getDefiningOp<TransOp>()) {
      layouts.insert(blocked.getTransposed());
    } else if (blocked && dot.getA().getType().getEncoding() != layout) {
      layouts.insert(layout);
    }
  });
  return layouts;
}

/// The layout of `user`'s result when its operand `operand` takes `layout`
/// instead (null: the op cannot follow): the same layout for elementwise
/// ops, its slice for a reduction, the parent for `expand_dims` of a slice,
/// the same for `broadcast`, and the transposed layout for `trans`. A reduction
/// to a scalar has no layout: it follows with a null attribute.
std::optional<Attribute> followingLayout(Operation *user, Value operand,
                                         Attribute layout) {
  if (isElementwise(user))
    return layout;
  if (user->getNumOperands() != 1 || user->getOperand(0) != operand)
    return std::nullopt;
  if (std::optional<unsigned> axis = getReducedAxis(user)) {
    // The lowering reduces blocked tiles only (not slices of them).
    auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
    if (!blocked)
      return std::nullopt;
    if (!isa<RankedTensorType>(user->getResult(0).getType()))
      return Attribute();
    return Attribute(
        SliceEncodingAttr::get(user->getContext(), *axis, blocked));
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(user)) {
    auto slice = dyn_cast<SliceEncodingAttr>(layout);
    if (!slice || slice.getDim() != unsigned(expand.getAxis()))
      return std::nullopt;
    return Attribute(slice.getParent());
  }
  if (isa<BroadcastOp>(user) && isa<BlockedEncodingAttr>(layout))
    return layout;
  // The transposed layout keeps every element in its thread.
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
      blocked && isa<TransOp>(user))
    return Attribute(blocked.getTransposed());
  return std::nullopt;
}

struct Fuse : tile::impl::TileFuseBase<Fuse> {
  using TileFuseBase::TileFuseBase;

  SmallVector<ConvertLayoutOp> worklist;
  llvm::DenseSet<Attribute> dotLayouts;

  /// True for the layouts a dot's results live in (dotLayouts) and their
  /// slices (the results of reducing them).
  bool isAccumulatorLayout(Attribute encoding) const {
    if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding))
      encoding = slice.getParent();
    return encoding && dotLayouts.contains(encoding);
  }

  /// True when `cvt`, from an mma accumulator layout to the blocked layout
  /// of the store that takes its result, lets that store write 16-byte
  /// vectors of 16-bit values where the accumulator's threads hold 2
  /// adjacent ones (4 bytes), and the tile is at most 64 KiB of scratch.
  /// Only for a store outside loops (an epilogue), whose scratch can take
  /// the bytes of the stages before it. (f32 results keep their direct
  /// stores: the transposed accumulators of tf32 dots computed as Cᵀ = Bᵀ Aᵀ
  /// took 4% longer through shared memory on the tuned tile and up to twice
  /// as long on 128x128 tiles, bench/NOTES.md v40.)
  bool widensStore(ConvertLayoutOp cvt, StoreOp store) const {
    if (store->getParentOfType<scf::ForOp>())
      return false;
    auto from = dyn_cast_or_null<BlockedEncodingAttr>(
        cvt.getSrc().getType().getEncoding());
    auto to =
        dyn_cast_or_null<BlockedEncodingAttr>(cvt.getType().getEncoding());
    RankedTensorType type = cvt.getType();
    if (!from || !to || !from.isMmaAccumulator() ||
        !type.getElementType().isIntOrFloat() ||
        type.getElementType().getIntOrFloatBitWidth() != 16)
      return false;
    int64_t vectorBytes = to.getSizePerThread()[to.getOrder()[0]] * 2;
    return vectorBytes >= 16 && type.getNumElements() * 2 <= 64 * 1024;
  }

  /// True for a conversion out of an accumulator layout into a plain
  /// (blocked or slice) one.
  bool leavesMma(ConvertLayoutOp cvt) const {
    Attribute to = cvt.getType().getEncoding();
    return isAccumulatorLayout(cvt.getSrc().getType().getEncoding()) &&
           isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(to) &&
           !isAccumulatorLayout(to);
  }

  void runOnOperation() override {
    dotLayouts = collectDotLayouts(getOperation());
    // Until nothing moves: loops carry what their bodies yield in an
    // accumulator layout (innermost first), then conversions out of those
    // layouts sink into their consumers, which may make more yields
    // accumulator-layout values.
    bool changed = true;
    while (changed) {
      changed = false;
      getOperation().walk(
          [&](scf::ForOp loop) { changed |= carryLayouts(loop); });
      getOperation().walk([&](ConvertLayoutOp cvt) {
        if (leavesMma(cvt))
          worklist.push_back(cvt);
      });
      while (!worklist.empty())
        changed |= sinkConversion(worklist.pop_back_val());
    }
  }

  /// Carries iteration argument i of `loop` in layout L when the body
  /// yields a conversion from L, an accumulator layout; the argument's uses
  /// get one conversion back, as does the result (the caller sinks both).
  bool carryLayouts(scf::ForOp loop) {
    bool changed = false;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
      BlockArgument arg = loop.getRegionIterArgs()[i];
      auto yielded = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
      if (!yielded || !leavesMma(yielded))
        continue;
      changed = true;
      Type carried = yielded.getSrc().getType();
      Type original = arg.getType();
      OpBuilder b(loop);
      Value init = ConvertLayoutOp::create(b, loop.getLoc(), carried,
                                           loop.getInitArgs()[i]);
      loop.getInitArgsMutable()[i].assign(init);
      arg.setType(carried);
      if (!arg.use_empty()) {
        b.setInsertionPointToStart(loop.getBody());
        auto inBody = ConvertLayoutOp::create(b, loop.getLoc(), original, arg);
        arg.replaceAllUsesExcept(inBody, inBody);
      }
      yield->setOperand(i, yielded.getSrc());
      if (yielded->use_empty())
        yielded->erase();
      Value result = loop.getResult(i);
      result.setType(carried);
      b.setInsertionPointAfter(loop);
      auto back = ConvertLayoutOp::create(b, loop.getLoc(), original, result);
      result.replaceAllUsesExcept(back, back);
    }
    return changed;
  }

  /// Rewrites the users of `cvt` that can compute in its source's layout
  /// (elementwise ops, reductions, `expand_dims`, `broadcast`, the value of
  /// a `store`, further conversions) to use the source, converting their
  /// other operands to that layout and their results back.
  bool sinkConversion(ConvertLayoutOp cvt) {
    bool changed = false;
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
          auto direct =
              ConvertLayoutOp::create(b, next.getLoc(), next.getType(), src);
          next.replaceAllUsesWith(direct.getResult());
          worklist.push_back(direct);
        }
        next.erase();
        changed = true;
        continue;
      }
      auto store = dyn_cast<StoreOp>(user);
      bool storesValue = store && store.getValue() == cvt.getResult() &&
                         store.getPtr() != cvt.getResult() &&
                         store.getMask() != cvt.getResult();
      if (storesValue && storeThroughShared && widensStore(cvt, store))
        continue;
      std::optional<Attribute> resultLayout =
          storesValue ? std::optional<Attribute>(Attribute())
                      : followingLayout(user, cvt.getResult(), layout);
      if (!resultLayout)
        continue;
      changed = true;
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
      Type resultType = user->getResult(0).getType();
      OperationState state(user->getLoc(), user->getName());
      state.addOperands(operands);
      state.addTypes(*resultLayout ? withEncoding(resultType, *resultLayout)
                                   : resultType);
      state.addAttributes(user->getAttrs());
      Operation *fused = b.create(state);
      if (!*resultLayout) {
        user->getResult(0).replaceAllUsesWith(fused->getResult(0));
        user->erase();
        continue;
      }
      auto back = ConvertLayoutOp::create(b, user->getLoc(), resultType,
                                          fused->getResult(0));
      user->getResult(0).replaceAllUsesWith(back);
      user->erase();
      worklist.push_back(back);
    }
    if (cvt->use_empty())
      cvt->erase();
    return changed;
  }
};

} // namespace
