//===- WarpSpecialize.cpp - a producer warpgroup fills a pipeline ---------===//
//
// tile-promote-shared's pipelines in which a `tile.producer` fills every
// stage while the kernel's warps only wait for stages, run the MMAs and
// hand stages back, through two mbarriers per stage ("full" and "empty")
// instead of block barriers:
//
// - a loop whose tf32 B is transposed on its way into shared memory (TN):
//   A by TMA, B loaded into registers and stored K-major, in two groups
//   taking alternate iterations (pipelineWithProducer);
// - a loop of two or more warpgroup-MMA dots on two warpgroups whose
//   stages are all TMA copies (attention's K and V): one warpgroup that
//   only waits for stages and issues the copies, with few registers, so
//   that the MMA warps hold more (pipelineTmaWithProducer;
//   FlashAttention-3's producer, bench/NOTES.md v49).
//
//===----------------------------------------------------------------------===//
#include "PromoteSharedCommon.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tile;

namespace tile::promote {

/// Warps of a producer (tile.producer): one warpgroup, in two groups.
constexpr unsigned kProducerWarps = 4, kProducerGroups = 2;

/// Registers a thread of a producer that only issues TMA copies keeps
/// (setmaxnreg): the MMA warps beside it get 232 (bench/NOTES.md v49).
constexpr unsigned kTmaProducerRegisters = 40;

/// The loop around `loop` when that loop is in the kernel's body (a
/// persistent grid's loop over tiles); null otherwise.
static scf::ForOp tileLoopAround(scf::ForOp loop) {
  auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
  return outer && isa<KernelOp>(outer->getParentOp()) ? outer : scf::ForOp();
}

Operation *producerAnchor(scf::ForOp loop) {
  scf::ForOp tiles = tileLoopAround(loop);
  return tiles ? tiles.getOperation() : loop.getOperation();
}

/// True when a producer created before `anchor` (a loop or a loop over
/// tiles) may serve it: `anchor` is in its kernel's body, the kernel has
/// none yet (at most one per kernel), and what the kernel does before
/// `anchor` only reads memory: the producer's warps branch off there and
/// run what comes before it too, as copies of the first warps (their
/// coordinates wrap), which would repeat a store's or an atomic's effect.
static bool mayAddProducer(Operation *anchor) {
  Operation *kernel = anchor->getParentOp();
  if (!isa<KernelOp>(kernel) ||
      kernel->walk([](ProducerOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return false;
  for (Operation *op = &anchor->getBlock()->front(); op != anchor;
       op = op->getNextNode()) {
    // The pipeline's buffers (allocated before the loop) are no effect
    // that repeats.
    if (isa<SharedAllocOp, BarrierAllocOp>(op))
      continue;
    WalkResult writes = op->walk([](Operation *nested) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
      if (!effects) {
        // Ops without the interface: their regions' ops are walked.
        return nested->getNumRegions() != 0 ||
                       nested->hasTrait<OpTrait::ConstantLike>()
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      }
      return effects.hasEffect<MemoryEffects::Write>() ||
                     effects.hasEffect<MemoryEffects::Allocate>() ||
                     effects.hasEffect<MemoryEffects::Free>()
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (writes.wasInterrupted())
      return false;
  }
  return true;
}

/// Where a producer's fill loops find their bounds and addresses: in its
/// copy of the kernel's loop over tiles `tiles`, or (without one) after the
/// producer in the kernel's body. Values it has as they are: from before
/// `tiles`, or from before the producer and in its body.
struct ProducerScope {
  scf::ForOp tiles;
  Operation *producer;
  std::optional<DominanceInfo> dominance;

  ProducerScope(scf::ForOp tiles, Operation *producer)
      : tiles(tiles), producer(producer) {
    if (!tiles)
      dominance.emplace(producer->getParentOp());
  }
  /// The block whose ops the producer may compute again.
  Block *block() { return tiles ? tiles.getBody() : producer->getBlock(); }
  bool has(Value v) {
    Operation *owner = v.getParentRegion()->getParentOp();
    if (tiles)
      return owner != tiles && !tiles->isProperAncestor(owner);
    return producer->isAncestor(owner) ||
           dominance->properlyDominates(v, producer);
  }
};

/// True when the producer can compute `v`: a value it has, the tile loop's
/// induction variable, or a side-effect free op without regions in the
/// scope's block over such values (a tile's head offset and causal bounds,
/// a loop bound computed at the loop; not what loops carry or memory holds).
static bool computableInProducer(Value v, ProducerScope &scope,
                                 DenseMap<Value, bool> &memo) {
  if (scope.has(v) || (scope.tiles && v == scope.tiles.getInductionVar()))
    return true;
  auto [it, inserted] = memo.try_emplace(v, false);
  if (!inserted)
    return it->second;
  Operation *def = v.getDefiningOp();
  bool computable = def && def->getBlock() == scope.block() &&
                    def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
                    llvm::all_of(def->getOperands(), [&](Value o) {
                      return computableInProducer(o, scope, memo);
                    });
  memo[v] = computable;
  return computable;
}

/// True when the producer (created before `anchor`: the tile loop, or the
/// loop itself) can compute `loop`'s bounds and the addresses of its
/// candidates' copies before the loop's fill loop.
static bool fillComputable(scf::ForOp loop, MutableArrayRef<Candidate> cands,
                           scf::ForOp tiles, Operation *anchor) {
  ProducerScope scope(tiles, anchor);
  DenseMap<Value, bool> memo;
  auto computable = [&](Value v) {
    return computableInProducer(v, scope, memo);
  };
  if (!computable(loop.getLowerBound()) || !computable(loop.getUpperBound()) ||
      !computable(loop.getStep()))
    return false;
  for (Candidate &c : cands)
    for (Operation *op : c.slice)
      for (Value operand : op->getOperands())
        if (loop.isDefinedOutsideOfLoop(operand) && !computable(operand))
          return false;
  return true;
}

bool producerCanCompute(TmaRing &ring, Value v) {
  ProducerScope scope(ring.tileLoop, ring.producer);
  DenseMap<Value, bool> memo;
  return computableInProducer(v, scope, memo);
}

void computeInProducer(TmaRing &ring, Operation *root) {
  ProducerScope scope(ring.tileLoop, ring.producer);
  OpBuilder b(root);
  // A clone made for a later op (a later loop's fill, before an operand
  // copy placed at an earlier one) moves up to `root`, with its operands.
  std::function<void(Value)> hoist = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != root->getBlock() ||
        def->isBeforeInBlock(root))
      return;
    for (Value operand : def->getOperands())
      hoist(operand);
    def->moveBefore(root);
  };
  std::function<Value(Value)> copy = [&](Value v) -> Value {
    if (Value mapped = ring.inProducer.lookupOrNull(v)) {
      hoist(mapped);
      return mapped;
    }
    if (scope.has(v))
      return v;
    Operation *def = v.getDefiningOp();
    assert(def && def->getBlock() == scope.block() &&
           "the producer computes only side-effect free ops of its scope");
    for (Value operand : def->getOperands())
      copy(operand);
    b.clone(*def, ring.inProducer);
    return ring.inProducer.lookup(v);
  };
  root->walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands())
      use.set(copy(use.get()));
  });
}

/// The iteration number of `loop`'s induction value `iv` (counted from
/// `offset` when given: a ring of stages that earlier loops filled), its
/// stage of `stages` and the parity of the stage's phase, computed at `b`.
static std::tuple<Value, Value, Value>
stagePosition(OpBuilder &b, scf::ForOp loop, Value iv, int64_t stages,
              Value offset = Value()) {
  auto [iteration, stage] = iterationStage(b, loop, iv, stages);
  Location loc = loop.getLoc();
  if (offset) {
    iteration = arith::AddIOp::create(b, loc, offset, iteration);
    stage = arith::RemUIOp::create(
        b, loc, iteration, arith::ConstantIntOp::create(b, loc, stages, 32));
  }
  return {iteration, stage, stagePhase(b, loc, iteration, stages)};
}

/// The iterations of `loop` (none when its upper bound is below its lower
/// one), computed at `b`.
static Value tripCount(OpBuilder &b, scf::ForOp loop) {
  Location loc = loop.getLoc();
  Value span = arith::MaxSIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, loop.getUpperBound(),
                            loop.getLowerBound()),
      arith::ConstantIntOp::create(b, loc, 0, 32));
  return arith::CeilDivSIOp::create(b, loc, span, loop.getStep());
}

/// The producer's wait until every warp of the kernel released `stage`
/// (of phase parity `phase` in this round) in the previous round: round r
/// waits for the release ending round r-1 (phase r-1); a fresh barrier
/// counts phase -1 (parity 1) as complete.
static void waitForRelease(OpBuilder &b, Location loc, Value empty, Value stage,
                           Value phase) {
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  TmaWaitOp::create(b, loc, empty, stage,
                    arith::XOrIOp::create(b, loc, phase, one),
                    /*unsynchronized=*/true);
}

/// Each warp of the kernel hands the stage of the iteration before
/// `iteration` back to the producer (none before the first, `first`; 0
/// when null): its MMAs that read it have ended.
static void releasePreviousStage(OpBuilder &b, Location loc, Value empty,
                                 Value iteration, int64_t stages,
                                 Value first = Value()) {
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value previous = arith::RemUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, iteration, i32(stages - 1)),
      i32(stages));
  Value notFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                         iteration, first ? first : i32(0));
  BarrierArriveOp::create(b, loc, empty, previous, notFirst,
                          /*per_warp=*/true, /*publish_shared=*/false);
}

/// The dot of `loop` whose stages a producer warpgroup fills
/// (pipelineWithProducer) in `loop`, pipelined with `stages` stages; null
/// when none may: the option is off, no candidate is a transposing copy (the
/// others then gain nothing, bench/NOTES.md v45) or its tile has more than
/// 4096 elements (32 a producer thread in groups of 4 warps, 64 in groups
/// of 2), another is no TMA copy, no dot's MMAs stay in flight, the dot's
/// warps are not 4 or 8 (the producer's register budgets), or the loop may
/// take no producer (mayAddProducer).
DotOp producerDot(scf::ForOp loop, MutableArrayRef<Candidate> cands,
                  int64_t stages, bool warpSpecialize, bool wgmma, bool tma) {
  if (!warpSpecialize || !wgmma || !tma || stages < 2 || !mayAddProducer(loop))
    return {};
  bool transposing = false;
  for (Candidate &c : cands) {
    if (c.transposingCopy) {
      // The tile in a producer thread's registers (the producer's register
      // budget): 32 elements a thread of 4 warps, 64 of 2.
      auto type = cast<RankedTensorType>(c.load.getType());
      if (type.getNumElements() > 32 * 32 * kProducerWarps)
        return {};
      transposing = true;
    } else if (!tmaAccess(c)) {
      return {};
    }
  }
  if (!transposing)
    return {};
  DotOp dot = inFlightDot(loop, cands);
  unsigned warps =
      dot ? cast<BlockedEncodingAttr>(dot.getType().getEncoding()).getNumWarps()
          : 0;
  return warps == 4 || warps == 8 ? dot : DotOp();
}

/// The warpgroup-MMA dots directly in `loop`'s body, all on two
/// warpgroups; -1 when a dot in it is not.
static int64_t twoWarpgroupDots(scf::ForOp loop) {
  int64_t dots = 0;
  WalkResult walk = loop.getBody()->walk([&](DotOp dot) {
    if (dot->getBlock() != loop.getBody() || !hasWgmmaLayout(dot) ||
        cast<BlockedEncodingAttr>(dot.getType().getEncoding()).getNumWarps() !=
            2 * kProducerWarps)
      return WalkResult::interrupt();
    ++dots;
    return WalkResult::advance();
  });
  return walk.wasInterrupted() ? -1 : dots;
}

/// True when a loop after `loop` in its block issues two or more dots an
/// iteration on two warpgroups: a ring `loop` begins may go on there
/// (attention's first key block, S alone, before the blocks that issue S
/// beside the previous block's P V).
static bool laterLoopTakesTurns(scf::ForOp loop) {
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
    if (auto later = dyn_cast<scf::ForOp>(op);
        later && isInnermost(later) && twoWarpgroupDots(later) >= 2)
      return true;
  return false;
}

/// The warps of `loop`'s kernel when a producer of TMA copies may feed its
/// body (pipelineTmaWithProducer, continueTmaRing): every candidate a TMA
/// copy, no MMAs in flight across iterations, two or more warpgroup-MMA
/// dots directly in the body (one where a later loop has two, or where
/// the loop `continues` a ring), all on two warpgroups; 0 otherwise. A
/// loop that continues a ring keeps no MMAs in flight whatever its dots:
/// only the one-role pipeline leaves them so, and tile-defer-dot-waits
/// waits for them within the body.
static int64_t tmaConsumerWarps(scf::ForOp loop,
                                MutableArrayRef<Candidate> cands,
                                bool continues = false) {
  if (!llvm::all_of(cands,
                    [](Candidate &c) { return tmaAccess(c).has_value(); }))
    return 0;
  // MMAs in flight across iterations would still read the stage a warp
  // releases at the top of the next.
  if (!continues && inFlightDot(loop, cands))
    return 0;
  // Two warpgroups, each issuing two or more dots an iteration: the MMAs
  // of one run beside the other's softmax while a producer keeps the
  // stages full; one dot an iteration (a matmul) keeps its one-role
  // pipeline.
  int64_t minDots = continues || laterLoopTakesTurns(loop) ? 1 : 2;
  return twoWarpgroupDots(loop) >= minDots ? 2 * kProducerWarps : 0;
}

int64_t tmaProducerWarps(scf::ForOp loop, MutableArrayRef<Candidate> cands,
                         int64_t stages, bool warpSpecialize, bool wgmma,
                         bool tma) {
  scf::ForOp tiles = tileLoopAround(loop);
  if (!warpSpecialize || !wgmma || !tma || stages < 2 ||
      !mayAddProducer(producerAnchor(loop)))
    return 0;
  // The producer's copy of a loop over tiles computes each tile's fill
  // loops (a persistent grid).
  if (tiles && (!tiles.getInductionVar().getType().isInteger(32) ||
                !fillComputable(loop, cands, tiles, tiles)))
    return 0;
  return tmaConsumerWarps(loop, cands);
}

/// Fills, in the producer's body at `b`, the stages of `loop`'s iterations
/// (the ring's iterations from `offset` on) with the copies of `cands` and
/// of `fillers` (copies no dot reads, for buffers of the ring that `loop`
/// does not read: their arrivals complete each stage's "full"), and makes
/// `loop`'s body release the previous iteration's stage and wait for its
/// own.
static void feedFromRing(OpBuilder &b, TmaRing &ring, scf::ForOp loop,
                         MutableArrayRef<Candidate> cands, Value offset,
                         ArrayRef<Candidate> fillers = {}) {
  Location loc = loop.getLoc();
  {
    OpBuilder::InsertionGuard guard(b);
    auto fill =
        scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                           loop.getStep());
    b.setInsertionPoint(fill.getBody()->getTerminator());
    Value k = fill.getInductionVar();
    auto [iteration, stage, phase] =
        stagePosition(b, loop, k, ring.stages, offset);
    waitForRelease(b, loc, ring.empty, stage, phase);
    SmallVector<Candidate> copies(cands.begin(), cands.end());
    copies.append(fillers.begin(), fillers.end());
    issueTmaCopies(b, loop, copies, k, stage, ring.full, /*predicated=*/false);
    computeInProducer(ring, fill);
    ring.fills[loop] = fill;
  }
  // The release first: the producer refills that stage while this warp
  // waits for the next. A tile's first iteration releases nothing: the
  // tile before released its last stage (finishTmaRing).
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  auto [iteration, stage, phase] =
      stagePosition(b, loop, loop.getInductionVar(), ring.stages, offset);
  releasePreviousStage(b, loc, ring.empty, iteration, ring.stages,
                       ring.tileLoop ? ring.tileStart : Value());
  TmaWaitOp::create(b, loc, ring.full, stage, phase, /*unsynchronized=*/true);
  for (Candidate &c : cands)
    c.readStage(b, stage);
  for (Candidate &c : cands)
    c.eraseLoad();
  // A block barrier of the kernel's warps: every warp's MMAs are off the
  // stages before the epilogue reuses their bytes.
  b.setInsertionPointAfter(loop);
  AsyncWaitOp::create(b, loc, 0);
}

/// Pipelines `loop`, whose stages are all TMA copies, with a producer
/// warpgroup that only issues the copies:
///
///   producer, iteration i: tma_wait empty[i%S] (phase of i-S's release)
///                          tma_copy iteration i into i%S, signalling full
///   kernel,   iteration i: barrier_arrive empty[(i-1)%S] (one per warp)
///                          tma_wait full[i%S]
///                          the body, its dots reading stage i%S
///
/// No block barrier in the loop: each warpgroup runs ahead of the other as
/// far as the stages allow (attention's softmax of one beside the MMAs of
/// the other). Every MMA of iteration i-1 has ended when a warp releases
/// its stage: no dot's MMAs stay in flight across iterations
/// (tmaProducerWarps), and tile-defer-dot-waits leaves none past the body.
///
/// In a loop over tiles (a persistent grid) the producer runs its own copy
/// of that loop, computing each tile's bounds and addresses, and both
/// copies count the ring's iterations across tiles in an iteration
/// argument (finishTmaRing ends each tile).
TmaRing pipelineTmaWithProducer(scf::ForOp loop,
                                MutableArrayRef<Candidate> cands,
                                int64_t stages, int64_t kernelWarps) {
  Location loc = loop.getLoc();
  scf::ForOp tiles = tileLoopAround(loop);
  OpBuilder b(producerAnchor(loop));
  TmaRing ring;
  ring.stages = stages;
  for (Candidate &c : cands) {
    ring.buffers.push_back(c.buffer);
    ring.bases.push_back(tmaAccess(c)->base);
  }
  // A stage is full once each copy's bytes landed (one arrival a copy,
  // announcing them); empty once every warp of the kernel ended the MMAs
  // that read it.
  ring.full = allocateStageBarriers(b, loc, stages, int64_t(cands.size()));
  ring.empty = allocateStageBarriers(b, loc, stages, kernelWarps);
  ring.filled = ring.tileStart = arith::ConstantIntOp::create(b, loc, 0, 32);
  ring.producer = ProducerOp::create(b, loc, kProducerWarps, /*groups=*/1,
                                     kTmaProducerRegisters);
  ring.lastLoop = loop;
  b.createBlock(&ring.producer.getBody(), {}, {b.getI32Type()}, {loc});
  if (!tiles) {
    feedFromRing(b, ring, loop, cands, /*offset=*/Value());
    return ring;
  }
  auto carry = [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
    return SmallVector<Value>{args.back()};
  };
  ring.producerTiles = scf::ForOp::create(
      b, loc, tiles.getLowerBound(), tiles.getUpperBound(), tiles.getStep(),
      ValueRange{ring.tileStart},
      [&](OpBuilder &nested, Location nestedLoc, Value, ValueRange args) {
        scf::YieldOp::create(nested, nestedLoc, args);
      });
  IRRewriter rewriter(b);
  ring.tileLoop = cast<scf::ForOp>(*tiles.replaceWithAdditionalYields(
      rewriter, ValueRange{ring.tileStart},
      /*replaceInitOperandUsesInLoop=*/false, carry));
  ring.filled = ring.tileStart = ring.tileLoop.getRegionIterArgs().back();
  ring.inProducer.map(ring.tileLoop.getInductionVar(),
                      ring.producerTiles.getInductionVar());
  ring.inProducer.map(ring.tileStart,
                      ring.producerTiles.getRegionIterArgs().back());
  b.setInsertionPoint(ring.producerTiles.getBody()->getTerminator());
  feedFromRing(b, ring, loop, cands, ring.filled);
  return ring;
}

void finishTmaRing(TmaRing &ring) {
  if (!ring.tileLoop)
    return;
  Location loc = ring.lastLoop.getLoc();
  // No block barrier after the last loop: its stages are the ring's for
  // the next tile, not bytes the tile's epilogue reuses (the buffers are
  // allocated before the tile loop), and each warp releases the last stage
  // once its own MMAs have ended.
  if (auto wait = dyn_cast_or_null<AsyncWaitOp>(ring.lastLoop->getNextNode()))
    wait.erase();
  OpBuilder b(ring.lastLoop);
  b.setInsertionPointAfter(ring.lastLoop);
  Value end =
      arith::AddIOp::create(b, loc, ring.filled, tripCount(b, ring.lastLoop));
  // The tile's last stage goes back at once: the producer refills it with
  // the next tile's keys while this tile's epilogue runs.
  releasePreviousStage(b, loc, ring.empty, end, ring.stages, ring.tileStart);
  Operation *yield = ring.tileLoop.getBody()->getTerminator();
  yield->getOpOperands().back().set(end);
  Operation *producerYield = ring.producerTiles.getBody()->getTerminator();
  producerYield->getOpOperands().back().set(end);
  computeInProducer(ring, producerYield);
}

/// A copy in `fill` (a producer's fill loop) into a buffer of `alloc`'s
/// type and encoding (the same tile shape and element type, stored the
/// same way); null if none.
static TmaCopyOp copyLike(scf::ForOp fill, SharedAllocOp alloc) {
  TmaCopyOp found;
  fill.getBody()->walk([&](TmaCopyOp copy) {
    auto other = copy.getBuffer().getDefiningOp<SharedAllocOp>();
    if (other && other.getType() == alloc.getType() &&
        other.getEncoding() == alloc.getEncoding()) {
      found = copy;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Bytes of one stage of `buffer`.
static int64_t stageBytes(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  return type.getNumElements() / type.getDimSize(0) *
         type.getElementType().getIntOrFloatBitWidth() / 8;
}

bool continueTmaRing(TmaRing &ring, scf::ForOp loop,
                     MutableArrayRef<Candidate> cands, int64_t budgetBytes) {
  ProducerOp producer = ring.producer;
  Block *block = ring.tileLoop ? ring.tileLoop.getBody() : producer->getBlock();
  if (loop->getBlock() != block || !ring.lastLoop->isBeforeInBlock(loop) ||
      !tmaConsumerWarps(loop, cands, /*continues=*/true))
    return false;
  // Each candidate fills the buffer of its tensor, in that buffer's tile
  // shape and encoding.
  auto fits = [&](Candidate &c, Value buffer) {
    auto alloc = buffer.getDefiningOp<SharedAllocOp>();
    auto type = cast<RankedTensorType>(c.load.getType());
    return alloc.getEncoding() == c.encoding &&
           alloc.getType().getShape().drop_front() == type.getShape() &&
           alloc.getType().getElementType() == type.getElementType();
  };
  SmallVector<Value> buffers;
  SmallVector<bool> read(ring.buffers.size(), false);
  // Candidates of a tensor the ring holds no buffer for (attention's V
  // after a first key block that reads K alone).
  SmallVector<Candidate *> added;
  for (Candidate &c : cands) {
    Value base = tmaAccess(c)->base;
    auto slots = llvm::seq<size_t>(0, ring.buffers.size());
    auto slot = llvm::find_if(slots, [&](size_t i) {
      return !read[i] && ring.bases[i] == base && fits(c, ring.buffers[i]);
    });
    if (slot == slots.end()) {
      added.push_back(&c);
      buffers.push_back(Value());
      continue;
    }
    read[*slot] = true;
    buffers.push_back(ring.buffers[*slot]);
  }
  // An added buffer's stages are filled in the earlier loops' iterations
  // too, with a copy of a tile of the same shape they read (a filler), so
  // that every stage's "full" counts the same arrivals; the ring's stages
  // must still fit in `budgetBytes`.
  int64_t bytes = 0;
  for (Value buffer : ring.buffers)
    bytes += stageBytes(buffer);
  SmallVector<SharedAllocOp> likes;
  for (Candidate *c : added) {
    auto type = cast<RankedTensorType>(c->load.getType());
    bytes += type.getNumElements() *
             type.getElementType().getIntOrFloatBitWidth() / 8;
    auto like = llvm::find_if(ring.buffers,
                              [&](Value buffer) { return fits(*c, buffer); });
    if (like == ring.buffers.end())
      return false;
    likes.push_back(like->getDefiningOp<SharedAllocOp>());
    for (auto &[consumer, fill] : ring.fills)
      if (!copyLike(fill, likes.back()))
        return false;
  }
  if (bytes * ring.stages > budgetBytes)
    return false;
  // A buffer the loop does not read gets a copy of a tile it reads (the
  // same bytes), whose arrival completes the stage's "full".
  SmallVector<Candidate> fillers;
  for (auto [i, buffer] : llvm::enumerate(ring.buffers)) {
    if (read[i])
      continue;
    Candidate *like =
        llvm::find_if(cands, [&](Candidate &c) { return fits(c, buffer); });
    if (like == cands.end())
      return false;
    fillers.push_back(*like);
    fillers.back().buffer = buffer;
  }
  // The producer computes the loop's bounds and copy addresses: what the
  // kernel computed before it, or again from the tile index or from such
  // values (computeInProducer).
  if (!fillComputable(loop, cands, ring.tileLoop, producer))
    return false;
  if (!added.empty()) {
    OpBuilder alloc(producer);
    auto full = ring.full.getDefiningOp<BarrierAllocOp>();
    full.setArrivals(full.getArrivals() + added.size());
    for (auto [c, like] : llvm::zip_equal(added, likes)) {
      Value buffer = allocateStages(alloc, c->load, ring.stages, c->encoding);
      for (auto &[consumer, fill] : ring.fills) {
        TmaCopyOp copy = copyLike(fill, like);
        OpBuilder after(copy);
        after.setInsertionPointAfter(copy);
        cast<TmaCopyOp>(after.clone(*copy)).getBufferMutable().assign(buffer);
      }
      ring.buffers.push_back(buffer);
      ring.bases.push_back(tmaAccess(*c)->base);
      buffers[c - cands.data()] = buffer;
    }
  }
  // The loop's iterations follow the earlier loops' in the ring (the
  // producer computes the count again).
  OpBuilder b(loop);
  Value offset = arith::AddIOp::create(b, loop.getLoc(), ring.filled,
                                       tripCount(b, ring.lastLoop));
  for (auto [c, buffer] : llvm::zip_equal(cands, buffers))
    c.buffer = buffer;
  // The earlier loop's barrier need not end its MMAs: the stages stay the
  // ring's until the last loop's.
  for (Operation *op = ring.lastLoop->getNextNode(); op && op != loop;
       op = op->getNextNode())
    if (auto wait = dyn_cast<AsyncWaitOp>(op)) {
      wait.erase();
      break;
    }
  if (ring.tileLoop)
    b.setInsertionPoint(ring.producerTiles.getBody()->getTerminator());
  else
    b.setInsertionPointToEnd(&producer.getBody().front());
  feedFromRing(b, ring, loop, cands, offset, fillers);
  ring.filled = offset;
  ring.lastLoop = loop;
  return true;
}

/// Pipelines `loop` with a producer warpgroup (`tile.producer`) that
/// fills every stage while the kernel's warps run the MMAs of `dot`,
/// whose MMAs stay in flight:
///
///   producer, iteration i (its group i % 2 of 2):
///                          loads
///                          tma_wait empty[i%S] (phase of i-S's release)
///                          TMA copies, shared_store into i%S
///                          barrier_arrive full[i%S] (stores published)
///   kernel,   iteration i: tma_wait full[i%S]
///                          dot reading stage i%S
///                          dot_wait pending = 1   -- iteration i-1's end
///                          barrier_arrive empty[(i-1)%S] (one per warp)
///
/// Neither side passes a block barrier in the loop: a transposing copy's
/// loads and stores no longer sit among the MMAs (bench/NOTES.md v45).
void pipelineWithProducer(scf::ForOp loop, MutableArrayRef<Candidate> cands,
                          int64_t stages, DotOp dot) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value lb = loop.getLowerBound(), step = loop.getStep();
  // A stage is full once each TMA copy's bytes landed and every thread of
  // the group that fills it published its stores; empty once every warp
  // of the kernel ended the MMAs that read it.
  int64_t consumerWarps =
      cast<BlockedEncodingAttr>(dot.getType().getEncoding()).getNumWarps();
  // The fence that publishes a thread's stores waits for every load its
  // warp has in flight (ptxas puts a MEMBAR before it), so each group loads,
  // stores and fences one iteration and two groups take alternate
  // iterations: their loads overlap. Groups of 4 warps beside 4 MMA warps
  // (32 registers of B a thread); beside 8, whose accumulators leave
  // registers for one warpgroup only, of 2 (64 each). One group of 4 spent
  // a load latency per iteration, slower than the MMAs; one that loaded an
  // iteration ahead still drained those loads at each fence: 0.546 against
  // 0.470 ms for two groups of 2 (bench/NOTES.md v45).
  unsigned groupWarps = consumerWarps > 4 ? kProducerWarps / 2 : kProducerWarps;
  int64_t tmaCopies =
      llvm::count_if(cands, [](Candidate &c) { return !c.transposingCopy; });
  Value full =
      allocateStageBarriers(b, loc, stages, tmaCopies + 32 * groupWarps);
  Value empty = allocateStageBarriers(b, loc, stages, consumerWarps);
  auto producer =
      ProducerOp::create(b, loc, groupWarps, kProducerGroups,
                         /*registers=*/consumerWarps > 4 ? 104 : 72);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body =
        b.createBlock(&producer.getBody(), {}, {b.getI32Type()}, {loc});
    // Group g fills iterations g, g + G, ....
    Value group = body->getArgument(0);
    Value first = arith::AddIOp::create(
        b, loc, lb, arith::MulIOp::create(b, loc, group, step));
    Value stride = arith::MulIOp::create(b, loc, step, i32(kProducerGroups));
    auto fill = scf::ForOp::create(b, loc, first, loop.getUpperBound(), stride);
    b.setInsertionPoint(fill.getBody()->getTerminator());
    Value k = fill.getInductionVar();
    auto [iteration, stage, phase] = stagePosition(b, loop, k, stages);
    // The loads need no stage: they go first, their latency beside the
    // wait for the stage.
    SmallVector<Value> held =
        issueCopies(b, loop, cands, k, Value(), /*async=*/false,
                    /*registers=*/true, groupWarps);
    waitForRelease(b, loc, empty, stage, phase);
    issueTmaCopies(b, loop, cands, k, stage, full, /*predicated=*/false);
    unsigned i = 0;
    for (Candidate &c : cands)
      if (c.transposingCopy)
        SharedStoreOp::create(b, c.load.getLoc(), held[i++], c.buffer, stage);
    BarrierArriveOp::create(b, loc, full, stage, /*pred=*/Value(),
                            /*per_warp=*/false, /*publish_shared=*/true);
  }
  b.setInsertionPointToStart(loop.getBody());
  auto [iteration, stage, phase] =
      stagePosition(b, loop, loop.getInductionVar(), stages);
  TmaWaitOp::create(b, loc, full, stage, phase, /*unsynchronized=*/true);
  for (Candidate &c : cands)
    c.readStage(b, stage);
  b.setInsertionPointAfter(dot);
  auto turn = DotWaitOp::create(b, loc, ValueRange{dot.getResult()}, 1,
                                /*synchronize=*/false);
  dot.getResult().replaceAllUsesExcept(turn.getResult(0), turn);
  // The previous iteration's MMAs have ended in this warp: its stage goes
  // back to the producer.
  releasePreviousStage(b, loc, empty, iteration, stages);
  for (Candidate &c : cands)
    c.eraseLoad();
  // The loop's result waits for the last MMAs; the block barrier after
  // them keeps every warp's MMAs off the stages before the epilogue
  // reuses their bytes.
  b.setInsertionPointAfter(loop);
  Value result = loop.getTiedLoopResult(carriedAccumulator(dot));
  auto last = DotWaitOp::create(b, loc, ValueRange{result}, 0);
  result.replaceAllUsesExcept(last.getResult(0), last);
  AsyncWaitOp::create(b, loc, 0);
}

} // namespace tile::promote
