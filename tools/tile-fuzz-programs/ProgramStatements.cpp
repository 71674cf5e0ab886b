//===- ProgramStatements.cpp - random valid .tile programs: statements ----===//
//
// Lets, loops with carried values and branches over the expressions of
// ProgramGenerator.cpp, and the kernel around them: parameters, arguments,
// loads, stores and the launch.
//
//===----------------------------------------------------------------------===//
#include "GeneratorImpl.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace tile::fuzz;
using namespace tile::fuzz::detail;

/// The bound of an input element: floats are uniform in [-8, 8], integers
/// in [-100, 100] (tile-fuzz-programs.cpp draws them).
static double inputBound(Elem e) { return isFloat(e) ? 8.0 : 100.0; }

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
  std::optional<Expr> loaded;
  if (!inputPointers.empty() && chance(0.5)) {
    // An input loaded again in the body under a mask that depends on the
    // induction variable (always true: at most 3 iterations), which the
    // GPU pipeline issues an iteration ahead; the step adds it.
    auto [n, ie] = pickFrom(inputPointers);
    std::string x = fresh("ld");
    line("let " + x + " = load(" + n + " + offs, mask & (" + iv + " < 4), " +
         literal(ie).text + ");");
    loaded = Expr{x, ie, Shape::Full, inputBound(ie), 0};
  }
  Expr step = bounded(expr(e, Shape::Full, 2), 64);
  if (loaded) {
    Expr l = castTo(*loaded, e);
    step.text = "(" + step.text + " + " + l.text + ")";
    step.bound += l.bound;
    step.error += l.error + unit(e) * step.bound;
  }
  Expr cur = scope[accIndex].value;
  // acc = sq(acc + step) keeps floats bounded across iterations.
  // Each iteration adds the body's error and the rounding of the sum and of
  // the squash; after at most 3 iterations (k < 4):
  double sumBound = cur.bound + step.bound;
  double perIteration = step.error + 2 * unit(e) * sumBound + 4 * unit(e);
  std::string sum = "(" + acc + " + " + step.text + ")";
  double bound;
  if (isFloat(e)) {
    line(acc + " = sq(" + sum + ");");
    bound = 1;
  } else {
    line(acc + " = " + sum + ";");
    bound = std::ldexp(1.0, width(e));
  }
  scope.resize(outer);
  --indent;
  line("}");
  scope[accIndex].value.bound = std::max(init.bound, bound);
  scope[accIndex].value.error = isFloat(e) ? init.error + 3 * perIteration : 0;
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
  // A pointer parameter and its buffer of `elements`.
  auto pointer = [&](const std::string &n, Elem e, int64_t elements,
                     bool isOutput) {
    param(n + ": ptr<" + name(e) + ">");
    p.args.push_back({n, name(e), true, elements, isOutput});
  };
  // Inputs and outputs of random types, named in0.., out0..
  auto pointers = [&](const char *prefix, int count, int64_t elements,
                      bool isOutput) {
    std::vector<std::pair<std::string, Elem>> named;
    for (int i = 0; i < count; ++i) {
      named.push_back({prefix + std::to_string(i), randomElem()});
      pointer(named.back().first, named.back().second, elements, isOutput);
    }
    return named;
  };
  auto inputs = pointers("in", 1 + pick(3), elements, false);
  // A square weight for dot (2-D programs).
  hasDotWeights = twoD && cols >= 1 && chance(0.5);
  Elem dotElem = chance(0.5) ? Elem::F16 : Elem::F32;
  if (hasDotWeights)
    pointer("w", dotElem, cols * cols, false);
  auto outputs = pointers("out", 1 + pick(2), span, true);
  Elem reduceElem = randomElem();
  pointer("red", reduceElem, p.grid[0], true);
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
  inputPointers.assign(inputs.begin(), inputs.end());
  for (auto &[n, e] : inputs) {
    std::string x = "x" + n.substr(2);
    Expr other = literal(e);
    line("let " + x + " = load(" + n + " + offs, mask, " + other.text + ");");
    scope.push_back({x, {"", e, Shape::Full, inputBound(e), 0}});
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
  Expr r =
      castTo(bounded(reduction(reduceElem, Shape::Scalar, 3), 1e4), reduceElem);
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

GeneratedProgram tile::fuzz::generateProgram(uint64_t seed) {
  return Generator(seed).run();
}
