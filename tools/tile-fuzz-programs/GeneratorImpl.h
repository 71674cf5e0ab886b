//===- GeneratorImpl.h - the program generator's types and state -*- C++
//-*-===//
//
// Shared by ProgramGenerator.cpp (expressions) and ProgramStatements.cpp
// (statements and the kernel around them).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_TOOLS_TILEFUZZPROGRAMS_GENERATORIMPL_H
#define TILE_TOOLS_TILEFUZZPROGRAMS_GENERATORIMPL_H

#include "ProgramGenerator.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace tile::fuzz::detail {

enum class Elem { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };
inline constexpr Elem kArithmeticElems[] = {Elem::I8,  Elem::I16, Elem::I32,
                                            Elem::I64, Elem::F16, Elem::BF16,
                                            Elem::F32, Elem::F64};

inline const char *name(Elem e) {
  static const char *names[] = {"i1",  "i8",   "i16", "i32", "i64",
                                "f16", "bf16", "f32", "f64"};
  return names[static_cast<int>(e)];
}
inline bool isFloat(Elem e) { return e >= Elem::F16; }
inline int width(Elem e) {
  static const int widths[] = {1, 8, 16, 32, 64, 16, 16, 32, 64};
  return widths[static_cast<int>(e)];
}
/// Relative rounding unit of a float type.
inline double unit(Elem e) {
  switch (e) {
  case Elem::F16:
    return std::ldexp(1.0, -11);
  case Elem::BF16:
    return std::ldexp(1.0, -8);
  case Elem::F32:
    return std::ldexp(1.0, -24);
  case Elem::F64:
    return std::ldexp(1.0, -53);
  default:
    return 0;
  }
}
/// The common type of a binary operator's operands (docs/language.md 3).
inline Elem promote(Elem a, Elem b) {
  if (isFloat(a) != isFloat(b))
    return isFloat(a) ? a : b;
  if (a != b && width(a) == 16 && width(b) == 16 && isFloat(a))
    return Elem::F32; // f16 with bf16
  return width(a) >= width(b) ? a : b;
}

/// The shapes of a program's values: scalars and its full tile ([BLOCK] in
/// 1-D programs, [R, C] in 2-D ones), and in 2-D programs the rows [R] and
/// columns [C] and their 2-D forms [R, 1] and [1, C].
enum class Shape { Scalar, Full, Rows, Cols, RowCol, ColRow };

/// A generated expression: its text, type, and what the generator knows of
/// its values.
struct Expr {
  std::string text;
  Elem elem;
  Shape shape;
  /// Bound on |value| (integers: before wrapping).
  double bound;
  /// Bound on the difference between two correct executions; 0 when every
  /// execution gives the same bits.
  double error = 0;
  /// A scalar the frontend folds: integer arithmetic on two of them that
  /// overflows, or a folded float that does not fit the integer it is cast
  /// to (NaN from x % 0.0), is an error by the language's rules, so neither
  /// is generated.
  bool constant = false;
};

/// A name in scope.
struct Var {
  std::string name;
  Expr value; // text unused
  bool mutableVar = false;
};

/// A generated helper: parameter types and result, for reuse.
struct Helper {
  std::string name;
  std::vector<std::pair<Elem, Shape>> params;
  std::vector<bool> constantParams;
  /// The arguments' bounds and errors it was generated for: its bound and
  /// error hold for calls whose arguments are within them. (An error is not
  /// linear in the arguments' errors: rounding an inexact value to a
  /// narrower type may move it by a whole unit of that type, however small
  /// the inexactness.)
  std::vector<double> paramBounds;
  std::vector<double> paramErrors;
  Elem result;
  Shape resultShape;
  bool constantResult; // a folded scalar integer whatever the arguments
  double bound;
  double error;
};

class Generator {
public:
  explicit Generator(uint64_t seed) : rng(seed), seed(seed) {}
  GeneratedProgram run();

private:
  // Random choices.
  bool chance(double p) {
    return std::uniform_real_distribution<>(0, 1)(rng) < p;
  }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  template <typename T> const T &pickFrom(const std::vector<T> &v) {
    return v[pick(static_cast<int>(v.size()))];
  }
  Elem randomElem() { return kArithmeticElems[pick(8)]; }
  /// A mask for shift amounts: mostly within every width, sometimes past
  /// the narrower ones.
  int shiftMask() { return chance(0.6) ? 7 : 15 + 16 * pick(4); }

  // Shapes.
  /// The shapes that broadcast to `to` (`to` itself included).
  std::vector<Shape> subShapes(Shape to) const;
  /// `e`'s text, with the unit axes that make it combine with a `to` tile.
  std::string broadcastTo(const Expr &e, Shape to) const;
  /// Whether a value of shape `from` can be made exactly `to` (a 1-D rows
  /// or columns tile gains its unit axis).
  bool liftsTo(Shape from, Shape to) const {
    return from == to || (from == Shape::Rows && to == Shape::RowCol) ||
           (from == Shape::Cols && to == Shape::ColRow);
  }
  /// The dimensions of a shape as a list: "[4, 1]".
  std::string dims(Shape s) const;
  Shape randomOperandShape(Shape to) {
    if (chance(0.6))
      return to;
    std::vector<Shape> subs = subShapes(to);
    return subs[pick(static_cast<int>(subs.size()))];
  }

  // Expressions.
  Expr expr(Elem e, Shape s, int depth);
  Expr leaf(Elem e, Shape s);
  Expr reproducible(Elem e, Shape s, int depth);
  Expr castTo(const Expr &x, Elem e);
  Expr bounded(Expr x, double limit);
  Expr floatOp(Elem e, Shape s, int depth);
  Expr intOp(Elem e, Shape s, int depth);
  Expr boolOp(Shape s, int depth);
  Expr reduction(Elem e, Shape s, int depth);
  Expr helperCall(Elem e, Shape s, int depth);
  /// A weak literal (its text converts to the other operand's type).
  Expr literal(Elem e);
  /// A literal of exactly type `e` and shape `s`.
  Expr constant(Elem e, Shape s);

  // Statements.
  void line(const std::string &text) {
    body += std::string(2 * indent, ' ') + text + "\n";
  }
  std::string fresh(const char *prefix) {
    return prefix + std::to_string(counter++);
  }
  void letStatement();
  void loopStatement();
  void branchStatement();

  std::mt19937_64 rng;
  uint64_t seed;
  bool twoD = false;
  int64_t rowsPerProgram = 1, cols = 1, block = 1;
  std::vector<Var> scope;
  std::vector<Helper> helpers;
  std::string helperText, body;
  int indent = 1, counter = 0, helperDepth = 0;
  bool hasDotWeights = false;
  /// The input pointers and their element types, which loops may load again
  /// (loads an iteration ahead: tile-prefetch-loads).
  std::vector<std::pair<std::string, Elem>> inputPointers;
};

} // namespace tile::fuzz::detail

#endif // TILE_TOOLS_TILEFUZZPROGRAMS_GENERATORIMPL_H
