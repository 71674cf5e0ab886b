//===- PtxasWorkarounds.h - LLVM IR that ptxas compiles right ---*- C++ -*-===//
//
// Rewrites of the optimized LLVM IR, just before code generation, around
// three miscompilations of ptxas (CUDA 13.0, optimization levels above 0),
// each found by tile-fuzz-programs and right at -O0. LLVM's optimizer would
// undo them, so they run after it.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_TARGET_PTXASWORKAROUNDS_H
#define TILE_LIB_TARGET_PTXASWORKAROUNDS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tile {

/// ptxas treats the result of a 16-bit signed PTX operation (`neg.s16`,
/// `abs.s16`, `mul.lo.s16`, ...) as if it could not overflow: it keeps the
/// value sign-extended in a 32-bit register and skips the re-normalization,
/// so `neg.s16` of -32768 followed by `shr.s16` gives +128, not -128. LLVM's
/// NVPTX backend emits such operations for i8/i16 arithmetic, whose
/// wrap-around the language defines.
///
/// Rewrites the scalar i8/i16 integer arithmetic of `f` (binary operators,
/// comparisons, selects, phis, min/max/abs, integer casts and int-to-float
/// conversions) as i32 arithmetic on sign-extended values; loads, stores and
/// other uses see the narrow values through sext/trunc. Returns true if it
/// changed `f`.
bool promoteNarrowIntegers(llvm::Function &f);

/// ptxas (CUDA 13.0) also takes `abs.s32`/`abs.s64` to be non-negative,
/// folding `abs(x) < 0` to false, where PTX and the language give the
/// minimum for the minimum. Rewrites each abs that LLVM defines there as
/// `max(x, 0 - x)` (code generation folds the select, xor/sub and multiply
/// forms back into `abs.s32`). Run after promoteNarrowIntegers (whose abs
/// it covers too) and before hideNegationsFromMinMax (which hides its
/// negation). Returns true if it changed `f`.
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
