//===- Passes.h - tile dialect passes ---------------------------*- C++ -*-===//
#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Support/Limits.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

namespace tile {

#define GEN_PASS_DECL
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

/// True when sm_90a warpgroup MMAs can compute an M x N x K dot of `in`
/// inputs accumulating in `acc` with all `warps` along M: m64 instructions
/// of 4 warps (each warp 16 rows per instruction), N in one instruction
/// (at most 256; for i8 beyond 32 by 16), K by 32 bytes (16 f16/bf16, 32
/// i8 or 8-bit floats, 8 f32 read as tf32: callers pass f32 only for
/// `precision = tf32` dots). 8-bit and 32-bit operands must also be stored
/// as isWgmmaOperandOrder says.
/// tile-accelerate-dot, tile-promote-shared and the lowering agree
/// through it.
inline bool fitsWgmma(int64_t m, int64_t n, int64_t k, mlir::Type in,
                      mlir::Type acc, unsigned warps) {
  bool halves = (in.isF16() || in.isBF16()) && acc.isF32() && k % 16 == 0;
  bool bytes = in.isInteger(8) && acc.isInteger(32) && k % 32 == 0 &&
               (n <= 32 || n % 16 == 0);
  bool floatBytes = isFloat8(in) && acc.isF32() && k % 32 == 0;
  bool tf32 = in.isF32() && acc.isF32() && k % 8 == 0;
  return (halves || bytes || floatBytes || tf32) && warps % 4 == 0 &&
         m % (16 * warps) == 0 && n % 8 == 0 && n <= 256;
}

/// True when `v` is a zero constant, scalar or splat, float (either sign)
/// or integer. tile-promote-shared stages loads whose `other` is such a
/// value; the wgmma lowering issues a dot into such an accumulator with
/// scale-d 0.
inline bool isZeroConstant(mlir::Value v) {
  return mlir::matchPattern(v, mlir::m_AnyZeroFloat()) ||
         mlir::matchPattern(v, mlir::m_Zero());
}

/// True when `dot` has tile-accelerate-dot's layout for warpgroup MMAs on a
/// shape and types they fit (fitsWgmma): an mma accumulator with all warps
/// along M and repsPerWarp [2, 1] (each warp's rows those an m64
/// instruction gives it), A in its dot-operand layout. tile-promote-shared
/// stores such dots' operands for wgmma; the lowering takes no other.
inline bool hasWgmmaLayout(DotOp dot) {
  mlir::RankedTensorType aType = dot.getA().getType(), cType = dot.getType();
  auto layout =
      llvm::dyn_cast_or_null<BlockedEncodingAttr>(cType.getEncoding());
  auto operand =
      llvm::dyn_cast_or_null<DotOperandEncodingAttr>(aType.getEncoding());
  return layout && operand && operand.getParent() == layout &&
         layout.isMmaAccumulator() && layout.getWarpsPerCTA()[1] == 1 &&
         layout.getWarpReps(0) == 2 &&
         fitsWgmma(cType.getDimSize(0), cType.getDimSize(1),
                   aType.getDimSize(1), aType.getElementType(),
                   cType.getElementType(), layout.getWarpsPerCTA()[0]);
}

/// The stage buffer `dot` reads `operand` from through wgmma descriptors: a
/// shared_load only the dot uses, in its block, of a stage stored for
/// wgmma (a `#tile.shared` encoding with panels); null otherwise.
inline SharedAllocOp wgmmaStage(DotOp dot, mlir::Value operand) {
  auto load = operand.getDefiningOp<SharedLoadOp>();
  if (!load || !load->hasOneUse() || load->getBlock() != dot->getBlock())
    return {};
  auto alloc = load.getBuffer().getDefiningOp<SharedAllocOp>();
  return alloc && alloc.getEncoding().getPanel() != 0 ? alloc : SharedAllocOp();
}

/// True when warpgroup MMAs can read operands of `in` stored with K
/// contiguous as given: 16-bit operands in either order; 8-bit and tf32 B
/// only K-major (columns along K), which is all wgmma descriptors read for
/// them. An 8-bit A must be K-major too; a tf32 A that is not goes to the
/// MMAs in registers (mma.sync's A fragments, read from its stage one
/// element per lane).
inline bool isWgmmaOperandOrder(mlir::Type in, bool aKMajor, bool bKMajor) {
  unsigned bits = in.getIntOrFloatBitWidth();
  return bits == 16 || (bKMajor && (aKMajor || bits == 32));
}

/// True when warpgroup MMAs can read the operands of a tf32 dot with a
/// K x N B on `warps` warps, stored as given, once tile-promote-shared
/// copies B (stored along N) into a K-major stage through registers: both
/// operands MN-major (TN), which Cᵀ = Bᵀ Aᵀ does not turn into an order
/// they read either, and B's tile at most 32 registers a thread (they stay
/// live for most of an iteration; 64 spilled beside the accumulators).
inline bool isWgmmaOrderByTransposingCopy(mlir::Type in, bool aKMajor,
                                          bool bKMajor, int64_t k, int64_t n,
                                          unsigned warps) {
  return in.isF32() && !aKMajor && !bKMajor && k * n <= 32 * 32 * warps;
}

} // namespace tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
