//===- AxisInfo.cpp - contiguity, divisibility, constancy -----------------===//
#include "tile/Analysis/AxisInfo.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::dataflow;
using namespace tile;

using Vec = AxisInfo::Vec;

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo AxisInfo::pessimistic(unsigned rank) {
  return AxisInfo(Vec(rank, 1), Vec(rank, 1), Vec(rank, 1));
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized())
    return lhs;
  if (lhs.getRank() != rhs.getRank())
    return pessimistic(lhs.getRank());
  Vec c, d, k;
  for (unsigned i = 0; i < lhs.getRank(); ++i) {
    c.push_back(std::gcd(lhs.contiguity[i], rhs.contiguity[i]));
    d.push_back(std::gcd(lhs.divisibility[i], rhs.divisibility[i]));
    k.push_back(std::gcd(lhs.constancy[i], rhs.constancy[i]));
  }
  return AxisInfo(c, d, k);
}

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](const Vec &v) {
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Shape of a value for the analysis: a scalar is a 1-element rank-1 tile.
static SmallVector<int64_t, 2> analysisShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t, 2>(tensor.getShape());
  return {1};
}

/// Largest power of two dividing `v` (capped; 0 is divisible by anything).
static int64_t pow2Divisor(int64_t v) {
  if (v == 0)
    return AxisInfo::kMaxDivisibility;
  uint64_t u = static_cast<uint64_t>(v);
  return std::min<int64_t>(static_cast<int64_t>(u & (~u + 1)),
                           AxisInfo::kMaxDivisibility);
}

static int64_t capMul(int64_t a, int64_t b) {
  if (a > AxisInfo::kMaxDivisibility / std::max<int64_t>(b, 1))
    return AxisInfo::kMaxDivisibility;
  return std::min(a * b, AxisInfo::kMaxDivisibility);
}

/// Bytes of a pointer's pointee; 0 for non-pointers.
static int64_t pointeeBytes(Type type) {
  if (auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(type)))
    return std::max<int64_t>(1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
  return 0;
}

/// Facts about a constant whose every element is `v`.
static AxisInfo constantInfo(ArrayRef<int64_t> shape, int64_t v) {
  Vec c(shape.size(), 1), d(shape.size(), pow2Divisor(v)), k(shape.begin(), shape.end());
  return AxisInfo(c, d, k);
}

/// The integer every element of `v` is equal to, if the analysis's constant
/// propagation knows it.
static std::optional<int64_t> constantValue(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  Attribute attr;
  if (auto c = dyn_cast<arith::ConstantOp>(def))
    attr = c.getValue();
  else
    return std::nullopt;
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().getSExtValue();
  if (auto dense = dyn_cast<SplatElementsAttr>(attr))
    if (isa<IntegerType>(dense.getElementType()))
      return dense.getSplatValue<APInt>().getSExtValue();
  return std::nullopt;
}

/// The divisibility of `x` along `d` that holds for the first element of each
/// run of a result whose runs have length `resultCont`: shorter runs start
/// inside x's runs, at offsets that are multiples of `resultCont`.
static int64_t effectiveDiv(const AxisInfo &x, unsigned d, int64_t resultCont) {
  if (resultCont < x.getContiguity(d))
    return std::gcd(x.getDivisibility(d), resultCont);
  return x.getDivisibility(d);
}

/// Rule for `a + b` (also pointer + offset, where `scale` converts the
/// offset's divisibility to bytes).
static AxisInfo addInfo(const AxisInfo &a, const AxisInfo &b,
                        int64_t scale = 1) {
  Vec c, d, k;
  for (unsigned i = 0; i < a.getRank(); ++i) {
    // A run of consecutive values plus a run of equal values is a run of
    // consecutive values. (Pointer contiguity counts elements, so it follows
    // the same rule; only divisibility is in bytes.)
    int64_t cont = std::max(std::min(a.getContiguity(i), b.getConstancy(i)),
                            std::min(b.getContiguity(i), a.getConstancy(i)));
    c.push_back(cont);
    d.push_back(std::gcd(effectiveDiv(a, i, cont),
                         capMul(effectiveDiv(b, i, cont), scale)));
    k.push_back(std::gcd(a.getConstancy(i), b.getConstancy(i)));
  }
  return AxisInfo(c, d, k);
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  Value value = cast<Value>(lattice->getAnchor());
  unsigned rank = analysisShape(value.getType()).size();
  AxisInfo info = AxisInfo::pessimistic(rank);
  // Kernel arguments may carry divisibility facts of a specialization.
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (auto kernel = dyn_cast<KernelOp>(arg.getOwner()->getParentOp()))
      if (auto attr = kernel.getArgAttrOfType<IntegerAttr>(
              arg.getArgNumber(),
              TileDialect::DivisibilityAttrHelper::getNameStr()))
        info = AxisInfo(Vec{1}, Vec{std::max<int64_t>(1, attr.getInt())}, Vec{1});
  propagateIfChanged(lattice, lattice->join(info));
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<AxisInfoLattice *> argLattices, unsigned firstIndex) {
  // The induction variable of scf.for: lb, lb + step, ... It is the body's
  // first argument, not forwarded: the iteration arguments, if any, start
  // at firstIndex 1, and without them firstIndex is 0 (a loop that carries
  // nothing, whose loads and stores lost their vectors to a pessimistic
  // induction variable until bench/NOTES.md v46).
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    if (!successor.isParent()) {
      const AxisInfo &lb = getLatticeElementFor(getProgramPointAfter(op),
                                                forOp.getLowerBound())->getValue();
      const AxisInfo &step = getLatticeElementFor(getProgramPointAfter(op),
                                                  forOp.getStep())->getValue();
      AxisInfo info = AxisInfo::pessimistic(1);
      if (!lb.isUninitialized() && !step.isUninitialized())
        info = AxisInfo(Vec{1},
                        Vec{std::gcd(lb.getDivisibility(0), step.getDivisibility(0))},
                        Vec{1});
      propagateIfChanged(argLattices[0], argLattices[0]->join(info));
    }
    return;
  }
  SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
      op, successor, argLattices, firstIndex);
}

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const AxisInfoLattice *> operands,
                                 ArrayRef<AxisInfoLattice *> results) {
  if (results.empty())
    return success();
  for (const AxisInfoLattice *operand : operands)
    if (operand->getValue().isUninitialized())
      return success(); // Wait until every operand is known.
  auto in = [&](unsigned i) -> const AxisInfo & { return operands[i]->getValue(); };
  Type resultType = op->getResult(0).getType();
  SmallVector<int64_t, 2> shape = analysisShape(resultType);
  unsigned rank = shape.size();

  std::optional<AxisInfo> info =
      llvm::TypeSwitch<Operation *, std::optional<AxisInfo>>(op)
          .Case<arith::ConstantOp>(
              [&](arith::ConstantOp c) -> std::optional<AxisInfo> {
                if (std::optional<int64_t> v = constantValue(c))
                  return constantInfo(shape, *v);
                return std::nullopt;
              })
          .Case<MakeRangeOp>([&](MakeRangeOp r) {
            return AxisInfo(Vec{shape[0]}, Vec{pow2Divisor(r.getStart())}, Vec{1});
          })
          .Case<SplatOp>([&](SplatOp) {
            return AxisInfo(Vec(rank, 1), Vec(rank, in(0).getDivisibility(0)),
                            Vec(shape.begin(), shape.end()));
          })
          .Case<ExpandDimsOp>([&](ExpandDimsOp e) {
            const AxisInfo &src = in(0);
            Vec c = src.getContiguity(), d = src.getDivisibility(), k = src.getConstancy();
            // Along the new unit axis every element starts a run, so each
            // must be divisible: only if no other axis has longer runs.
            int64_t div = AxisInfo::kMaxDivisibility;
            for (unsigned i = 0; i < src.getRank(); ++i)
              div = src.getContiguity(i) > 1 ? 1 : std::min(div, src.getDivisibility(i));
            c.insert(c.begin() + e.getAxis(), 1);
            d.insert(d.begin() + e.getAxis(), div);
            k.insert(k.begin() + e.getAxis(), 1);
            return AxisInfo(c, d, k);
          })
          .Case<BroadcastOp>([&](BroadcastOp b) {
            const AxisInfo &src = in(0);
            ArrayRef<int64_t> srcShape = b.getSrc().getType().getShape();
            Vec c = src.getContiguity(), d = src.getDivisibility(), k = src.getConstancy();
            for (unsigned i = 0; i < rank; ++i)
              if (srcShape[i] == 1 && shape[i] != 1) {
                c[i] = 1;
                k[i] = shape[i];
              }
            return AxisInfo(c, d, k);
          })
          .Case<TransOp>([&](TransOp) {
            const AxisInfo &src = in(0);
            return AxisInfo(Vec{src.getContiguity(1), src.getContiguity(0)},
                            Vec{src.getDivisibility(1), src.getDivisibility(0)},
                            Vec{src.getConstancy(1), src.getConstancy(0)});
          })
          .Case<PermuteOp>([&](PermuteOp p) {
            const AxisInfo &src = in(0);
            Vec c, d, k;
            for (int32_t from : p.getOrder()) {
              c.push_back(src.getContiguity(from));
              d.push_back(src.getDivisibility(from));
              k.push_back(src.getConstancy(from));
            }
            return AxisInfo(c, d, k);
          })
          .Case<ConvertLayoutOp, arith::ExtSIOp, arith::ExtUIOp,
                arith::TruncIOp, arith::IndexCastOp>(
              [&](Operation *) { return in(0); })
          .Case<AddPtrOp>([&](AddPtrOp) {
            return addInfo(in(0), in(1), pointeeBytes(resultType));
          })
          .Case<arith::AddIOp>(
              [&](Operation *) { return addInfo(in(0), in(1)); })
          .Case<arith::SubIOp>([&](Operation *) {
            const AxisInfo &a = in(0), &b = in(1);
            Vec c, d, k;
            for (unsigned i = 0; i < rank; ++i) {
              int64_t cont = std::min(a.getContiguity(i), b.getConstancy(i));
              c.push_back(cont);
              d.push_back(std::gcd(effectiveDiv(a, i, cont), effectiveDiv(b, i, cont)));
              k.push_back(std::gcd(a.getConstancy(i), b.getConstancy(i)));
            }
            return AxisInfo(c, d, k);
          })
          .Case<arith::MulIOp>([&](arith::MulIOp mul) {
            const AxisInfo &a = in(0), &b = in(1);
            std::optional<int64_t> ca = constantValue(mul.getLhs());
            std::optional<int64_t> cb = constantValue(mul.getRhs());
            Vec c, d, k;
            for (unsigned i = 0; i < rank; ++i) {
              int64_t cont = cb == 1   ? a.getContiguity(i)
                             : ca == 1 ? b.getContiguity(i)
                                       : 1;
              c.push_back(cont);
              d.push_back(capMul(effectiveDiv(a, i, cont), effectiveDiv(b, i, cont)));
              k.push_back(std::gcd(a.getConstancy(i), b.getConstancy(i)));
            }
            return AxisInfo(c, d, k);
          })
          .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
            const AxisInfo &a = in(0), &b = in(1);
            bool ordering = cmp.getPredicate() != arith::CmpIPredicate::eq &&
                            cmp.getPredicate() != arith::CmpIPredicate::ne;
            Vec c(rank, 1), d(rank, 1), k;
            for (unsigned i = 0; i < rank; ++i) {
              int64_t constancy = std::gcd(a.getConstancy(i), b.getConstancy(i));
              // x..x+n-1 < y with x and y both divisible by g: the result
              // cannot change inside an aligned block of min(g, n).
              if (ordering) {
                if (b.getConstancy(i) >= a.getContiguity(i))
                  constancy = std::max(constancy,
                                       std::min(a.getContiguity(i),
                                                std::gcd(a.getDivisibility(i),
                                                         b.getDivisibility(i))));
                if (a.getConstancy(i) >= b.getContiguity(i))
                  constancy = std::max(constancy,
                                       std::min(b.getContiguity(i),
                                                std::gcd(a.getDivisibility(i),
                                                         b.getDivisibility(i))));
              }
              k.push_back(constancy);
            }
            return AxisInfo(c, d, k);
          })
          .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>([&](Operation *) {
            const AxisInfo &a = in(0), &b = in(1);
            Vec k;
            for (unsigned i = 0; i < rank; ++i)
              k.push_back(std::gcd(a.getConstancy(i), b.getConstancy(i)));
            return AxisInfo(Vec(rank, 1), Vec(rank, 1), k);
          })
          .Case<HintOp>([&](HintOp hint) -> std::optional<AxisInfo> {
            // Stated facts join the derived ones (both hold).
            const AxisInfo &src = in(0);
            if (src.getRank() != rank || hint.getMultipleOf().size() != rank)
              return std::nullopt;
            Vec c, d, k;
            for (unsigned i = 0; i < rank; ++i) {
              c.push_back(
                  std::max(src.getContiguity(i), hint.getMaxContiguous()[i]));
              d.push_back(std::min(
                  AxisInfo::kMaxDivisibility,
                  std::max(src.getDivisibility(i), hint.getMultipleOf()[i])));
              k.push_back(src.getConstancy(i));
            }
            return AxisInfo(c, d, k);
          })
          .Case<arith::SelectOp>([&](arith::SelectOp)
                                     -> std::optional<AxisInfo> {
            if (operands.size() != 3 || in(0).getRank() != rank)
              return std::nullopt;
            const AxisInfo &c = in(0), &a = in(1), &b = in(2);
            Vec d, k;
            for (unsigned i = 0; i < rank; ++i) {
              d.push_back(std::gcd(effectiveDiv(a, i, 1), effectiveDiv(b, i, 1)));
              k.push_back(std::gcd(c.getConstancy(i),
                                   std::gcd(a.getConstancy(i), b.getConstancy(i))));
            }
            return AxisInfo(Vec(rank, 1), d, k);
          })
          .Default([&](Operation *) { return std::nullopt; });

  AxisInfo result = info ? *info : AxisInfo::pessimistic(rank);
  for (AxisInfoLattice *lattice : results)
    propagateIfChanged(lattice, lattice->join(result));
  return success();
}

//===----------------------------------------------------------------------===//
// ModuleAxisInfo
//===----------------------------------------------------------------------===//

ModuleAxisInfo::ModuleAxisInfo(Operation *root) {
  solver.load<DeadCodeAnalysis>();
  solver.load<SparseConstantPropagation>();
  solver.load<AxisInfoAnalysis>();
  (void)solver.initializeAndRun(root);
}

AxisInfo ModuleAxisInfo::get(Value value) const {
  unsigned rank = analysisShape(value.getType()).size();
  if (const auto *lattice = solver.lookupState<AxisInfoLattice>(value))
    if (!lattice->getValue().isUninitialized() &&
        lattice->getValue().getRank() == rank)
      return lattice->getValue();
  return AxisInfo::pessimistic(rank);
}
