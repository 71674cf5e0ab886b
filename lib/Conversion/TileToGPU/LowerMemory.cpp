//===- LowerMemory.cpp - global loads and stores, the cp.async pipeline
//
// A thread's slots along the layout's fastest dimension are consecutive
// elements; when the axis analysis proves that `vec` of them are contiguous
// and aligned in memory they move as one `vec`-element access. When the mask
// is constant over such a group (e.g. `offs < n` with n divisible by 16) one
// predicate guards the access; otherwise the group moves as a vector when all
// of its elements are enabled and element by element at the edge.
//
// The buffers of tile-promote-shared: async_copy moves 16-byte chunks with
// cp.async into a swizzled stage (zero-filled where masked); a shared_load
// that feeds a dot is left to the dot, which reads the stage itself.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tile;

/// Largest power of two not above `n` (n >= 1).
static int64_t floorPowerOfTwo(int64_t n) {
  int64_t p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}

static std::pair<unsigned, bool> vectorWidth(LoweringContext &l, Value ptr,
                                             Value mask,
                                             const Distribution &dist,
                                             Type elemType) {
  if (dist.isScalar() || dist.getSlicedDim() || elemType.isInteger(1) ||
      isa<PointerType>(elemType))
    return {1, true};
  unsigned fastest = dist.getLayout().getOrder()[0];
  int64_t elemBytes =
      std::max<int64_t>(1, elemType.getIntOrFloatBitWidth() / 8);
  AxisInfo ptrInfo = l.getAxisInfo().get(ptr);
  int64_t vec = std::min<int64_t>(
      {dist.getLayout().getSizePerThread()[fastest], dist.getExtent(fastest),
       ptrInfo.getContiguity(fastest),
       std::max<int64_t>(1, ptrInfo.getDivisibility(fastest) / elemBytes),
       16 / elemBytes});
  vec = floorPowerOfTwo(std::max<int64_t>(1, vec));
  bool uniform =
      !mask || l.getAxisInfo().get(mask).getConstancy(fastest) >= vec;
  return {static_cast<unsigned>(vec), uniform};
}

/// The first slots of `dist`'s groups of `vec` slots, in the order a store
/// moves them: slot order, except where memory runs along another
/// dimension than the layout's fastest (an accumulator stored as its
/// transpose): then that dimension varies fastest, so that the accesses of
/// one row follow each other and its row address dies after them instead of
/// living across the whole tile (v43: 64 row addresses of a 256x128 f32
/// epilogue made ptxas spill).
static SmallVector<unsigned> groupOrder(LoweringContext &l, Value ptr,
                                        const Distribution &dist,
                                        unsigned vec) {
  SmallVector<unsigned> firsts;
  for (unsigned first = 0; first < dist.getNumSlots(); first += vec)
    firsts.push_back(first);
  if (vec != 1 || dist.isScalar() || dist.getSlicedDim())
    return firsts;
  ArrayRef<unsigned> order = dist.getLayout().getOrder();
  AxisInfo info = l.getAxisInfo().get(ptr);
  unsigned along = order[0];
  for (unsigned dim : order.drop_front())
    if (info.getContiguity(dim) > info.getContiguity(along) &&
        dist.getExtent(dim) > 1)
      along = dim;
  if (along == order[0])
    return firsts;
  // Local indices with `along` fastest, then the layout's order.
  SmallVector<unsigned> dims = {along};
  for (unsigned dim : order)
    if (dim != along)
      dims.push_back(dim);
  SmallVector<int64_t> local(dist.getRank(), 0);
  for (unsigned i = 0; i < firsts.size(); ++i) {
    firsts[i] = dist.getSlot(local);
    for (unsigned dim : dims) {
      if (++local[dim] < dist.getExtent(dim))
        break;
      local[dim] = 0;
    }
  }
  return firsts;
}

static Value groupMask(LoweringContext &l, const Slots &masks, unsigned first,
                       unsigned vec, bool uniform) {
  ImplicitLocOpBuilder &b = l.builder();
  Value pred = masks[first];
  if (!uniform)
    for (unsigned i = 1; i < vec; ++i)
      pred = arith::AndIOp::create(b, pred, masks[first + i]);
  return pred;
}

/// Bytes of one element of `memType` in global memory.
static int64_t elementBytes(Type memType) {
  return memType.isIntOrFloat()
             ? std::max(1u, memType.getIntOrFloatBitWidth() / 8)
             : 8;
}

/// Builds a `vec`-element vector (or the scalar when vec is 1).
static Value packVector(ImplicitLocOpBuilder &b, ArrayRef<Value> elems,
                        Type memType) {
  if (elems.size() == 1)
    return elems[0];
  auto type = VectorType::get({static_cast<int64_t>(elems.size())}, memType);
  return vector::FromElementsOp::create(b, type, elems);
}

/// Yields from `block` the value `build` makes there.
static void yieldFrom(ImplicitLocOpBuilder &b, Block *block,
                      function_ref<Value()> build) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  scf::YieldOp::create(b, build());
}

static LogicalResult lowerLoad(LoadOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto dist = *Distribution::get(op.getType());
  Type elemType = getElementTypeOrSelf(op.getType());
  Type memType = l.memoryType(elemType);
  // Plain values, not structured bindings: lambdas capture them.
  unsigned vec;
  bool uniform;
  std::tie(vec, uniform) =
      vectorWidth(l, op.getPtr(), op.getMask(), dist, elemType);
  const Slots &ptrs = l.lookup(op.getPtr());
  const Slots *masks = op.getMask() ? &l.lookup(op.getMask()) : nullptr;
  const Slots *others = op.getOther() ? &l.lookup(op.getOther()) : nullptr;
  int64_t elemBytes = elementBytes(memType);
  Type accessType = vec == 1 ? memType : VectorType::get({vec}, memType);
  // The value a masked-off element takes: `other`, or zero.
  auto fallback = [&](unsigned slot) -> Value {
    if (others)
      return toMemory(b, (*others)[others->size() == 1 ? 0 : slot], memType);
    return LLVM::ZeroOp::create(b, memType);
  };
  auto scalarLoad = [&](unsigned slot) -> Value {
    if (!masks)
      return LLVM::LoadOp::create(b, memType, ptrs[slot], elemBytes);
    auto ifOp = scf::IfOp::create(b, memType, (*masks)[slot],
                                  /*addThenBlock=*/true, /*addElseBlock=*/true);
    yieldFrom(b, ifOp.thenBlock(), [&]() -> Value {
      return LLVM::LoadOp::create(b, memType, ptrs[slot], elemBytes);
    });
    yieldFrom(b, ifOp.elseBlock(), [&] { return fallback(slot); });
    return ifOp.getResult(0);
  };
  Slots out;
  for (unsigned first = 0; first < dist.getNumSlots(); first += vec) {
    Value loaded;
    if (vec == 1) {
      loaded = scalarLoad(first);
    } else {
      auto vectorLoad = [&]() -> Value {
        return LLVM::LoadOp::create(b, accessType, ptrs[first],
                                    vec * elemBytes);
      };
      if (!masks) {
        loaded = vectorLoad();
      } else {
        auto ifOp = scf::IfOp::create(
            b, accessType, groupMask(l, *masks, first, vec, uniform),
            /*addThenBlock=*/true, /*addElseBlock=*/true);
        yieldFrom(b, ifOp.thenBlock(), vectorLoad);
        yieldFrom(b, ifOp.elseBlock(), [&] {
          SmallVector<Value> elems;
          for (unsigned i = 0; i < vec; ++i)
            elems.push_back(uniform ? fallback(first + i)
                                    : scalarLoad(first + i));
          return packVector(b, elems, memType);
        });
        loaded = ifOp.getResult(0);
      }
    }
    for (unsigned i = 0; i < vec; ++i) {
      Value elem = vec == 1 ? loaded
                            : Value(vector::ExtractOp::create(
                                  b, loaded, ArrayRef<int64_t>{i}));
      out.push_back(fromMemory(b, elem, elemType));
    }
  }
  l.map(op, out);
  return success();
}

static LogicalResult lowerStore(StoreOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto dist = *Distribution::get(op.getPtr().getType());
  Type elemType = getElementTypeOrSelf(op.getValue().getType());
  Type memType = l.memoryType(elemType);
  // Plain values, not structured bindings: lambdas capture them.
  unsigned vec;
  bool uniform;
  std::tie(vec, uniform) =
      vectorWidth(l, op.getPtr(), op.getMask(), dist, elemType);
  const Slots &ptrs = l.lookup(op.getPtr());
  const Slots &vals = l.lookup(op.getValue());
  const Slots *masks = op.getMask() ? &l.lookup(op.getMask()) : nullptr;
  int64_t elemBytes = elementBytes(memType);
  auto valueAt = [&](unsigned slot) {
    return toMemory(b, vals[vals.size() == 1 ? 0 : slot], memType);
  };
  // Where several threads hold an element, only its owner stores it.
  Value owner = dist.isUnique() ? Value() : l.ownerPredicate(dist);
  auto both = [&](Value a, Value c) -> Value {
    if (!a)
      return c;
    return c ? Value(arith::AndIOp::create(b, a, c)) : a;
  };
  for (unsigned first : groupOrder(l, op.getPtr(), dist, vec)) {
    Value pred = both(owner, masks ? groupMask(l, *masks, first, vec, uniform)
                                   : Value());
    auto vectorStore = [&] {
      SmallVector<Value> elems;
      for (unsigned i = 0; i < vec; ++i)
        elems.push_back(valueAt(first + i));
      LLVM::StoreOp::create(b, packVector(b, elems, memType), ptrs[first],
                            vec * elemBytes);
    };
    if (uniform) {
      l.emitIf(pred, vectorStore);
      continue;
    }
    // Whole group enabled: one vector store; else each enabled element.
    auto ifOp = scf::IfOp::create(b, pred, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      vectorStore();
      b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      for (unsigned i = 0; i < vec; ++i)
        l.emitIf(both(owner, (*masks)[first + i]), [&] {
          LLVM::StoreOp::create(b, valueAt(first + i), ptrs[first + i],
                                elemBytes);
        });
    }
  }
  return success();
}

/// An async_copy of `vec`-element groups narrower than 4 bytes (one or two
/// 8-bit or one 16-bit element: cp.async moves at least 4), done
/// synchronously: every group loaded first (zero where masked off), so that
/// the loads are in flight together, then stored a run of the thread's
/// consecutive elements at a time (tile-coalesce gives such copies runs
/// along the stored rows: f16 rows of odd length, 4095³ x @ W.T, 45 -> 175
/// TFLOP/s, bench/NOTES.md v47).
static void copySynchronously(LoweringContext &l, AsyncCopyOp op,
                              const Distribution &dist,
                              const SwizzledTile &tile, Value buffer,
                              Type elemType, unsigned vec, Value owner) {
  ImplicitLocOpBuilder &b = l.builder();
  const Slots &ptrs = l.lookup(op.getPtr());
  const Slots &masks = l.lookup(op.getMask());
  Type groupType =
      vec == 1 ? elemType : VectorType::get({int64_t(vec)}, elemType);
  int64_t run = std::max<int64_t>(vec, tile.runLength(dist));
  SwizzleAnchors anchors;
  l.emitIf(owner, [&] {
    Slots values(dist.getNumSlots());
    for (unsigned slot = 0; slot < dist.getNumSlots(); slot += vec) {
      Value mask = masks.size() == 1 ? masks[0] : masks[slot];
      auto ifOp = scf::IfOp::create(b, groupType, mask, /*addThenBlock=*/true,
                                    /*addElseBlock=*/true);
      Value source = ptrs[slot];
      yieldFrom(b, ifOp.thenBlock(), [&]() -> Value {
        return LLVM::LoadOp::create(b, groupType, source, vec * tile.elemBytes);
      });
      yieldFrom(b, ifOp.elseBlock(), [&]() -> Value {
        return arith::ConstantOp::create(b, b.getZeroAttr(groupType));
      });
      for (unsigned e = 0; e < vec; ++e)
        values[slot + e] =
            vec == 1
                ? ifOp.getResult(0)
                : Value(vector::ExtractOp::create(b, ifOp.getResult(0), e));
    }
    for (unsigned slot = 0; slot < dist.getNumSlots(); slot += run) {
      Value dst = slotPointer(l, dist, slot, tile, buffer, elemType, &anchors);
      ArrayRef<Value> elems(values.begin() + slot, values.begin() + slot + run);
      LLVM::StoreOp::create(b, packVector(b, elems, elemType), dst,
                            run * tile.elemBytes);
    }
  });
}

static LogicalResult lowerAsyncCopy(AsyncCopyOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto dist = Distribution::get(op.getPtr().getType());
  if (failed(dist) || dist->isScalar() || dist->getSlicedDim() ||
      dist->getRank() != 2)
    return op.emitError("async_copy needs a 2-D blocked tile of pointers");
  // 8-bit floats are copied as their bits.
  Type elemType = l.memoryType(op.getBuffer().getType().getElementType());
  SwizzledTile tile = SwizzledTile::forBuffer(op.getBuffer());
  Value buffer = l.stagePointer(op.getBuffer(), op.getStage());
  // Plain values, not structured bindings: lambdas capture them.
  unsigned vec;
  bool uniform;
  std::tie(vec, uniform) =
      vectorWidth(l, op.getPtr(), op.getMask(), *dist, elemType);
  // Groups run along the stored rows and inside one chunk.
  if (dist->getLayout().getOrder()[0] != tile.contiguousDim() || !uniform)
    vec = 1;
  vec = std::min<unsigned>(vec, tile.accessElems());
  int64_t bytes = vec * tile.elemBytes;
  Value owner = dist->isUnique() ? Value() : l.ownerPredicate(*dist);
  if (bytes < 4) {
    copySynchronously(l, op, *dist, tile, buffer, elemType, vec, owner);
    return success();
  }
  const Slots &ptrs = l.lookup(op.getPtr());
  const Slots &masks = l.lookup(op.getMask());
  // Element copies (one cp.async per element) take their addresses from a
  // few anchors (slotPointer): one address per copy
  // kept 32 64-bit addresses live through a tf32 loop copying 4-byte
  // elements into a K-major stage, which spilled (bench/NOTES.md v42).
  // Anchors for the 16-byte copies of FMA dots' stages moved ptxas to
  // spill elsewhere, so those keep an address each.
  SwizzleAnchors anchors;
  l.emitIf(owner, [&] {
    for (unsigned slot = 0; slot < dist->getNumSlots(); slot += vec) {
      Value dst = slotPointer(l, *dist, slot, tile, buffer, elemType,
                              vec == 1 ? &anchors : nullptr);
      Value mask = masks.size() == 1 ? masks[0] : masks[slot];
      // Masked-off copies read nothing and fill zeros (src-size 0).
      Value srcBytes = arith::SelectOp::create(b, mask, l.i32(bytes), l.i32(0));
      NVVM::CpAsyncOp::create(b, dst, ptrs[slot], bytes,
                              bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                          : NVVM::LoadCacheModifierKind::CA,
                              srcBytes);
    }
  });
  return success();
}

/// A shared_load whose only user is a dot in the same block (not as the
/// accumulator): the dot reads the stage itself.
static bool feedsDot(SharedLoadOp op) {
  auto dot = op->hasOneUse() ? dyn_cast<DotOp>(*op->user_begin()) : DotOp();
  return dot && dot->getBlock() == op->getBlock() &&
         dot.getAcc() != op.getResult();
}

static LogicalResult deferSharedLoad(SharedLoadOp op, LoweringContext &l) {
  l.deferOperand(op.getResult(),
                 {l.stagePointer(op.getBuffer(), op.getStage()),
                  SwizzledTile::forLoad(op)});
  return success();
}

/// A shared_load into a blocked layout (an FMA dot's operand).
static LogicalResult lowerSharedLoad(SharedLoadOp op, LoweringContext &l) {
  Value stage = l.stagePointer(op.getBuffer(), op.getStage());
  auto dist = *Distribution::get(op.getType());
  l.map(op, loadSwizzled(l, dist, op.getType().getElementType(),
                         SwizzledTile::forLoad(op), stage));
  return success();
}

/// Writes a register tile into a stage: a thread's consecutive elements
/// along the stored rows (inside one chunk) as one vector, gathered from
/// its slots in whatever order its layout keeps them.
static LogicalResult lowerSharedStore(SharedStoreOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  // The verifier admits only 2-D blocked tiles.
  Distribution dist = *Distribution::get(op.getValue().getType());
  SwizzledTile tile = SwizzledTile::forBuffer(op.getBuffer());
  Value buffer = l.stagePointer(op.getBuffer(), op.getStage());
  const Slots &slots = l.lookup(op.getValue());
  Type elemType = slots.front().getType();
  unsigned dim = tile.contiguousDim();
  int64_t run = std::min<int64_t>({dist.getLayout().getSizePerThread()[dim],
                                   dist.getExtent(dim), tile.accessElems()});
  SwizzleAnchors anchors;
  Value owner = dist.isUnique() ? Value() : l.ownerPredicate(dist);
  l.emitIf(owner, [&] {
    for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
      SmallVector<int64_t> local = dist.getLocalIndex(slot);
      if (local[dim] % run != 0)
        continue;
      SmallVector<Value> elems;
      for (int64_t e = 0; e < run; ++e) {
        SmallVector<int64_t> at(local);
        at[dim] += e;
        elems.push_back(slots[dist.getSlot(at)]);
      }
      Value ptr = slotPointer(l, dist, slot, tile, buffer, elemType, &anchors);
      Value v = run == 1 ? elems.front()
                         : Value(vector::FromElementsOp::create(
                               b, VectorType::get({run}, elemType), elems));
      LLVM::StoreOp::create(b, v, ptr, run * tile.elemBytes);
    }
  });
  return success();
}

static LogicalResult lowerSharedAlloc(SharedAllocOp op, LoweringContext &l) {
  l.map(op, {l.rawSharedPointer(l.bufferOffset(op))});
  return success();
}

static LogicalResult lowerAsyncCommit(AsyncCommitOp op, LoweringContext &l) {
  NVVM::CpAsyncCommitGroupOp::create(l.builder());
  return success();
}

static LogicalResult lowerAsyncWait(AsyncWaitOp op, LoweringContext &l) {
  // In a kernel whose stages the TMA fills there is no cp.async to wait
  // for: only the barrier remains.
  bool asyncCopies = false, storedStages = false, wgmmaStages = false;
  op->getParentOfType<KernelOp>().walk([&](Operation *inner) {
    asyncCopies |= isa<AsyncCopyOp>(inner);
    storedStages |= isa<SharedStoreOp>(inner);
    if (auto alloc = dyn_cast<SharedAllocOp>(inner))
      wgmmaStages |= alloc.getEncoding().getPanel() != 0;
  });
  if (asyncCopies)
    NVVM::CpAsyncWaitGroupOp::create(l.builder(), op.getPending());
  // cp.async and st.shared write through the generic proxy, wgmma reads
  // through the async one: each thread fences its writes before the
  // barrier.
  if (wgmmaStages && (asyncCopies || storedStages))
    l.fenceSharedForAsyncProxy();
  gpu::BarrierOp::create(l.builder());
  return success();
}

/// LLVM's ordering for an atomic's `sem`.
static LLVM::AtomicOrdering atomicOrdering(MemSemantic sem) {
  switch (sem) {
  case MemSemantic::relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemSemantic::acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemSemantic::release:
    return LLVM::AtomicOrdering::release;
  case MemSemantic::acq_rel:
    break;
  }
  return LLVM::AtomicOrdering::acq_rel;
}

/// NVPTX's sync scope for an atomic's `scope`.
static StringRef syncScope(MemScope scope) {
  return scope == MemScope::gpu   ? "device"
         : scope == MemScope::cta ? "block"
                                  : "";
}

static LLVM::AtomicBinOp atomicBinOp(AtomicKind kind, Type elemType) {
  bool isFloat = isa<FloatType>(elemType);
  switch (kind) {
  case AtomicKind::add:
    return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case AtomicKind::max:
    return isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
  case AtomicKind::min:
    return isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
  case AtomicKind::umax:
    return LLVM::AtomicBinOp::umax;
  case AtomicKind::umin:
    return LLVM::AtomicBinOp::umin;
  case AtomicKind::xchg:
    return LLVM::AtomicBinOp::xchg;
  case AtomicKind::And:
    return LLVM::AtomicBinOp::_and;
  case AtomicKind::Or:
    return LLVM::AtomicBinOp::_or;
  case AtomicKind::Xor:
    return LLVM::AtomicBinOp::_xor;
  }
  llvm_unreachable("unknown atomic kind");
}

/// Atomics update each element once: in its owner thread, where the mask
/// holds (masked-off elements give 0). Where other threads hold the same
/// element and the old values are used, the owners pass them on through
/// shared memory.
static LogicalResult lowerAtomic(Operation *op, LoweringContext &l,
                                 function_ref<Value(unsigned slot)> update) {
  ImplicitLocOpBuilder &b = l.builder();
  Value result = op->getResult(0);
  auto dist = *Distribution::get(result.getType());
  Type elemType = getElementTypeOrSelf(result.getType());
  Value owner = dist.isUnique() ? Value() : l.ownerPredicate(dist);
  Value maskValue;
  if (auto rmw = dyn_cast<AtomicRMWOp>(op))
    maskValue = rmw.getMask();
  const Slots *masks = maskValue ? &l.lookup(maskValue) : nullptr;
  Slots olds;
  for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
    Value pred = owner;
    if (masks)
      pred = pred ? arith::AndIOp::create(b, pred, (*masks)[slot])
                  : (*masks)[slot];
    if (!pred) {
      olds.push_back(update(slot));
      continue;
    }
    auto ifOp = scf::IfOp::create(b, elemType, pred, /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
    yieldFrom(b, ifOp.thenBlock(), [&] { return update(slot); });
    yieldFrom(b, ifOp.elseBlock(), [&]() -> Value {
      return arith::ConstantOp::create(b, b.getZeroAttr(elemType));
    });
    olds.push_back(ifOp.getResult(0));
  }
  if (owner && !result.use_empty()) {
    storeShared(l, olds, dist, 0);
    gpu::BarrierOp::create(b);
    olds = loadShared(l, dist, elemType, 0);
    gpu::BarrierOp::create(b);
  }
  l.map(result, olds);
  return success();
}

/// NVPTX (LLVM 22) emits every atomicrmw as a relaxed gpu-scope `atom`,
/// whatever its ordering: the ordering comes from fences around the op's
/// atomics (a release fence before them, an acquire fence after), the
/// fence-based mapping of the PTX memory model. A `sys` scope is refused
/// by the frontend for these.
static LogicalResult lowerAtomicRMW(AtomicRMWOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  StringRef scope = syncScope(op.getScope());
  bool release = op.getSem() == MemSemantic::release ||
                 op.getSem() == MemSemantic::acq_rel;
  bool acquire = op.getSem() == MemSemantic::acquire ||
                 op.getSem() == MemSemantic::acq_rel;
  const Slots &ptrs = l.lookup(op.getPtr());
  const Slots &vals = l.lookup(op.getValue());
  LLVM::AtomicBinOp binOp =
      atomicBinOp(op.getKind(), getElementTypeOrSelf(op.getType()));
  if (release)
    LLVM::FenceOp::create(b, LLVM::AtomicOrdering::release, scope);
  LogicalResult result = lowerAtomic(op, l, [&](unsigned slot) -> Value {
    return LLVM::AtomicRMWOp::create(b, binOp, ptrs[slot], vals[slot],
                                     LLVM::AtomicOrdering::monotonic, scope);
  });
  if (acquire)
    LLVM::FenceOp::create(b, LLVM::AtomicOrdering::acquire, scope);
  return result;
}

static LogicalResult lowerAtomicCAS(AtomicCASOp op, LoweringContext &l) {
  LLVM::AtomicOrdering ordering = atomicOrdering(op.getSem());
  StringRef scope = syncScope(op.getScope());
  // A failed compare-and-swap only reads.
  LLVM::AtomicOrdering failure =
      ordering == LLVM::AtomicOrdering::acq_rel ||
              ordering == LLVM::AtomicOrdering::acquire
          ? LLVM::AtomicOrdering::acquire
          : LLVM::AtomicOrdering::monotonic;
  const Slots &ptrs = l.lookup(op.getPtr());
  const Slots &cmps = l.lookup(op.getCmp());
  const Slots &vals = l.lookup(op.getValue());
  return lowerAtomic(op, l, [&](unsigned slot) -> Value {
    ImplicitLocOpBuilder &b = l.builder();
    auto cas = LLVM::AtomicCmpXchgOp::create(
        b, ptrs[slot], cmps[slot], vals[slot], ordering, failure, scope);
    return LLVM::ExtractValueOp::create(b, cas, ArrayRef<int64_t>{0});
  });
}

//===----------------------------------------------------------------------===//
// Debugging: print and device_assert
//===----------------------------------------------------------------------===//

/// This program's pid (x, y, z), i32.
static SmallVector<Value> programIds(LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  SmallVector<Value> pids;
  for (gpu::Dimension d :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    pids.push_back(arith::IndexCastUIOp::create(b, b.getI32Type(),
                                                gpu::BlockIdOp::create(b, d)));
  return pids;
}

/// One line per element (see the op): vprintf through gpu.printf, from the
/// element's owner thread.
static LogicalResult lowerPrint(PrintOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  Type type = op.getValue().getType();
  FailureOr<Distribution> dist = Distribution::get(type);
  if (failed(dist))
    return op.emitError("print of a tile in this layout is not supported");
  Type elem = getElementTypeOrSelf(type);
  std::string format = "pid (%d, %d, %d)";
  unsigned rank = dist->isScalar() ? 0 : dist->getRank();
  if (rank) {
    format += " idx (";
    for (unsigned d = 0; d < rank; ++d)
      format += d ? ", %d" : "%d";
    format += ")";
  }
  format += " ";
  for (char c : op.getPrefix())
    format += c == '%' ? std::string("%%") : std::string(1, c);
  bool isUnsigned = op.getIsUnsigned();
  format += isa<FloatType>(elem) ? (elem.isF64() ? "%.17g" : "%.9g")
            : elem.isInteger(64) ? (isUnsigned ? "%llu" : "%lld")
                                 : (isUnsigned ? "%u" : "%d");
  format += "\n";
  SmallVector<Value> pids = programIds(l);
  const Slots &values = l.lookup(op.getValue());
  Value owner = dist->isUnique() ? Value() : l.ownerPredicate(*dist);
  for (unsigned slot = 0; slot < values.size(); ++slot) {
    SmallVector<Value> args(pids);
    if (rank)
      llvm::append_range(args, l.coordinates(*dist, slot));
    Value v = values[slot];
    if (isa<FloatType>(elem) && !elem.isF64())
      v = arith::ExtFOp::create(b, b.getF64Type(), v);
    else if (elem.isInteger(1))
      v = arith::ExtUIOp::create(b, b.getI32Type(), v);
    else if ((elem.isInteger(8) || elem.isInteger(16)) && isUnsigned)
      v = arith::ExtUIOp::create(b, b.getI32Type(), v);
    else if (elem.isInteger(8) || elem.isInteger(16))
      v = arith::ExtSIOp::create(b, b.getI32Type(), v);
    args.push_back(v);
    l.emitIf(owner,
             [&] { gpu::PrintfOp::create(b, b.getStringAttr(format), args); });
  }
  return success();
}

/// A pointer to a NUL-terminated constant copy of `text` in the gpu.module
/// (one global per distinct text).
static Value globalString(LoweringContext &l, StringRef prefix,
                          StringRef text) {
  ImplicitLocOpBuilder &b = l.builder();
  auto module = l.getFunc()->getParentOfType<gpu::GPUModuleOp>();
  std::string value = (text + Twine('\0')).str();
  auto arrayType = LLVM::LLVMArrayType::get(b.getIntegerType(8), value.size());
  std::string name;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    auto known = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
    if (global.getSymName().starts_with(prefix) && known &&
        known.getValue() == value) {
      name = global.getSymName().str();
      break;
    }
  }
  SymbolTable symbols(module);
  for (unsigned i = 0; name.empty(); ++i) {
    std::string candidate = (prefix + Twine(i)).str();
    if (symbols.lookup(candidate))
      continue;
    name = candidate;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           b.getStringAttr(value));
  }
  return LLVM::AddressOfOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext()), name);
}

/// Where an element of the condition is false, its owner thread calls
/// __assertfail(message, file, line, function, 1), CUDA's device-side assert.
static LogicalResult lowerDeviceAssert(DeviceAssertOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  FailureOr<Distribution> dist = Distribution::get(op.getCond().getType());
  if (failed(dist))
    return op.emitError(
        "device_assert of a tile in this layout is not supported");
  auto module = l.getFunc()->getParentOfType<gpu::GPUModuleOp>();
  if (SymbolTable::lookupSymbolIn(module, "__assertfail") == l.getFunc())
    return op.emitError("device_assert cannot be used in a kernel named "
                        "__assertfail (CUDA's device-side assert function)");
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  FailureOr<LLVM::LLVMFuncOp> assertFail =
      LLVM::lookupOrCreateFn(b, module, "__assertfail",
                             {ptr, ptr, b.getI32Type(), ptr, b.getI64Type()},
                             LLVM::LLVMVoidType::get(b.getContext()));
  if (failed(assertFail))
    return failure();
  StringRef file = "<unknown>";
  int64_t line = 0;
  op.getLoc()->walk([&](Location loc) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
      file = fileLoc.getFilename();
      line = fileLoc.getLine();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  Value message = globalString(l, "__tile_assert_message_", op.getMessage());
  Value fileName = globalString(l, "__tile_assert_file_", file);
  Value function =
      globalString(l, "__tile_assert_function_", l.getKernel().getSymName());
  const Slots &conds = l.lookup(op.getCond());
  Value owner = dist->isUnique() ? Value() : l.ownerPredicate(*dist);
  Value yes = arith::ConstantIntOp::create(b, 1, 1);
  for (Value cond : conds) {
    Value failed = arith::XOrIOp::create(b, cond, yes);
    if (owner)
      failed = arith::AndIOp::create(b, owner, failed);
    l.emitIf(failed, [&] {
      LLVM::CallOp::create(b, *assertFail,
                           ValueRange{message, fileName, l.i32(line), function,
                                      arith::ConstantIntOp::create(b, 1, 64)});
    });
  }
  return success();
}

void tile::populateMemoryLowerings(LoweringPatternSet &patterns) {
  patterns.add(lowerLoad);
  patterns.add(lowerStore);
  patterns.add(lowerAtomicRMW);
  patterns.add(lowerAtomicCAS);
  patterns.add(lowerSharedAlloc);
  patterns.add(lowerAsyncCopy);
  patterns.add(lowerSharedStore);
  patterns.add(lowerAsyncCommit);
  patterns.add(lowerAsyncWait);
  patterns.add(lowerPrint);
  patterns.add(lowerDeviceAssert);
  patterns.add(deferSharedLoad, /*benefit=*/2, feedsDot);
  patterns.add(
      lowerSharedLoad, /*benefit=*/1,
      +[](SharedLoadOp op) { return !isDotOperand(op.getType()); });
}
