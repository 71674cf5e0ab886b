//===- KernelLowering.cpp - structure, control flow, elementwise math -----===//
#include "KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tile;

/// True for tiles held as mma fragments.
static bool isDotOperand(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor &&
         isa_and_nonnull<DotOperandEncodingAttr>(tensor.getEncoding());
}

std::string tile::sharedBufferName(StringRef kernelName) {
  return ("__tile_shared_" + kernelName).str();
}

int64_t tile::kernelSharedBytes(ModuleOp module, StringRef kernelName) {
  std::string name = sharedBufferName(kernelName);
  int64_t bytes = 0;
  module->walk([&](LLVM::GlobalOp global) {
    if (global.getSymName() == name)
      if (auto attr = global->getAttrOfType<IntegerAttr>(kSharedBytesAttr))
        bytes = attr.getInt();
  });
  return bytes;
}

KernelLowering::KernelLowering(KernelOp kernel, gpu::GPUFuncOp func,
                               const ModuleAxisInfo &axisInfo,
                               unsigned numWarps)
    : kernel(kernel), func(func), axisInfo(axisInfo), numWarps(numWarps),
      b(func.getContext()), loc(kernel.getLoc()),
      sharedSymbol(sharedBufferName(kernel.getSymName())) {}

Value KernelLowering::i32(int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

Value KernelLowering::idx(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

LLVM::LLVMPointerType KernelLowering::globalPtrType() {
  return LLVM::LLVMPointerType::get(b.getContext(), 1);
}

Type KernelLowering::memoryType(Type elemType) {
  // Booleans live in memory as bytes.
  if (elemType.isInteger(1))
    return b.getI8Type();
  if (isa<PointerType>(elemType))
    return globalPtrType();
  return elemType;
}

const Slots &KernelLowering::lookup(Value value) {
  auto it = values.find(value);
  assert(it != values.end() && "value used before it was lowered");
  return it->second;
}

Value KernelLowering::lookupScalar(Value value) { return lookup(value)[0]; }

void KernelLowering::map(Value value, Slots slots) {
  values[value] = std::move(slots);
}

void KernelLowering::emitIf(Value cond, function_ref<void()> body) {
  if (!cond)
    return body();
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

ArrayRef<Value> KernelLowering::decompose(Value id, ArrayRef<unsigned> counts,
                                          ArrayRef<unsigned> order,
                                          SmallVector<Value> &coords) {
  if (!coords.empty())
    return coords;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(prologueAnchor);
  coords.assign(counts.size(), Value());
  Value rest = id;
  for (unsigned d : order) {
    coords[d] = arith::RemUIOp::create(b, loc, rest, i32(counts[d]));
    rest = arith::DivUIOp::create(b, loc, rest, i32(counts[d]));
  }
  return coords;
}

ArrayRef<Value> KernelLowering::laneCoords(BlockedEncodingAttr layout) {
  return decompose(laneId, layout.getThreadsPerWarp(), layout.getOrder(),
                   laneCache[layout]);
}

ArrayRef<Value> KernelLowering::warpCoords(BlockedEncodingAttr layout) {
  return decompose(warpId, layout.getWarpsPerCTA(), layout.getOrder(),
                   warpCache[layout]);
}

ArrayRef<Value> KernelLowering::threadBase(const Distribution &dist) {
  BlockedEncodingAttr layout = dist.getLayout();
  auto &base = baseCache[layout];
  if (!base.empty())
    return base;
  ArrayRef<Value> lanes = laneCoords(layout), warps = warpCoords(layout);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(prologueAnchor);
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    int64_t spt = layout.getSizePerThread()[d];
    int64_t perWarp = spt * layout.getThreadsPerWarp()[d];
    Value w = arith::MulIOp::create(b, loc, warps[d], i32(perWarp));
    Value l = arith::MulIOp::create(b, loc, lanes[d], i32(spt));
    base.push_back(arith::AddIOp::create(b, loc, w, l));
  }
  return base;
}

SmallVector<Value> KernelLowering::coordinates(const Distribution &dist,
                                               unsigned slot) {
  SmallVector<Value> coords;
  ArrayRef<Value> base = threadBase(dist);
  SmallVector<int64_t> local = dist.getLocalIndex(slot);
  for (unsigned d = 0; d < dist.getRank(); ++d) {
    int64_t extent = dist.getShape()[d];
    if (extent == 1) {
      coords.push_back(i32(0));
      continue;
    }
    Value c = arith::AddIOp::create(b, loc, base[d],
                                    i32(dist.getConstantOffset(d, local[d])));
    if (dist.wraps(d))
      c = arith::AndIOp::create(b, loc, c, i32(extent - 1));
    coords.push_back(c);
  }
  return coords;
}

Value KernelLowering::ownerPredicate(const Distribution &dist) {
  if (dist.isScalar())
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId,
                                 i32(0));
  Value pred;
  ArrayRef<Value> base = threadBase(dist);
  for (unsigned d = 0; d < dist.getRank(); ++d) {
    if (!dist.wraps(d))
      continue;
    Value inShape = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          base[d], i32(dist.getShape()[d]));
    pred = pred ? arith::AndIOp::create(b, loc, pred, inShape) : inShape;
  }
  return pred;
}

Value KernelLowering::sharedPointer(int64_t bytes, int64_t size) {
  sharedBytes = std::max(sharedBytes, scratchBase + bytes + size);
  return rawSharedPointer(scratchBase + bytes);
}

Value KernelLowering::rawSharedPointer(int64_t bytes) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, sharedSymbol);
  if (bytes == 0)
    return base;
  return LLVM::GEPOp::create(
      b, loc, ptrType, b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(bytes)});
}

LogicalResult KernelLowering::run() {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  threadId = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), tid);
  laneId = arith::RemUIOp::create(b, loc, threadId, i32(32));
  warpId = arith::DivUIOp::create(b, loc, threadId, i32(32));
  prologueAnchor = LLVM::ZeroOp::create(b, loc, b.getI32Type());
  for (auto [arg, newArg] :
       llvm::zip(kernel.getBody().getArguments(), entry.getArguments()))
    map(arg, {newArg});
  // Pipeline buffers first, at fixed offsets; scratch goes after them.
  kernel.walk([&](SharedAllocOp alloc) {
    MemRefType type = alloc.getType();
    scratchBase = llvm::alignTo(scratchBase, 128);
    bufferOffsets[alloc] = scratchBase;
    scratchBase += type.getNumElements() * type.getElementTypeBitWidth() / 8;
  });
  sharedBytes = scratchBase;
  if (failed(lowerBlock(kernel.getBody().front())))
    return failure();
  prologueAnchor->erase();
  return success();
}

LogicalResult KernelLowering::lowerBlock(Block &block) {
  for (Operation &op : block)
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  loc = op->getLoc();
  for (Value result : op->getResults())
    if (!isDotOperand(result.getType()) &&
        failed(Distribution::get(result.getType())))
      return op->emitError("tile without a layout: run tile-coalesce before "
                           "convert-tile-to-gpu");
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<tile::ReturnOp>([&](auto) {
        gpu::ReturnOp::create(b, loc);
        return success();
      })
      .Case<ProgramIdOp>([&](ProgramIdOp pid) {
        auto dim = static_cast<gpu::Dimension>(pid.getAxis());
        Value id = gpu::BlockIdOp::create(b, loc, dim);
        map(pid, {arith::IndexCastUIOp::create(b, loc, b.getI32Type(), id)});
        return success();
      })
      .Case<NumProgramsOp>([&](NumProgramsOp np) {
        auto dim = static_cast<gpu::Dimension>(np.getAxis());
        Value n = gpu::GridDimOp::create(b, loc, dim);
        map(np, {arith::IndexCastUIOp::create(b, loc, b.getI32Type(), n)});
        return success();
      })
      .Case<SplatOp>([&](SplatOp splat) {
        auto dist = *Distribution::get(splat.getType());
        map(splat, Slots(dist.getNumSlots(), lookupScalar(splat.getSrc())));
        return success();
      })
      .Case<ExpandDimsOp>([&](ExpandDimsOp expand) {
        auto src = *Distribution::get(expand.getSrc().getType());
        auto dst = *Distribution::get(expand.getType());
        if (!src.isEquivalent(dst))
          return lowerConvertLayout(op, expand.getSrc(), expand, false);
        map(expand, lookup(expand.getSrc()));
        return success();
      })
      .Case<AddPtrOp>([&](AddPtrOp add) {
        Type elem =
            memoryType(getElementTypeOrSelf(getPointeeLikeType(add.getType())));
        const Slots &ptrs = lookup(add.getPtr());
        const Slots &offs = lookup(add.getOffset());
        Slots out;
        for (auto [p, o] : llvm::zip(ptrs, offs))
          out.push_back(LLVM::GEPOp::create(b, loc, globalPtrType(), elem, p,
                                            ValueRange{o}));
        map(add, out);
        return success();
      })
      .Case<MakeRangeOp>([&](auto o) { return lowerMakeRange(o); })
      .Case<BroadcastOp>([&](auto o) { return lowerBroadcast(o); })
      .Case<LoadOp>([&](auto o) { return lowerLoad(o); })
      .Case<StoreOp>([&](auto o) { return lowerStore(o); })
      .Case<ReduceOp>([&](auto o) { return lowerReduce(o); })
      .Case<DotOp>([&](auto o) { return lowerDot(o); })
      .Case<ConvertLayoutOp>([&](ConvertLayoutOp cvt) {
        if (isDotOperand(cvt.getType()))
          return lowerToDotOperand(op, cvt.getSrc(), cvt);
        return lowerConvertLayout(op, cvt.getSrc(), cvt, false);
      })
      .Case<TransOp>([&](TransOp trans) {
        return lowerConvertLayout(op, trans.getSrc(), trans, true);
      })
      .Case<SharedAllocOp>([&](SharedAllocOp alloc) {
        map(alloc, {rawSharedPointer(bufferOffsets.lookup(alloc))});
        return success();
      })
      .Case<AsyncCopyOp>([&](auto o) { return lowerAsyncCopy(o); })
      .Case<AsyncCommitOp>([&](auto) {
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
        return success();
      })
      .Case<AsyncWaitOp>([&](AsyncWaitOp wait) {
        NVVM::CpAsyncWaitGroupOp::create(b, loc, wait.getPending());
        gpu::BarrierOp::create(b, loc);
        return success();
      })
      .Case<SharedLoadOp>([&](auto o) { return lowerSharedLoad(o); })
      .Case<arith::ConstantOp>([&](auto o) { return lowerConstant(o); })
      .Case<scf::ForOp>([&](auto o) { return lowerFor(o); })
      .Case<scf::IfOp>([&](auto o) { return lowerIf(o); })
      .Case<scf::YieldOp>([&](auto o) { return lowerYield(o); })
      .Default([&](Operation *other) -> LogicalResult {
        if (isa<arith::ArithDialect, math::MathDialect>(other->getDialect()))
          return lowerElementwise(other);
        return other->emitError("'")
               << other->getName()
               << "' is not supported by convert-tile-to-gpu";
      });
}

/// Flattens the slots of `values` into one list, recording each one's count.
static SmallVector<Value> flatten(KernelLowering &lowering, ValueRange values,
                                  SmallVectorImpl<unsigned> &counts) {
  SmallVector<Value> flat;
  for (Value v : values) {
    const Slots &slots = lowering.lookup(v);
    counts.push_back(slots.size());
    flat.append(slots.begin(), slots.end());
  }
  return flat;
}

/// Maps each of `values` to its run of `flat`, as `counts` gives them.
static void unflatten(KernelLowering &lowering, ValueRange values,
                      ValueRange flat, ArrayRef<unsigned> counts) {
  unsigned pos = 0;
  for (auto [v, n] : llvm::zip(values, counts)) {
    lowering.map(v, Slots(flat.begin() + pos, flat.begin() + pos + n));
    pos += n;
  }
}

LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  SmallVector<unsigned> counts;
  SmallVector<Value> inits = flatten(*this, op.getInitArgs(), counts);
  auto newFor = scf::ForOp::create(b, loc, lookupScalar(op.getLowerBound()),
                                   lookupScalar(op.getUpperBound()),
                                   lookupScalar(op.getStep()), inits);
  map(op.getInductionVar(), {newFor.getInductionVar()});
  unflatten(*this, op.getRegionIterArgs(), newFor.getRegionIterArgs(), counts);
  Block *body = newFor.getBody();
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    body->back().erase();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(body);
    if (failed(lowerBlock(*op.getBody())))
      return failure();
  }
  unflatten(*this, op.getResults(), newFor.getResults(), counts);
  return success();
}

LogicalResult KernelLowering::lowerIf(scf::IfOp op) {
  SmallVector<Type> types;
  SmallVector<unsigned> counts;
  for (Type t : op.getResultTypes()) {
    auto dist = *Distribution::get(t);
    counts.push_back(dist.getNumSlots());
    types.append(dist.getNumSlots(), getElementTypeOrSelf(t));
  }
  for (Type &t : types)
    t = isa<PointerType>(t) ? globalPtrType() : t;
  bool hasElse = !op.getElseRegion().empty();
  auto newIf = scf::IfOp::create(b, loc, types, lookupScalar(op.getCondition()),
                                 /*addThenBlock=*/true, hasElse);
  auto lowerRegion = [&](Region &from, Region &to) -> LogicalResult {
    Block *block = &to.front();
    if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
      block->back().erase();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(block);
    return lowerBlock(from.front());
  };
  if (failed(lowerRegion(op.getThenRegion(), newIf.getThenRegion())) ||
      (hasElse &&
       failed(lowerRegion(op.getElseRegion(), newIf.getElseRegion()))))
    return failure();
  unflatten(*this, op.getResults(), newIf.getResults(), counts);
  return success();
}

LogicalResult KernelLowering::lowerYield(scf::YieldOp op) {
  SmallVector<unsigned> counts;
  scf::YieldOp::create(b, loc, flatten(*this, op.getOperands(), counts));
  return success();
}

LogicalResult KernelLowering::lowerConstant(arith::ConstantOp op) {
  auto dist = *Distribution::get(op.getType());
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense) {
    map(op,
        {arith::ConstantOp::create(b, loc, cast<TypedAttr>(op.getValue()))});
    return success();
  }
  if (!dense.isSplat())
    return op.emitError("a non-uniform tile constant is not supported by "
                        "convert-tile-to-gpu");
  Value scalar =
      arith::ConstantOp::create(b, loc, dense.getSplatValue<TypedAttr>());
  map(op, Slots(dist.getNumSlots(), scalar));
  return success();
}

LogicalResult KernelLowering::lowerMakeRange(MakeRangeOp op) {
  auto dist = *Distribution::get(op.getType());
  // The range's one dimension, in the layout's rank: the one a slice layout
  // does not remove.
  unsigned dim = dist.getSlicedDim() == 0u ? 1 : 0;
  Slots out;
  for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
    Value c = coordinates(dist, slot)[dim];
    out.push_back(op.getStart() == 0
                      ? c
                      : arith::AddIOp::create(b, loc, c, i32(op.getStart())));
  }
  map(op, out);
  return success();
}

LogicalResult KernelLowering::lowerBroadcast(BroadcastOp op) {
  auto src = *Distribution::get(op.getSrc().getType());
  auto dst = *Distribution::get(op.getType());
  if (src.getLayout() != dst.getLayout())
    return op.emitError("broadcast between different layouts is not "
                        "supported by convert-tile-to-gpu");
  const Slots &in = lookup(op.getSrc());
  Slots out;
  for (unsigned slot = 0; slot < dst.getNumSlots(); ++slot) {
    SmallVector<int64_t> local = dst.getLocalIndex(slot);
    for (unsigned d = 0; d < local.size(); ++d)
      if (src.getShape()[d] == 1)
        local[d] = 0;
    out.push_back(in[src.getSlot(local)]);
  }
  map(op, out);
  return success();
}

LogicalResult KernelLowering::lowerElementwise(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return op->emitError("'")
           << op->getName() << "' is not supported by convert-tile-to-gpu";
  Value result = op->getResult(0);
  auto dist = *Distribution::get(result.getType());
  Type elemType = getElementTypeOrSelf(result.getType());
  Slots out;
  for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      const Slots &slots = lookup(operand);
      operands.push_back(slots.size() == 1 ? slots[0] : slots[slot]);
    }
    FailureOr<Value> v = emitScalarOp(op, operands, elemType);
    if (failed(v))
      return failure();
    out.push_back(*v);
  }
  map(result, out);
  return success();
}

FailureOr<Value> KernelLowering::emitScalarOp(Operation *op,
                                              ValueRange operands,
                                              Type resultType) {
  if (isa<math::MathDialect>(op->getDialect()) && operands.size() == 1 &&
      isa<FloatType>(resultType))
    return emitMath(op, operands[0]);
  if (isa<math::AbsIOp>(op)) {
    // select(x < 0, 0 - x, x): math.absi would become a libdevice call.
    Value x = operands[0];
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(resultType));
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
    return Value(arith::SelectOp::create(
        b, loc, negative, arith::SubIOp::create(b, loc, zero, x), x));
  }
  OperationState state(loc, op->getName());
  state.addOperands(operands);
  state.addTypes(resultType);
  state.addAttributes(op->getAttrs());
  return b.create(state)->getResult(0);
}

FailureOr<Value> KernelLowering::emitMath(Operation *op, Value x) {
  Type type = x.getType();
  Type f32 = b.getF32Type();
  auto unsupported = [&]() -> FailureOr<Value> {
    return op->emitError("'") << op->getName() << "' on " << type
                              << " is not supported by convert-tile-to-gpu";
  };
  if (type.isF16() || type.isBF16()) {
    // Half-precision math computes in f32 and rounds once.
    Value wide = arith::ExtFOp::create(b, loc, f32, x);
    FailureOr<Value> r = emitMath(op, wide);
    if (failed(r))
      return failure();
    return Value(arith::TruncFOp::create(b, loc, type, *r));
  }
  // Intrinsics are called by name: convert-gpu-to-nvvm would turn the
  // llvm.intr ops into libdevice calls, which need the CUDA toolkit.
  auto intrinsic = [&](StringRef name, Value v,
                       LLVM::FastmathFlags flags = {}) -> Value {
    return LLVM::CallIntrinsicOp::create(
               b, loc, type, b.getStringAttr(name), ValueRange{v},
               LLVM::FastmathFlagsAttr::get(b.getContext(), flags))
        .getResult(0);
  };
  auto constant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
  };
  std::string suffix = type.isF64() ? ".f64" : ".f32";
  if (isa<math::SqrtOp>(op))
    return intrinsic("llvm.sqrt" + suffix, x);
  if (isa<math::AbsFOp>(op))
    return intrinsic("llvm.fabs" + suffix, x);
  if (isa<math::RsqrtOp>(op)) {
    if (type.isF64())
      return Value(arith::DivFOp::create(b, loc, constant(1.0),
                                         intrinsic("llvm.sqrt.f64", x)));
    return intrinsic("llvm.nvvm.rsqrt.approx.f", x);
  }
  if (!type.isF32())
    return unsupported();
  // exp(x) = 2^(x log2 e) and log(x) = log2(x) ln 2, on the approximate
  // ex2/lg2 units (relative error about 2^-22), as Triton does.
  if (isa<math::ExpOp>(op))
    return intrinsic(
        "llvm.exp2.f32",
        arith::MulFOp::create(b, loc, x, constant(1.4426950408889634)),
        LLVM::FastmathFlags::afn);
  if (isa<math::Exp2Op>(op))
    return intrinsic("llvm.exp2.f32", x, LLVM::FastmathFlags::afn);
  if (isa<math::LogOp>(op))
    return Value(arith::MulFOp::create(b, loc,
                                       intrinsic("llvm.nvvm.lg2.approx.f", x),
                                       constant(0.6931471805599453)));
  if (isa<math::Log2Op>(op))
    return intrinsic("llvm.nvvm.lg2.approx.f", x);
  return unsupported();
}
