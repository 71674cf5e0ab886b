//===- LoweringContext.cpp - what the lowering units share ----------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tile;

LoweringContext::LoweringContext(KernelOp kernel, gpu::GPUFuncOp func,
                                 const ModuleAxisInfo &axisInfo,
                                 unsigned numWarps,
                                 const LoweringPatternSet &patterns)
    : loc(kernel.getLoc()), kernel(kernel), func(func), axisInfo(axisInfo),
      numWarps(numWarps), patterns(patterns), b(func.getContext()),
      sharedSymbol(sharedBufferName(kernel.getSymName())) {}

Value LoweringContext::i32(int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

Value LoweringContext::idx(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

LLVM::LLVMPointerType LoweringContext::globalPtrType() {
  return LLVM::LLVMPointerType::get(b.getContext(), 1);
}

Type LoweringContext::memoryType(Type elemType) {
  // Booleans live in memory as bytes.
  if (elemType.isInteger(1))
    return b.getI8Type();
  if (isa<PointerType>(elemType))
    return globalPtrType();
  return elemType;
}

const Slots &LoweringContext::lookup(Value value) {
  auto it = values.find(value);
  assert(it != values.end() && "value used before it was lowered");
  return it->second;
}

Value LoweringContext::lookupScalar(Value value) { return lookup(value)[0]; }

void LoweringContext::map(Value value, Slots slots) {
  values[value] = std::move(slots);
}

void LoweringContext::emitIf(Value cond, function_ref<void()> body) {
  if (!cond)
    return body();
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

ArrayRef<Value> LoweringContext::decompose(Value id, ArrayRef<unsigned> counts,
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

ArrayRef<Value> LoweringContext::laneCoords(BlockedEncodingAttr layout) {
  return decompose(laneId, layout.getThreadsPerWarp(), layout.getOrder(),
                   laneCache[layout]);
}

ArrayRef<Value> LoweringContext::warpCoords(BlockedEncodingAttr layout) {
  return decompose(warpId, layout.getWarpsPerCTA(), layout.getOrder(),
                   warpCache[layout]);
}

ArrayRef<Value> LoweringContext::threadBase(const Distribution &dist) {
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

SmallVector<Value> LoweringContext::coordinates(const Distribution &dist,
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

Value LoweringContext::ownerPredicate(const Distribution &dist) {
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

Value LoweringContext::sharedPointer(int64_t bytes, int64_t size) {
  sharedBytes = std::max(sharedBytes, scratchBase + bytes + size);
  return rawSharedPointer(scratchBase + bytes);
}

Value LoweringContext::rawSharedPointer(int64_t bytes) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, sharedSymbol);
  if (bytes == 0)
    return base;
  return LLVM::GEPOp::create(
      b, loc, ptrType, b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(bytes)});
}

LogicalResult LoweringContext::run() {
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

LogicalResult LoweringContext::lowerBlock(Block &block) {
  for (Operation &op : block)
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}

LogicalResult LoweringContext::lowerOp(Operation *op) {
  loc = op->getLoc();
  for (Value result : op->getResults()) {
    auto tensor = dyn_cast<RankedTensorType>(result.getType());
    if ((!tensor ||
         !isa_and_nonnull<DotOperandEncodingAttr>(tensor.getEncoding())) &&
        failed(Distribution::get(result.getType())))
      return op->emitError("tile without a layout: run tile-coalesce before "
                           "convert-tile-to-gpu");
  }
  if (auto *lower = patterns.find(op))
    return (*lower)(op, *this);
  return op->emitError("'")
         << op->getName() << "' is not supported by convert-tile-to-gpu";
}

Value LoweringContext::stagePointer(Value buffer, Value stage) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t stageBytes = type.getNumElements() / type.getDimSize(0) *
                       type.getElementTypeBitWidth() / 8;
  Value base = lookupScalar(buffer);
  Value offset =
      arith::MulIOp::create(b, loc, lookupScalar(stage), i32(stageBytes));
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{offset});
}

const std::function<LogicalResult(Operation *, LoweringContext &)> *
LoweringPatternSet::find(Operation *op) const {
  auto it = byName.find(op->getName().getStringRef());
  if (it != byName.end())
    for (const OpLowering &lowering : it->second)
      if (lowering.match(op))
        return &lowering.lower;
  if (it == byName.end()) {
    auto dialect = byDialect.find(op->getName().getDialectNamespace());
    if (dialect != byDialect.end())
      return &dialect->second;
  }
  return nullptr;
}
