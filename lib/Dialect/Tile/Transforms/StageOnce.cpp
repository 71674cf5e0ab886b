//===- StageOnce.cpp - dot operands copied once into shared memory -------===//
//
// Part of tile-promote-shared (sm_90a): operands that no K loop's pipeline
// stages are copied once into one-stage buffers stored for wgmma, so that
// warpgroup MMAs read them through descriptors: the loaded operands of a dot
// outside innermost loops (one block of K; tile-decompose-batched-dot's
// per-batch dots), and a 16-bit A loaded before loops whose dots read it every
// iteration (attention's Q) where holding it would take each thread 64
// registers or more. In a loop over tiles whose loops a producer's ring
// feeds (a persistent grid), such an A loaded in each tile is copied by the
// producer instead, ahead of time, into slots of its own (stageTileOperands).
//
//===----------------------------------------------------------------------===//
#include "PromoteSharedCommon.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace tile;
using namespace tile::promote;

namespace {

/// A one-stage buffer `encoding` stores `load`'s tile in, created at `b`,
/// and the cp.async copy of the tile into it (stage `stage`; an unmasked
/// load copies under an all-true mask).
Value copyOnce(OpBuilder &b, LoadOp load, SharedEncodingAttr encoding,
               Value stage) {
  Location loc = load.getLoc();
  Value buffer = allocateStages(b, load, 1, encoding);
  Value mask = load.getMask();
  if (!mask)
    mask = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(cast<RankedTensorType>(load.getPtr().getType())
                                   .clone(b.getI1Type()),
                               true));
  AsyncCopyOp::create(b, loc, load.getPtr(), mask, buffer, stage);
  return buffer;
}

/// The dots in the bodies of loops in `load`'s block that read a conversion
/// of `load` into a dot-operand layout as A, each with B from a stage
/// stored for wgmma; none unless every use of `load` is such a conversion
/// and every use of those such a dot.
SmallVector<DotOp> wgmmaLoopDotsReadingA(LoadOp load) {
  SmallVector<DotOp> dots;
  for (Operation *user : load->getUsers()) {
    auto cvt = dyn_cast<ConvertLayoutOp>(user);
    if (!cvt ||
        !isa_and_nonnull<DotOperandEncodingAttr>(cvt.getType().getEncoding()))
      return {};
    for (Operation *cvtUser : cvt->getUsers()) {
      auto dot = dyn_cast<DotOp>(cvtUser);
      auto loop = dot ? dyn_cast<scf::ForOp>(dot->getParentOp()) : nullptr;
      auto bLoad =
          dot ? dot.getB().getDefiningOp<SharedLoadOp>() : SharedLoadOp();
      auto bAlloc = bLoad ? bLoad.getBuffer().getDefiningOp<SharedAllocOp>()
                          : SharedAllocOp();
      if (!loop || loop->getBlock() != load->getBlock() ||
          dot.getA() != cvt.getResult() || !hasWgmmaLayout(dot) || !bAlloc ||
          !bAlloc.getEncoding().getPanel())
        return {};
      dots.push_back(dot);
    }
  }
  return dots;
}

/// True when `op` is in an innermost loop, whose loads tile-promote-shared
/// pipelines (isInnermost).
bool inInnermostLoop(Operation *op) {
  auto loop = op->getParentOfType<scf::ForOp>();
  return loop && isInnermost(loop);
}

/// A 16-bit tile loaded outside innermost loops, stageable as it is.
bool isInvariantCandidate(LoadOp load) {
  if (inInnermostLoop(load) || !stageableLayout(load))
    return false;
  auto type = cast<RankedTensorType>(load.getType());
  return type.getElementType().getIntOrFloatBitWidth() == 16;
}

/// The 16-bit tiles loaded before `loop` that its warpgroup-MMA dots read
/// as A (through a conversion to a dot-operand layout).
llvm::SetVector<Operation *> invariantALoads(scf::ForOp loop) {
  llvm::SetVector<Operation *> loads;
  loop.getBody()->walk([&](DotOp dot) {
    if (dot->getParentOp() != loop || !hasWgmmaLayout(dot))
      return;
    auto cvt = dot.getA().getDefiningOp<ConvertLayoutOp>();
    auto load = cvt ? cvt.getSrc().getDefiningOp<LoadOp>() : LoadOp();
    if (load && load->getBlock() == loop->getBlock() &&
        isInvariantCandidate(load))
      loads.insert(load);
  });
  return loads;
}

/// Whether holding `loads` (invariantALoads of a loop) takes a thread too
/// many registers (operandRegistersShort).
bool registersShort(const llvm::SetVector<Operation *> &loads) {
  if (loads.empty())
    return false;
  int64_t elements = 0;
  for (Operation *load : loads)
    elements +=
        cast<RankedTensorType>(load->getResult(0).getType()).getNumElements();
  // The loads' layouts span the kernel's warps (isInvariantCandidate:
  // blocked layouts outside loops).
  unsigned warps =
      cast<BlockedEncodingAttr>(
          cast<RankedTensorType>(loads.front()->getResult(0).getType())
              .getEncoding())
          .getNumWarps();
  return operandRegistersShort(elements, warps);
}

/// Shared memory left beside a ring's stages and the operands its producer
/// copies once a tile (stageTileOperands), for the layout conversions'
/// scratch and the mbarriers.
constexpr int64_t kScratchReserveBytes = 8 * 1024;

/// A tile the body of a loop over tiles loads for the A of warpgroup-MMA
/// dots in a ring's loops, which the ring's producer copies instead.
struct TileOperand {
  LoadOp load;
  TensorTileAccess access;
  SmallVector<DotOp> dots;
  /// The first and last of the ring's loops whose dots read it.
  Operation *firstLoop = nullptr, *lastLoop = nullptr;
};

/// `load` as a TileOperand of `ring` (its buffer stored as `encoding`):
/// read only as the A of warpgroup-MMA dots in the ring's loops after it
/// (wgmmaLoopDotsReadingA); a tile the TMA can copy from addresses the
/// producer can compute. None otherwise.
std::optional<TileOperand> tileOperand(TmaRing &ring, LoadOp load,
                                       SharedEncodingAttr encoding) {
  TileOperand operand{load, {}, wgmmaLoopDotsReadingA(load)};
  if (operand.dots.empty())
    return std::nullopt;
  for (DotOp dot : operand.dots) {
    Operation *loop = dot->getParentOp();
    if (!ring.fills.contains(loop) || !load->isBeforeInBlock(loop))
      return std::nullopt;
    if (!operand.firstLoop || loop->isBeforeInBlock(operand.firstLoop))
      operand.firstLoop = loop;
    if (!operand.lastLoop || operand.lastLoop->isBeforeInBlock(loop))
      operand.lastLoop = loop;
  }
  Candidate c{load, {}, {}, Value(), encoding};
  std::optional<TensorTileAccess> access = tmaAccess(c);
  if (!access)
    return std::nullopt;
  auto computable = [&](const ScalarTerm &term) {
    return !term.value || producerCanCompute(ring, term.value);
  };
  for (unsigned d = 0; d < 2; ++d)
    if (!computable(access->starts[d]) || !computable(access->bounds[d]) ||
        !computable(access->strides[d]))
      return std::nullopt;
  if (!producerCanCompute(ring, access->base) ||
      (access->sliced && !computable(access->slice)))
    return std::nullopt;
  operand.access = *access;
  return operand;
}

} // namespace

namespace tile::promote {

bool operandRegistersShort(int64_t elements, unsigned warps) {
  return elements / (32 * warps) >= 128;
}

int64_t invariantOperandBytes(scf::ForOp loop) {
  llvm::SetVector<Operation *> loads = invariantALoads(loop);
  if (!registersShort(loads))
    return 0;
  int64_t bytes = 0;
  for (Operation *load : loads) {
    auto type = cast<RankedTensorType>(load->getResult(0).getType());
    bytes += type.getNumElements() * 2;
  }
  return bytes;
}

/// Stages a 16-bit A operand loaded before loops whose dots (warpgroup
/// MMAs, B from wgmma stages) read it every iteration (attention's Q),
/// where it would take each thread 64 registers or more: it is copied
/// once into a one-stage buffer stored for wgmma, which the MMAs read
/// through descriptors instead of the registers it held through the
/// loops; a barrier after each loop unless the loop ends with one.
void stageInvariantOperands(ModuleOp module) {
  SmallVector<std::pair<LoadOp, SmallVector<DotOp>>> found;
  module.walk([&](LoadOp load) {
    if (!isInvariantCandidate(load))
      return;
    SmallVector<DotOp> dots = wgmmaLoopDotsReadingA(load);
    if (dots.empty() || !registersShort(invariantALoads(
                            cast<scf::ForOp>(dots.front()->getParentOp()))))
      return;
    found.push_back({load, std::move(dots)});
  });
  for (auto &[load, dots] : found) {
    auto type = cast<RankedTensorType>(load.getType());
    auto layout = cast<BlockedEncodingAttr>(type.getEncoding());
    SharedEncodingAttr encoding = SharedEncodingAttr::getForWgmma(
        load.getContext(), type.getShape(), type.getElementType(),
        layout.getOrder());
    if (!encoding)
      continue;
    OpBuilder b(load);
    Location loc = load.getLoc();
    Value stage = arith::ConstantIntOp::create(b, loc, 0, 32);
    // The bytes may be another buffer's before: a barrier first.
    AsyncWaitOp::create(b, loc, 0);
    Value buffer = copyOnce(b, load, encoding, stage);
    AsyncCommitOp::create(b, loc);
    AsyncWaitOp::create(b, loc, 0);
    llvm::SetVector<Operation *> loops;
    for (DotOp dot : dots) {
      b.setInsertionPoint(dot);
      Value value = SharedLoadOp::create(b, loc, dot.getA().getType(), buffer,
                                         stage, /*transposed=*/false);
      dot.getAMutable().assign(value);
      loops.insert(dot->getParentOp());
    }
    for (Operation *loop : loops) {
      Operation *next = loop->getNextNode();
      if (isa_and_nonnull<DotWaitOp>(next))
        next = next->getNextNode();
      auto barrier = dyn_cast_or_null<AsyncWaitOp>(next);
      if (!barrier || barrier.getPending() != 0) {
        b.setInsertionPointAfter(loop);
        AsyncWaitOp::create(b, loc, 0);
      }
    }
    for (Operation *cvt : llvm::make_early_inc_range(load->getUsers()))
      cvt->erase();
    load.erase();
  }
}

/// Stages the loaded operands of warpgroup-MMA dots outside loops (one
/// block of K; the per-batch dots of tile-decompose-batched-dot) in
/// one-stage buffers stored for wgmma, so that the MMAs read them through
/// descriptors as in loops: a block barrier (the bytes may be those of a
/// loop's stages that slower warps still read) unless one just passed or
/// nothing ran before, and the cp.async copy where the load was (after a
/// producer's branch); its wait (a barrier) where the dot is; after the
/// dot a barrier, past which every warp's MMAs have ended and the bytes may
/// be reused.
void stageLoneDots(ModuleOp module) {
  SmallVector<Candidate> cands;
  module.walk([&](LoadOp load) {
    if (inInnermostLoop(load) || !load->hasOneUse() || !stageableLayout(load))
      return;
    FailureOr<SmallVector<Operation *, 3>> uses = operandUses(load);
    if (failed(uses))
      return;
    Candidate c{load, std::move(*uses), {}, Value(), SharedEncodingAttr()};
    Value value = c.replaced();
    auto dot =
        value.hasOneUse() ? dyn_cast<DotOp>(*value.user_begin()) : DotOp();
    if (!dot || dot->getBlock() != load->getBlock() || !hasWgmmaLayout(dot))
      return;
    c.encoding = stageEncoding(c);
    cands.push_back(std::move(c));
  });
  chooseWgmmaEncodings(cands);
  // The staged operands of each dot, copied together where the last of
  // their loads was.
  llvm::MapVector<Operation *, SmallVector<Candidate *, 2>> byDot;
  for (Candidate &c : cands)
    if (c.encoding.getPanel())
      byDot[*c.replaced().user_begin()].push_back(&c);
  for (auto &[dot, staged] : byDot) {
    llvm::SmallPtrSet<Operation *, 8> replacedOps;
    Operation *last = staged.front()->load;
    for (Candidate *c : staged) {
      replacedOps.insert(c->load);
      replacedOps.insert(c->uses.begin(), c->uses.end());
      if (last->isBeforeInBlock(c->load))
        last = c->load;
    }
    // No barrier where one just passed (after a pipelined loop), or at
    // the start of the kernel, with nothing since but arithmetic in
    // registers (no scratch).
    bool freed = isa<KernelOp>(last->getParentOp());
    for (Operation *op = last->getPrevNode(); op; op = op->getPrevNode()) {
      if (auto wait = dyn_cast<AsyncWaitOp>(op)) {
        freed = wait.getPending() == 0;
        break;
      }
      if (!replacedOps.contains(op) &&
          !isa<arith::ArithDialect>(op->getDialect()) &&
          !isa<SplatOp, AddPtrOp, MakeRangeOp, BroadcastOp, ProgramIdOp>(op)) {
        freed = false;
        break;
      }
    }
    // Not before a producer between the loads and the dot: the producer's
    // warps run what precedes their branch, and would copy too.
    Operation *at = last;
    for (Operation *op = last->getNextNode(); op != dot; op = op->getNextNode())
      if (isa<ProducerOp>(op))
        at = op->getNextNode();
    OpBuilder b(at);
    Location loc = dot->getLoc();
    Value stage = arith::ConstantIntOp::create(b, loc, 0, 32);
    if (!freed)
      AsyncWaitOp::create(b, loc, 0);
    for (Candidate *c : staged)
      c->buffer = copyOnce(b, c->load, c->encoding, stage);
    AsyncCommitOp::create(b, loc);
    // Waited for where the dot is: a copy loaded before loops lands while
    // they run (attention's last V block, bench/NOTES.md v51); the buffers
    // stay live through them. The fragments are read there too (the MMAs
    // read the buffers themselves).
    b.setInsertionPoint(dot);
    AsyncWaitOp::create(b, loc, 0);
    for (Candidate *c : staged) {
      c->readStage(b, stage);
      c->eraseLoad();
    }
    // Every warp's MMAs have ended (the dot waits for them) before the
    // buffers' bytes are scratch or other buffers again.
    b.setInsertionPointAfter(dot);
    AsyncWaitOp::create(b, loc, 0);
  }
}

void stageTileOperands(TmaRing &ring, int64_t maxSharedBytes) {
  if (!ring.tileLoop)
    return;
  scf::ForOp tiles = ring.tileLoop;
  SmallVector<TileOperand> operands;
  RankedTensorType type;
  SharedEncodingAttr encoding;
  for (LoadOp load : tiles.getBody()->getOps<LoadOp>()) {
    auto loadType = dyn_cast<RankedTensorType>(load.getType());
    BlockedEncodingAttr layout = loadType ? stageableLayout(load) : nullptr;
    if (!layout || loadType.getElementTypeBitWidth() != 16)
      continue;
    // One buffer for all: tiles of one type and order.
    auto loadEncoding = SharedEncodingAttr::getForWgmma(
        load.getContext(), loadType.getShape(), loadType.getElementType(),
        layout.getOrder());
    if (!loadEncoding ||
        (type && (loadType.getShape() != type.getShape() ||
                  loadType.getElementType() != type.getElementType() ||
                  loadEncoding != encoding)))
      continue;
    if (std::optional<TileOperand> operand =
            tileOperand(ring, load, loadEncoding)) {
      operands.push_back(std::move(*operand));
      type = loadType;
      encoding = loadEncoding;
    }
  }
  if (operands.empty())
    return;
  // Read through descriptors where registers are short: each slot is then
  // the MMAs' until the last loop that reads it.
  int64_t readers = ring.empty.getDefiningOp<BarrierAllocOp>().getArrivals();
  bool inShared = operandRegistersShort(type.getNumElements(), readers);
  // Two slots, so that the producer copies the next operand while the
  // kernel's warps still hold the slot of this one; one where shared memory
  // is short beside the ring; none where that is short too, or where an
  // operand read through descriptors would wait for a slot the MMAs of an
  // earlier one still read (their loops overlap).
  auto bytesOf = [](Value buffer) {
    auto memref = cast<MemRefType>(buffer.getType());
    return memref.getNumElements() * memref.getElementTypeBitWidth() / 8;
  };
  int64_t ringBytes = 0;
  for (Value buffer : ring.buffers)
    ringBytes += bytesOf(buffer);
  int64_t tileBytes = type.getNumElements() * 2;
  int64_t slots = 0;
  for (int64_t n : {2, 1})
    if (ringBytes + n * tileBytes + kScratchReserveBytes <= maxSharedBytes) {
      slots = n;
      break;
    }
  if (!slots)
    return;
  if (inShared)
    for (size_t j = 0; j + slots < operands.size(); ++j)
      if (!operands[j].lastLoop->isBeforeInBlock(operands[j + slots].firstLoop))
        return;
  Location loc = tiles.getLoc();
  OpBuilder b(ring.producer);
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value buffer = allocateStages(b, operands.front().load, slots, encoding);
  // Full once the copy landed; empty once every warp that reads it is done
  // with it (the warps the ring's "empty" counts).
  Value full = allocateStageBarriers(b, loc, slots, 1);
  Value empty = allocateStageBarriers(b, loc, slots, readers);
  for (auto [j, operand] : llvm::enumerate(operands)) {
    LoadOp load = operand.load;
    // The operands' running count over tiles: the ring's slot and phase;
    // the copy's operands, computed again by the producer.
    b.setInsertionPoint(load);
    Value tile = arith::DivUIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, tiles.getInductionVar(),
                              tiles.getLowerBound()),
        tiles.getStep());
    Value count = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, tile, i32(operands.size())),
        i32(j));
    Value slot = arith::RemUIOp::create(b, loc, count, i32(slots));
    Value phase = stagePhase(b, loc, count, slots);
    Value released = arith::XOrIOp::create(b, loc, phase, i32(1));
    TmaCopyOperands at(b, loc, operand.access);
    Value always = arith::ConstantIntOp::create(b, loc, 1, 1);
    // The producer copies the tile before the fill loop of its first
    // reader, once the kernel's warps handed the slot back.
    OpBuilder p(ring.fills.lookup(operand.firstLoop));
    auto wait = TmaWaitOp::create(p, loc, empty, slot, released,
                                  /*unsynchronized=*/true);
    auto copy = TmaCopyOp::create(p, load.getLoc(), operand.access.base,
                                  at.starts, at.bounds, at.stride, at.slice,
                                  buffer, slot, full, always,
                                  /*predicated=*/false);
    computeInProducer(ring, wait);
    computeInProducer(ring, copy);
    // The MMA warps wait for it before its first reader. They load it into
    // registers there, as the load's conversions did, and hand the slot
    // back at once; or, where it would take each thread 64 registers or
    // more, the MMAs read it through descriptors and the slot goes back
    // after its last reader (whose MMAs each iteration waits for).
    b.setInsertionPoint(operand.firstLoop);
    TmaWaitOp::create(b, loc, full, slot, phase, /*unsynchronized=*/true);
    if (!inShared) {
      // One read per layout the conversions gave it.
      DenseMap<Type, Value> reads;
      for (Operation *cvt : load->getUsers()) {
        Value &read = reads[cvt->getResult(0).getType()];
        if (!read)
          read = SharedLoadOp::create(b, loc, cvt->getResult(0).getType(),
                                      buffer, slot, /*transposed=*/false);
        cvt->getResult(0).replaceAllUsesWith(read);
      }
    } else {
      for (DotOp dot : operand.dots) {
        b.setInsertionPoint(dot);
        dot.getAMutable().assign(SharedLoadOp::create(
            b, loc, dot.getA().getType(), buffer, slot, /*transposed=*/false));
      }
      b.setInsertionPointAfter(operand.lastLoop);
    }
    BarrierArriveOp::create(b, loc, empty, slot, Value(), /*per_warp=*/true,
                            /*publish_shared=*/false);
    for (Operation *cvt : llvm::make_early_inc_range(load->getUsers()))
      cvt->erase();
    load.erase();
  }
}

} // namespace tile::promote
