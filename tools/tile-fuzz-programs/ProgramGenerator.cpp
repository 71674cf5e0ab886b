//===- ProgramGenerator.cpp - random valid .tile programs -----------------===//
#include "ProgramGenerator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

using namespace tile::fuzz;

namespace {

enum class Elem { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };
constexpr Elem kArithmeticElems[] = {Elem::I8,  Elem::I16, Elem::I32,
                                     Elem::I64, Elem::F16, Elem::BF16,
                                     Elem::F32, Elem::F64};

const char *name(Elem e) {
  static const char *names[] = {"i1",  "i8",   "i16", "i32", "i64",
                                "f16", "bf16", "f32", "f64"};
  return names[static_cast<int>(e)];
}
bool isFloat(Elem e) { return e >= Elem::F16; }
int width(Elem e) {
  static const int widths[] = {1, 8, 16, 32, 64, 16, 16, 32, 64};
  return widths[static_cast<int>(e)];
}
/// Relative rounding unit of a float type.
double unit(Elem e) {
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
Elem promote(Elem a, Elem b) {
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
  Elem result;
  Shape resultShape;
  bool constantResult; // a folded scalar integer whatever the arguments
  double errorGain; // result error per unit of argument error
  double bound;
  double ownError;
};

class Generator {
public:
  explicit Generator(uint64_t seed) : rng(seed), seed(seed) {}
  GeneratedProgram run();

private:
  // Random choices.
  bool chance(double p) { return std::uniform_real_distribution<>(0, 1)(rng) < p; }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  template <typename T> const T &pickFrom(const std::vector<T> &v) {
    return v[pick(static_cast<int>(v.size()))];
  }
  Elem randomElem() { return kArithmeticElems[pick(8)]; }

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
};

std::vector<Shape> Generator::subShapes(Shape to) const {
  switch (to) {
  case Shape::Full:
    if (twoD)
      return {Shape::Full,   Shape::RowCol, Shape::ColRow,
              Shape::Rows,   Shape::Cols,   Shape::Scalar};
    return {Shape::Full, Shape::Scalar};
  case Shape::RowCol:
    return {Shape::RowCol, Shape::Rows, Shape::Scalar};
  case Shape::ColRow:
    return {Shape::ColRow, Shape::Cols, Shape::Scalar};
  case Shape::Rows:
    return {Shape::Rows, Shape::Scalar};
  case Shape::Cols:
    return {Shape::Cols, Shape::Scalar};
  case Shape::Scalar:
    return {Shape::Scalar};
  }
  return {Shape::Scalar};
}

std::string Generator::broadcastTo(const Expr &e, Shape to) const {
  if (to == Shape::Full || to == Shape::RowCol || to == Shape::ColRow) {
    if (e.shape == Shape::Rows)
      return "(" + e.text + ")[:, None]";
    if (e.shape == Shape::Cols)
      return "(" + e.text + ")[None, :]";
  }
  return e.text;
}

std::string Generator::dims(Shape s) const {
  std::string r = std::to_string(rowsPerProgram),
              c = std::to_string(cols);
  switch (s) {
  case Shape::Full:
    return twoD ? "[" + r + ", " + c + "]" : "[" + std::to_string(block) + "]";
  case Shape::Rows:
    return "[" + r + "]";
  case Shape::Cols:
    return "[" + c + "]";
  case Shape::RowCol:
    return "[" + r + ", 1]";
  case Shape::ColRow:
    return "[1, " + c + "]";
  case Shape::Scalar:
    return "";
  }
  return "";
}

Expr Generator::literal(Elem e) {
  if (isFloat(e)) {
    static const std::vector<std::string> floats = {"0.5", "2.0", "-1.25",
                                                    "3.0", "0.0", "0.125"};
    std::string text = pickFrom(floats);
    return {text, e, Shape::Scalar, std::fabs(std::stod(text)), 0};
  }
  static const std::vector<int> ints = {0, 1, 2, 3, 7, -5, 100};
  int v = pickFrom(ints);
  if (width(e) == 8 && v == 100)
    v = 99;
  return {std::to_string(v), e, Shape::Scalar, double(std::abs(v)), 0};
}

Expr Generator::castTo(const Expr &x, Elem e) {
  if (x.elem == e)
    return x;
  Expr r = x;
  r.elem = e;
  r.text = "cast(" + x.text + ", " + std::string(name(e)) + ")";
  if (e == Elem::I1) {
    r.bound = 1;
    return r;
  }
  if (isFloat(e)) {
    // Converting rounds once, the same way everywhere; a converted integer
    // is kept below 997 first so that no narrow float overflows.
    if (!isFloat(x.elem) && x.bound > 1000) {
      r.text = "cast((" + x.text + ") % 997, " + std::string(name(e)) + ")";
      r.bound = 996;
    }
    // Rounding a reproducible value is reproducible.
    r.error = x.error > 0 ? x.error + unit(e) * r.bound : 0;
    return r;
  }
  // To an integer: only from reproducible floats in range.
  r.bound = std::min(x.bound, std::ldexp(1.0, width(e) - 1));
  return r;
}

/// Squashes x into (-1, 1) by v / (|v| + 1) where its bound exceeds `limit`.
Expr Generator::bounded(Expr x, double limit) {
  if (!isFloat(x.elem) || x.bound <= limit)
    return x;
  x.text = "sq(" + x.text + ")";
  x.bound = 1;
  x.error = x.error + 4 * unit(x.elem);
  return x;
}

Expr Generator::constant(Elem e, Shape s) {
  Expr lit = literal(e);
  // A literal alone is a weak i32/f32: give it the type asked for, as a
  // tile where a tile is asked for.
  if (s != Shape::Scalar)
    return {"full(" + dims(s) + ", " + lit.text + ", " + name(e) + ")", e, s,
            lit.bound, 0};
  return {"cast(" + lit.text + ", " + name(e) + ")", e, s, lit.bound, 0, true};
}

Expr Generator::leaf(Elem e, Shape s) {
  std::vector<const Var *> candidates;
  for (const Var &v : scope)
    if (liftsTo(v.value.shape, s))
      candidates.push_back(&v);
  if (candidates.empty() || chance(0.15))
    return constant(e, s);
  const Var &v = *candidates[pick(static_cast<int>(candidates.size()))];
  Expr x = v.value;
  x.text = v.name;
  x.text = broadcastTo(x, s);
  x.shape = s;
  // Floats become integers only where every execution has the same value,
  // in range.
  if (isFloat(x.elem) && !isFloat(e) &&
      (x.error > 0 || x.constant ||
       x.bound >= std::ldexp(1.0, width(e) - 1) - 1)) {
    return constant(e, s);
  }
  return castTo(x, e);
}

/// An expression of exactly reproducible values (for comparisons, fmod and
/// float-to-integer casts): leaves, abs, max/min, fmod of such.
Expr Generator::reproducible(Elem e, Shape s, int depth) {
  Expr x = leaf(e, s);
  for (int tries = 0; tries < 4 && x.error > 0; ++tries)
    x = leaf(e, s);
  if (x.error > 0)
    x = constant(e, s);
  if (depth <= 0 || !chance(0.4))
    return x;
  Expr y = reproducible(e, s, depth - 1);
  bool folded = x.constant && y.constant;
  switch (pick(3)) {
  case 0:
    return {"abs(" + x.text + ")", e, s, x.bound, 0, x.constant};
  case 1:
    return {"maximum(" + x.text + ", " + y.text + ")", e, s,
            std::max(x.bound, y.bound), 0, folded};
  default:
    if (isFloat(e))
      return {"(" + x.text + " % " + y.text + ")", e, s, x.bound, 0, folded};
    return {"minimum(" + x.text + ", " + y.text + ")", e, s,
            std::max(x.bound, y.bound), 0, folded};
  }
}

Expr Generator::floatOp(Elem e, Shape s, int depth) {
  double u = unit(e);
  // The first operand has the result's shape, the second any that
  // broadcasts to it; sometimes a narrower float, which the operator
  // promotes.
  auto operand = [&](bool first) {
    Elem oe = e;
    if (chance(0.2) && (e == Elem::F32 || e == Elem::F64))
      oe = chance(0.5) ? Elem::F16 : Elem::BF16;
    return bounded(expr(oe, first ? s : randomOperandShape(s), depth - 1), 64);
  };
  switch (pick(12)) {
  case 0:
  case 1:
  case 2: { // + - *
    Expr a = operand(true), b = operand(false);
    Elem re = promote(a.elem, b.elem);
    int op = pick(3);
    const char *sym = op == 0 ? " + " : op == 1 ? " - " : " * ";
    double bound = op == 2 ? a.bound * b.bound : a.bound + b.bound;
    double error = op == 2 ? a.error * b.bound + b.error * a.bound +
                                 a.error * b.error
                           : a.error + b.error;
    Expr r{"(" + broadcastTo(a, s) + sym + broadcastTo(b, s) + ")", re, s,
           bound, error + 2 * unit(re) * bound};
    if (chance(0.3)) { // with a weak literal
      Expr lit = literal(re);
      r.text = "(" + r.text + " * " + lit.text + ")";
      r.bound *= std::max(lit.bound, 1.0);
      r.error = r.error * std::max(lit.bound, 1.0) + 2 * unit(re) * r.bound;
    }
    return castTo(r, e);
  }
  case 3: { // division by |b| + 1
    Expr a = operand(true), b = operand(false);
    Elem re = promote(a.elem, b.elem);
    return castTo({"(" + broadcastTo(a, s) + " / (abs(" + broadcastTo(b, s) +
                       ") + 1.0))",
                   re, s, a.bound,
                   a.error + b.error * a.bound + 4 * unit(re) * a.bound},
                  e);
  }
  case 4: { // math on the approximate units (f32) or in software (f64)
    Expr a = bounded(expr(e, s, depth - 1), 4);
    double approx = e == Elem::F64 ? 8 * u : std::max(8 * u, 1e-6);
    switch (pick(5)) {
    case 0:
      return {"exp(" + a.text + ")", e, s, std::exp(a.bound),
              std::exp(a.bound) * (a.error + approx)};
    case 1:
      return {"exp2(" + a.text + ")", e, s, std::exp2(a.bound),
              std::exp2(a.bound) * (a.error + approx)};
    case 2:
      return {"log(abs(" + a.text + ") + 1.0)", e, s, std::log(a.bound + 1),
              a.error + approx * (1 + a.bound)};
    case 3:
      return {"log2(abs(" + a.text + ") + 1.0)", e, s,
              std::log2(a.bound + 1), 2 * a.error + approx * (1 + a.bound)};
    default:
      return {"rsqrt(abs(" + a.text + ") + 1.0)", e, s, 1,
              a.error / 2 + approx};
    }
  }
  case 5: { // sqrt: the error of a square root near zero is its root
    Expr a = bounded(expr(e, s, depth - 1), 64);
    return {"sqrt(abs(" + a.text + "))", e, s, std::sqrt(a.bound),
            std::sqrt(a.error) + 2 * u * std::sqrt(a.bound)};
  }
  case 6: { // maximum/minimum, abs, negation: no new error
    Expr a = expr(e, s, depth - 1), b = expr(e, randomOperandShape(s), depth - 1);
    switch (pick(3)) {
    case 0:
      return {std::string(chance(0.5) ? "maximum(" : "minimum(") + a.text +
                  ", " + broadcastTo(b, s) + ")",
              e, s, std::max(a.bound, b.bound), std::max(a.error, b.error),
              a.constant && b.constant};
    case 1:
      return {"abs(" + a.text + ")", e, s, a.bound, a.error, a.constant};
    default:
      return {"(-" + a.text + ")", e, s, a.bound, a.error, a.constant};
    }
  }
  case 7: { // where
    Expr c = boolOp(randomOperandShape(s), depth - 1);
    Expr a = expr(e, s, depth - 1), b = expr(e, randomOperandShape(s), depth - 1);
    return {"where(" + broadcastTo(c, s) + ", " + a.text + ", " +
                broadcastTo(b, s) + ")",
            e, s, std::max(a.bound, b.bound), std::max(a.error, b.error),
            a.constant || b.constant}; // maybe folded: treated as constant
  }
  case 8: // fmod of reproducible values
    return reproducible(e, s, depth);
  case 9: { // from another type
    Elem from = randomElem();
    if (from == e)
      return expr(e, s, depth - 1);
    return castTo(bounded(expr(from, s, depth - 1), 1e4), e);
  }
  case 10:
    return reduction(e, s, depth);
  default:
    return helperCall(e, s, depth);
  }
}

Expr Generator::intOp(Elem e, Shape s, int depth) {
  auto operand = [&](bool first) {
    Elem oe = e;
    if (chance(0.2))
      oe = kArithmeticElems[pick(4)]; // another integer type, promoted
    return expr(oe, first ? s : randomOperandShape(s), depth - 1);
  };
  auto cap = [&](double b) { return std::min(b, std::ldexp(1.0, width(e))); };
  Expr a = operand(true), b = operand(false);
  if (a.constant && b.constant)
    return castTo(a, e);
  Elem re = promote(a.elem, b.elem);
  std::string x = broadcastTo(a, s), y = broadcastTo(b, s);
  switch (pick(12)) {
  case 0:
    return castTo({"(" + x + " + " + y + ")", re, s, cap(a.bound + b.bound)}, e);
  case 1:
    return castTo({"(" + x + " - " + y + ")", re, s, cap(a.bound + b.bound)}, e);
  case 2:
    return castTo({"(" + x + " * " + y + ")", re, s, cap(a.bound * b.bound)}, e);
  case 3: // never by 0 or -1 (abs(INT_MIN) + 1 is negative but not -1)
    return castTo({"(" + x + " / (abs(" + y + ") + 1))", re, s, a.bound}, e);
  case 4:
    return castTo({"(" + x + " % (abs(" + y + ") + 1))", re, s, a.bound}, e);
  case 5:
    return castTo({"cdiv(" + x + ", abs(" + y + ") + 1)", re, s, a.bound}, e);
  case 6:
    return castTo({"(" + x + " << (" + y + " & 7))", re, s, cap(a.bound * 128)},
                  e);
  case 7:
    return castTo({"(" + x + " >> (" + y + " & 7))", re, s, a.bound}, e);
  case 8: {
    const char *ops[] = {" & ", " | ", " ^ "};
    return castTo({"(" + x + ops[pick(3)] + y + ")", re, s,
                   cap(std::max(a.bound, b.bound) * 2)},
                  e);
  }
  case 9:
    return castTo({std::string(chance(0.5) ? "maximum(" : "minimum(") + x +
                       ", " + y + ")",
                   re, s, std::max(a.bound, b.bound)},
                  e);
  case 10: { // from a float (reproducible, in range) or a bool
    if (chance(0.3))
      return castTo(boolOp(s, depth - 1), e);
    Elem from = kArithmeticElems[4 + pick(4)];
    Expr f = reproducible(from, s, depth - 1);
    if (f.constant || f.bound >= std::ldexp(1.0, width(e) - 1))
      return castTo(a, e);
    return castTo(f, e);
  }
  default:
    return chance(0.5) ? reduction(e, s, depth) : helperCall(e, s, depth);
  }
}

Expr Generator::boolOp(Shape s, int depth) {
  if (depth <= 0 || chance(0.5)) { // a comparison
    static const char *ops[] = {" < ", " <= ", " > ", " >= ", " == ", " != "};
    Elem e = randomElem();
    Expr a = isFloat(e) ? reproducible(e, s, depth - 1) : expr(e, s, depth - 1);
    Expr b = isFloat(e) ? reproducible(e, randomOperandShape(s), depth - 1)
                        : expr(e, randomOperandShape(s), depth - 1);
    return {"(" + broadcastTo(a, s) + ops[pick(6)] + broadcastTo(b, s) + ")",
            Elem::I1, s, 1};
  }
  Expr a = boolOp(s, depth - 1), b = boolOp(randomOperandShape(s), depth - 1);
  static const char *ops[] = {" & ", " | ", " ^ ", " && ", " || "};
  if (chance(0.2))
    return {"(!" + a.text + ")", Elem::I1, s, 1};
  return {"(" + a.text + ops[pick(5)] + broadcastTo(b, s) + ")", Elem::I1, s,
          1};
}

/// A reduction whose result has shape `s`: of a 2-D tile along one axis to
/// rows or columns (kept 2-D for [R, 1] and [1, C]), of a 1-D tile to a
/// scalar.
Expr Generator::reduction(Elem e, Shape s, int depth) {
  Shape from;
  std::string axis, suffix;
  int64_t length;
  switch (s) {
  case Shape::Scalar:
    from = twoD ? (chance(0.5) ? Shape::Rows : Shape::Cols) : Shape::Full;
    length = from == Shape::Cols ? cols : twoD ? rowsPerProgram : block;
    break;
  case Shape::Rows:
  case Shape::RowCol:
    from = chance(0.7) ? Shape::Full : Shape::RowCol;
    axis = ", 1";
    length = from == Shape::Full ? cols : 1;
    suffix = s == Shape::RowCol ? "[:, None]" : "";
    break;
  case Shape::Cols:
  case Shape::ColRow:
    from = chance(0.7) ? Shape::Full : Shape::ColRow;
    axis = ", 0";
    length = from == Shape::Full ? rowsPerProgram : 1;
    suffix = s == Shape::ColRow ? "[None, :]" : "";
    break;
  default:
    return expr(e, s, depth - 1);
  }
  Expr x = bounded(expr(e, from, depth - 1), 64);
  auto wrap = [&](const std::string &call) {
    return suffix.empty() ? call : "(" + call + ")" + suffix;
  };
  switch (pick(3)) {
  case 0: {
    double bound = x.bound * double(length);
    // Sums run in another order on the GPU (and narrow floats in f32).
    double error = isFloat(e) ? double(length) * (x.error + 2 * unit(e) * bound)
                              : 0;
    return {wrap("sum(" + x.text + axis + ")"), e, s,
            isFloat(e) ? bound : std::ldexp(1.0, width(e)), error};
  }
  case 1:
    return {wrap("max(" + x.text + axis + ")"), e, s, x.bound, x.error};
  default:
    return {wrap("min(" + x.text + axis + ")"), e, s, x.bound, x.error};
  }
}

/// A call of a generic helper with arguments from the current scope: an
/// existing helper of matching parameter types, or a new one (whose body may
/// call the earlier helpers, assign a var through a call, or reduce).
Expr Generator::helperCall(Elem e, Shape s, int depth) {
  if (helperDepth > 2 || depth <= 0)
    return leaf(e, s);
  int numParams = 1 + pick(2);
  std::vector<Expr> args;
  for (int i = 0; i < numParams; ++i) {
    Elem ae = chance(0.7) ? e : randomElem();
    args.push_back(bounded(expr(ae, i == 0 ? s : randomOperandShape(s),
                                depth - 1),
                           64));
  }
  auto callText = [&](const std::string &helper) {
    std::string text = helper + "(";
    for (size_t i = 0; i < args.size(); ++i)
      text += (i ? ", " : "") + args[i].text;
    return text + ")";
  };
  double argError = 0;
  for (const Expr &a : args)
    argError = std::max(argError, a.error);
  for (const Helper &h : helpers) {
    if (h.params.size() != args.size() || h.result != e || h.resultShape != s)
      continue;
    bool same = true;
    for (size_t i = 0; i < args.size(); ++i)
      same &= h.params[i] == std::make_pair(args[i].elem, args[i].shape) &&
              h.constantParams[i] == args[i].constant;
    if (same && chance(0.7))
      return {callText(h.name), e, s, h.bound,
              h.ownError + h.errorGain * argError, h.constantResult};
  }

  // A new helper: its scope is its parameters only.
  Helper h;
  h.name = fresh("h");
  h.result = e;
  h.resultShape = s;
  std::vector<Var> saved;
  std::swap(saved, scope);
  std::string savedBody;
  std::swap(savedBody, body);
  int savedIndent = indent;
  indent = 1;
  ++helperDepth;
  std::string params;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string p = "p" + std::to_string(i);
    params += (i ? ", " : "") + p;
    // Parameters carry the arguments' bounds and a unit error, so the
    // helper's error gain can be read off its result.
    Expr value = args[i];
    value.error = isFloat(value.elem) ? 1.0 : 0.0;
    scope.push_back({p, value});
    h.params.push_back({args[i].elem, args[i].shape});
    h.constantParams.push_back(args[i].constant);
  }
  Expr result;
  if (chance(0.4)) { // var assigned through a call (genAssign's case)
    std::string v = fresh("t");
    Expr init = expr(e, s, depth - 1);
    line("var " + v + " = " + init.text + ";");
    scope.push_back({v, init, true});
    Expr next = bounded(expr(e, s, depth - 1), 64);
    line(v + " = " + next.text + ";");
    scope.back().value = next;
    result = expr(e, s, depth - 1);
  } else {
    result = expr(e, s, depth - 1);
  }
  line("return " + result.text + ";");
  helperText += "fn " + h.name + "(" + params + ") {\n" + body + "}\n";
  --helperDepth;
  indent = savedIndent;
  std::swap(savedBody, body);
  std::swap(saved, scope);
  // Error of the result with unit-error parameters = gain (>= 0), and the
  // bound of the result.
  h.bound = result.bound;
  h.constantResult = result.constant;
  h.errorGain = isFloat(e) ? result.error : 0;
  h.ownError = isFloat(e) ? 4 * unit(e) * result.bound : 0;
  helpers.push_back(h);
  return {callText(h.name), e, s, h.bound, h.ownError + h.errorGain * argError,
          h.constantResult};
}

Expr Generator::expr(Elem e, Shape s, int depth) {
  if (e == Elem::I1)
    return boolOp(s, depth);
  if (depth <= 0 || chance(0.25))
    return leaf(e, s);
  if (isFloat(e))
    return floatOp(e, s, depth);
  return intOp(e, s, depth);
}

void Generator::letStatement() {
  Elem e = randomElem();
  Shape s = Shape::Full;
  if (chance(0.4)) {
    std::vector<Shape> subs = subShapes(Shape::Full);
    s = subs[pick(static_cast<int>(subs.size()))];
  }
  Expr x = bounded(expr(e, s, 1 + pick(3)), 64);
  std::string n = fresh("v");
  line("let " + n + " = " + x.text + ";");
  scope.push_back({n, x});
}

void Generator::loopStatement() {
  Elem e = randomElem();
  Expr init = bounded(expr(e, Shape::Full, 2), 64);
  std::string acc = fresh("acc"), iv = fresh("it");
  line("var " + acc + " = " + init.text + ";");
  scope.push_back({acc, init, true});
  size_t accIndex = scope.size() - 1;
  // A constant trip count, or the runtime parameter k (0 to 3).
  int trips = 1 + pick(3);
  bool runtime = chance(0.4);
  line("for " + iv + " in range(0, " +
       (runtime ? std::string("k") : std::to_string(trips)) + ") {");
  ++indent;
  size_t outer = scope.size();
  scope.push_back({iv, {"", Elem::I32, Shape::Scalar, 4, 0}});
  Expr step = bounded(expr(e, Shape::Full, 2), 64);
  Expr cur = scope[accIndex].value;
  // acc = sq(acc + step) keeps floats bounded across iterations.
  double bound = cur.bound + step.bound;
  double error = cur.error + step.error + 2 * unit(e) * bound;
  std::string sum = "(" + acc + " + " + step.text + ")";
  if (isFloat(e)) {
    line(acc + " = sq(" + sum + ");");
    bound = 1;
    error += 4 * unit(e);
  } else {
    line(acc + " = " + sum + ";");
    bound = std::ldexp(1.0, width(e));
  }
  scope.resize(outer);
  --indent;
  line("}");
  // The error after up to 3 iterations (the body's error adds each time).
  scope[accIndex].value.bound = std::max(init.bound, bound);
  scope[accIndex].value.error =
      isFloat(e) ? init.error + 3 * (step.error + 8 * unit(e) * bound) : 0;
}

void Generator::branchStatement() {
  // Assign an existing var in one or both branches.
  std::vector<size_t> vars;
  for (size_t i = 0; i < scope.size(); ++i)
    if (scope[i].mutableVar)
      vars.push_back(i);
  if (vars.empty())
    return loopStatement();
  size_t v = vars[pick(static_cast<int>(vars.size()))];
  Expr old = scope[v].value;
  Expr c = boolOp(Shape::Scalar, 2);
  line("if " + c.text + " {");
  ++indent;
  Expr a = castTo(bounded(expr(old.elem, old.shape, 2), 64), old.elem);
  line(scope[v].name + " = " + a.text + ";");
  --indent;
  Expr b = old;
  if (chance(0.6)) {
    line("} else {");
    ++indent;
    b = castTo(bounded(expr(old.elem, old.shape, 2), 64), old.elem);
    line(scope[v].name + " = " + b.text + ";");
    --indent;
  }
  line("}");
  scope[v].value.bound = std::max(a.bound, b.bound);
  scope[v].value.error = std::max(a.error, b.error);
}

GeneratedProgram Generator::run() {
  GeneratedProgram p;
  p.kernel = "fuzz";
  p.inputSeed = seed * 2654435761u + 1;
  twoD = chance(0.4);
  static const int64_t blocks[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  static const int64_t sides[] = {1, 2, 4, 8, 16, 32};
  if (twoD) {
    rowsPerProgram = sides[pick(6)];
    cols = sides[pick(6)];
  } else {
    block = blocks[pick(9)];
  }
  int64_t tile = twoD ? rowsPerProgram : block;
  int64_t n = 1 + pick(static_cast<int>(3 * tile + 2)); // rows or elements
  int64_t programs = (n + tile - 1) / tile;
  bool extraProgram = chance(0.3); // which returns early
  p.grid = {programs + (extraProgram ? 1 : 0), 1, 1};
  static const unsigned warps[] = {1, 2, 4, 8};
  p.numWarps = warps[pick(4)];
  p.numStages = 1 + pick(3);
  int64_t elements = twoD ? n * cols : n;
  int64_t span = twoD ? programs * rowsPerProgram * cols : programs * block;

  std::string params;
  auto param = [&](const std::string &text) {
    params += (params.empty() ? "" : ", ") + text;
  };
  int numInputs = 1 + pick(3);
  std::vector<std::pair<std::string, Elem>> inputs;
  for (int i = 0; i < numInputs; ++i) {
    Elem e = randomElem();
    std::string n = "in" + std::to_string(i);
    inputs.push_back({n, e});
    param(n + ": ptr<" + name(e) + ">");
    p.args.push_back({n, name(e), true, elements});
  }
  // A square weight for dot (2-D programs).
  hasDotWeights = twoD && cols >= 1 && chance(0.5);
  Elem dotElem = chance(0.5) ? Elem::F16 : Elem::F32;
  if (hasDotWeights) {
    param(std::string("w: ptr<") + name(dotElem) + ">");
    p.args.push_back({"w", name(dotElem), true, cols * cols});
  }
  int numOutputs = 1 + pick(2);
  std::vector<std::pair<std::string, Elem>> outputs;
  for (int i = 0; i < numOutputs; ++i) {
    Elem e = randomElem();
    std::string n = "out" + std::to_string(i);
    outputs.push_back({n, e});
    param(n + ": ptr<" + name(e) + ">");
    p.args.push_back({n, name(e), true, span, true});
  }
  Elem reduceElem = randomElem();
  param(std::string("red: ptr<") + name(reduceElem) + ">");
  p.args.push_back({"red", name(reduceElem), true, p.grid[0], true});
  param("n: i32");
  p.args.push_back({"n", "i32", false, 0, false, 0, double(n)});
  param("k: i32");
  p.args.push_back({"k", "i32", false, 0, false, 0, double(pick(4))});
  param("s: f32");
  p.args.push_back({"s", "f32", false, 0, false, 0, 0.75});
  if (twoD) {
    int64_t m = std::max<int64_t>(1, cols - pick(static_cast<int>(cols)));
    param("m: i32");
    p.args.push_back({"m", "i32", false, 0, false, 0, double(m)});
    param("const R: i32 = " + std::to_string(rowsPerProgram));
    param("const C: i32 = " + std::to_string(cols));
  } else {
    param("const BLOCK: i32 = " + std::to_string(block));
  }

  line("let pid = program_id(0);");
  if (extraProgram)
    line("if pid >= " + std::to_string(programs) + " { return; }");
  scope.push_back({"pid", {"", Elem::I32, Shape::Scalar, double(programs), 0}});
  scope.push_back({"n", {"", Elem::I32, Shape::Scalar, double(n), 0}});
  scope.push_back({"s", {"", Elem::F32, Shape::Scalar, 0.75, 0}});
  std::string offs, mask;
  if (twoD) {
    line("let rows = pid * R + range(0, R);");
    line("let cols = range(0, C);");
    line("let offs = rows[:, None] * C + cols[None, :];");
    line("let mask = (rows < n)[:, None] & (cols < m)[None, :];");
    scope.push_back({"rows", {"", Elem::I32, Shape::Rows, double(span), 0}});
    scope.push_back({"cols", {"", Elem::I32, Shape::Cols, double(cols), 0}});
  } else {
    line("let offs = pid * BLOCK + range(0, BLOCK);");
    line("let mask = offs < n;");
  }
  scope.push_back({"offs", {"", Elem::I32, Shape::Full, double(span), 0}});
  for (auto &[n, e] : inputs) {
    std::string x = "x" + n.substr(2);
    Expr other = literal(e);
    line("let " + x + " = load(" + n + " + offs, mask, " + other.text + ");");
    // Floats are uniform in [-8, 8], integers in [-100, 100].
    scope.push_back({x, {"", e, Shape::Full, isFloat(e) ? 8.0 : 100.0, 0}});
  }
  if (hasDotWeights) {
    line("let wt = load(w + cols[:, None] * C + cols[None, :]);");
    Expr a = castTo(bounded(expr(dotElem, Shape::Full, 2), 8), dotElem);
    std::string d = fresh("d");
    line("let " + d + " = dot(" + a.text + ", wt);");
    double bound = double(cols) * a.bound * 8;
    // The product of two f16 or f32 values is exact in the f32 accumulator
    // (f32 inputs are not: ieee dot computes them as f32 FMAs).
    double error = double(cols) * (a.error * 8 + 2 * unit(Elem::F32) * bound);
    scope.push_back({d, {"", Elem::F32, Shape::Full, bound, error}});
  }

  int statements = 2 + pick(5);
  for (int i = 0; i < statements; ++i) {
    int kind = pick(10);
    if (kind < 6)
      letStatement();
    else if (kind < 8)
      loopStatement();
    else
      branchStatement();
  }

  for (size_t i = 0; i < outputs.size(); ++i) {
    auto &[n, e] = outputs[i];
    Expr x = castTo(bounded(expr(e, Shape::Full, 3), 1e4), e);
    line("store(" + n + " + offs, " + x.text + ", mask);");
    for (GeneratedArg &a : p.args)
      if (a.name == n)
        a.tolerance = 4 * x.error;
  }
  Expr r = castTo(bounded(reduction(reduceElem, Shape::Scalar, 3), 1e4),
                  reduceElem);
  line("store(red + pid, " + r.text + ");");
  for (GeneratedArg &a : p.args)
    if (a.name == "red")
      a.tolerance = 4 * r.error;

  p.source = "// generated by tile-fuzz-programs, seed " +
             std::to_string(seed) + "\n" +
             "fn sq(v) { return v / (abs(v) + 1.0); }\n" + helperText +
             "kernel fuzz(" + params + ") {\n" + body + "}\n";
  return p;
}

} // namespace

GeneratedProgram tile::fuzz::generateProgram(uint64_t seed) {
  return Generator(seed).run();
}
