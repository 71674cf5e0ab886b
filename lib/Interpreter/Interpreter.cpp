//===- Interpreter.cpp - run tile kernels on the CPU ----------------------===//
//
// A direct interpreter of tile IR: values are host arrays (one element per
// tile element), ops are evaluated in program order, scf regions are run as
// loops and branches. Float results are rounded to their type after every
// op, integers wrap to their width, so results match a GPU up to the order of
// floating-point sums.
//
//===----------------------------------------------------------------------===//
#include "InterpreterImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace tile;
using namespace tile::interp;
using namespace tile::interp::detail;

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::runBlock(Block &block,
                                    SmallVectorImpl<RtValue> *yielded) {
  for (Operation &op : block) {
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      if (yielded)
        for (Value v : yield.getOperands())
          yielded->push_back(get(v));
      return success();
    }
    if (isa<ReturnOp>(op))
      return success();
    if (failed(runOp(op)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::runFor(scf::ForOp op) {
  int64_t lb = get(op.getLowerBound()).ints[0];
  int64_t ub = get(op.getUpperBound()).ints[0];
  int64_t step = get(op.getStep()).ints[0];
  if (step == 0 || (step < 0 && !op.getUnsignedCmp()))
    return op.emitError("loop step must be positive, got ") << step;
  SmallVector<RtValue> carried;
  for (Value init : op.getInitArgs())
    carried.push_back(get(init));
  ElemType ivType(op.getInductionVar().getType());
  // One iteration with the induction variable at `i`.
  auto iterate = [&](int64_t i) -> LogicalResult {
    RtValue iv = makeValue(op.getInductionVar().getType());
    iv.ints[0] = i;
    set(op.getInductionVar(), iv);
    for (auto [arg, value] : llvm::zip(op.getRegionIterArgs(), carried))
      set(arg, value);
    SmallVector<RtValue> next;
    if (failed(runBlock(*op.getBody(), &next)))
      return failure();
    carried = std::move(next);
    return success();
  };
  if (op.getUnsignedCmp()) {
    // Unsigned bounds: count the iterations in unsigned arithmetic.
    unsigned width = op.getInductionVar().getType().getIntOrFloatBitWidth();
    uint64_t ulb = toUnsigned(lb, width), uub = toUnsigned(ub, width);
    uint64_t ustep = toUnsigned(step, width);
    uint64_t trips =
        uub <= ulb ? 0 : (uub - ulb) / ustep + ((uub - ulb) % ustep != 0);
    for (uint64_t t = 0; t < trips; ++t)
      if (failed(iterate(ivType.wrap(int64_t(ulb + t * ustep)))))
        return failure();
  } else {
    for (int64_t i = lb; i < ub; i = ivType.wrap(i + step)) {
      if (failed(iterate(i)))
        return failure();
      if (i > ub - step) // Next step would pass ub (and might overflow).
        break;
    }
  }
  for (auto [result, value] : llvm::zip(op.getResults(), carried))
    set(result, value);
  return success();
}

LogicalResult Interpreter::runWhile(scf::WhileOp op) {
  SmallVector<RtValue> carried;
  for (Value init : op.getInits())
    carried.push_back(get(init));
  while (true) {
    for (auto [arg, value] : llvm::zip(op.getBeforeArguments(), carried))
      set(arg, value);
    auto condition = op.getConditionOp();
    for (Operation &inner : op.getBefore().front().without_terminator())
      if (failed(runOp(inner)))
        return failure();
    carried.clear();
    for (Value v : condition.getArgs())
      carried.push_back(get(v));
    if (get(condition.getCondition()).ints[0] == 0)
      break;
    for (auto [arg, value] : llvm::zip(op.getAfterArguments(), carried))
      set(arg, value);
    SmallVector<RtValue> next;
    if (failed(runBlock(op.getAfter().front(), &next)))
      return failure();
    carried = std::move(next);
  }
  for (auto [result, value] : llvm::zip(op.getResults(), carried))
    set(result, value);
  return success();
}

LogicalResult Interpreter::runIf(scf::IfOp op) {
  bool cond = get(op.getCondition()).ints[0] != 0;
  Region &region = cond ? op.getThenRegion() : op.getElseRegion();
  SmallVector<RtValue> results;
  if (!region.empty() && failed(runBlock(region.front(), &results)))
    return failure();
  for (auto [result, value] : llvm::zip(op.getResults(), results))
    set(result, value);
  return success();
}

LogicalResult Interpreter::runOp(Operation &op) {
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return runFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return runIf(ifOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return runWhile(whileOp);
  if (isa<TileDialect>(op.getDialect()))
    return runTileOp(op);
  if (isa<arith::ArithDialect, math::MathDialect>(op.getDialect()))
    return runArith(op);
  return unsupported(op);
}

//===----------------------------------------------------------------------===//
// tile ops
//===----------------------------------------------------------------------===//

/// Strides of a row-major shape.
static SmallVector<int64_t, 4> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Copies element `from` of `src` to element `to` of `dst` (same class).
static void copyElement(const RtValue &src, size_t from, RtValue &dst,
                        size_t to) {
  if (!dst.ints.empty())
    dst.ints[to] = src.ints[from];
  else if (!dst.floats.empty())
    dst.floats[to] = src.floats[from];
  else
    dst.ptrs[to] = src.ptrs[from];
}

LogicalResult Interpreter::runTileOp(Operation &op) {
  if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op))
    return runMemory(op);
  if (auto scan = dyn_cast<ScanOp>(op))
    return runScan(scan);
  if (auto hint = dyn_cast<HintOp>(op))
    return runHint(hint);
  if (auto reduce = dyn_cast<GenericReduceOp>(op))
    return runGenericReduce(reduce);
  if (auto scan = dyn_cast<GenericScanOp>(op))
    return runGenericScan(scan);
  if (auto dot = dyn_cast<DotOp>(op))
    return runDot(dot);
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return runReduce(reduce);
  if (isa<PrintOp, DeviceAssertOp>(op))
    return runDebug(op);
  if (auto split = dyn_cast<SplitOp>(op)) {
    // Even elements in row-major order to lhs, odd ones to rhs.
    const RtValue &src = get(split.getSrc());
    RtValue lhs = makeValue(split.getLhs().getType()),
            rhs = makeValue(split.getRhs().getType());
    for (size_t i = 0; i < lhs.size(); ++i) {
      copyElement(src, 2 * i, lhs, i);
      copyElement(src, 2 * i + 1, rhs, i);
    }
    set(split.getLhs(), std::move(lhs));
    set(split.getRhs(), std::move(rhs));
    return success();
  }
  if (op.getNumResults() != 1)
    return unsupported(op);
  Value result = op.getResult(0);
  RtValue out = makeValue(result.getType());
  size_t n = out.size();
  bool handled = true;
  TypeSwitch<Operation *>(&op)
      .Case<ProgramIdOp>([&](ProgramIdOp p) { out.ints[0] = pid[p.getAxis()]; })
      .Case<NumProgramsOp>(
          [&](NumProgramsOp p) { out.ints[0] = grid[p.getAxis()]; })
      .Case<MakeRangeOp>([&](MakeRangeOp r) {
        for (size_t i = 0; i < n; ++i)
          out.ints[i] = int64_t(r.getStart()) + int64_t(i);
      })
      .Case<SplatOp>([&](SplatOp s) {
        const RtValue &src = get(s.getSrc());
        for (size_t i = 0; i < n; ++i)
          copyElement(src, 0, out, i);
      })
      .Case<ExpandDimsOp, ConvertLayoutOp, ReshapeOp>([&](Operation *o) {
        // Same elements in the same row-major order.
        SmallVector<int64_t, 2> shape = out.shape;
        out = get(o->getOperand(0));
        out.shape = shape;
      })
      .Case<BroadcastOp>([&](BroadcastOp b) {
        const RtValue &src = get(b.getSrc());
        auto srcStrides = stridesOf(src.shape);
        auto dstStrides = stridesOf(out.shape);
        for (size_t i = 0; i < n; ++i) {
          size_t from = 0;
          for (size_t d = 0; d < out.shape.size(); ++d) {
            int64_t idx = (int64_t(i) / dstStrides[d]) % out.shape[d];
            if (src.shape[d] != 1)
              from += idx * srcStrides[d];
          }
          copyElement(src, from, out, i);
        }
      })
      .Case<TransOp>([&](TransOp t) {
        const RtValue &src = get(t.getSrc());
        int64_t rows = src.shape[0], cols = src.shape[1];
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            copyElement(src, r * cols + c, out, c * rows + r);
      })
      .Case<PermuteOp>([&](PermuteOp p) {
        // Result index i has coordinates c; the source element is at c
        // with dimension order[d] holding c[d].
        const RtValue &src = get(p.getSrc());
        auto srcStrides = stridesOf(src.shape);
        auto dstStrides = stridesOf(out.shape);
        ArrayRef<int32_t> order = p.getOrder();
        for (size_t i = 0; i < n; ++i) {
          size_t from = 0;
          for (size_t d = 0; d < out.shape.size(); ++d)
            from += (int64_t(i) / dstStrides[d]) % out.shape[d] *
                    srcStrides[order[d]];
          copyElement(src, from, out, i);
        }
      })
      .Case<JoinOp>([&](JoinOp j) {
        const RtValue &lhs = get(j.getLhs()), &rhs = get(j.getRhs());
        for (size_t i = 0; i < n / 2; ++i) {
          copyElement(lhs, i, out, 2 * i);
          copyElement(rhs, i, out, 2 * i + 1);
        }
      })
      .Case<AddPtrOp>([&](AddPtrOp a) {
        const RtValue &p = get(a.getPtr()), &o = get(a.getOffset());
        for (size_t i = 0; i < n; ++i)
          out.ptrs[i] = {p.ptrs[i].buffer, p.ptrs[i].offset + o.ints[i]};
      })
      .Default([&](Operation *) { handled = false; });
  if (!handled)
    return unsupported(op);
  set(result, std::move(out));
  return success();
}

std::string interp::kernelParamName(KernelOp kernel, unsigned i) {
  if (auto name = dyn_cast<NameLoc>(kernel.getBody().getArgument(i).getLoc()))
    return name.getName().str();
  return "#" + std::to_string(i);
}

/// The value an atomic read-modify-write of `kind` leaves in memory that
/// held `old`, given `v`, in the element type `type`.
static double atomicFloat(AtomicKind kind, double old, double v,
                          const ElemType &type) {
  switch (kind) {
  case AtomicKind::add:
    return type.round(old + v);
  case AtomicKind::max:
  case AtomicKind::min:
    // maxnum/minnum: a NaN operand is ignored.
    if (std::isnan(old) || std::isnan(v))
      return std::isnan(old) ? v : old;
    return kind == AtomicKind::max ? std::max(old, v) : std::min(old, v);
  default:
    return v;
  }
}

static int64_t atomicInt(AtomicKind kind, int64_t old, int64_t v,
                         const ElemType &type) {
  switch (kind) {
  case AtomicKind::add:
    return type.wrap(int64_t(uint64_t(old) + uint64_t(v)));
  case AtomicKind::max:
    return std::max(old, v);
  case AtomicKind::min:
    return std::min(old, v);
  case AtomicKind::umax:
  case AtomicKind::umin: {
    bool oldIsLess = toUnsigned(old, type.width) < toUnsigned(v, type.width);
    return oldIsLess == (kind == AtomicKind::umax) ? v : old;
  }
  case AtomicKind::xchg:
    return v;
  case AtomicKind::And:
    return old & v;
  case AtomicKind::Or:
    return old | v;
  case AtomicKind::Xor:
    return old ^ v;
  }
  return v;
}

LogicalResult Interpreter::runMemory(Operation &op) {
  auto load = dyn_cast<LoadOp>(op);
  auto store = dyn_cast<StoreOp>(op);
  auto rmw = dyn_cast<AtomicRMWOp>(op);
  auto cas = dyn_cast<AtomicCASOp>(op);
  Value ptrValue = op.getOperand(0);
  Value maskValue = load    ? load.getMask()
                    : store ? store.getMask()
                    : rmw   ? rmw.getMask()
                            : Value();
  const RtValue &ptrs = get(ptrValue);
  const RtValue *mask = maskValue ? &get(maskValue) : nullptr;
  size_t n = ptrs.size();
  RtValue out;
  const RtValue *other = nullptr, *stored = nullptr, *compared = nullptr;
  if (!store)
    out = makeValue(op.getResult(0).getType());
  if (load && load.getOther())
    other = &get(load.getOther());
  if (store)
    stored = &get(store.getValue());
  if (rmw)
    stored = &get(rmw.getValue());
  if (cas) {
    stored = &get(cas.getValue());
    compared = &get(cas.getCmp());
  }
  StringRef what = load ? "load" : store ? "store" : "atomic";
  for (size_t i = 0; i < n; ++i) {
    bool active = !mask || mask->ints[i] != 0;
    if (!active) {
      if (other)
        copyElement(*other, i, out, i);
      continue;
    }
    Ptr p = ptrs.ptrs[i];
    // Every pointer derives from a kernel argument's buffer.
    assert(p.buffer >= 0 && p.buffer < static_cast<int32_t>(buffers.size()));
    HostBuffer &buffer = *buffers[p.buffer];
    if (p.offset < 0 || p.offset >= static_cast<int64_t>(buffer.size())) {
      return op.emitError()
             << "out-of-bounds " << what << ": element " << p.offset
             << " of the " << buffer.size() << "-element buffer of "
             << "parameter '" << kernelParamName(kernel, p.buffer) << "'"
             << " in program (" << pid[0] << ", " << pid[1] << ", " << pid[2]
             << ")" << (mask || cas ? "" : "; the access has no mask");
    }
    if (load) {
      if (!out.floats.empty())
        out.floats[i] = ElemType(load.getType()).round(buffer.getFloat(p.offset));
      else
        out.ints[i] = buffer.getInt(p.offset);
    } else if (store) {
      if (!stored->floats.empty())
        buffer.setFloat(p.offset, stored->floats[i]);
      else
        buffer.setInt(p.offset, stored->ints[i]);
    } else if (cas) {
      int64_t old = buffer.getInt(p.offset);
      out.ints[i] = old;
      if (old == compared->ints[i])
        buffer.setInt(p.offset, stored->ints[i]);
    } else {
      ElemType type(rmw.getType());
      if (!stored->floats.empty()) {
        double old = buffer.getFloat(p.offset);
        out.floats[i] = old;
        buffer.setFloat(
            p.offset, atomicFloat(rmw.getKind(), old, stored->floats[i], type));
      } else {
        int64_t old = buffer.getInt(p.offset);
        out.ints[i] = old;
        buffer.setInt(p.offset,
                      atomicInt(rmw.getKind(), old, stored->ints[i], type));
      }
    }
  }
  if (!store)
    set(op.getResult(0), std::move(out));
  return success();
}

/// Each output element of a (batched) dot as `out[c] = sum(out[c], x[kk],
/// y[kk * n])` over kk, with x a row of a and y a column of b: one
/// product per index of a 3-D dot's leading dimension.
template <typename T, typename Sum>
static void forEachDotOutput(ArrayRef<int64_t> aShape, int64_t n,
                             const std::vector<T> &a, const std::vector<T> &b,
                             std::vector<T> &out, Sum sum) {
  size_t rank = aShape.size();
  int64_t batches = rank == 3 ? aShape[0] : 1;
  int64_t m = aShape[rank - 2], k = aShape[rank - 1];
  for (int64_t bi = 0; bi < batches; ++bi)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        T &c = out[(bi * m + i) * n + j];
        c = sum(c, &a[(bi * m + i) * k], &b[bi * k * n + j], k);
      }
}

LogicalResult Interpreter::runDot(DotOp op) {
  const RtValue &a = get(op.getA()), &b = get(op.getB());
  RtValue out = get(op.getAcc());
  int64_t n = b.shape.back();
  ElemType acc(op.getType());
  if (classOf(op.getType()) == ElemClass::Int) {
    // i8 inputs, i32 sums that wrap as the tensor cores' do.
    forEachDotOutput(
        a.shape, n, a.ints, b.ints, out.ints,
        [&](int64_t c, const int64_t *x, const int64_t *y, int64_t k) {
          for (int64_t kk = 0; kk < k; ++kk)
            c = acc.wrap(c + x[kk] * y[kk * n]);
          return c;
        });
    set(op.getResult(), std::move(out));
    return success();
  }
  bool tf32 = op.getPrecision() == InputPrecision::tf32;
  // tf32 keeps 10 mantissa bits of each input, truncated: the tensor core
  // ignores the low 13 bits of the f32 registers it is given.
  auto input = [&](double x) {
    if (!tf32)
      return x;
    llvm::APFloat f(static_cast<float>(x));
    llvm::APInt bits = f.bitcastToAPInt();
    uint32_t u = static_cast<uint32_t>(bits.getZExtValue()) & ~0x1FFFu;
    float r;
    std::memcpy(&r, &u, sizeof(r));
    return static_cast<double>(r);
  };
  // Products are exact in double; the sum is kept in the accumulator's type.
  forEachDotOutput(a.shape, n, a.floats, b.floats, out.floats,
                   [&](double c, const double *x, const double *y, int64_t k) {
                     for (int64_t kk = 0; kk < k; ++kk)
                       c = acc.round(c + input(x[kk]) * input(y[kk * n]));
                     return c;
                   });
  set(op.getResult(), std::move(out));
  return success();
}

LogicalResult Interpreter::runHint(HintOp op) {
  const RtValue &src = get(op.getSrc());
  SmallVector<int64_t, 2> shape = src.shape;
  if (shape.empty())
    shape.push_back(1);
  auto strides = stridesOf(shape);
  auto fail = [&](size_t i, const Twine &what) {
    return op.emitError() << "hint does not hold in program (" << pid[0] << ", "
                          << pid[1] << ", " << pid[2] << "): element " << i
                          << " is " << src.ints[i] << ", " << what;
  };
  // The first element's divisibility (a tile's further runs start where
  // the analysis derives them; only a scalar is checked whole).
  int64_t multiple = 1;
  for (int64_t m : op.getMultipleOf())
    multiple = std::max(multiple, m);
  if (src.ints[0] % multiple != 0)
    return fail(0, "not a multiple of " + Twine(multiple));
  // Runs of consecutive values along each dimension.
  for (size_t i = 0; i < src.ints.size(); ++i)
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t c = op.getMaxContiguous()[d];
      int64_t at = int64_t(i) / strides[d] % shape[d];
      if (c > 1 && at % c != 0 && src.ints[i] != src.ints[i - strides[d]] + 1)
        return fail(i, "not one more than the element before it along "
                       "dimension " +
                           Twine(d) + " (max_contiguous " + Twine(c) + ")");
    }
  set(op.getResult(), src);
  return success();
}

/// " idx (i, j)" of element `i` of a tile of `shape` with row-major
/// `strides` (nothing for scalars).
static std::string indexText(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides,
                             size_t i) {
  if (shape.empty())
    return "";
  std::string text = " idx (";
  for (size_t d = 0; d < shape.size(); ++d)
    text +=
        (d ? ", " : "") + std::to_string(int64_t(i) / strides[d] % shape[d]);
  return text + ")";
}

LogicalResult Interpreter::runDebug(Operation &op) {
  std::string where = "pid (" + std::to_string(pid[0]) + ", " +
                      std::to_string(pid[1]) + ", " + std::to_string(pid[2]) +
                      ")";
  if (auto assertOp = dyn_cast<DeviceAssertOp>(op)) {
    const RtValue &cond = get(assertOp.getCond());
    for (size_t i = 0; i < cond.ints.size(); ++i)
      if (!cond.ints[i])
        return op.emitError() << "device_assert failed in " << where
                              << indexText(cond.shape, stridesOf(cond.shape), i)
                              << ": " << assertOp.getMessage();
    return success();
  }
  auto print = cast<PrintOp>(op);
  const RtValue &v = get(print.getValue());
  Type elem = getElementTypeOrSelf(print.getValue().getType());
  SmallVector<int64_t, 4> strides = stridesOf(v.shape);
  for (size_t i = 0; i < v.size(); ++i) {
    char number[64];
    if (!v.floats.empty())
      snprintf(number, sizeof(number), elem.isF64() ? "%.17g" : "%.9g",
               v.floats[i]);
    else if (print.getIsUnsigned())
      snprintf(number, sizeof(number), "%llu",
               static_cast<unsigned long long>(
                   toUnsigned(v.ints[i], elem.getIntOrFloatBitWidth())));
    else
      snprintf(number, sizeof(number), "%lld",
               static_cast<long long>(v.ints[i]));
    llvm::outs() << where << indexText(v.shape, strides, i) << " "
                 << print.getPrefix() << number << "\n";
  }
  llvm::outs().flush();
  return success();
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

namespace {
/// "program I of N (P%)" on stderr, rewritten in place about twice a second,
/// once a run has taken a second; only when stderr is a terminal.
class ProgressLine {
public:
  explicit ProgressLine(int64_t total)
      : total(total), start(std::chrono::steady_clock::now()),
        enabled(llvm::errs().is_displayed()) {}
  ~ProgressLine() {
    if (shown)
      llvm::errs() << "\r\033[K";
  }
  void step() {
    ++done;
    // Reading the clock every program would dominate tiny programs.
    if (!enabled || (done & 255) != 0)
      return;
    auto now = std::chrono::steady_clock::now();
    if (now - start < std::chrono::seconds(1) ||
        now - last < std::chrono::milliseconds(500))
      return;
    last = now;
    shown = true;
    llvm::errs() << "\rinterpreting program " << done << " of " << total
                 << " (" << (100 * done / total) << "%)";
    llvm::errs().flush();
  }

private:
  int64_t total, done = 0;
  std::chrono::steady_clock::time_point start, last;
  bool enabled, shown = false;
};
} // namespace

LogicalResult interp::runKernel(KernelOp kernel, std::array<int64_t, 3> grid,
                                ArrayRef<KernelArg> args) {
  ArrayRef<Type> params = kernel.getArgumentTypes();
  if (args.size() != params.size())
    return kernel.emitError() << "kernel '" << kernel.getSymName()
                              << "' takes " << params.size()
                              << " argument(s), got " << args.size();
  for (int64_t g : grid)
    if (g < 1)
      return kernel.emitError("every grid dimension must be at least 1");
  SmallVector<RtValue> values;
  SmallVector<HostBuffer *> buffers(params.size(), nullptr);
  for (auto [i, type, arg] : llvm::enumerate(params, args)) {
    RtValue v = makeValue(type);
    if (auto ptr = dyn_cast<PointerType>(type)) {
      if (arg.kind != KernelArg::Kind::Buffer || !arg.buffer)
        return kernel.emitError() << "argument " << i << " must be a buffer";
      FailureOr<ScalarKind> kind = scalarKindOf(ptr.getPointeeType());
      if (failed(kind) || *kind != arg.buffer->kind())
        return kernel.emitError()
               << "argument " << i << " is a buffer of "
               << scalarKindName(arg.buffer->kind()) << " but the parameter is "
               << type;
      buffers[i] = arg.buffer;
      v.ptrs[0] = Ptr{static_cast<int32_t>(i), 0};
    } else if (isa<FloatType>(type)) {
      if (arg.kind == KernelArg::Kind::Buffer)
        return kernel.emitError() << "argument " << i << " must be a scalar";
      v.floats[0] = ElemType(type).round(arg.kind == KernelArg::Kind::Float
                                             ? arg.floatValue
                                             : double(arg.intValue));
    } else {
      if (arg.kind != KernelArg::Kind::Int)
        return kernel.emitError() << "argument " << i << " must be an integer";
      v.ints[0] = ElemType(type).wrap(arg.intValue);
    }
    values.push_back(std::move(v));
  }
  Interpreter interpreter(kernel, buffers);
  ProgressLine progress(grid[0] * grid[1] * grid[2]);
  for (int64_t z = 0; z < grid[2]; ++z)
    for (int64_t y = 0; y < grid[1]; ++y)
      for (int64_t x = 0; x < grid[0]; ++x) {
        if (failed(interpreter.runProgram({x, y, z}, grid, values)))
          return failure();
        progress.step();
      }
  return success();
}
