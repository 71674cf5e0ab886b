//===- PrefetchLoads.cpp - a loop's global loads one iteration ahead ------===//
//
// A loop that loads a tile each iteration and then computes on it (a GEMV's
// rows, a row reduction over chunks, cross-entropy's online logsumexp) waits
// for each iteration's loads before its arithmetic, and the arithmetic before
// the next loads issue: one iteration's bytes in flight a program, which is
// far from what DRAM needs (bench/NOTES.md v56: a GEMV at 0.44x of Triton's,
// which pipelines such loads). This pass rotates the loop: the loads of
// iteration i + 1 issue at the top of iteration i and the loop carries their
// values, so they are in flight while iteration i computes (the first
// iteration's loads go before the loop).
//
// Only loops that write no memory qualify (a store of iteration i could be
// what iteration i + 1 loads), and that issue no dot (tile-promote-shared
// pipelines those through shared memory); only loads directly in the body
// whose pointers, mask and other value are computed, through ops without
// memory effects, from the induction variable, values defined above the loop
// and carried values that the body advances from themselves alone (Triton's
// `p += BK`). Past the loop's end (and where the induction variable would
// wrap) the early loads read the current iteration's addresses again, or
// are masked off where carried pointers advance, so they read nothing the
// loop would not.
//
//===----------------------------------------------------------------------===//
#include "PromoteSharedCommon.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tile {
#define GEN_PASS_DEF_TILEPREFETCHLOADS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {

/// Registers a thread may spend on the values the loop carries ahead: the
/// loads' elements over the kernel's threads, in bytes (64 registers).
constexpr int64_t kMaxPrefetchBytesPerThread = 256;

/// True when nothing in `loop` (nested regions too) writes memory or issues
/// a dot, so its loads may move an iteration earlier.
bool mayPrefetchIn(scf::ForOp loop) {
  WalkResult walk = loop.getBody()->walk([](Operation *op) {
    if (isa<DotOp, ProducerOp>(op))
      return WalkResult::interrupt();
    // An op with regions is judged by the ops in them, which the walk visits.
    if (op->getNumRegions() != 0 || isMemoryEffectFree(op) ||
        hasSingleEffect<MemoryEffects::Read>(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// How a load's address is computed for another iteration: the body's ops
/// it comes from, and the loop-carried values it reads (pointers the loop
/// advances, `p = p + BK`), each with the ops of the body that compute its
/// next value from itself alone.
struct Address {
  SmallVector<Operation *> slice;
  SmallVector<std::pair<unsigned, SmallVector<Operation *>>> carried;
};

/// `load`'s Address in `loop`, if the loop can compute it ahead.
std::optional<Address> addressOf(scf::ForOp loop, LoadOp load) {
  llvm::SetVector<unsigned> carried;
  std::optional<SmallVector<Operation *>> slice =
      promote::loopBodySlice(loop, load->getOperands(), carried);
  if (!slice)
    return std::nullopt;
  Address address{std::move(*slice), {}};
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned i : carried) {
    llvm::SetVector<unsigned> reads;
    std::optional<SmallVector<Operation *>> advance =
        promote::loopBodySlice(loop, yield.getOperand(i), reads);
    if (!advance || llvm::any_of(reads, [&](unsigned j) { return j != i; }))
      return std::nullopt;
    address.carried.emplace_back(i, std::move(*advance));
  }
  return address;
}

/// Bytes of `load`'s tile each thread holds, about (its elements over the
/// kernel's threads).
int64_t bytesPerThread(LoadOp load, int64_t threads) {
  Type type = load.getType();
  auto tensor = dyn_cast<RankedTensorType>(type);
  int64_t elements = tensor ? tensor.getNumElements() : 1;
  Type element = tensor ? tensor.getElementType() : type;
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  return std::max<int64_t>(1, elements / threads) * std::max<int64_t>(bits, 8) /
         8;
}

/// `load` again at `b`, its address computed from `mapping`'s values (for
/// the induction variable and the carried values it reads) and, given
/// `valid` (an i1 scalar), masked off where it is false.
Value cloneLoadAt(OpBuilder &b, IRMapping mapping, LoadOp load,
                  ArrayRef<Operation *> slice, Value valid) {
  for (Operation *op : slice)
    b.clone(*op, mapping);
  Location loc = load.getLoc();
  Value mask =
      load.getMask() ? mapping.lookupOrDefault(load.getMask()) : Value();
  if (valid) {
    Value off = valid;
    if (auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType()))
      off = SplatOp::create(b, loc, ptrType.clone(b.getI1Type()), valid);
    mask = mask ? arith::AndIOp::create(b, loc, mask, off).getResult() : off;
  }
  Value other =
      load.getOther() ? mapping.lookupOrDefault(load.getOther()) : Value();
  return LoadOp::create(b, loc, load.getType(),
                        mapping.lookupOrDefault(load.getPtr()), mask, other)
      .getResult();
}

/// Rotates `loop` so that its qualifying loads issue an iteration ahead.
void prefetch(scf::ForOp loop, int64_t threads) {
  if (!mayPrefetchIn(loop))
    return;
  SmallVector<std::pair<LoadOp, Address>> loads;
  int64_t bytes = 0;
  for (auto load : loop.getBody()->getOps<LoadOp>()) {
    std::optional<Address> address = addressOf(loop, load);
    if (!address)
      continue;
    int64_t held = bytesPerThread(load, threads);
    if (bytes + held > kMaxPrefetchBytesPerThread)
      continue;
    bytes += held;
    loads.emplace_back(load, std::move(*address));
  }
  if (loads.empty())
    return;
  Location loc = loop.getLoc();
  bool isUnsigned = loop.getUnsignedCmp();
  auto before = [&](OpBuilder &b, Value lhs, Value rhs) -> Value {
    return arith::CmpIOp::create(b, loc,
                                 isUnsigned ? arith::CmpIPredicate::ult
                                            : arith::CmpIPredicate::slt,
                                 lhs, rhs);
  };
  // The first iteration's loads, before the loop (off when it runs none),
  // from the carried values' initial ones.
  OpBuilder b(loop);
  Value runs = before(b, loop.getLowerBound(), loop.getUpperBound());
  SmallVector<Value> first;
  for (auto &[load, address] : loads) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), loop.getLowerBound());
    for (auto &[i, advance] : address.carried)
      mapping.map(loop.getRegionIterArgs()[i], loop.getInitArgs()[i]);
    first.push_back(cloneLoadAt(b, mapping, load, address.slice, runs));
  }
  // The loop carries each load's value for the iteration it enters; the
  // body issues the next iteration's loads first (from the carried values'
  // next ones). "Past the end" below includes where the induction variable
  // would wrap.
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> yielded(
      cast<scf::YieldOp>(loop.getBody()->getTerminator()).getOperands());
  auto yieldAhead = [&](OpBuilder &, Location, ArrayRef<BlockArgument> added) {
    Block *body = added.front().getOwner();
    OpBuilder top = OpBuilder::atBlockBegin(body);
    // The rebuilt loop's values, and the original loop's that the body's
    // ops may still name while it is being rebuilt.
    Value iv = body->getArgument(0);
    auto bind = [&](IRMapping &mapping, Value oldValue, Value newValue) {
      mapping.map(oldValue, newValue);
      mapping.map(
          body->getArgument(cast<BlockArgument>(oldValue).getArgNumber()),
          newValue);
    };
    Value next = arith::AddIOp::create(top, loc, iv, loop.getStep());
    // Built in sequence (not as arguments, whose order of evaluation C++
    // leaves open), so the IR is the same whichever compiler built us.
    Value noWrap = before(top, iv, next);
    Value inside = before(top, next, loop.getUpperBound());
    Value valid = arith::AndIOp::create(top, loc, inside, noWrap);
    // Past the end, a load computed from the induction variable alone reads
    // this iteration's addresses again (a scalar select, where a mask would
    // cost an `and` per element); one from carried values is masked off.
    Value again = arith::SelectOp::create(top, loc, valid, next, iv);
    SmallVector<Value> ahead;
    for (auto &[load, address] : loads) {
      IRMapping mapping;
      if (address.carried.empty()) {
        bind(mapping, loop.getInductionVar(), again);
        ahead.push_back(
            cloneLoadAt(top, mapping, load, address.slice, /*valid=*/Value()));
        continue;
      }
      bind(mapping, loop.getInductionVar(), next);
      for (auto &[i, advance] : address.carried) {
        // The carried value's next one, computed here as the yield would.
        IRMapping now;
        bind(now, loop.getInductionVar(), iv);
        bind(now, loop.getRegionIterArgs()[i], body->getArgument(1 + i));
        for (Operation *op : advance)
          top.clone(*op, now);
        bind(mapping, loop.getRegionIterArgs()[i],
             now.lookupOrDefault(yielded[i]));
      }
      ahead.push_back(cloneLoadAt(top, mapping, load, address.slice, valid));
    }
    return ahead;
  };
  FailureOr<LoopLikeOpInterface> rotated = loop.replaceWithAdditionalYields(
      rewriter, first, /*replaceInitOperandUsesInLoop=*/false, yieldAhead);
  if (failed(rotated))
    return;
  ArrayRef<BlockArgument> carried =
      cast<scf::ForOp>(*rotated).getRegionIterArgs().take_back(loads.size());
  for (auto [entry, arg] : llvm::zip(loads, carried)) {
    LoadOp load = entry.first;
    load.getResult().replaceAllUsesWith(arg);
    load.erase();
  }
}

struct PrefetchLoads : tile::impl::TilePrefetchLoadsBase<PrefetchLoads> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      auto warps = kernel->getAttrOfType<IntegerAttr>("tile.num_warps");
      int64_t threads = 32 * (warps ? warps.getInt() : 4);
      SmallVector<scf::ForOp> loops;
      kernel.walk([&](scf::ForOp loop) {
        if (!loop->getParentOfType<ProducerOp>())
          loops.push_back(loop);
      });
      for (scf::ForOp loop : loops)
        prefetch(loop, threads);
    });
  }
};

} // namespace
