//===- Rematerialize.cpp - recompute cheap tiles in another layout --------===//
#include "Rematerialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tile;

/// The layout `op`'s tensor operand must have for its result to have
/// `encoding`: the slice of it that `expand_dims` inserts into, the same
/// layout otherwise; null when there is none.
static Attribute operandEncoding(Operation *op, Attribute encoding) {
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    auto blocked = dyn_cast<BlockedEncodingAttr>(encoding);
    if (!blocked)
      return {};
    return SliceEncodingAttr::get(op->getContext(), expand.getAxis(), blocked);
  }
  return encoding;
}

bool tile::isElementwise(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

/// Ops computed element by element (or by position) that may be rebuilt in
/// any layout.
static bool isLayoutAgnostic(Operation *op) {
  return isa<AddPtrOp, ExpandDimsOp, BroadcastOp, ConvertLayoutOp>(op) ||
         isElementwise(op);
}

bool tile::isRematerializable(Value value, Attribute encoding, unsigned depth) {
  if (!isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(encoding))
    return false;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<SplatOp, MakeRangeOp>(def))
    return true;
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    return isa<SplatElementsAttr>(cst.getValue());
  if (depth == 0 || !isLayoutAgnostic(def))
    return false;
  Attribute inner = operandEncoding(def, encoding);
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return !isa<RankedTensorType>(operand.getType()) ||
           isRematerializable(operand, inner, depth - 1);
  });
}

Value tile::rematerialize(OpBuilder &builder, Value value, Attribute encoding) {
  Operation *def = value.getDefiningOp();
  Location loc = def->getLoc();
  RankedTensorType type =
      cast<RankedTensorType>(value.getType()).cloneWithEncoding(encoding);
  if (auto splat = dyn_cast<SplatOp>(def))
    return SplatOp::create(builder, loc, type, splat.getSrc());
  if (auto range = dyn_cast<MakeRangeOp>(def))
    return MakeRangeOp::create(builder, loc, type, range.getStartAttr(),
                               range.getEndAttr());
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    return arith::ConstantOp::create(
        builder, loc, cast<SplatElementsAttr>(cst.getValue()).reshape(type));
  if (auto cvt = dyn_cast<ConvertLayoutOp>(def))
    return rematerialize(builder, cvt.getSrc(), encoding);
  Attribute inner = operandEncoding(def, encoding);
  SmallVector<Value> operands;
  for (Value operand : def->getOperands())
    operands.push_back(isa<RankedTensorType>(operand.getType())
                           ? rematerialize(builder, operand, inner)
                           : operand);
  OperationState state(loc, def->getName());
  state.addOperands(operands);
  state.addTypes(type);
  state.addAttributes(def->getAttrs());
  return builder.create(state)->getResult(0);
}
