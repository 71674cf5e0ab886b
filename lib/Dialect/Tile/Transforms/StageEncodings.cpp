//===- StageEncodings.cpp - how tile-promote-shared stores its stages -----===//
//
// The shared encoding of each staged operand: rows along the load's fastest
// dimension (stageEncoding), or as wgmma descriptors read them
// (chooseWgmmaEncodings), where a tf32 B stored along N goes through
// registers into a K-major stage (a transposing copy, in
// transposingCopyLayout's layout).
//
//===----------------------------------------------------------------------===//
#include "PromoteSharedCommon.h"
#include "Rematerialize.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace tile;

namespace tile::promote {

/// The shared encoding of a stage that `c.load` fills: rows along the
/// load's fastest dimension, so that copies move whole chunks.
SharedEncodingAttr stageEncoding(Candidate &c) {
  auto type = cast<RankedTensorType>(c.load.getType());
  auto layout = cast<BlockedEncodingAttr>(type.getEncoding());
  SmallVector<unsigned> order(layout.getOrder());
  // A 4-byte operand read one element per lane (tf32 from MN-contiguous
  // rows: B stored [k][n], A stored [k][m]); the dot's dimension 0 is the
  // load's dimension 1 where it reads the stage transposed.
  auto operand = dyn_cast_or_null<DotOperandEncodingAttr>(
      cast<RankedTensorType>(c.replaced().getType()).getEncoding());
  unsigned readFastest = c.transposed() ? 1 - order[0] : order[0];
  bool elementReads = operand && readFastest == operand.getOpIdx();
  return SharedEncodingAttr::getSwizzled(c.load.getContext(), type.getShape(),
                                         type.getElementType(), order,
                                         elementReads);
}

/// True when the dot reads `c`'s stored rows along K (`c` its operand
/// `opIdx`: A 0, B 1).
static bool isKMajor(Candidate &c, unsigned opIdx) {
  unsigned fastest = cast<BlockedEncodingAttr>(
                         cast<RankedTensorType>(c.load.getType()).getEncoding())
                         .getOrder()[0];
  return (c.transposed() ? 1 - fastest : fastest) == 1 - opIdx;
}

/// The layout a transposing copy (Candidate::transposingCopy) moves its
/// [k][n] tile in: each thread four consecutive k at one n, the lanes
/// along N (a warp loads 128 contiguous bytes of one row of B at a time),
/// the warps along K first; stored K-major, a thread's four elements are
/// one 16-byte chunk. Measured alternatives (bench/NOTES.md v42): 4-byte
/// cp.async copies, one element per lane, ran at half of NN's speed with
/// 6.4x its bank conflicts; 4 x 4 blocks per thread (16-byte loads along
/// N, eight lanes along K) at 0.91x of this layout, with two-way
/// conflicting stores and more of the loads' latency exposed.
/// With `warps` non-zero the layout spans that many warps instead of the
/// load's (a producer warpgroup's).
BlockedEncodingAttr transposingCopyLayout(Candidate &c, unsigned warps) {
  auto type = cast<RankedTensorType>(c.load.getType());
  if (warps == 0)
    warps = cast<BlockedEncodingAttr>(type.getEncoding()).getNumWarps();
  unsigned alongK = std::clamp<unsigned>(type.getDimSize(0) / 4, 1, warps);
  return BlockedEncodingAttr::get(c.load.getContext(), {4, 1}, {1, 32},
                                  {alongK, warps / alongK}, {0, 1});
}

/// Gives the stages of each dot whose B is in `cands` the encoding wgmma
/// descriptors read, where the dot's layout is tile-accelerate-dot's for
/// warpgroup MMAs (all warps along M); A, when staged too, as well. An A
/// that is not staged (loaded before the loop, or computed: attention's
/// P) reaches the MMAs in registers.
void chooseWgmmaEncodings(MutableArrayRef<Candidate> cands) {
  // The dots reading each candidate (several where one stage feeds the
  // dots of both halves of attention's query rows), as A or as B.
  llvm::MapVector<Operation *, std::pair<Candidate *, Candidate *>> byDot;
  llvm::DenseMap<Candidate *, unsigned> readers;
  for (Candidate &c : cands) {
    Value value = c.replaced();
    bool allDots = !value.use_empty() &&
                   llvm::all_of(value.getUsers(), [&](Operation *user) {
                     auto dot = dyn_cast<DotOp>(user);
                     return dot && dot.getAcc() != value;
                   });
    if (!allDots)
      continue;
    for (Operation *user : value.getUsers()) {
      auto dot = cast<DotOp>(user);
      auto &pair = byDot[dot];
      (dot.getA() == value ? pair.first : pair.second) = &c;
      ++readers[&c];
    }
  }
  // What each dot asks of its stages; a stage gets an encoding when every
  // dot reading it asks for the same one.
  llvm::DenseMap<Candidate *, SmallVector<std::pair<SharedEncodingAttr, bool>>>
      asked;
  for (auto &[op, pair] : byDot) {
    auto dot = cast<DotOp>(op);
    auto [a, b] = pair;
    // The accumulator in the instructions' row order (repsPerWarp, as
    // tile-accelerate-dot makes it) reads A's rows in order, from either
    // major.
    if (!b || !hasWgmmaLayout(dot))
      continue;
    RankedTensorType aType = dot.getA().getType();
    auto wgmmaEncoding = [&](Candidate &c) {
      auto type = cast<RankedTensorType>(c.load.getType());
      auto layout = cast<BlockedEncodingAttr>(type.getEncoding());
      return SharedEncodingAttr::getForWgmma(
          c.load.getContext(), type.getShape(), type.getElementType(),
          layout.getOrder());
    };
    bool aKMajor = a && isKMajor(*a, 0), bKMajor = isKMajor(*b, 1);
    Type in = aType.getElementType();
    // A tf32 B stored along N (TN, A staged MN-major) is stored into a
    // K-major stage through registers (a transposing copy).
    RankedTensorType bType = dot.getB().getType();
    bool copyB =
        a && !b->transposed() &&
        isWgmmaOrderByTransposingCopy(
            in, aKMajor, bKMajor, bType.getDimSize(0), bType.getDimSize(1),
            cast<BlockedEncodingAttr>(dot.getType().getEncoding())
                .getNumWarps());
    if (copyB) {
      // The copies compute their addresses in their own layout.
      BlockedEncodingAttr layout = transposingCopyLayout(*b);
      Value mask = b->load.getMask();
      copyB = isRematerializable(b->load.getPtr(), layout, 16) &&
              (!mask || isRematerializable(mask, layout, 16));
    }
    // 8-bit operands: both stages, both K-major (the MMAs read no 8-bit A
    // from registers here). A tf32 A stored MN-major is stored the same
    // way (so that the TMA can fill it) and read into registers.
    if (!copyB && !isWgmmaOperandOrder(in, aKMajor, bKMajor))
      continue;
    SharedEncodingAttr aEnc = a ? wgmmaEncoding(*a) : SharedEncodingAttr();
    SharedEncodingAttr bEnc;
    if (copyB) {
      // The load's [k][n] tile stored K-major: dimension 0 fastest.
      auto type = cast<RankedTensorType>(b->load.getType());
      bEnc = SharedEncodingAttr::getForWgmma(dot.getContext(), type.getShape(),
                                             in, {0, 1});
    } else {
      bEnc = wgmmaEncoding(*b);
    }
    if ((a && !aEnc) || !bEnc)
      continue;
    if (a)
      asked[a].push_back({aEnc, false});
    asked[b].push_back({bEnc, copyB});
  }
  for (auto &entry : asked) {
    Candidate *c = entry.first;
    auto first = entry.second.front();
    // A transposing copy is made for one dot only.
    if (entry.second.size() != readers.lookup(c) ||
        (entry.second.size() > 1 && first.second) ||
        llvm::any_of(entry.second, [&](auto &w) { return w != first; }))
      continue;
    c->encoding = first.first;
    c->transposingCopy = first.second;
  }
}

} // namespace tile::promote
