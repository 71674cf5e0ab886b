//===- PtxasWorkarounds.h - LLVM IR that ptxas compiles correctly -*- C++
//-*-===//
//
// ptxas (CUDA 13.0, every optimization level above 0) treats the result of a
// 16-bit signed PTX operation (`neg.s16`, `abs.s16`, `mul.lo.s16`, ...) as if
// it could not overflow: it keeps the value sign-extended in a 32-bit
// register, computes in 32 bits and skips the re-normalization, so that
// `neg.s16` of -32768 followed by `shr.s16` gives +128 where PTX says -128.
// LLVM's NVPTX backend emits exactly such operations for i8 and i16
// arithmetic, whose wrap-around the language defines. This rewrite runs on
// the optimized LLVM IR, just before code generation: it computes every
// scalar i8/i16 integer operation in i32 on sign-extended values and
// re-normalizes after each operation that can leave the narrow range, so the
// PTX holds no 16-bit arithmetic for ptxas to misjudge.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_TARGET_PTXASWORKAROUNDS_H
#define TILE_LIB_TARGET_PTXASWORKAROUNDS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tile {

/// Rewrites the scalar i8/i16 integer arithmetic of `f` (binary operators,
/// comparisons, selects, phis, min/max/abs, integer casts and int-to-float
/// conversions) as i32 arithmetic on sign-extended values; loads, stores and
/// other uses see the narrow values through sext/trunc. Returns true if it
/// changed `f`.
bool promoteNarrowIntegers(llvm::Function &f);

/// ptxas (CUDA 13.0) also takes `abs.s32`/`abs.s64` to be non-negative,
/// folding `abs(x) < 0` to false, where PTX and the language give the
/// minimum for the minimum. Rewrites each abs that LLVM defines there as
/// `x * (x >> (width - 1) | 1)`, which no later stage turns back into an
/// abs. Run after promoteNarrowIntegers (whose abs it covers too). Returns
/// true if it changed `f`.
bool guardIntegerAbs(llvm::Function &f);

/// ptxas (CUDA 13.0, -O1 and above) folds a negation into the integer
/// min/max that reads it and, fusing two of those into a three-input
/// `VIMNMX3`, drops the negation (a max over `-2x` read `2x`). The same
/// value written as `~x + 1` compiles correctly, but LLVM's code generation
/// folds that back into `neg`, so each negation (`0 - x`, i32/i64) that a
/// min/max reads is emitted as that pair through inline PTX — the only
/// inline PTX of the compiler (`test/Target/ptxas-negation.test`). Run
/// last. Returns true if it changed `f`.
bool hideNegationsFromMinMax(llvm::Function &f);

} // namespace tile

#endif // TILE_LIB_TARGET_PTXASWORKAROUNDS_H
