//===- ProgramGenerator.cpp - random valid .tile programs: expressions ----===//
#include "GeneratorImpl.h"

#include <algorithm>
#include <cmath>

using namespace tile::fuzz;
using namespace tile::fuzz::detail;

std::vector<Shape> Generator::subShapes(Shape to) const {
  switch (to) {
  case Shape::Full:
    if (twoD)
      return {Shape::Full, Shape::RowCol, Shape::ColRow,
              Shape::Rows, Shape::Cols,   Shape::Scalar};
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
  std::string r = std::to_string(rowsPerProgram), c = std::to_string(cols);
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
    return {"maximum(" + x.text + ", " + y.text + ")",
            e,
            s,
            std::max(x.bound, y.bound),
            0,
            folded};
  default:
    if (isFloat(e))
      return {"(" + x.text + " % " + y.text + ")", e, s, x.bound, 0, folded};
    return {"minimum(" + x.text + ", " + y.text + ")",
            e,
            s,
            std::max(x.bound, y.bound),
            0,
            folded};
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
    double error =
        op == 2 ? a.error * b.bound + b.error * a.bound + a.error * b.error
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
    return castTo(
        {"(" + broadcastTo(a, s) + " / (abs(" + broadcastTo(b, s) + ") + 1.0))",
         re, s, a.bound, a.error + b.error * a.bound + 4 * unit(re) * a.bound},
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
      return {"log2(abs(" + a.text + ") + 1.0)", e, s, std::log2(a.bound + 1),
              2 * a.error + approx * (1 + a.bound)};
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
    Expr a = expr(e, s, depth - 1),
         b = expr(e, randomOperandShape(s), depth - 1);
    switch (pick(3)) {
    case 0:
      return {std::string(chance(0.5) ? "maximum(" : "minimum(") + a.text +
                  ", " + broadcastTo(b, s) + ")",
              e,
              s,
              std::max(a.bound, b.bound),
              std::max(a.error, b.error),
              a.constant && b.constant};
    case 1:
      return {"abs(" + a.text + ")", e, s, a.bound, a.error, a.constant};
    default:
      return {"(-" + a.text + ")", e, s, a.bound, a.error, a.constant};
    }
  }
  case 7: { // where
    Expr c = boolOp(randomOperandShape(s), depth - 1);
    Expr a = expr(e, s, depth - 1),
         b = expr(e, randomOperandShape(s), depth - 1);
    return {"where(" + broadcastTo(c, s) + ", " + a.text + ", " +
                broadcastTo(b, s) + ")",
            e,
            s,
            std::max(a.bound, b.bound),
            std::max(a.error, b.error),
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
    return castTo({"(" + x + " + " + y + ")", re, s, cap(a.bound + b.bound)},
                  e);
  case 1:
    return castTo({"(" + x + " - " + y + ")", re, s, cap(a.bound + b.bound)},
                  e);
  case 2:
    return castTo({"(" + x + " * " + y + ")", re, s, cap(a.bound * b.bound)},
                  e);
  case 3: // never by 0 or -1 (abs(INT_MIN) + 1 is negative but not -1)
    return castTo({"(" + x + " / (abs(" + y + ") + 1))", re, s, a.bound}, e);
  case 4:
    return castTo({"(" + x + " % (abs(" + y + ") + 1))", re, s, a.bound}, e);
  case 5:
    return castTo({"cdiv(" + x + ", abs(" + y + ") + 1)", re, s, a.bound}, e);
  case 6: // amounts past the width too (0 for <<, the sign for >>)
    return castTo({"(" + x + " << (" + y + " & " + std::to_string(shiftMask()) +
                       "))",
                   re, s, cap(std::ldexp(a.bound, 63))},
                  e);
  case 7:
    return castTo({"(" + x + " >> (" + y + " & " + std::to_string(shiftMask()) +
                       "))",
                   re, s, a.bound},
                  e);
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
    double error =
        isFloat(e) ? double(length) * (x.error + 2 * unit(e) * bound) : 0;
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
    args.push_back(
        bounded(expr(ae, i == 0 ? s : randomOperandShape(s), depth - 1), 64));
  }
  auto callText = [&](const std::string &helper) {
    std::string text = helper + "(";
    for (size_t i = 0; i < args.size(); ++i)
      text += (i ? ", " : "") + args[i].text;
    return text + ")";
  };
  for (const Helper &h : helpers) {
    if (h.params.size() != args.size() || h.result != e || h.resultShape != s)
      continue;
    bool same = true;
    for (size_t i = 0; i < args.size(); ++i)
      same &= h.params[i] == std::make_pair(args[i].elem, args[i].shape) &&
              h.constantParams[i] == args[i].constant &&
              args[i].bound <= h.paramBounds[i] &&
              args[i].error <= h.paramErrors[i];
    if (same && chance(0.7))
      return {callText(h.name), e, s, h.bound, h.error, h.constantResult};
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
    // Parameters carry the arguments' bounds and errors.
    scope.push_back({p, args[i]});
    h.params.push_back({args[i].elem, args[i].shape});
    h.constantParams.push_back(args[i].constant);
    h.paramBounds.push_back(args[i].bound);
    h.paramErrors.push_back(args[i].error);
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
  h.bound = result.bound;
  h.constantResult = result.constant;
  h.error = result.error;
  helpers.push_back(h);
  return {callText(h.name), e, s, h.bound, h.error, h.constantResult};
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
