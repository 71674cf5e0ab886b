//===- StageOnce.cpp - dot operands copied once into shared memory -------===//
//
// Part of tile-promote-shared (sm_90a): operands that no K loop's pipeline
// stages are copied once into one-stage buffers stored for wgmma, so that
// warpgroup MMAs read them through descriptors: the loaded operands of a dot
// outside innermost loops (one block of K; tile-decompose-batched-dot's
// per-batch dots), and a 16-bit A loaded before loops whose dots read it every
// iteration (attention's Q) where holding it would take each thread 64
// registers or more.
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

/// Whether holding `loads` (invariantALoads of a loop) takes a thread 64
/// registers or more (128 elements: attention's Q at D = 128 with 128 rows
/// on 4 warps, which spilled and ran 1.2-1.45x slower; or the two halves of
/// those rows, each read by its own dots); below that, reading them from
/// shared memory every iteration cost up to 7% (bench/NOTES.md v39).
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
  return elements / (32 * warps) >= 128;
}

} // namespace

namespace tile::promote {

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

} // namespace tile::promote
