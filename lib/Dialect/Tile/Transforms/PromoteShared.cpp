//===- PromoteShared.cpp - stage dot operands through shared memory -------===//
//
// A `dot` operand loaded from global memory inside a K loop and converted to
// a dot-operand layout is instead copied straight into a multi-stage shared
// buffer with `async_copy` (cp.async), `num-stages - 1` iterations ahead of
// its use, and read into fragments with `shared_load` (ldmatrix):
//
//   prologue:   copy iterations 0 .. S-2 into stages 0 .. S-2, one commit each
//   iteration i: async_wait(S-2) + barrier   -- iteration i's copies landed,
//                                              every warp left stage (i-1)%S
//                shared_load stage i%S
//                copy iteration i+S-1 into stage (i+S-1)%S, commit
//   after:      async_wait(0)
//
// Copies for iterations past the end are masked off (they read nothing). A
// load qualifies when its pointers and mask are computed in the loop body
// from the induction variable and loop-invariant values only, and its
// `other` is absent or zero (cp.async fills masked elements with zeros).
//
// Each stage is stored in the memory order of its load (a `#tile.shared`
// encoding), so the copies move 16-byte chunks whatever the operand order;
// a `trans` between the load and the dot becomes a transposed view of the
// stage (`shared_load ... transposed`).
//
// With `wgmma`, the operands of a dot laid out for warpgroup MMAs are
// stored as wgmma descriptors read them (panels of one swizzle atom; rows
// in order, for A of either major too: the accumulator is in the
// instructions' row order), and the dot reads the stages directly.
// With four or more stages (three with TMA, below), such a dot whose
// result is only its own accumulator in the next iteration leaves its MMAs
// in flight while the loop turns (`dot_wait pending = 1` after it,
// `dot_wait pending = 0` on the loop's result); its cp.async copies then
// run S-2 iterations ahead, so that the stage of the MMAs still running is
// never overwritten.
//
// With `tma`, when every staged operand of a loop is stored for wgmma and
// loads a whole tile of a strided tensor whose base, bounds and row stride
// the host knows (TensorTileAccess.h), the Tensor Memory Accelerator fills
// the stages instead, signalling one mbarrier per stage:
//
//   prologue:   tma_copy iterations 0 .. S-2 into stages 0 .. S-2
//   iteration i: tma_wait stage i%S, phase (i/S)%2   -- a block barrier first
//                the body's first dot (reading stage i%S)
//                tma_copy iteration i+S-1 into stage (i+S-1)%S
//                the rest of the body
//
// and with MMAs in flight (the refilled stage is the one the previous
// iteration's MMAs read, so the block barrier moves behind their wait):
//
//   iteration i: tma_wait stage i%S, phase (i/S)%2   -- unsynchronized
//                dot reading stage i%S
//                dot_wait pending = 1 synchronize    -- iteration i-1's end
//                tma_copy iteration i+S-1 into stage (i-1)%S
//
// A tf32 B loaded along N for warpgroup MMAs (TN), which read it only
// K-major, is stored into its K-major stage through registers: loaded one
// iteration ahead of its `shared_store` (the loop carries the tile), with
// the stores of each iteration before its next load.
//
// An FMA dot's float operand (a 2-D blocked load used only by the dot) is
// staged the same way: its `shared_load` keeps the blocked layout, and the
// dot reads the stage directly instead of storing the tile to shared
// memory itself.
//
//===----------------------------------------------------------------------===//
#include "PromoteSharedCommon.h"
#include "Rematerialize.h"
#include "TensorTileAccess.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tile {
#define GEN_PASS_DEF_TILEPROMOTESHARED
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace tile::promote {

/// True when `value` (2-D blocked, float) is only a float operand (A or B)
/// of an FMA dot.
static bool isFmaOperand(Value value) {
  if (!value.hasOneUse())
    return false;
  auto dot = dyn_cast<DotOp>(*value.user_begin());
  auto type = cast<RankedTensorType>(value.getType());
  auto layout = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  return dot && dot.getAcc() != value && layout && layout.getRank() == 2 &&
         isa<FloatType>(type.getElementType()) &&
         isa_and_nonnull<BlockedEncodingAttr>(
             dot.getA().getType().getEncoding());
}

Value Candidate::readStage(OpBuilder &b, Value stage) {
  // One read per user, so that each dot reading the stage (attention's K
  // read by the dots of both halves of the query rows) has its own: a
  // warpgroup MMA reads a shared_load that only it uses.
  // In the order of the users in the load's block (the use list runs
  // backwards); users nested in one op keep their use-list order.
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : replaced().getUses())
    uses.push_back(&use);
  Block *body = load->getBlock();
  llvm::stable_sort(uses, [&](OpOperand *x, OpOperand *y) {
    Operation *a = body->findAncestorOpInBlock(*x->getOwner());
    Operation *c = body->findAncestorOpInBlock(*y->getOwner());
    return a && c && a != c && a->isBeforeInBlock(c);
  });
  Value first;
  for (OpOperand *use : uses) {
    // The load's location keeps the source variable's name.
    Value staged = SharedLoadOp::create(b, load.getLoc(), replaced().getType(),
                                        buffer, stage, transposed());
    use->set(staged);
    if (!first)
      first = staged;
  }
  return first;
}

/// Makes the conversions of `value` into one type one conversion (the
/// first in the block; CSE runs after this pass): a tile two dots read
/// (attention's K and V, read by the dots of both halves of the query
/// rows) then reaches them through one chain of ops.
static void mergeConversions(Value value) {
  llvm::SmallDenseMap<Type, ConvertLayoutOp> first;
  SmallVector<ConvertLayoutOp> cvts;
  for (Operation *user : value.getUsers())
    if (auto cvt = dyn_cast<ConvertLayoutOp>(user);
        cvt && cvt->getBlock() == value.getParentBlock())
      cvts.push_back(cvt);
  llvm::sort(cvts, [](ConvertLayoutOp x, ConvertLayoutOp y) {
    return x->isBeforeInBlock(y);
  });
  for (ConvertLayoutOp cvt : cvts) {
    auto [it, inserted] = first.try_emplace(cvt.getType(), cvt);
    if (inserted)
      continue;
    cvt.getResult().replaceAllUsesWith(it->second.getResult());
    cvt.erase();
  }
}

/// mergeConversions along the chain from `load` towards its dots.
static void mergeOperandConversions(LoadOp load) {
  Value value = load.getResult();
  for (int step = 0; step < 3; ++step) {
    mergeConversions(value);
    if (!value.hasOneUse() ||
        !isa<ConvertLayoutOp, TransOp>(*value.user_begin()))
      return;
    value = value.user_begin()->getResult(0);
  }
}

void Candidate::eraseLoad() {
  for (Operation *use : llvm::reverse(uses))
    use->erase();
  load.erase();
}

bool isInnermost(scf::ForOp loop) {
  return !loop.getBody()
              ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

std::pair<Value, Value> iterationStage(OpBuilder &b, scf::ForOp loop, Value iv,
                                       int64_t stages) {
  Location loc = loop.getLoc();
  Value iteration = arith::DivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()),
      loop.getStep());
  Value stage = arith::RemUIOp::create(
      b, loc, iteration, arith::ConstantIntOp::create(b, loc, stages, 32));
  return {iteration, stage};
}

Value stagePhase(OpBuilder &b, Location loc, Value iteration, int64_t stages) {
  return arith::AndIOp::create(
      b, loc,
      arith::DivUIOp::create(b, loc, iteration,
                             arith::ConstantIntOp::create(b, loc, stages, 32)),
      arith::ConstantIntOp::create(b, loc, 1, 32));
}

/// The ops from `load` to the value its dot reads: an optional `trans`
/// (after tile-coalesce's conversion out of the load's own layout, if
/// any), then an optional conversion to a dot-operand layout (or to an FMA
/// dot's blocked layout); failure when the load feeds no dot that way.
FailureOr<SmallVector<Operation *, 3>> operandUses(LoadOp load) {
  SmallVector<Operation *, 3> uses;
  Value value = load.getResult();
  auto next = [&]() -> Operation * {
    return value.hasOneUse() ? *value.user_begin() : nullptr;
  };
  if (auto cvt = dyn_cast_or_null<ConvertLayoutOp>(next())) {
    Value converted = cvt.getResult();
    if (converted.hasOneUse() && isa<TransOp>(*converted.user_begin())) {
      uses.push_back(cvt);
      value = converted;
    }
  }
  if (auto trans = dyn_cast_or_null<TransOp>(next())) {
    uses.push_back(trans);
    value = trans.getResult();
  }
  if (isFmaOperand(value))
    return uses;
  auto cvt = dyn_cast_or_null<ConvertLayoutOp>(next());
  if (cvt &&
      (isa_and_nonnull<DotOperandEncodingAttr>(cvt.getType().getEncoding()) ||
       isFmaOperand(cvt.getResult()))) {
    uses.push_back(cvt);
    return uses;
  }
  return failure();
}

/// The iteration argument `dot` accumulates into, directly or through a
/// `trans` (a dot computed transposed); null if none.
BlockArgument carriedAccumulator(DotOp dot) {
  Value acc = dot.getAcc();
  if (auto trans = acc.getDefiningOp<TransOp>())
    acc = trans.getSrc();
  return dyn_cast<BlockArgument>(acc);
}

/// The dot of `loop` whose MMAs may stay in flight while the loop turns:
/// the only dot whose B is stored for wgmma, whose result is only its own
/// accumulator in the next iteration (both maybe through `trans`). Null if
/// there is none.
DotOp inFlightDot(scf::ForOp loop, MutableArrayRef<Candidate> cands) {
  DotOp found;
  for (Candidate &c : cands) {
    Value value = c.replaced();
    auto dot =
        value.hasOneUse() ? dyn_cast<DotOp>(*value.user_begin()) : DotOp();
    if (!c.encoding.getPanel() || !dot || dot.getB() != value)
      continue;
    if (found)
      return {};
    found = dot;
  }
  if (!found || !found->hasOneUse())
    return {};
  // MMAs in flight still read A's registers: an A computed in the body
  // could be given the same registers next iteration. An A stored for
  // wgmma is read through descriptors, or (tf32 stored MN-major) into
  // registers in two groups of MMAs that the lowering waits for in turn;
  // any other A must be loop-invariant.
  bool aStaged = llvm::any_of(cands, [&](Candidate &c) {
    return c.replaced() == found.getA() && c.encoding.getPanel();
  });
  if (!aStaged && !loop.isDefinedOutsideOfLoop(found.getA()))
    return {};
  // The loop carries the result, or (a dot computed transposed) a `trans`
  // of it, which the next iteration's `trans` gives back.
  Value result = found.getResult();
  Operation *user = *found->user_begin();
  if (auto trans = dyn_cast<TransOp>(user)) {
    if (!trans->hasOneUse() || !found.getAcc().getDefiningOp<TransOp>() ||
        !found.getAcc().hasOneUse())
      return {};
    result = trans.getResult();
    user = *trans->user_begin();
  }
  auto yield = dyn_cast<scf::YieldOp>(user);
  BlockArgument acc = carriedAccumulator(found);
  if (!yield || yield->getParentOp() != loop.getOperation() || !acc ||
      acc.getOwner() != loop.getBody() || !acc.hasOneUse() ||
      yield.getOperand(acc.getArgNumber() - 1) != result)
    return {};
  return found;
}

BlockedEncodingAttr stageableLayout(LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  auto layout = type ? dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding())
                     : nullptr;
  if (!layout || layout.getRank() != 2 ||
      (load.getOther() && !isZeroConstant(load.getOther())))
    return {};
  return layout;
}

Value allocateStages(OpBuilder &b, LoadOp load, int64_t stages,
                     SharedEncodingAttr encoding) {
  auto type = cast<RankedTensorType>(load.getType());
  SmallVector<int64_t> shape{stages};
  shape.append(type.getShape().begin(), type.getShape().end());
  return SharedAllocOp::create(b, load.getLoc(),
                               MemRefType::get(shape, type.getElementType(),
                                               AffineMap(),
                                               b.getI32IntegerAttr(3)),
                               encoding);
}

Value allocateStageBarriers(OpBuilder &b, Location loc, int64_t stages,
                            int64_t arrivals) {
  auto type = MemRefType::get({stages}, b.getI64Type(), AffineMap(),
                              b.getI32IntegerAttr(3));
  return BarrierAllocOp::create(b, loc, type, int32_t(arrivals));
}

} // namespace tile::promote

using namespace tile::promote;

namespace tile::promote {

/// The kernel's divisibility fact about `value` when it is an i32 or
/// pointer kernel argument (1 without one); 0 when it is no argument.
int64_t argumentDivisibility(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  auto kernel =
      arg ? dyn_cast<KernelOp>(arg.getOwner()->getParentOp()) : KernelOp();
  if (!kernel ||
      !(arg.getType().isInteger(32) || isa<PointerType>(arg.getType())))
    return 0;
  auto attr = kernel.getArgAttrOfType<IntegerAttr>(
      arg.getArgNumber(), TileDialect::DivisibilityAttrHelper::getNameStr());
  return attr ? attr.getInt() : 1;
}

/// The tensor tile `c`'s load reads, when the TMA can fill its stage: the
/// stage stored for wgmma along the tensor's contiguous dimension, base,
/// bounds and row stride known to the host (kernel arguments or constants),
/// the base 16-byte aligned and rows 16-byte multiples.
std::optional<TensorTileAccess> tmaAccess(Candidate &c) {
  SharedEncodingAttr enc = c.encoding;
  if (!enc || !enc.getPanel() || !c.load.getMask() || c.transposingCopy)
    return std::nullopt;
  // Stored rows cut into several panels (B given K x N with BN > 64 for
  // f16, A given K x M) take one box per panel: slower than cp.async
  // before the MMAs stayed in flight across TMA iterations (bench/NOTES.md
  // v25), 8-22% faster since (v34).
  std::optional<TensorTileAccess> access =
      matchTensorTileAccess(c.load.getPtr(), c.load.getMask());
  if (!access || access->contiguousDim != enc.getOrder()[0] ||
      argumentDivisibility(access->base) < 16)
    return std::nullopt;
  auto known = [](const ScalarTerm &t) {
    return !t.value || argumentDivisibility(t.value) > 0;
  };
  const ScalarTerm &stride = access->strides[1 - access->contiguousDim];
  int64_t elemBytes =
      cast<RankedTensorType>(c.load.getType()).getElementTypeBitWidth() / 8;
  int64_t rowFactor =
      stride.value ? argumentDivisibility(stride.value) : stride.constant;
  if (!known(access->bounds[0]) || !known(access->bounds[1]) ||
      !known(stride) || rowFactor * elemBytes % 16 != 0)
    return std::nullopt;
  return access;
}

/// `term` as an i32 value at `b`.
static Value materialize(OpBuilder &b, Location loc, const ScalarTerm &term) {
  Value constant = arith::ConstantIntOp::create(b, loc, term.constant, 32);
  if (!term.value)
    return constant;
  return term.constant == 0
             ? term.value
             : arith::AddIOp::create(b, loc, term.value, constant).getResult();
}

TmaCopyOperands::TmaCopyOperands(OpBuilder &b, Location loc,
                                 const TensorTileAccess &access)
    : starts{materialize(b, loc, access.starts[0]),
             materialize(b, loc, access.starts[1])},
      bounds{materialize(b, loc, access.bounds[0]),
             materialize(b, loc, access.bounds[1])},
      stride(materialize(b, loc, access.strides[1 - access.contiguousDim])),
      slice(access.sliced ? materialize(b, loc, access.slice) : Value()) {}

/// The op of `loop`'s body that is or holds its first dot (a loop with
/// staged operands has the dots that read them).
Operation *firstDot(scf::ForOp loop) {
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator()) {
    WalkResult found = op.walk([](DotOp) { return WalkResult::interrupt(); });
    if (found.wasInterrupted())
      return &op;
  }
  llvm_unreachable("staged operands feed a dot of the loop");
}

std::optional<SmallVector<Operation *>>
loopBodySlice(scf::ForOp loop, ValueRange roots, SetVector<unsigned> &carried) {
  Block *body = loop.getBody();
  SetVector<Operation *> slice;
  SmallVector<Value> work(roots);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body)
        carried.insert(arg.getArgNumber() - 1);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!body->findAncestorOpInBlock(*def))
      continue; // defined above the loop
    if (def->getBlock() != body || def->getNumRegions() != 0 ||
        !isMemoryEffectFree(def))
      return std::nullopt;
    if (slice.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// The ops of `loop`'s body that `values` depend on, when all are pure,
/// region-free and independent of the loop's iteration arguments.
std::optional<SetVector<Operation *>> addressSlice(scf::ForOp loop,
                                                   ValueRange values) {
  SetVector<unsigned> carried;
  std::optional<SmallVector<Operation *>> slice =
      loopBodySlice(loop, values, carried);
  if (!slice || !carried.empty())
    return std::nullopt;
  return SetVector<Operation *>(slice->begin(), slice->end());
}

/// Clones `c`'s address computation at `b` for the iteration whose
/// induction variable is `k`; `mapping` maps the body's values to the
/// clones, which are returned in order.
SmallVector<Operation *> cloneAddressing(OpBuilder &b, scf::ForOp loop,
                                         Candidate &c, Value k,
                                         IRMapping &mapping) {
  mapping.map(loop.getInductionVar(), k);
  SmallVector<Operation *> cloned;
  for (Operation &op : *loop.getBody())
    if (c.slice.contains(&op))
      cloned.push_back(b.clone(op, mapping));
  return cloned;
}

/// Issues the copies of every candidate for the iteration whose induction
/// variable is `k`, into stage `stage`, masked off when k >= ub: the
/// cp.async copies (and their group's commit) where `async`, the loads of
/// the transposing copies where `registers`, each followed by its
/// `shared_store` into `stage` when `stage` is given. Returns the loaded
/// tiles.
SmallVector<Value> issueCopies(OpBuilder &b, scf::ForOp loop,
                               MutableArrayRef<Candidate> cands, Value k,
                               Value stage, bool async, bool registers,
                               unsigned copyWarps) {
  SmallVector<Value> loaded;
  Location loc = loop.getLoc();
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k,
                                        loop.getUpperBound());
  for (Candidate &c : cands) {
    if (c.transposingCopy ? !registers : !async)
      continue;
    IRMapping mapping;
    cloneAddressing(b, loop, c, k, mapping);
    Value ptr = mapping.lookupOrDefault(c.load.getPtr());
    Value loadMask =
        c.load.getMask() ? mapping.lookupOrDefault(c.load.getMask()) : Value();
    if (c.transposingCopy) {
      BlockedEncodingAttr layout = transposingCopyLayout(c, copyWarps);
      ptr = rematerialize(b, ptr, layout);
      if (loadMask)
        loadMask = rematerialize(b, loadMask, layout);
    }
    auto ptrType = cast<RankedTensorType>(ptr.getType());
    auto maskType = ptrType.clone(b.getI1Type());
    Value mask = SplatOp::create(b, loc, maskType, inRange);
    if (loadMask)
      mask = arith::AndIOp::create(b, loc, loadMask, mask);
    if (!c.transposingCopy) {
      AsyncCopyOp::create(b, c.load.getLoc(), ptr, mask, c.buffer, stage);
      continue;
    }
    auto type = cast<RankedTensorType>(c.load.getType())
                    .cloneWithEncoding(ptrType.getEncoding());
    Value zero = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
    loaded.push_back(LoadOp::create(b, c.load.getLoc(), type, ptr, mask, zero));
    if (stage)
      SharedStoreOp::create(b, c.load.getLoc(), loaded.back(), c.buffer, stage);
  }
  if (async)
    AsyncCommitOp::create(b, loc);
  return loaded;
}

/// Issues the TMA copies of every candidate for the iteration whose
/// induction variable is `k`, into stage `stage`, none when k >= ub.
void issueTmaCopies(OpBuilder &b, scf::ForOp loop,
                    MutableArrayRef<Candidate> cands, Value k, Value stage,
                    Value barriers, bool predicated) {
  Location loc = loop.getLoc();
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k,
                                        loop.getUpperBound());
  for (Candidate &c : cands) {
    // Transposing copies go through registers (issueCopies).
    if (c.transposingCopy)
      continue;
    IRMapping mapping;
    SmallVector<Operation *> cloned = cloneAddressing(b, loop, c, k, mapping);
    // The clone reads the same tensor tile, from k's starts.
    std::optional<TensorTileAccess> access =
        matchTensorTileAccess(mapping.lookupOrDefault(c.load.getPtr()),
                              mapping.lookupOrDefault(c.load.getMask()));
    assert(access && "tmaAccess matched the load");
    TmaCopyOperands at(b, loc, *access);
    TmaCopyOp::create(b, c.load.getLoc(), access->base, at.starts, at.bounds,
                      at.stride, at.slice, c.buffer, stage, barriers, inRange,
                      predicated);
    // The pointer and mask tiles are not needed.
    for (Operation *op : llvm::reverse(cloned))
      if (op->use_empty())
        op->erase();
  }
}

} // namespace tile::promote

namespace {

struct PromoteShared : tile::impl::TilePromoteSharedBase<PromoteShared> {
  using TilePromoteSharedBase::TilePromoteSharedBase;

  /// Each kernel's ring of TMA stages filled by a producer, which later
  /// loops of the kernel may continue.
  llvm::DenseMap<Operation *, TmaRing> rings;

  void runOnOperation() override {
    rings.clear();
    if (numStages < 2)
      return;
    // Innermost loops only: a loop around loops (a persistent grid's loop
    // over tiles) has no K of its own, and a producer may replace it.
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (isInnermost(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      pipeline(loop);
    for (auto &[kernel, ring] : rings) {
      finishTmaRing(ring);
      stageTileOperands(ring, maxSharedBytes);
    }
    if (wgmma) {
      stageLoneDots(getOperation());
      stageInvariantOperands(getOperation());
    }
  }

  SmallVector<Candidate> findCandidates(scf::ForOp loop) {
    SmallVector<Candidate> found;
    // The prologue's guards compare the bounds as signed i32.
    if (!loop.getInductionVar().getType().isInteger(32) ||
        loop.getUnsignedCmp())
      return found;
    for (LoadOp load : loop.getBody()->getOps<LoadOp>())
      mergeOperandConversions(load);
    for (Operation &op : *loop.getBody()) {
      auto load = dyn_cast<LoadOp>(&op);
      if (!load || !load->hasOneUse() || !stageableLayout(load))
        continue;
      FailureOr<SmallVector<Operation *, 3>> uses = operandUses(load);
      if (failed(uses))
        continue;
      SmallVector<Value> addressing{load.getPtr()};
      if (load.getMask())
        addressing.push_back(load.getMask());
      auto slice = addressSlice(loop, addressing);
      if (!slice)
        continue;
      found.push_back({load, std::move(*uses), std::move(*slice), Value(),
                       SharedEncodingAttr()});
    }
    return found;
  }

  void pipeline(scf::ForOp loop) {
    SmallVector<Candidate> cands = findCandidates(loop);
    if (cands.empty())
      return;
    // As many stages as asked for and the shared-memory budget holds.
    int64_t stageBytes = 0;
    for (Candidate &c : cands) {
      auto type = cast<RankedTensorType>(c.load.getType());
      stageBytes += type.getNumElements() *
                    type.getElementType().getIntOrFloatBitWidth() / 8;
    }
    // Beside an operand tile-promote-shared will copy once (attention's Q
    // where registers are short), which stays live through the loop.
    int64_t budget = maxSharedBytes - (wgmma ? invariantOperandBytes(loop) : 0);
    int64_t stages = std::min<int64_t>(numStages, budget / stageBytes);
    if (stages < 2)
      return;
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto i32 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, v, 32);
    };
    for (Candidate &c : cands)
      c.encoding = stageEncoding(c);
    if (wgmma)
      chooseWgmmaEncodings(cands);
    bool useTma = wgmma && tma && llvm::all_of(cands, [](Candidate &c) {
                    return tmaAccess(c).has_value();
                  });
    // A later loop of a kernel whose producer fills a ring of TMA stages
    // continues the ring (attention's masked loop).
    Operation *kernel = loop->getParentOfType<KernelOp>();
    if (auto ring = rings.find(kernel);
        useTma && ring != rings.end() &&
        continueTmaRing(ring->second, loop, cands, budget))
      return;
    DotOp producerFor =
        producerDot(loop, cands, stages, warpSpecialize, wgmma, tma);
    int64_t tmaConsumers =
        producerFor
            ? 0
            : tmaProducerWarps(loop, cands, stages, warpSpecialize, wgmma, tma);
    // A producer's ring outlives a loop over tiles around its loop.
    OpBuilder alloc(tmaConsumers ? producerAnchor(loop) : loop.getOperation());
    for (Candidate &c : cands)
      c.buffer = allocateStages(alloc, c.load, stages, c.encoding);
    if (producerFor)
      return pipelineWithProducer(loop, cands, stages, producerFor);
    if (tmaConsumers) {
      rings[kernel] =
          pipelineTmaWithProducer(loop, cands, stages, tmaConsumers);
      return;
    }
    // Copies run S-1 iterations ahead, into the stage every warp has left.
    // A dot whose MMAs stay in flight into the next iteration still reads
    // the stage before. With TMA its wait for the previous iteration's MMAs
    // follows it at once, with a block barrier, and the copies come after:
    // they refill the stage those MMAs read, still S-1 ahead (three stages
    // suffice). cp.async copies stay behind the async wait's barrier at the
    // top, where the previous MMAs may still run: S-2 ahead, four stages.
    DotOp asyncDot =
        stages >= (useTma ? 3 : 4) ? inFlightDot(loop, cands) : DotOp();
    bool refillAfterWait = useTma && asyncDot;
    int64_t ahead = asyncDot && !useTma ? stages - 2 : stages - 1;
    Value lb = loop.getLowerBound(), step = loop.getStep();
    Value barriers;
    if (useTma)
      barriers = allocateStageBarriers(b, loc, stages, int64_t(cands.size()));
    // Without MMAs in flight the copies sit after the body's first dot,
    // among its dots' MMAs: predicated, not branched around (ptxas
    // serialized every MMA of a one-warpgroup attention kernel beside the
    // branches: C7520, 0.73x). Behind the in-flight dot's wait the branches
    // cost less (predicating cost a matmul tile 8%: bench/NOTES.md v44).
    auto issue = [&](Value k, Value stage) {
      if (useTma)
        issueTmaCopies(b, loop, cands, k, stage, barriers,
                       /*predicated=*/!refillAfterWait);
      else
        issueCopies(b, loop, cands, k, stage, /*async=*/true,
                    /*registers=*/false);
    };
    auto kOf = [&](Value first, int64_t iterations) -> Value {
      return arith::AddIOp::create(
          b, loc, first, arith::MulIOp::create(b, loc, step, i32(iterations)));
    };
    // Transposing copies have no TMA form (tmaAccess).
    bool registerCopies =
        llvm::any_of(cands, [](Candidate &c) { return c.transposingCopy; });
    // Prologue: iterations 0 .. ahead-1, transposing copies stored at once.
    for (int64_t s = 0; s < ahead; ++s) {
      Value k = kOf(lb, s);
      issue(k, i32(s));
      if (registerCopies)
        issueCopies(b, loop, cands, k, i32(s), /*async=*/false,
                    /*registers=*/true);
    }
    // A transposing copy's registers are loaded one iteration before their
    // store (their latency is a whole iteration's) and carried into it.
    SmallVector<Value> held;
    if (registerCopies)
      held = issueCopies(b, loop, cands, kOf(lb, ahead), Value(),
                         /*async=*/false, /*registers=*/true);
    // Steady state, at the top of the body.
    b.setInsertionPointToStart(loop.getBody());
    Value iv = loop.getInductionVar();
    auto [iteration, stage] = iterationStage(b, loop, iv, stages);
    if (useTma)
      TmaWaitOp::create(b, loc, barriers, stage,
                        stagePhase(b, loc, iteration, stages),
                        /*unsynchronized=*/refillAfterWait);
    else
      AsyncWaitOp::create(b, loc, ahead - 1);
    for (Candidate &c : cands)
      c.readStage(b, stage);
    Value aheadIv = arith::AddIOp::create(
        b, loc, iv, arith::MulIOp::create(b, loc, step, i32(ahead)));
    Value aheadStage = arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, iteration, i32(ahead)),
        i32(stages));
    // One thread issues the TMA copies, which delays its warp (and with it
    // its warpgroup's MMAs) by as many instructions: it does so after the
    // MMAs it takes part in have started, behind the in-flight dot's wait
    // and barrier, or else after the body's first dot (at the end of the
    // body, attention's softmax and second dot left the copies of two
    // stages little time to land; at the top they held back the first
    // dot: bench/NOTES.md v44). The stage they refill was last read by the
    // previous iteration's MMAs, which every warp has finished since the
    // barrier (at the top without MMAs in flight).
    Operation *terminator = loop.getBody()->getTerminator();
    // One group (this iteration's) stays in flight as the loop turns: the
    // wait for the previous one follows the dot where the copies refill its
    // stage, else it ends the body.
    DotWaitOp turn;
    if (asyncDot) {
      OpBuilder::InsertionGuard guard(b);
      // At the end of the body, the wait takes the value yielded (the
      // result's `trans` for a dot computed transposed).
      Value waited = asyncDot.getResult();
      if (refillAfterWait) {
        b.setInsertionPointAfter(asyncDot);
      } else {
        b.setInsertionPoint(terminator);
        waited = terminator->getOperand(
            carriedAccumulator(asyncDot).getArgNumber() - 1);
      }
      turn = DotWaitOp::create(b, loc, ValueRange{waited}, 1,
                               /*synchronize=*/refillAfterWait);
      waited.replaceAllUsesExcept(turn.getResult(0), turn);
    }
    // The transposing copies: the registers loaded last iteration go to
    // the stage the copies refill (every warp left it at the barrier above;
    // the next iteration's publishes it), before the next iteration's load
    // (which would otherwise need its registers beside them).
    SmallVector<Value> nextHeld;
    if (!held.empty())
      nextHeld = issueCopies(b, loop, cands, kOf(iv, ahead + 1), Value(),
                             /*async=*/false, /*registers=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      if (refillAfterWait)
        b.setInsertionPoint(turn->getNextNode());
      else if (useTma)
        b.setInsertionPointAfter(firstDot(loop));
      issue(aheadIv, aheadStage);
    }
    // Each transposing copy's stage and location, kept past the loads.
    SmallVector<std::pair<Value, Location>> copyTargets;
    for (Candidate &c : cands)
      if (c.transposingCopy)
        copyTargets.push_back({c.buffer, c.load.getLoc()});
    for (Candidate &c : cands)
      c.eraseLoad();
    // No copy may still be writing shared memory after the loop (TMA copies
    // past the end are never issued), and every warp has left its stages.
    b.setInsertionPointAfter(loop);
    AsyncWaitOp::create(b, loc, 0);
    if (asyncDot) {
      // The loop's result waits for the last group.
      Value result = loop.getTiedLoopResult(carriedAccumulator(asyncDot));
      b.setInsertionPointAfter(loop);
      auto last = DotWaitOp::create(b, loc, ValueRange{result}, 0);
      result.replaceAllUsesExcept(last.getResult(0), last);
    }
    carryLoads(loop, copyTargets, held, nextHeld, aheadStage);
  }

  /// Carries the transposing copies' registers across iterations: `held`
  /// (loaded before the loop) become iteration arguments, stored into
  /// stage `stage` of their buffers (`copies`) as soon as `stage` is
  /// computed, and the body yields `next`.
  void carryLoads(scf::ForOp loop, ArrayRef<std::pair<Value, Location>> copies,
                  ValueRange held, ValueRange next, Value stage) {
    if (held.empty())
      return;
    IRRewriter rewriter(loop.getContext());
    FailureOr<LoopLikeOpInterface> carried = loop.replaceWithAdditionalYields(
        rewriter, held, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &b, Location, ArrayRef<BlockArgument> args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointAfter(stage.getDefiningOp());
          for (auto [copy, arg] : llvm::zip_equal(copies, args))
            SharedStoreOp::create(b, copy.second, arg, copy.first, stage);
          return SmallVector<Value>(next);
        });
    assert(succeeded(carried) && "scf.for takes more iteration arguments");
    (void)carried;
  }
};

} // namespace
