//===- PtxasWorkarounds.h - LLVM IR that ptxas compiles right ---*- C++ -*-===//
//
// Rewrites of the optimized LLVM IR, just before code generation, around
// five miscompilations of ptxas (CUDA 13.0, optimization levels above 0),
// each found by tile-fuzz-programs and right at -O0, and around inline PTX
// whose guard LLVM folded to a constant (which ptxas rejects). LLVM's
// optimizer would undo them, so they run after it. The compiler's only
// inline PTX is here (and in MLIR's NVVM ops).
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
/// it covers too) and before hideNegations (which hides its
/// negation). Returns true if it changed `f`.
bool guardIntegerAbs(llvm::Function &f);

/// ptxas (CUDA 13.0, -O1 and above) miscompiles negations it folds into
/// other instructions:
/// - into the integer min/max that reads it: fusing two of those into a
///   three-input `VIMNMX3`, it drops the negation (a max over `-2x` read
///   `2x`); in a fused add-max (`VIADDMNMX`) it drops that of `2 - n`
///   (computing `n - 2`);
/// - in an i64 `a - x` where x is a widened i32, it takes the high word of
///   `-x` to be -1, wrong for x = 0 (`0 - 0` gave -2^32). Spelled as a
///   32-bit carry chain or with x sign-extended, it still fails.
/// The same values written as `~x + 1` compile correctly, but LLVM's code
/// generation folds that back into `neg`/`sub`, so each such negation (`0 -
/// x`, `a - x`, and `x * c`, `x / c` for a negative constant c, read by a
/// min/max directly or through a select or phi; any i64 `a - x` of a
/// widened i32 x) is emitted as `a + (~x + 1)` with the not/add pair in
/// inline PTX (`test/Target/ptxas-negation.test`). Run last. Returns true if it
/// changed `f`.
bool hideNegations(llvm::Function &f);

/// ptxas (CUDA 13.0, -O1 and above) reused `abs.bf16` of one value for
/// `abs.bf16` of another (a select between it and a third value) in a
/// program of tile-fuzz-programs. Rewrites the abs of each f16/bf16 value
/// (one or a pair of halves) as clearing the sign bit in inline PTX, which
/// ptxas compiles correctly there (`test/Target/half-abs.test`). Returns
/// true if it changed `f`.
bool clearSignForHalfAbs(llvm::Function &f);

/// MLIR's NVVM ops with a predicate (a predicated TMA copy, an mbarrier
/// arrival) become inline PTX guarded by `@$N`; where LLVM's optimizer
/// folds the predicate to a constant (a copy for an iteration past a loop's
/// single one), the backend prints `@0` or `@1`, which ptxas rejects. Drops
/// each such statement guarded by false and the guard of each one guarded by
/// true (`test/Target/constant-guard.test`). Returns true if it changed `f`.
bool settleConstantGuards(llvm::Function &f);

} // namespace tile

#endif // TILE_LIB_TARGET_PTXASWORKAROUNDS_H
