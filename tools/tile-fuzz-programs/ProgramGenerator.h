//===- ProgramGenerator.h - random valid .tile programs ---------*- C++ -*-===//
//
// Generates well-typed `.tile` programs from a seed, in the spirit of Csmith
// and YARPGen: typed expression trees over the builtins, masked loads and
// stores, loops with carried values, branches, generic helpers that call
// helpers, 1-D and 2-D tiles, reductions, dot, every scalar type. Each
// program comes with its arguments and, per output, what an execution on
// other hardware may differ by:
// - integers, and floats built only from operations that round the same
//   everywhere (loads, casts, abs, max/min, where, fmod), must match bit for
//   bit;
// - other floats within a bound the generator derives by forward error
//   analysis (each op's rounding unit times the magnitude bound it tracks),
//   because the GPU contracts a*b+c into fma, sums in another order and
//   computes f32 exp/log on approximate units.
// Values that feed discontinuous operations (comparisons, fmod, float to
// integer casts) are only the exactly reproducible ones, so that a rounding
// difference never flips a branch; magnitudes are kept bounded (squashing
// by v / (|v| + 1) where they would grow) so no f16 overflows.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_TOOLS_TILEFUZZPROGRAMS_PROGRAMGENERATOR_H
#define TILE_TOOLS_TILEFUZZPROGRAMS_PROGRAMGENERATOR_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tile::fuzz {

/// One kernel parameter of a generated program and its argument.
struct GeneratedArg {
  std::string name;
  /// Scalar type name ("f32", "i8"...) of the value or the pointee.
  std::string type;
  bool isPointer = false;
  /// Pointers: elements of the buffer; outputs are poisoned before a run.
  int64_t elements = 0;
  bool isOutput = false;
  /// Outputs: largest difference allowed between two correct executions
  /// (0: bit-exact).
  double tolerance = 0;
  /// Scalars: the value (integers are whole numbers).
  double value = 0;
};

/// A program, its arguments and its launch.
struct GeneratedProgram {
  std::string source;
  std::string kernel;
  std::vector<GeneratedArg> args;
  std::array<int64_t, 3> grid = {1, 1, 1};
  unsigned numWarps = 4;
  unsigned numStages = 3;
  /// Seed of the input values.
  uint64_t inputSeed = 0;
};

/// The program of `seed` (the same seed always gives the same program).
GeneratedProgram generateProgram(uint64_t seed);

} // namespace tile::fuzz

#endif // TILE_TOOLS_TILEFUZZPROGRAMS_PROGRAMGENERATOR_H
