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
                                       ArrayRef<unsigned> perm) {
  ImplicitLocOpBuilder &b = l.builder();
  auto from = *Distribution::get(src.getType());
  auto to = *Distribution::get(result.getType());
  if (perm.empty() && from.isEquivalent(to)) {
    l.map(result, l.lookup(src));
    return success();
  }
  if (!perm.empty() && (from.getSlicedDim() || to.getSlicedDim()))
    return op->emitError("transpose of a sliced tile is not supported by "
                         "convert-tile-to-gpu");
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
  case ReduceKind::argmax:
  case ReduceKind::argmin:
    llvm_unreachable("argmax and argmin combine candidates (combineArg)");
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

/// `value` from another lane: `mode` XOR, UP or IDX with `offset` (an i32)
/// as gpu.shuffle takes it; any width of integer or float.
static Value shuffle(LoweringContext &l, Value value, Value offset,
                     gpu::ShuffleMode mode) {
  ImplicitLocOpBuilder &b = l.builder();
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  auto shuffle32 = [&](Value v) -> Value {
    return gpu::ShuffleOp::create(b, v, offset, l.i32(32), mode)
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

static Value shuffleXor(LoweringContext &l, Value value, unsigned mask) {
  return shuffle(l, value, l.i32(mask), gpu::ShuffleMode::XOR);
}

/// How far apart (in lane ids) two lanes of `layout` are that hold
/// neighbouring elements along `axis`: the lanes of the faster dimensions.
static unsigned laneStrideAlong(BlockedEncodingAttr layout, unsigned axis) {
  unsigned stride = 1;
  for (unsigned d : layout.getOrder()) {
    if (d == axis)
      break;
    stride *= layout.getThreadsPerWarp()[d];
  }
  return stride;
}

/// A value and its index along the reduced axis: argmax/argmin's partial
/// results.
struct Candidate {
  Value value, index;
};

/// The better of two candidates for argmax (argmin): the larger (smaller)
/// value, a NaN before any number, the smaller index on ties.
static Candidate combineArg(LoweringContext &l, ReduceKind kind, Candidate a,
                            Candidate c) {
  ImplicitLocOpBuilder &b = l.builder();
  bool isMax = kind == ReduceKind::argmax;
  Value lessIndex =
      arith::CmpIOp::create(b, arith::CmpIPredicate::slt, c.index, a.index);
  Value better, equal;
  if (isa<FloatType>(a.value.getType())) {
    better = arith::CmpFOp::create(
        b, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        c.value, a.value);
    equal =
        arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, c.value, a.value);
    Value aNan =
        arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, a.value, a.value);
    Value cNan =
        arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, c.value, c.value);
    Value aNumber =
        arith::XOrIOp::create(b, aNan, arith::ConstantIntOp::create(b, 1, 1));
    Value nanWins = arith::AndIOp::create(
        b, cNan, arith::OrIOp::create(b, aNumber, lessIndex));
    better = arith::OrIOp::create(b, better, nanWins);
  } else {
    better = arith::CmpIOp::create(
        b, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
        c.value, a.value);
    equal =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, c.value, a.value);
  }
  Value pick = arith::OrIOp::create(b, better,
                                    arith::AndIOp::create(b, equal, lessIndex));
  return {arith::SelectOp::create(b, pick, c.value, a.value),
          arith::SelectOp::create(b, pick, c.index, a.index)};
}

/// The slots of `src` reduced along `axis` with `merge` (argmax/argmin:
/// `isArg`, the candidates carry their index and the result is the index).
static FailureOr<Slots>
reduceAlong(LoweringContext &l, Operation *op, Value srcValue, Type resultType,
            unsigned axis, bool isArg,
            function_ref<Candidate(Candidate, Candidate)> merge) {
  ImplicitLocOpBuilder &b = l.builder();
  auto src = *Distribution::get(srcValue.getType());
  if (src.getSlicedDim())
    return op->emitError("reducing a sliced tile is not supported by "
                         "convert-tile-to-gpu");
  BlockedEncodingAttr layout = src.getLayout();
  // Each result slot is the source's slot at index 0 along `axis`.
  if (auto tensor = dyn_cast<RankedTensorType>(resultType);
      tensor && tensor.getEncoding() !=
                    SliceEncodingAttr::get(op->getContext(), axis, layout))
    return op->emitError("a reduction's result must have the slice layout of "
                         "its source along the axis (as tile-coalesce gives "
                         "it)");
  // A copy: a combiner maps its values while this runs, which may move the
  // context's table.
  Slots in = l.lookup(srcValue);
  auto candidate = [&](unsigned slot) -> Candidate {
    return {in[slot], isArg ? l.coordinates(src, slot)[axis] : Value()};
  };

  // The result's slots are the source's with local index 0 along `axis`.
  SmallVector<SmallVector<int64_t>> resultLocals;
  if (auto resultDist = *Distribution::get(resultType);
      !resultDist.isScalar()) {
    for (unsigned s = 0; s < resultDist.getNumSlots(); ++s)
      resultLocals.push_back(resultDist.getLocalIndex(s));
  } else {
    resultLocals.push_back(SmallVector<int64_t>(src.getRank(), 0));
  }

  // Within the thread, as a tree of neighbouring pairs: the same merges as a
  // left fold, in order along the axis, but a dependence chain of log2 of
  // the extent instead of the extent (attention's row sums: 5 adds deep,
  // not 31).
  SmallVector<Candidate> acc;
  for (SmallVector<int64_t> local : resultLocals) {
    SmallVector<Candidate> level;
    for (int64_t j = 0; j < src.getExtent(axis); ++j) {
      local[axis] = j;
      level.push_back(candidate(src.getSlot(local)));
    }
    while (level.size() > 1) {
      SmallVector<Candidate> next;
      for (size_t i = 0; i + 1 < level.size(); i += 2)
        next.push_back(merge(level[i], level[i + 1]));
      if (level.size() % 2)
        next.push_back(level.back());
      level = std::move(next);
    }
    acc.push_back(level.front());
  }

  // Across the lanes that hold distinct elements along `axis`.
  unsigned laneStride = laneStrideAlong(layout, axis);
  for (int64_t m = 1; m < src.getDistinctLanes(axis); m *= 2)
    for (Candidate &v : acc)
      v = merge(v, {shuffleXor(l, v.value, m * laneStride),
                    isArg ? shuffleXor(l, v.index, m * laneStride) : Value()});

  // Across warps: each warp's lane 0 (along `axis`) writes its partial
  // results, every thread reads and combines all warps'.
  int64_t warps = src.getDistinctWarps(axis);
  if (warps > 1) {
    Type elemType = acc.front().value.getType();
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
    // Values, then (argmax/argmin) their i32 indices, 8-byte aligned.
    int64_t valueBytes = (warps * numResults * elemBytes + 7) / 8 * 8;
    Value buffer =
        l.sharedPointer(0, valueBytes + (isArg ? warps * numResults * 4 : 0));
    Value indexBuffer = isArg ? l.sharedPointer(valueBytes, 0) : Value();
    auto element = [&](Value base, Type type, Value index) {
      return LLVM::GEPOp::create(b, base.getType(), type, base,
                                 ValueRange{index});
    };
    l.emitIf(writer, [&] {
      Value row = arith::MulIOp::create(b, warpIds[axis], l.i32(numResults));
      for (auto [v, lin] : llvm::zip(acc, lins)) {
        Value at = arith::AddIOp::create(b, row, lin);
        LLVM::StoreOp::create(b, v.value, element(buffer, elemType, at));
        if (isArg)
          LLVM::StoreOp::create(b, v.index,
                                element(indexBuffer, b.getI32Type(), at));
      }
    });
    gpu::BarrierOp::create(b);
    auto read = [&](Value index) -> Candidate {
      Value v =
          LLVM::LoadOp::create(b, elemType, element(buffer, elemType, index));
      if (!isArg)
        return {v, Value()};
      return {
          v, LLVM::LoadOp::create(b, b.getI32Type(),
                                  element(indexBuffer, b.getI32Type(), index))};
    };
    for (auto [v, lin] : llvm::zip(acc, lins)) {
      v = read(lin);
      for (int64_t w = 1; w < warps; ++w)
        v = merge(v,
                  read(arith::AddIOp::create(b, lin, l.i32(w * numResults))));
    }
    gpu::BarrierOp::create(b);
  }
  Slots results;
  for (Candidate &v : acc)
    results.push_back(isArg ? v.index : v.value);
  return results;
}

static LogicalResult lowerReduce(ReduceOp op, LoweringContext &l) {
  ReduceKind kind = op.getKind();
  bool isArg = kind == ReduceKind::argmax || kind == ReduceKind::argmin;
  FailureOr<Slots> results =
      reduceAlong(l, op, op.getSrc(), op.getType(), op.getAxis(), isArg,
                  [&](Candidate x, Candidate y) -> Candidate {
                    if (isArg)
                      return combineArg(l, kind, x, y);
                    return {combine(l, kind, x.value, y.value), Value()};
                  });
  if (failed(results))
    return failure();
  l.map(op, *results);
  return success();
}

/// A generic reduce or scan's combiner region as a merge function; `failed`
/// records an op of it that could not be lowered (the merge then gives its
/// left operand, and the lowering fails).
struct CombinerMerge {
  LoweringContext &l;
  Region &combiner;
  bool failed = false;

  Value operator()(Value x, Value y) {
    FailureOr<Value> v = l.applyCombiner(combiner, x, y);
    failed |= mlir::failed(v);
    return mlir::succeeded(v) ? *v : x;
  }
};

static LogicalResult lowerGenericReduce(GenericReduceOp op,
                                        LoweringContext &l) {
  CombinerMerge merge{l, op.getCombiner()};
  FailureOr<Slots> results =
      reduceAlong(l, op, op.getSrc(), op.getType(), op.getAxis(),
                  /*isArg=*/false, [&](Candidate x, Candidate y) -> Candidate {
                    return {merge(x.value, y.value), Value()};
                  });
  if (failed(results) || merge.failed)
    return failure();
  l.map(op, *results);
  return success();
}

/// A partial result of a scan: none (`value` null), or `value` where
/// `valid` holds (always where `valid` is null).
struct Partial {
  Value value, valid;
};

/// Inclusive scan along `axis` with `merge` (earlier elements on the left;
/// `identity`, where there is one, stands for "nothing before"). A thread's
/// elements along the axis come in chunks of sizePerThread consecutive
/// ones, one chunk per repetition of the block's tile; repetition r covers
/// positions [r * cta, (r + 1) * cta), ordered by warp, then lane, then
/// element. So each chunk is scanned in the thread, its total scanned
/// across lanes (shuffles up), the warps' totals across warps (shared
/// memory), and each repetition adds the totals of the repetitions before
/// it.
static FailureOr<Slots> scanAlong(LoweringContext &l, Operation *op,
                                  Value srcValue, unsigned axis, Value identity,
                                  function_ref<Value(Value, Value)> merge) {
  ImplicitLocOpBuilder &b = l.builder();
  auto src = *Distribution::get(srcValue.getType());
  if (src.getSlicedDim())
    return op->emitError("scanning a sliced tile is not supported by "
                         "convert-tile-to-gpu");
  BlockedEncodingAttr layout = src.getLayout();
  // The scan below takes a thread's chunks along the axis to follow each
  // other across all lanes and warps.
  if (layout.getWarpReps(axis) != 1)
    return op->emitError("scanning along a dimension whose warps repeat "
                         "their tile (repsPerWarp) is not supported by "
                         "convert-tile-to-gpu");
  Slots out = l.lookup(srcValue);
  Type elemType = out.front().getType();
  // `a` then `c`, either possibly absent.
  auto mergePartial = [&](Partial a, Partial c) -> Partial {
    if (!a.value)
      return c;
    if (!c.value)
      return a;
    Value both = merge(a.value, c.value);
    if (!a.valid && !c.valid)
      return {both, Value()};
    if (!a.valid)
      return {arith::SelectOp::create(b, c.valid, both, a.value), Value()};
    if (!c.valid)
      return {arith::SelectOp::create(b, a.valid, both, c.value), Value()};
    Value v = arith::SelectOp::create(
        b, a.valid, arith::SelectOp::create(b, c.valid, both, a.value),
        c.value);
    return {v, arith::OrIOp::create(b, a.valid, c.valid)};
  };
  // `v` where `cond` holds, else nothing.
  auto when = [&](Value cond, Value v) -> Partial {
    if (identity)
      return {arith::SelectOp::create(b, cond, v, identity), Value()};
    return {v, cond};
  };

  int64_t extent = src.getExtent(axis);
  int64_t chunk = std::min<int64_t>(layout.getSizePerThread()[axis], extent);
  int64_t repeats = extent / chunk;
  // One line per position in the other dimensions: its slot along the axis.
  SmallVector<SmallVector<int64_t>> lines;
  for (unsigned slot = 0; slot < src.getNumSlots(); ++slot) {
    SmallVector<int64_t> local = src.getLocalIndex(slot);
    if (local[axis] == 0)
      lines.push_back(local);
  }
  auto slotOf = [&](unsigned line, int64_t r, int64_t j) {
    SmallVector<int64_t> local = lines[line];
    local[axis] = r * chunk + j;
    return src.getSlot(local);
  };

  // 1. In the thread: each chunk, and its total (index line * repeats + r).
  SmallVector<Value> totals;
  for (unsigned line = 0; line < lines.size(); ++line)
    for (int64_t r = 0; r < repeats; ++r) {
      for (int64_t j = 1; j < chunk; ++j)
        out[slotOf(line, r, j)] =
            merge(out[slotOf(line, r, j - 1)], out[slotOf(line, r, j)]);
      totals.push_back(out[slotOf(line, r, chunk - 1)]);
    }

  // 2. Across lanes: an inclusive scan of the totals (Hillis-Steele), the
  // exclusive prefix each lane adds, and the warp's total.
  unsigned laneStride = laneStrideAlong(layout, axis);
  int64_t lanes = src.getDistinctLanes(axis);
  ArrayRef<Value> laneIds = l.laneCoords(layout),
                  warpIds = l.warpCoords(layout);
  // Lanes past the distinct ones hold copies (the tile wraps).
  Value lanePos = arith::AndIOp::create(b, laneIds[axis], l.i32(lanes - 1));
  SmallVector<Value> inclusive = totals, warpTotal = totals;
  SmallVector<Partial> lanePrefix(totals.size());
  if (lanes > 1) {
    for (int64_t o = 1; o < lanes; o *= 2) {
      Value has = arith::CmpIOp::create(b, arith::CmpIPredicate::uge, lanePos,
                                        l.i32(o));
      for (Value &t : inclusive) {
        Value y = shuffle(l, t, l.i32(o * laneStride), gpu::ShuffleMode::UP);
        t = arith::SelectOp::create(b, has, merge(y, t), t);
      }
    }
    Value notFirst =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, lanePos, l.i32(0));
    // The lane holding the last distinct position of this lane's group.
    Value last = arith::AddIOp::create(
        b, l.getLaneId(),
        arith::MulIOp::create(
            b, arith::SubIOp::create(b, l.i32(lanes - 1), lanePos),
            l.i32(laneStride)));
    for (auto [t, prefix, total] :
         llvm::zip(inclusive, lanePrefix, warpTotal)) {
      Value up = shuffle(l, t, l.i32(laneStride), gpu::ShuffleMode::UP);
      prefix = when(notFirst, up);
      total = shuffle(l, t, last, gpu::ShuffleMode::IDX);
    }
  }

  // 3. Across warps, through shared memory: the totals of the warps before
  // this one, and the repetition's total over all warps.
  int64_t warps = src.getDistinctWarps(axis);
  SmallVector<Partial> warpPrefix(totals.size());
  SmallVector<Value> blockTotal = warpTotal;
  if (warps > 1) {
    Value warpPos = arith::AndIOp::create(b, warpIds[axis], l.i32(warps - 1));
    SmallVector<int64_t> lineShape(src.getShape());
    lineShape[axis] = 1;
    int64_t numLines = 1;
    for (int64_t e : lineShape)
      numLines *= e;
    Value buffer =
        l.sharedPointer(0, numLines * repeats * warps *
                               sharedElementBytes(l.memoryType(elemType)));
    // Element (line, r, w) of the totals.
    SmallVector<Value> rows;
    for (unsigned line = 0; line < lines.size(); ++line) {
      SmallVector<Value> coords = l.coordinates(src, slotOf(line, 0, 0));
      Value lin = linearIndex(l, coords, lineShape, {});
      for (int64_t r = 0; r < repeats; ++r)
        rows.push_back(arith::MulIOp::create(
            b,
            arith::AddIOp::create(
                b, arith::MulIOp::create(b, lin, l.i32(repeats)), l.i32(r)),
            l.i32(warps)));
    }
    auto element = [&](Value row, Value w) {
      return LLVM::GEPOp::create(b, buffer.getType(), elemType, buffer,
                                 ValueRange{arith::AddIOp::create(b, row, w)});
    };
    Value writer = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                         laneIds[axis], l.i32(lanes - 1));
    l.emitIf(writer, [&] {
      for (auto [total, row] : llvm::zip(warpTotal, rows))
        LLVM::StoreOp::create(b, total, element(row, warpPos));
    });
    gpu::BarrierOp::create(b);
    for (auto [prefix, total, row] : llvm::zip(warpPrefix, blockTotal, rows)) {
      for (int64_t w = 0; w < warps; ++w) {
        Value t = LLVM::LoadOp::create(b, elemType, element(row, l.i32(w)));
        total = w == 0 ? t : merge(total, t);
        Value before = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                             l.i32(w), warpPos);
        prefix = mergePartial(prefix, when(before, t));
      }
    }
    gpu::BarrierOp::create(b);
  }

  // 4. Each element adds what precedes its chunk: the earlier repetitions,
  // warps and lanes.
  for (unsigned line = 0; line < lines.size(); ++line) {
    Partial carry;
    for (int64_t r = 0; r < repeats; ++r) {
      unsigned t = line * repeats + r;
      Partial prefix =
          mergePartial(carry, mergePartial(warpPrefix[t], lanePrefix[t]));
      for (int64_t j = 0; j < chunk; ++j) {
        Value &x = out[slotOf(line, r, j)];
        x = mergePartial(prefix, {x, Value()}).value;
      }
      carry = mergePartial(carry, {blockTotal[t], Value()});
    }
  }
  return out;
}

static LogicalResult lowerScan(ScanOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  ReduceKind kind = op.getKind();
  Type elemType = op.getType().getElementType();
  Value identity =
      isa<FloatType>(elemType)
          ? Value(arith::ConstantOp::create(
                b, b.getFloatAttr(elemType, kind == ReduceKind::sum ? 0 : 1)))
          : Value(arith::ConstantOp::create(
                b,
                b.getIntegerAttr(elemType, kind == ReduceKind::sum ? 0 : 1)));
  FailureOr<Slots> out =
      scanAlong(l, op, op.getSrc(), op.getAxis(), identity,
                [&](Value x, Value y) { return combine(l, kind, x, y); });
  if (failed(out))
    return failure();
  l.map(op, *out);
  return success();
}

/// A generic scan has no identity: the parts of a prefix that may be
/// absent carry a flag.
static LogicalResult lowerGenericScan(GenericScanOp op, LoweringContext &l) {
  CombinerMerge merge{l, op.getCombiner()};
  FailureOr<Slots> out =
      scanAlong(l, op, op.getSrc(), op.getAxis(), Value(), merge);
  if (failed(out) || merge.failed)
    return failure();
  l.map(op, *out);
  return success();
}

/// expand_dims keeps the slots where source and result are distributed
/// alike (slice layouts of the result's layout); else data moves.
static LogicalResult lowerExpandDims(ExpandDimsOp op, LoweringContext &l) {
  return lowerThroughShared(l, op, op.getSrc(), op);
}

static LogicalResult lowerConvertLayout(ConvertLayoutOp op,
                                        LoweringContext &l) {
  return lowerThroughShared(l, op, op.getSrc(), op);
}

/// trans into the transposed layout moves nothing: each thread holds
/// element (j, i) of the result in the source's slot of (i, j) (a dot
/// computed transposed, tile-accelerate-dot's Cᵀ = Bᵀ Aᵀ). Other layouts
/// go through shared memory.
static LogicalResult lowerTrans(TransOp op, LoweringContext &l) {
  auto from = *Distribution::get(op.getSrc().getType());
  auto to = *Distribution::get(op.getType());
  if (from.isScalar() || from.getSlicedDim() || to.getSlicedDim() ||
      to.getLayout() != from.getLayout().getTransposed())
    return lowerThroughShared(l, op, op.getSrc(), op, {1, 0});
  Slots src = l.lookup(op.getSrc()), out(to.getNumSlots());
  for (unsigned slot = 0; slot < to.getNumSlots(); ++slot) {
    SmallVector<int64_t> local = to.getLocalIndex(slot);
    out[slot] = src[from.getSlot({local[1], local[0]})];
  }
  l.map(op, out);
  return success();
}

/// reshape, permute: every element to its place in the result's row-major
/// order, then each thread reads the result's elements it holds.
static LogicalResult lowerReshape(ReshapeOp op, LoweringContext &l) {
  return lowerThroughShared(l, op, op.getSrc(), op);
}

static LogicalResult lowerPermute(PermuteOp op, LoweringContext &l) {
  SmallVector<unsigned> perm(op.getOrder().begin(), op.getOrder().end());
  return lowerThroughShared(l, op, op.getSrc(), op, perm);
}

/// join: lhs's row-major element i to element 2i of the result, rhs's to
/// 2i + 1; split reads them back the same way.
static LogicalResult lowerJoin(JoinOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto half = *Distribution::get(op.getLhs().getType());
  storeShared(l, l.lookup(op.getLhs()), half, 0, {}, 2, 0);
  storeShared(l, l.lookup(op.getRhs()), half, 0, {}, 2, 1);
  gpu::BarrierOp::create(b);
  l.map(op, loadShared(l, *Distribution::get(op.getType()),
                       op.getType().getElementType(), 0));
  gpu::BarrierOp::create(b);
  return success();
}

static LogicalResult lowerSplit(SplitOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  storeShared(l, l.lookup(op.getSrc()),
              *Distribution::get(op.getSrc().getType()), 0);
  gpu::BarrierOp::create(b);
  auto half = *Distribution::get(op.getLhs().getType());
  Type elem = getElementTypeOrSelf(op.getLhs().getType());
  l.map(op.getLhs(), loadShared(l, half, elem, 0, 2, 0));
  l.map(op.getRhs(), loadShared(l, half, elem, 0, 2, 1));
  gpu::BarrierOp::create(b);
  return success();
}

void tile::populateCommunicationLowerings(LoweringPatternSet &patterns) {
  patterns.add(lowerReduce);
  patterns.add(lowerScan);
  patterns.add(lowerGenericReduce);
  patterns.add(lowerGenericScan);
  patterns.add(lowerExpandDims);
  patterns.add(lowerConvertLayout);
  patterns.add(lowerTrans);
  patterns.add(lowerReshape);
  patterns.add(lowerPermute);
  patterns.add(lowerJoin);
  patterns.add(lowerSplit);
}
