//===- InterpreterReduce.cpp - reductions and scans on the interpreter ----===//
//
// reduce and scan with the builtin combiners (sum, prod, max, min, argmax,
// argmin) and with a combiner region (generic_reduce, generic_scan), each in
// order along the axis.
//
//===----------------------------------------------------------------------===//
#include "InterpreterImpl.h"

using namespace mlir;
using namespace tile;
using namespace tile::interp;
using namespace tile::interp::detail;

/// The lines along `axis` of a row-major `shape`: one per position in the
/// other dimensions, numbered as the elements of the reduced shape.
struct AxisLines {
  AxisLines(ArrayRef<int64_t> shape, int64_t axis) : len(shape[axis]) {
    for (size_t d = axis + 1; d < shape.size(); ++d)
      inner *= shape[d];
  }
  /// The element index of position `r` along line `line`.
  int64_t at(int64_t line, int64_t r) const {
    return (line / inner * len + r) * inner + line % inner;
  }
  /// Elements along each line, and between neighbours on one.
  int64_t len, inner = 1;
};

LogicalResult Interpreter::runReduce(ReduceOp op) {
  const RtValue &src = get(op.getSrc());
  RtValue out = makeValue(op.getType());
  AxisLines lines(src.shape, op.getAxis());
  int64_t len = lines.len;
  ElemType rt(op.getType());
  ReduceKind kind = op.getKind();
  bool isArg = kind == ReduceKind::argmax || kind == ReduceKind::argmin;
  for (size_t o = 0; o < out.size(); ++o) {
    auto at = [&](int64_t r) { return lines.at(o, r); };
    if (isArg) {
      // The first extreme element; a NaN is beyond every number.
      bool isFloat = !src.floats.empty();
      auto value = [&](int64_t r) {
        return isFloat ? src.floats[at(r)] : double(src.ints[at(r)]);
      };
      auto better = [&](int64_t r, int64_t best) {
        if (isFloat) {
          double x = value(r), y = value(best);
          if (std::isnan(y))
            return false;
          if (std::isnan(x))
            return true;
          return kind == ReduceKind::argmax ? x > y : x < y;
        }
        int64_t x = src.ints[at(r)], y = src.ints[at(best)];
        return kind == ReduceKind::argmax ? x > y : x < y;
      };
      int64_t best = 0;
      for (int64_t r = 1; r < len; ++r)
        if (better(r, best))
          best = r;
      out.ints[o] = best;
      continue;
    }
    if (!out.floats.empty()) {
      double acc = src.floats[at(0)];
      for (int64_t r = 1; r < len; ++r) {
        double x = src.floats[at(r)];
        if (kind == ReduceKind::sum)
          acc = rt.round(acc + x);
        else if (kind == ReduceKind::prod)
          acc = rt.round(acc * x);
        else if (std::isnan(acc) || std::isnan(x))
          acc = NAN;
        else
          acc = kind == ReduceKind::max ? std::max(acc, x) : std::min(acc, x);
      }
      out.floats[o] = acc;
    } else {
      int64_t acc = src.ints[at(0)];
      for (int64_t r = 1; r < len; ++r) {
        int64_t x = src.ints[at(r)];
        // Sums and products wrap (as unsigned, where C++ is defined).
        acc = kind == ReduceKind::sum
                  ? rt.wrap(int64_t(uint64_t(acc) + uint64_t(x)))
              : kind == ReduceKind::prod
                  ? rt.wrap(int64_t(uint64_t(acc) * uint64_t(x)))
              : kind == ReduceKind::max ? std::max(acc, x)
                                        : std::min(acc, x);
      }
      out.ints[o] = acc;
    }
  }
  set(op.getResult(), std::move(out));
  return success();
}

LogicalResult Interpreter::runScan(ScanOp op) {
  RtValue out = get(op.getSrc());
  AxisLines lines(out.shape, op.getAxis());
  int64_t len = lines.len;
  ElemType rt(op.getType());
  bool isSum = op.getKind() == ReduceKind::sum;
  int64_t numLines = int64_t(out.size()) / len;
  // In order along the axis (the GPU combines in a tree: floats may differ
  // in rounding).
  for (int64_t line = 0; line < numLines; ++line) {
    auto at = [&](int64_t r) { return lines.at(line, r); };
    for (int64_t r = 1; r < len; ++r) {
      if (!out.floats.empty()) {
        double prev = out.floats[at(r - 1)], x = out.floats[at(r)];
        out.floats[at(r)] = rt.round(isSum ? prev + x : prev * x);
      } else {
        uint64_t prev = out.ints[at(r - 1)], x = out.ints[at(r)];
        out.ints[at(r)] = rt.wrap(int64_t(isSum ? prev + x : prev * x));
      }
    }
  }
  set(op.getResult(), std::move(out));
  return success();
}

FailureOr<RtValue> Interpreter::combine(Region &combiner, RtValue a,
                                        RtValue b) {
  Block &body = combiner.front();
  set(body.getArgument(0), std::move(a));
  set(body.getArgument(1), std::move(b));
  for (Operation &inner : body.without_terminator())
    if (failed(runOp(inner)))
      return failure();
  return get(cast<CombineYieldOp>(body.getTerminator()).getValue());
}

/// Element `i` of `v` as a scalar value of `v`'s class.
static RtValue elementOf(const RtValue &v, size_t i) {
  RtValue e;
  if (!v.ints.empty())
    e.ints = {v.ints[i]};
  else
    e.floats = {v.floats[i]};
  return e;
}

/// Stores the scalar `e` as element `i` of `v`.
static void setElement(RtValue &v, size_t i, const RtValue &e) {
  if (!v.ints.empty())
    v.ints[i] = e.ints[0];
  else
    v.floats[i] = e.floats[0];
}

LogicalResult Interpreter::runGenericReduce(GenericReduceOp op) {
  // A copy: the combiner sets values, which may move the table.
  RtValue src = get(op.getSrc());
  RtValue out = makeValue(op.getType());
  AxisLines lines(src.shape, op.getAxis());
  int64_t len = lines.len;
  for (size_t o = 0; o < out.size(); ++o) {
    auto at = [&](int64_t r) { return lines.at(o, r); };
    RtValue acc = elementOf(src, at(0));
    for (int64_t r = 1; r < len; ++r) {
      FailureOr<RtValue> next =
          combine(op.getCombiner(), std::move(acc), elementOf(src, at(r)));
      if (failed(next))
        return failure();
      acc = std::move(*next);
    }
    setElement(out, o, acc);
  }
  set(op.getResult(), std::move(out));
  return success();
}

LogicalResult Interpreter::runGenericScan(GenericScanOp op) {
  RtValue out = get(op.getSrc());
  AxisLines lines(out.shape, op.getAxis());
  int64_t len = lines.len;
  int64_t numLines = int64_t(out.size()) / len;
  for (int64_t line = 0; line < numLines; ++line) {
    auto at = [&](int64_t r) { return lines.at(line, r); };
    for (int64_t r = 1; r < len; ++r) {
      FailureOr<RtValue> next = combine(
          op.getCombiner(), elementOf(out, at(r - 1)), elementOf(out, at(r)));
      if (failed(next))
        return failure();
      setElement(out, at(r), *next);
    }
  }
  set(op.getResult(), std::move(out));
  return success();
}
