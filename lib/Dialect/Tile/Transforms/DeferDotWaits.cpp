//===- DeferDotWaits.cpp - warpgroup MMAs waited for where first used -----===//
//
// A dot lowered to warpgroup MMAs waits for them right after issuing them,
// unless a `dot_wait` is its only user. This pass gives each such dot that
// waits at once a `dot_wait` just before the first op that reads its result,
// with `pending` the number of warpgroup-MMA dots issued in between (each
// one commit group): the MMAs then run while the ops in between issue. Two
// dots written one after the other (attention's S = Q Kᵀ for two halves of
// the query rows) run back to back, and the first half's softmax runs while
// the second half's MMAs do.
//
// The wait also takes the dot's A when it is computed in registers in the
// dot's block (attention's P): the MMAs read those registers until they
// end, so they must stay live until then. The ops passed over are those that
// cannot touch what the MMAs read or write: ops without memory effects or
// regions, other dots, global loads, shared_loads (views of stages), and the
// pipeline's copies into stages, which fill stages other than the one being
// read (tile-promote-shared refills the stage the previous iteration read). A
// wait for copies or a barrier that must end the MMAs (a one-stage
// buffer's reuse), a store, or an op with regions ends the search.
//
//===----------------------------------------------------------------------===//
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tile {
#define GEN_PASS_DEF_TILEDEFERDOTWAITS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {

/// True when `dot` becomes warpgroup MMAs that commit one group: B (and A,
/// if staged) read through descriptors from a stage stored for wgmma, as
/// convert-tile-to-gpu's wgmma lowering takes them. False for a tf32 A
/// read from a stage: one stored MN-major goes through registers in up to
/// two groups (the wgmma lowering), so such dots are left alone.
bool isOneGroupWgmmaDot(DotOp dot) {
  if (!hasWgmmaLayout(dot) || !wgmmaStage(dot, dot.getB()))
    return false;
  return !(dot.getA().getType().getElementType().isF32() &&
           dot.getA().getDefiningOp<SharedLoadOp>());
}

/// True when the MMAs of a dot may stay in flight across `op`.
bool mayPassOver(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (isa<DotOp, DotWaitOp, LoadOp, SharedLoadOp, TmaCopyOp, AsyncCopyOp,
          AsyncCommitOp>(op))
    return true;
  return isMemoryEffectFree(op);
}

/// Gives `dot` a wait before the first op of its block that reads its
/// result, where ops that may run beside its MMAs come first.
void deferWait(DotOp dot) {
  Block *block = dot->getBlock();
  Operation *first = nullptr;
  for (Operation *user : dot->getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor)
      return;
    if (!first || ancestor->isBeforeInBlock(first))
      first = ancestor;
  }
  if (!first || first == dot->getNextNode())
    return;
  int32_t pending = 0;
  for (Operation *op = dot->getNextNode(); op != first;
       op = op->getNextNode()) {
    if (!mayPassOver(op))
      return;
    if (auto other = dyn_cast<DotOp>(op)) {
      if (!hasWgmmaLayout(other))
        continue;
      // A dot that commits other than one group leaves the count unknown.
      if (!isOneGroupWgmmaDot(other))
        return;
      ++pending;
    }
  }
  OpBuilder b(first);
  SmallVector<Value> waited{dot.getResult()};
  // An A computed in the block (a loop-invariant one lives on anyway).
  Value a = dot.getA();
  if (!a.getDefiningOp<SharedLoadOp>() && a.getParentBlock() == block)
    waited.push_back(a);
  auto wait = DotWaitOp::create(b, dot.getLoc(), waited, pending);
  dot.getResult().replaceAllUsesExcept(wait.getResult(0), wait);
}

struct DeferDotWaits : tile::impl::TileDeferDotWaitsBase<DeferDotWaits> {
  void runOnOperation() override {
    SmallVector<DotOp> dots;
    getOperation().walk([&](DotOp dot) {
      // A dot already waited for by a dot_wait keeps it.
      bool waited = llvm::any_of(dot->getUsers(), [](Operation *user) {
        return isa<DotWaitOp, TransOp>(user);
      });
      if (!waited && isOneGroupWgmmaDot(dot))
        dots.push_back(dot);
    });
    for (DotOp dot : dots)
      deferWait(dot);
  }
};

} // namespace
