//===- AxisInfo.h - contiguity, divisibility, constancy ---------*- C++ -*-===//
//
// A sparse forward dataflow analysis (Triton's "axis info") that learns, for
// each dimension of every integer or pointer tile, how its elements are laid
// out in runs. The coalescing pass uses it to decide how many contiguous
// elements each thread can access at once, and the lowering to decide how
// finely a mask must predicate.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ANALYSIS_AXISINFO_H
#define TILE_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "llvm/ADT/SmallVector.h"

namespace tile {

/// Per dimension `d` of a value (a scalar counts as rank 1):
///  - contiguity[d]: the elements form runs of this length of consecutive
///    values (x, x+1, ...) along d, the runs starting at multiples of it;
///  - divisibility[d]: the largest power of two dividing the first element of
///    every run (for pointers: its byte address);
///  - constancy[d]: the elements form runs of this length of equal values.
class AxisInfo {
public:
  using Vec = llvm::SmallVector<int64_t, 2>;

  AxisInfo() = default;
  AxisInfo(Vec contiguity, Vec divisibility, Vec constancy)
      : contiguity(std::move(contiguity)), divisibility(std::move(divisibility)),
        constancy(std::move(constancy)) {}

  /// The least informative state of a value of `rank` dimensions.
  static AxisInfo pessimistic(unsigned rank);

  bool isUninitialized() const { return contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned d) const { return contiguity[d]; }
  int64_t getDivisibility(unsigned d) const { return divisibility[d]; }
  int64_t getConstancy(unsigned d) const { return constancy[d]; }
  const Vec &getContiguity() const { return contiguity; }
  const Vec &getDivisibility() const { return divisibility; }
  const Vec &getConstancy() const { return constancy; }

  /// The most precise facts true of both (gcd per dimension).
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);
  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy;
  }
  void print(llvm::raw_ostream &os) const;

  /// Cap on divisibility (also the divisibility of 0).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

private:
  Vec contiguity, divisibility, constancy;
};

using AxisInfoLattice = mlir::dataflow::Lattice<AxisInfo>;

/// The dataflow analysis; load it into a DataFlowSolver together with
/// DeadCodeAnalysis and SparseConstantPropagation.
class AxisInfoAnalysis
    : public mlir::dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  mlir::LogicalResult
  visitOperation(mlir::Operation *op,
                 llvm::ArrayRef<const AxisInfoLattice *> operands,
                 llvm::ArrayRef<AxisInfoLattice *> results) override;
  void visitNonControlFlowArguments(
      mlir::Operation *op, const mlir::RegionSuccessor &successor,
      llvm::ArrayRef<AxisInfoLattice *> argLattices,
      unsigned firstIndex) override;
  void setToEntryState(AxisInfoLattice *lattice) override;
};

/// Runs the analysis over `root` and answers queries afterwards.
class ModuleAxisInfo {
public:
  explicit ModuleAxisInfo(mlir::Operation *root);
  /// Facts about `value` (pessimistic if the analysis learned nothing).
  AxisInfo get(mlir::Value value) const;

private:
  mlir::DataFlowSolver solver;
};


} // namespace tile

#endif // TILE_ANALYSIS_AXISINFO_H
