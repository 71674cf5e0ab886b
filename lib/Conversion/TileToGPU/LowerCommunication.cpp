//===- LowerCommunication.cpp - reductions and data exchange -----------===//
//
// Ops whose results need elements other threads hold: reductions (within a
// thread, then across lanes with xor shuffles, then across warps through
// shared memory), and layout conversions, expand_dims and transposes
// (through shared memory).
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tile;

LogicalResult tile::lowerThroughShared(LoweringContext &l, Operation *op,
                                       Value src, Value result,
                                       bool transpose) {
  ImplicitLocOpBuilder &b = l.builder();
  auto from = *Distribution::get(src.getType());
  auto to = *Distribution::get(result.getType());
  if (!transpose && from.isEquivalent(to)) {
    l.map(result, l.lookup(src));
    return success();
  }
  SmallVector<unsigned> perm;
  if (transpose)
    perm = {1, 0};
  if (from.getSlicedDim() || to.getSlicedDim()) {
    // Go through the tensor's own rank: drop the unit sliced dimension.
    if (transpose)
      return op->emitError("transpose of a sliced tile is not supported by "
                           "convert-tile-to-gpu");
  }
  storeShared(l, l.lookup(src), from, 0, perm);
  gpu::BarrierOp::create(b);
  l.map(result, loadShared(l, to, getElementTypeOrSelf(result.getType()), 0));
  gpu::BarrierOp::create(b);
  return success();
}

static Value combine(LoweringContext &l, ReduceKind kind, Value lhs,
                     Value rhs) {
  ImplicitLocOpBuilder &b = l.builder();
  bool isFloat = isa<FloatType>(lhs.getType());
  switch (kind) {
  case ReduceKind::sum:
    return isFloat ? Value(arith::AddFOp::create(b, lhs, rhs))
                   : Value(arith::AddIOp::create(b, lhs, rhs));
  case ReduceKind::prod:
    return isFloat ? Value(arith::MulFOp::create(b, lhs, rhs))
                   : Value(arith::MulIOp::create(b, lhs, rhs));
  case ReduceKind::max:
  case ReduceKind::min:
    break;
  }
  bool isMax = kind == ReduceKind::max;
  if (!isFloat)
    return isMax ? Value(arith::MaxSIOp::create(b, lhs, rhs))
                 : Value(arith::MinSIOp::create(b, lhs, rhs));
  // NaN-propagating (max.NaN), as the interpreter and `maximum` are; by
  // name: convert-gpu-to-nvvm would make the arith ops libdevice calls.
  std::string name = std::string(isMax ? "llvm.maximum." : "llvm.minimum.") +
                     (lhs.getType().isF64()   ? "f64"
                      : lhs.getType().isF32() ? "f32"
                      : lhs.getType().isF16() ? "f16"
                                              : "bf16");
  return LLVM::CallIntrinsicOp::create(b, lhs.getType(), b.getStringAttr(name),
                                       ValueRange{lhs, rhs})
      .getResult(0);
}

static Value shuffleXor(LoweringContext &l, Value value, unsigned mask) {
  ImplicitLocOpBuilder &b = l.builder();
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  auto shuffle32 = [&](Value v) -> Value {
    return gpu::ShuffleOp::create(b, v, mask, 32, gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  if (bits == 32)
    return shuffle32(value);
  Type intType = b.getIntegerType(bits);
  Value asInt = type == intType
                    ? value
                    : Value(arith::BitcastOp::create(b, intType, value));
  Value result;
  if (bits < 32) {
    Value wide = arith::ExtUIOp::create(b, b.getI32Type(), asInt);
    result = arith::TruncIOp::create(b, intType, shuffle32(wide));
  } else {
    // 64 bits: two 32-bit halves.
    Value lo = arith::TruncIOp::create(b, b.getI32Type(), asInt);
    Value hiShifted = arith::ShRUIOp::create(
        b, asInt, arith::ConstantIntOp::create(b, 32, 64));
    Value hi = arith::TruncIOp::create(b, b.getI32Type(), hiShifted);
    Value lo2 = arith::ExtUIOp::create(b, intType, shuffle32(lo));
    Value hi2 = arith::ExtUIOp::create(b, intType, shuffle32(hi));
    Value hiBack =
        arith::ShLIOp::create(b, hi2, arith::ConstantIntOp::create(b, 32, 64));
    result = arith::OrIOp::create(b, hiBack, lo2);
  }
  return type == intType ? result
                         : Value(arith::BitcastOp::create(b, type, result));
}

static LogicalResult lowerReduce(ReduceOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto src = *Distribution::get(op.getSrc().getType());
  if (src.getSlicedDim())
    return op.emitError("reducing a sliced tile is not supported by "
                        "convert-tile-to-gpu");
  unsigned axis = op.getAxis();
  BlockedEncodingAttr layout = src.getLayout();
  ReduceKind kind = op.getKind();
  const Slots &in = l.lookup(op.getSrc());

  // The result's slots are the source's with local index 0 along `axis`.
  SmallVector<SmallVector<int64_t>> resultLocals;
  if (auto resultDist = *Distribution::get(op.getType());
      !resultDist.isScalar()) {
    for (unsigned s = 0; s < resultDist.getNumSlots(); ++s)
      resultLocals.push_back(resultDist.getLocalIndex(s));
  } else {
    resultLocals.push_back(SmallVector<int64_t>(src.getRank(), 0));
  }

  // Within the thread.
  Slots acc;
  for (SmallVector<int64_t> local : resultLocals) {
    local[axis] = 0;
    Value v = in[src.getSlot(local)];
    for (int64_t j = 1; j < src.getExtent(axis); ++j) {
      local[axis] = j;
      v = combine(l, kind, v, in[src.getSlot(local)]);
    }
    acc.push_back(v);
  }

  // Across the lanes that hold distinct elements along `axis`.
  unsigned laneStride = 1;
  for (unsigned d : layout.getOrder()) {
    if (d == axis)
      break;
    laneStride *= layout.getThreadsPerWarp()[d];
  }
  for (int64_t m = 1; m < src.getDistinctLanes(axis); m *= 2)
    for (Value &v : acc)
      v = combine(l, kind, v, shuffleXor(l, v, m * laneStride));

  // Across warps: each warp's lane 0 (along `axis`) writes its partial
  // results, every thread reads and combines all warps'.
  int64_t warps = src.getDistinctWarps(axis);
  if (warps > 1) {
    Type elemType = acc.front().getType();
    int64_t elemBytes = sharedElementBytes(l.memoryType(elemType));
    SmallVector<int64_t> resultShape(src.getShape());
    resultShape[axis] = 1;
    int64_t numResults = 1;
    for (int64_t e : resultShape)
      numResults *= e;
    ArrayRef<Value> lanes = l.laneCoords(layout),
                    warpIds = l.warpCoords(layout);
    Value writer = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                         lanes[axis], l.i32(0));
    if (layout.getWarpsPerCTA()[axis] > warps)
      writer = arith::AndIOp::create(
          b, writer,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, warpIds[axis],
                                l.i32(warps)));
    ArrayRef<Value> base = l.threadBase(src);
    for (unsigned d = 0; d < src.getRank(); ++d)
      if (d != axis && src.wraps(d))
        writer = arith::AndIOp::create(
            b, writer,
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, base[d],
                                  l.i32(src.getShape()[d])));
    SmallVector<Value> lins;
    for (SmallVector<int64_t> local : resultLocals) {
      local[axis] = 0;
      SmallVector<Value> coords = l.coordinates(src, src.getSlot(local));
      lins.push_back(linearIndex(l, coords, resultShape, {}));
    }
    Value buffer = l.sharedPointer(0, warps * numResults * elemBytes);
    auto element = [&](Value index) {
      return LLVM::GEPOp::create(b, buffer.getType(), elemType, buffer,
                                 ValueRange{index});
    };
    l.emitIf(writer, [&] {
      Value row = arith::MulIOp::create(b, warpIds[axis], l.i32(numResults));
      for (auto [v, lin] : llvm::zip(acc, lins))
        LLVM::StoreOp::create(b, v,
                              element(arith::AddIOp::create(b, row, lin)));
    });
    gpu::BarrierOp::create(b);
    for (auto [v, lin] : llvm::zip(acc, lins)) {
      v = LLVM::LoadOp::create(b, elemType, element(lin));
      for (int64_t w = 1; w < warps; ++w) {
        Value index = arith::AddIOp::create(b, lin, l.i32(w * numResults));
        v = combine(l, kind, v,
                    LLVM::LoadOp::create(b, elemType, element(index)));
      }
    }
    gpu::BarrierOp::create(b);
  }
  l.map(op, acc);
  return success();
}

/// expand_dims keeps the slots where source and result are distributed
/// alike (slice layouts of the result's layout); else data moves.
static LogicalResult lowerExpandDims(ExpandDimsOp op, LoweringContext &l) {
  return lowerThroughShared(l, op, op.getSrc(), op, false);
}

static LogicalResult lowerConvertLayout(ConvertLayoutOp op,
                                        LoweringContext &l) {
  return lowerThroughShared(l, op, op.getSrc(), op, false);
}

static LogicalResult lowerTrans(TransOp op, LoweringContext &l) {
  return lowerThroughShared(l, op, op.getSrc(), op, true);
}

void tile::populateCommunicationLowerings(LoweringPatternSet &patterns) {
  patterns.add(lowerReduce);
  patterns.add(lowerExpandDims);
  patterns.add(lowerConvertLayout);
  patterns.add(lowerTrans);
}
