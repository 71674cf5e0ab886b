//===- TensorTileAccess.cpp - loads of whole tiles of a 2-D tensor --------===//
#include "TensorTileAccess.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tile;

namespace {

/// The scalar every element of `tile` is: a splat's operand or a splat
/// constant.
std::optional<ScalarTerm> uniformScalar(Value tile) {
  if (auto splat = tile.getDefiningOp<SplatOp>())
    return ScalarTerm{splat.getSrc(), 0};
  APInt constant;
  if (matchPattern(tile, m_ConstantInt(&constant)))
    return ScalarTerm{Value(), constant.getSExtValue()};
  return std::nullopt;
}

/// `start + [0, n)` for a 1-D i32 tile: a range plus uniform scalars.
std::optional<ScalarTerm> rangeStart(Value tile) {
  if (auto range = tile.getDefiningOp<MakeRangeOp>())
    return ScalarTerm{Value(), range.getStart()};
  auto add = tile.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [scalarSide, rangeSide] : {std::pair(add.getLhs(), add.getRhs()),
                                       std::pair(add.getRhs(), add.getLhs())}) {
    std::optional<ScalarTerm> scalar = uniformScalar(scalarSide);
    if (!scalar)
      continue;
    std::optional<ScalarTerm> start = rangeStart(rangeSide);
    if (!start || (start->value && scalar->value))
      return std::nullopt;
    return ScalarTerm{start->value ? start->value : scalar->value,
                      start->constant + scalar->constant};
  }
  return std::nullopt;
}

/// One term of a 2-D offset: the index along `dim` times `stride`.
struct IndexTerm {
  unsigned dim;
  ScalarTerm start;
  ScalarTerm stride{Value(), 1};
};

/// Multiplies `stride` by the uniform `factor`; false when the product is
/// not a value or a constant alone.
bool scaleStride(ScalarTerm &stride, const ScalarTerm &factor) {
  if (factor.value) {
    if (stride.value || stride.constant != 1)
      return false;
    stride = {factor.value, 0};
    return true;
  }
  if (stride.value)
    return factor.constant == 1;
  stride.constant *= factor.constant;
  return true;
}

/// `tile` (i32, 1-D before expand_dims or 2-D) as an index along one
/// dimension times a uniform stride.
std::optional<IndexTerm> indexTerm(Value tile) {
  if (auto broadcast = tile.getDefiningOp<BroadcastOp>())
    return indexTerm(broadcast.getSrc());
  if (auto mul = tile.getDefiningOp<arith::MulIOp>()) {
    for (auto [factorSide, indexSide] :
         {std::pair(mul.getRhs(), mul.getLhs()),
          std::pair(mul.getLhs(), mul.getRhs())}) {
      std::optional<ScalarTerm> factor = uniformScalar(factorSide);
      if (!factor)
        continue;
      std::optional<IndexTerm> term = indexTerm(indexSide);
      if (!term || !scaleStride(term->stride, *factor))
        return std::nullopt;
      return term;
    }
    return std::nullopt;
  }
  auto type = cast<RankedTensorType>(tile.getType());
  if (auto expand = tile.getDefiningOp<ExpandDimsOp>()) {
    if (type.getRank() != 2)
      return std::nullopt;
    std::optional<IndexTerm> term = indexTerm(expand.getSrc());
    if (!term)
      return std::nullopt;
    term->dim = 1 - expand.getAxis();
    return term;
  }
  if (type.getRank() != 1)
    return std::nullopt;
  std::optional<ScalarTerm> start = rangeStart(tile);
  if (!start)
    return std::nullopt;
  return IndexTerm{0, *start};
}

/// Collects the index terms of a sum of offsets.
bool offsetTerms(Value offset, SmallVectorImpl<IndexTerm> &terms) {
  if (auto add = offset.getDefiningOp<arith::AddIOp>())
    return offsetTerms(add.getLhs(), terms) && offsetTerms(add.getRhs(), terms);
  if (auto broadcast = offset.getDefiningOp<BroadcastOp>())
    if (broadcast.getSrc().getDefiningOp<arith::AddIOp>())
      return offsetTerms(broadcast.getSrc(), terms);
  std::optional<IndexTerm> term = indexTerm(offset);
  if (term)
    terms.push_back(*term);
  return term.has_value();
}

/// Finds the scalar base of `ptr` and the index terms added to it.
bool pointerTerms(Value ptr, Value &base, SmallVectorImpl<IndexTerm> &terms) {
  if (auto add = ptr.getDefiningOp<AddPtrOp>())
    return pointerTerms(add.getPtr(), base, terms) &&
           offsetTerms(add.getOffset(), terms);
  if (auto broadcast = ptr.getDefiningOp<BroadcastOp>())
    return pointerTerms(broadcast.getSrc(), base, terms);
  if (auto splat = ptr.getDefiningOp<SplatOp>()) {
    base = splat.getSrc();
    return true;
  }
  return false;
}

/// Collects `index < bound` conjuncts of `mask` as (dim, start, bound).
bool boundTerms(Value mask,
                SmallVectorImpl<std::pair<IndexTerm, ScalarTerm>> &bounds) {
  if (auto conj = mask.getDefiningOp<arith::AndIOp>())
    return boundTerms(conj.getLhs(), bounds) &&
           boundTerms(conj.getRhs(), bounds);
  if (auto broadcast = mask.getDefiningOp<BroadcastOp>())
    return boundTerms(broadcast.getSrc(), bounds);
  auto cmp = mask.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return false;
  Value index = cmp.getLhs(), bound = cmp.getRhs();
  if (cmp.getPredicate() == arith::CmpIPredicate::sgt)
    std::swap(index, bound);
  else if (cmp.getPredicate() != arith::CmpIPredicate::slt)
    return false;
  std::optional<IndexTerm> term = indexTerm(index);
  std::optional<ScalarTerm> limit = uniformScalar(bound);
  if (!term || !limit || term->stride.value || term->stride.constant != 1)
    return false;
  bounds.push_back({*term, *limit});
  return true;
}

/// Collects the factors of a product of i32 scalars: the values multiplied
/// and the product of the constants.
void productFactors(Value product, SmallVectorImpl<Value> &values,
                    int64_t &constant) {
  APInt factor;
  if (matchPattern(product, m_ConstantInt(&factor))) {
    constant *= factor.getSExtValue();
    return;
  }
  if (auto mul = product.getDefiningOp<arith::MulIOp>()) {
    productFactors(mul.getLhs(), values, constant);
    productFactors(mul.getRhs(), values, constant);
    return;
  }
  values.push_back(product);
}

/// Removes the factor `term` (a value or a constant alone) from a product;
/// false when the product has no such factor.
bool divideBy(SmallVectorImpl<Value> &values, int64_t &constant,
              const ScalarTerm &term) {
  if (term.value) {
    auto *it = llvm::find(values, term.value);
    if (it == values.end())
      return false;
    values.erase(it);
    return true;
  }
  if (term.constant == 0 || constant % term.constant != 0)
    return false;
  constant /= term.constant;
  return true;
}

/// Splits a base `arg + offset` whose offset is whole slices of a packed 3-D
/// tensor (`slice * bound_row * stride_row`) into its argument and slice.
void matchSlice(TensorTileAccess &access) {
  auto add = access.base.getDefiningOp<AddPtrOp>();
  if (!add || isa<RankedTensorType>(add.getType()))
    return;
  unsigned row = 1 - access.contiguousDim;
  SmallVector<Value> values;
  int64_t constant = 1;
  productFactors(add.getOffset(), values, constant);
  if (!divideBy(values, constant, access.bounds[row]) ||
      !divideBy(values, constant, access.strides[row]))
    return;
  // The slice index is one value or a constant (ScalarTerm is a sum).
  if (values.size() > 1 || (values.size() == 1 && constant != 1))
    return;
  access.slice = values.empty() ? ScalarTerm{Value(), constant}
                                : ScalarTerm{values.front(), 0};
  access.sliced = true;
  access.base = add.getPtr();
}

} // namespace

std::optional<TensorTileAccess> tile::matchTensorTileAccess(Value ptr,
                                                            Value mask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type || type.getRank() != 2 || !mask)
    return std::nullopt;
  TensorTileAccess access;
  SmallVector<IndexTerm> terms;
  if (!pointerTerms(ptr, access.base, terms) || terms.size() != 2 ||
      terms[0].dim == terms[1].dim)
    return std::nullopt;
  for (const IndexTerm &term : terms) {
    access.starts[term.dim] = term.start;
    access.strides[term.dim] = term.stride;
  }
  // One dimension is contiguous: stride the constant 1.
  auto isUnit = [](const ScalarTerm &s) { return !s.value && s.constant == 1; };
  if (isUnit(access.strides[1]))
    access.contiguousDim = 1;
  else if (isUnit(access.strides[0]))
    access.contiguousDim = 0;
  else
    return std::nullopt;
  SmallVector<std::pair<IndexTerm, ScalarTerm>> bounds;
  if (!boundTerms(mask, bounds) || bounds.empty() || bounds.size() > 2 ||
      (bounds.size() == 2 && bounds[0].first.dim == bounds[1].first.dim))
    return std::nullopt;
  bool masked[2] = {false, false};
  for (auto &[term, bound] : bounds) {
    // The mask must bound the very index the pointers use.
    if (!(term.start == access.starts[term.dim]))
      return std::nullopt;
    access.bounds[term.dim] = bound;
    masked[term.dim] = true;
  }
  // An unmasked dimension reads indices [0, W) of a tensor W wide there;
  // along the contiguous one, rows must not overlap (a constant row stride
  // of at least W), which a tensor map requires.
  const ScalarTerm &rowStride = access.strides[1 - access.contiguousDim];
  for (unsigned dim : {0u, 1u}) {
    if (masked[dim])
      continue;
    int64_t width = type.getDimSize(dim);
    if (access.starts[dim].value || access.starts[dim].constant != 0 ||
        (dim == access.contiguousDim &&
         (rowStride.value || rowStride.constant < width)))
      return std::nullopt;
    access.bounds[dim] = ScalarTerm{Value(), width};
  }
  matchSlice(access);
  return access;
}
