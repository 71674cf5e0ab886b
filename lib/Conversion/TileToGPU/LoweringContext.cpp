//===- LoweringContext.cpp - what the lowering units share ----------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tile;

LoweringContext::LoweringContext(KernelOp kernel, gpu::GPUFuncOp func,
                                 const ModuleAxisInfo &axisInfo,
                                 const LoweringPatternSet &patterns)
    : kernel(kernel), func(func), axisInfo(axisInfo), patterns(patterns),
      b(kernel.getLoc(), func.getContext()),
      sharedSymbol(sharedBufferName(kernel.getSymName())) {}

Value LoweringContext::i32(int64_t value) {
  return arith::ConstantIntOp::create(b, value, 32);
}

LLVM::LLVMPointerType LoweringContext::globalPtrType() {
  return LLVM::LLVMPointerType::get(b.getContext(), 1);
}

Type LoweringContext::memoryType(Type elemType) {
  // Booleans live in memory as bytes; 8-bit floats are bytes everywhere.
  if (elemType.isInteger(1) || isFloat8(elemType))
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

void LoweringContext::fenceSharedForAsyncProxy() {
  NVVM::FenceProxyOp::create(
      b,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

void LoweringContext::emitIf(Value cond, function_ref<void()> body) {
  if (!cond)
    return body();
  auto ifOp = scf::IfOp::create(b, cond, /*withElseRegion=*/false);
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
    coords[d] = arith::RemUIOp::create(b, rest, i32(counts[d]));
    rest = arith::DivUIOp::create(b, rest, i32(counts[d]));
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
    Value w =
        arith::MulIOp::create(b, warps[d], i32(layout.getWarpTileSize(d)));
    Value l = arith::MulIOp::create(b, lanes[d], i32(spt));
    base.push_back(arith::AddIOp::create(b, w, l));
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
    Value c = arith::AddIOp::create(b, base[d],
                                    i32(dist.getConstantOffset(d, local[d])));
    if (dist.wraps(d))
      c = arith::AndIOp::create(b, c, i32(extent - 1));
    coords.push_back(c);
  }
  return coords;
}

Value LoweringContext::ownerPredicate(const Distribution &dist) {
  if (dist.isScalar())
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, threadId, i32(0));
  Value pred;
  ArrayRef<Value> base = threadBase(dist);
  for (unsigned d = 0; d < dist.getRank(); ++d) {
    if (!dist.wraps(d))
      continue;
    Value inShape = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, base[d],
                                          i32(dist.getShape()[d]));
    pred = pred ? arith::AndIOp::create(b, pred, inShape) : inShape;
  }
  return pred;
}

/// The position in `block` of the op of `block` that is or holds `op`.
static int64_t positionIn(Block *block, Operation *op) {
  return int64_t(std::distance(
      block->begin(), block->findAncestorOpInBlock(*op)->getIterator()));
}

Value LoweringContext::sharedPointer(int64_t bytes, int64_t size) {
  // After the buffers live here (mbarriers live throughout). A buffer's
  // range ends at its last user; the ops that end a pipelined loop (the
  // wait for its last MMAs and copies, with a barrier) come before any
  // later op that takes scratch.
  assert(bodyPosition >= 0 && "scratch is taken while lowering the body");
  int64_t base = 0;
  for (const PlacedBuffer &buffer : placedBuffers) {
    bool live = buffer.first <= bodyPosition && bodyPosition <= buffer.last;
    // In a buffer's own block, the op's position there.
    if (buffer.block && loweredOp &&
        buffer.block->findAncestorOpInBlock(*loweredOp)) {
      int64_t position = positionIn(buffer.block, loweredOp);
      live = buffer.blockFirst <= position && position <= buffer.blockLast;
    }
    if (live)
      base = std::max(base, buffer.offset + buffer.bytes);
  }
  // 16-byte vectors (ldmatrix rows, v4 stores) after 8-byte mbarriers.
  base = llvm::alignTo(base, 128);
  sharedBytes = std::max(sharedBytes, base + bytes + size);
  return rawSharedPointer(base + bytes);
}

Value LoweringContext::tensorMapParam(const TensorMapInfo &map) {
  std::string field = formatTensorMap(map);
  unsigned params = kernel.getNumArguments();
  for (auto [index, known] : llvm::enumerate(tensorMaps))
    if (formatTensorMap(known) == field)
      return func.getArgument(params + index);
  tensorMaps.push_back(map);
  (void)func.insertArgument(func.getNumArguments(),
                            LLVM::LLVMPointerType::get(b.getContext()),
                            DictionaryAttr(), func.getLoc());
  return func.getArgument(func.getNumArguments() - 1);
}

Value LoweringContext::isFirstThread() {
  return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, threadId, i32(0));
}

Value LoweringContext::rawSharedPointer(int64_t bytes) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, ptrType, sharedSymbol);
  if (bytes == 0)
    return base;
  return LLVM::GEPOp::create(
      b, ptrType, b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(bytes)});
}

LogicalResult LoweringContext::run() {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Value tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  threadId = arith::IndexCastUIOp::create(b, b.getI32Type(), tid);
  laneId = arith::RemUIOp::create(b, threadId, i32(32));
  warpId = arith::DivUIOp::create(b, threadId, i32(32));
  prologueAnchor = LLVM::ZeroOp::create(b, b.getI32Type());
  for (auto [arg, newArg] :
       llvm::zip(kernel.getBody().getArguments(), entry.getArguments()))
    map(arg, {newArg});
  beginTurns(*this);
  placeSharedBuffers();
  // Scratch is read and written in 16-byte vectors (ldmatrix rows, v4
  // stores): after mbarriers (8 bytes each) it must be realigned.
  scratchBase = llvm::alignTo(scratchBase, 128);
  sharedBytes = scratchBase;
  Block &body = kernel.getBody().front();
  for (auto [index, op] : llvm::enumerate(body)) {
    bodyPosition = index;
    if (failed(lowerOp(&op)))
      return failure();
  }
  bodyPosition = -1;
  prologueAnchor->erase();
  if (producerBranch)
    nameBarriersAfterProducer(producerBranch, kernelThreads);
  return success();
}

void LoweringContext::placeSharedBuffers() {
  // Each buffer is live from its shared_alloc to its last user (or the last
  // reader of its shared_loads), counted in the kernel body's top-level ops
  // (or in the ops of the nested block that holds it and its users: the
  // one-stage buffers of a loop over tiles); buffers whose ranges do not
  // meet share memory (the pipelines of two loops one after the other: the
  // async_wait with its barrier after the first loop ends all reads and
  // copies of its buffers before the second loop's prologue copies into
  // the same bytes; a one-stage buffer's dot is followed by a barrier).
  Block &body = kernel.getBody().front();
  DenseMap<Operation *, int64_t> position;
  for (auto [index, op] : llvm::enumerate(body))
    position[&op] = index;
  auto topLevel = [&](Operation *op) {
    return position.lookup(body.findAncestorOpInBlock(*op));
  };
  SmallVector<PlacedBuffer> &placed = placedBuffers;
  // mbarriers first, at the bottom: they live to the end, and scratch after
  // a loop goes above them into the bytes of the loop's stages.
  SmallVector<Operation *> allocs;
  kernel.walk([&](BarrierAllocOp op) { allocs.push_back(op); });
  kernel.walk([&](SharedAllocOp op) { allocs.push_back(op); });
  for (Operation *alloc : allocs) {
    auto stages = dyn_cast<SharedAllocOp>(alloc);
    auto type = cast<MemRefType>(alloc->getResult(0).getType());
    int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
    int64_t first = topLevel(alloc), last = first;
    // wgmma stages: aligned to the largest swizzle pattern (1024 bytes),
    // so that the hardware's swizzle is the encoding's.
    int64_t align = stages && stages.getEncoding().getPanel() ? 1024 : 128;
    // The ops that keep the buffer live: its users and, since a dot reads
    // a deferred shared_load from the stage itself where the dot is, the
    // loads' readers until the dot_wait that ends their MMAs.
    SmallVector<Operation *> live;
    for (Operation *user : alloc->getUsers()) {
      live.push_back(user);
      if (isa<SharedLoadOp>(user))
        for (Operation *reader : user->getUsers()) {
          live.push_back(reader);
          for (Operation *wait : reader->getUsers())
            if (isa<DotWaitOp>(wait))
              live.push_back(wait);
        }
    }
    for (Operation *op : live)
      last = std::max(last, topLevel(op));
    PlacedBuffer buffer{first, last, 0, bytes};
    // A buffer of a nested block used only in it (a one-stage buffer in a
    // loop over tiles) is live over part of that block.
    Block *block = alloc->getBlock();
    if (stages && block != &body && llvm::all_of(live, [&](Operation *op) {
          return block->findAncestorOpInBlock(*op);
        })) {
      buffer.block = block;
      buffer.blockFirst = buffer.blockLast = positionIn(block, alloc);
      for (Operation *op : live)
        buffer.blockLast = std::max(buffer.blockLast, positionIn(block, op));
    }
    // mbarriers keep their bytes to the end: reusing an mbarrier's memory
    // for data would need an mbarrier.inval first.
    if (!stages)
      buffer.last = int64_t(body.getOperations().size());
    // The lowest 128-byte aligned offset clear of every live-overlapping
    // buffer (they are few: one per operand of a pipelined loop).
    int64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (const PlacedBuffer &other : placed)
        if (buffer.overlaps(other) && offset < other.offset + other.bytes &&
            other.offset < offset + bytes) {
          offset = llvm::alignTo(other.offset + other.bytes, align);
          moved = true;
        }
    }
    buffer.offset = offset;
    placed.push_back(buffer);
    bufferOffsets[alloc] = offset;
    scratchBase = std::max(scratchBase, offset + bytes);
  }
}

LogicalResult LoweringContext::lowerBlock(Block &block) {
  for (Operation &op : block)
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}

LogicalResult LoweringContext::lowerProducerBody(Block &body, Value thread) {
  // Thread coordinates hoisted to the kernel's top use the kernel's thread
  // index: the producer hoists its own to the top of its body.
  auto saved = std::make_tuple(threadId, laneId, warpId, prologueAnchor);
  decltype(laneCache) savedLanes, savedWarps, savedBases;
  std::swap(savedLanes, laneCache);
  std::swap(savedWarps, warpCache);
  std::swap(savedBases, baseCache);
  threadId = thread;
  laneId = arith::RemUIOp::create(b, threadId, i32(32));
  warpId = arith::DivUIOp::create(b, threadId, i32(32));
  prologueAnchor = LLVM::ZeroOp::create(b, b.getI32Type());
  LogicalResult result = lowerBlock(body);
  prologueAnchor->erase();
  std::tie(threadId, laneId, warpId, prologueAnchor) = saved;
  std::swap(savedLanes, laneCache);
  std::swap(savedWarps, warpCache);
  std::swap(savedBases, baseCache);
  return result;
}

LogicalResult LoweringContext::lowerBlockInto(Block &from, Block *to) {
  if (!to->empty() && to->back().hasTrait<OpTrait::IsTerminator>())
    to->back().erase();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(to);
  return lowerBlock(from);
}

/// A tile in a dot-operand layout holds fragment registers, which come from
/// a conversion or a stage and pass through waits, `trans` and control
/// flow; arithmetic and constants, lowered element by element over a
/// distribution, cannot make them.
static bool producesDotOperands(Operation *op) {
  return !isa<arith::ArithDialect, math::MathDialect>(op->getDialect());
}

LogicalResult LoweringContext::lowerOp(Operation *op) {
  b.setLoc(op->getLoc());
  loweredOp = op;
  for (Value result : op->getResults()) {
    if (isDotOperand(result.getType())) {
      if (!producesDotOperands(op))
        return op->emitError("'")
               << op->getName()
               << "' with a result in a dot-operand layout is not supported "
                  "by convert-tile-to-gpu (dot operands come from "
                  "convert_layout or shared_load)";
      continue;
    }
    if (failed(Distribution::get(result.getType())))
      return op->emitError("tile without a layout: run tile-coalesce before "
                           "convert-tile-to-gpu");
  }
  if (auto *lower = patterns.find(op))
    return (*lower)(op, *this);
  return op->emitError("'")
         << op->getName() << "' is not supported by convert-tile-to-gpu";
}

FailureOr<Value> LoweringContext::applyCombiner(Region &combiner, Value x,
                                                Value y) {
  Location at = b.getLoc();
  Block &body = combiner.front();
  map(body.getArgument(0), {x});
  map(body.getArgument(1), {y});
  for (Operation &op : body.without_terminator())
    if (failed(lowerOp(&op)))
      return failure();
  b.setLoc(at);
  return lookupScalar(body.getTerminator()->getOperand(0));
}

Value LoweringContext::stagePointer(Value buffer, Value stage) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t stageBytes = type.getNumElements() / type.getDimSize(0) *
                       type.getElementTypeBitWidth() / 8;
  Value base = lookupScalar(buffer);
  Value offset = arith::MulIOp::create(b, lookupScalar(stage), i32(stageBytes));
  return LLVM::GEPOp::create(b, base.getType(), b.getI8Type(), base,
                             ValueRange{offset});
}

const LowerFn *LoweringPatternSet::find(Operation *op) const {
  auto it = byName.find(op->getName().getStringRef());
  if (it == byName.end()) {
    auto dialect = byDialect.find(op->getName().getDialectNamespace());
    return dialect == byDialect.end() ? nullptr : &dialect->second;
  }
  for (const OpLowering &lowering : it->second)
    if (lowering.match(op))
      return &lowering.lower;
  return nullptr;
}

//===--- Shared-memory tiles, plain and swizzled --------------------------===//

int64_t tile::sharedElementBytes(Type type) {
  // Pointer tiles move through shared memory too (a layout conversion of
  // the addresses a 3-D transposed load reads).
  if (isa<LLVM::LLVMPointerType>(type))
    return 8;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

Value tile::linearIndex(LoweringContext &l, ArrayRef<Value> coords,
                        ArrayRef<int64_t> shape, ArrayRef<unsigned> perm) {
  ImplicitLocOpBuilder &b = l.builder();
  Value lin;
  int64_t stride = 1;
  for (unsigned j = shape.size(); j-- > 0;) {
    unsigned d = perm.empty() ? j : perm[j];
    if (shape[d] != 1) {
      Value term = stride == 1
                       ? coords[d]
                       : arith::MulIOp::create(b, coords[d], l.i32(stride));
      lin = lin ? arith::AddIOp::create(b, lin, term) : term;
    }
    stride *= shape[d];
  }
  return lin ? lin : l.i32(0);
}

/// The element `slot` of `dist` holds in a row-major buffer at `buffer`,
/// dimensions permuted by `perm`, its index i at `interleave` i + `lane`.
static Value rowMajorPointer(LoweringContext &l, const Distribution &dist,
                             unsigned slot, Value buffer, Type memType,
                             ArrayRef<unsigned> perm, int64_t interleave = 1,
                             int64_t lane = 0) {
  ImplicitLocOpBuilder &b = l.builder();
  SmallVector<Value> coords = dist.isScalar() ? SmallVector<Value>{l.i32(0)}
                                              : l.coordinates(dist, slot);
  SmallVector<int64_t> shape(dist.isScalar() ? ArrayRef<int64_t>{1}
                                             : dist.getShape());
  Value lin = linearIndex(l, coords, shape, perm);
  if (interleave != 1)
    lin = arith::MulIOp::create(b, lin, l.i32(interleave));
  if (lane != 0)
    lin = arith::AddIOp::create(b, lin, l.i32(lane));
  return LLVM::GEPOp::create(b, buffer.getType(), memType, buffer,
                             ValueRange{lin});
}

Value tile::toMemory(ImplicitLocOpBuilder &b, Value v, Type memType) {
  if (v.getType() == memType)
    return v;
  return arith::ExtUIOp::create(b, memType, v);
}

Value tile::fromMemory(ImplicitLocOpBuilder &b, Value v, Type elemType) {
  if (!elemType.isInteger(1))
    return v;
  return arith::CmpIOp::create(b, arith::CmpIPredicate::ne, v,
                               arith::ConstantIntOp::create(b, 0, 8));
}

void tile::storeShared(LoweringContext &l, const Slots &slots,
                       const Distribution &dist, int64_t base,
                       ArrayRef<unsigned> perm, int64_t interleave,
                       int64_t lane) {
  ImplicitLocOpBuilder &b = l.builder();
  Type memType = l.memoryType(slots.front().getType());
  int64_t numElements = 1;
  for (int64_t e : dist.getShape())
    numElements *= e;
  Value buffer = l.sharedPointer(base, numElements * interleave *
                                           sharedElementBytes(memType));
  Value owner = dist.isUnique() ? Value() : l.ownerPredicate(dist);
  l.emitIf(owner, [&] {
    for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
      Value ptr = rowMajorPointer(l, dist, slot, buffer, memType, perm,
                                  interleave, lane);
      LLVM::StoreOp::create(b, toMemory(b, slots[slot], memType), ptr);
    }
  });
}

Slots tile::loadShared(LoweringContext &l, const Distribution &dist,
                       Type elemType, int64_t base, int64_t interleave,
                       int64_t lane) {
  ImplicitLocOpBuilder &b = l.builder();
  Type memType = l.memoryType(elemType);
  Value buffer = l.sharedPointer(base, 0);
  Slots out;
  for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
    Value ptr =
        rowMajorPointer(l, dist, slot, buffer, memType, {}, interleave, lane);
    out.push_back(
        fromMemory(b, LLVM::LoadOp::create(b, memType, ptr), elemType));
  }
  return out;
}

/// Element offset (i32) of (row, col) of the stored matrix of `tile`.
static Value storedOffset(LoweringContext &l, const SwizzledTile &tile,
                          Value row, Value col) {
  ImplicitLocOpBuilder &b = l.builder();
  auto div = [&](Value x, int64_t d) -> Value {
    return arith::DivUIOp::create(b, x, l.i32(d));
  };
  auto rem = [&](Value x, int64_t d) -> Value {
    return arith::RemUIOp::create(b, x, l.i32(d));
  };
  auto mul = [&](Value x, int64_t c) -> Value {
    return arith::MulIOp::create(b, x, l.i32(c));
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, x, y);
  };
  Value phase = rem(div(row, tile.perPhase), tile.maxPhase);
  int64_t width = tile.panel ? tile.panel : tile.cols;
  Value panelStart;
  if (tile.panel && tile.panel < tile.cols) {
    panelStart = mul(div(col, width), tile.rows * width);
    col = rem(col, width);
  }
  Value swizzled = arith::XOrIOp::create(b, div(col, tile.vec), phase);
  Value offset =
      add(mul(row, width), add(mul(swizzled, tile.vec), rem(col, tile.vec)));
  return panelStart ? add(panelStart, offset) : offset;
}

Value tile::swizzledOffset(LoweringContext &l, const SwizzledTile &tile,
                           Value row, Value col) {
  if (tile.transposed)
    std::swap(row, col);
  return storedOffset(l, tile, row, col);
}

Value tile::swizzledPointer(LoweringContext &l, const SwizzledTile &tile,
                            Value buffer, Type elemType, Value row,
                            int64_t rowDelta, Value col, int64_t colDelta,
                            SwizzleAnchors &anchors) {
  ImplicitLocOpBuilder &b = l.builder();
  // Anchors and deltas in stored rows and columns.
  if (tile.transposed) {
    std::swap(row, col);
    std::swap(rowDelta, colDelta);
  }
  // Stored in panels, whole panels of columns keep the offset inside one.
  int64_t width = tile.panel ? tile.panel : tile.cols;
  int64_t ra = rowDelta % (tile.perPhase * tile.maxPhase);
  int64_t ca = colDelta % (tile.panel ? width : tile.vec * tile.maxPhase);
  Value &anchor = anchors[{buffer, row, col, ra, ca}];
  if (!anchor) {
    auto plus = [&](Value x, int64_t c) -> Value {
      return c == 0 ? x : arith::AddIOp::create(b, x, l.i32(c));
    };
    anchor = LLVM::GEPOp::create(
        b, buffer.getType(), elemType, buffer,
        ValueRange{storedOffset(l, tile, plus(row, ra), plus(col, ca))});
  }
  int64_t rest = (rowDelta - ra) * width +
                 (tile.panel ? (colDelta - ca) / width * tile.rows * width
                             : colDelta - ca);
  if (rest == 0)
    return anchor;
  return LLVM::GEPOp::create(b, buffer.getType(), elemType, anchor,
                             ArrayRef<LLVM::GEPArg>{int32_t(rest)});
}

Value tile::slotPointer(LoweringContext &l, const Distribution &dist,
                        unsigned slot, const SwizzledTile &tile, Value buffer,
                        Type elemType, SwizzleAnchors *anchors) {
  if (anchors && !dist.wraps(0) && !dist.wraps(1)) {
    ArrayRef<Value> base = l.threadBase(dist);
    SmallVector<int64_t> local = dist.getLocalIndex(slot);
    return swizzledPointer(l, tile, buffer, elemType, base[0],
                           dist.getConstantOffset(0, local[0]), base[1],
                           dist.getConstantOffset(1, local[1]), *anchors);
  }
  SmallVector<Value> coords = l.coordinates(dist, slot);
  return LLVM::GEPOp::create(
      l.builder(), buffer.getType(), elemType, buffer,
      ValueRange{swizzledOffset(l, tile, coords[0], coords[1])});
}

void tile::storeSwizzled(LoweringContext &l, const Slots &slots,
                         const Distribution &dist, const SwizzledTile &tile,
                         Value buffer) {
  ImplicitLocOpBuilder &b = l.builder();
  Type elemType = slots.front().getType();
  // A run of the thread's consecutive elements inside one chunk moves as
  // one vector.
  int64_t group = tile.runLength(dist);
  Value owner = dist.isUnique() ? Value() : l.ownerPredicate(dist);
  l.emitIf(owner, [&] {
    for (unsigned slot = 0; slot < dist.getNumSlots(); slot += group) {
      Value ptr = slotPointer(l, dist, slot, tile, buffer, elemType);
      Value v = slots[slot];
      if (group > 1) {
        auto vecType = VectorType::get({group}, elemType);
        v = vector::FromElementsOp::create(
            b, vecType,
            ArrayRef<Value>(slots.begin() + slot,
                            slots.begin() + slot + group));
      }
      LLVM::StoreOp::create(b, v, ptr, group * tile.elemBytes);
    }
  });
}

Slots tile::loadSwizzled(LoweringContext &l, const Distribution &dist,
                         Type elemType, const SwizzledTile &tile,
                         Value buffer) {
  ImplicitLocOpBuilder &b = l.builder();
  int64_t group = tile.runLength(dist);
  Slots out(dist.getNumSlots());
  for (unsigned slot = 0; slot < dist.getNumSlots(); slot += group) {
    Value ptr = slotPointer(l, dist, slot, tile, buffer, elemType);
    if (group == 1) {
      out[slot] = LLVM::LoadOp::create(b, elemType, ptr);
      continue;
    }
    Value v = LLVM::LoadOp::create(b, VectorType::get({group}, elemType), ptr,
                                   group * tile.elemBytes);
    for (int64_t e = 0; e < group; ++e)
      out[slot + e] = vector::ExtractOp::create(b, v, e);
  }
  return out;
}
