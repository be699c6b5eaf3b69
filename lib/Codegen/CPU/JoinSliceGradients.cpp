//===- JoinSliceGradients.cpp - The tp-join-slice-gradients pass ----------===//
//
// sum_t slice_backward(g_t, [s_t, e_t)) over disjoint ranges along one dim
// is cat(g_t + 0, zeros in the gaps): the gradient of a tensor read piece
// by piece (an unrolled recurrence's time steps, an LSTM's gate chunks)
// without T full-size tensors of zeros written, summed and read back.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPJOINSLICEGRADIENTSPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;

namespace {

/// The terms of the sum `v`: the operands of the plain tp.add tree rooted
/// at `v`, entering an inner add only where the tree is its one use (the
/// inner adds go to `inner`).
void collectTerms(Value v, bool root, SmallVectorImpl<Value> &terms,
                  SmallVectorImpl<Operation *> &inner) {
  auto add = v.getDefiningOp<AddOp>();
  if (!add || !isPlainSum(add) || (!root && !v.hasOneUse())) {
    terms.push_back(v);
    return;
  }
  if (!root)
    inner.push_back(add);
  collectTerms(add.getLhs(), false, terms, inner);
  collectTerms(add.getRhs(), false, terms, inner);
}

/// A leaf: a step-1 slice_backward, with the range it fills along its dim.
struct Piece {
  SliceBackwardOp op;
  int64_t start, length;
};

/// The pieces of `terms` when every term is a step-1 slice_backward of
/// `type` along one dim (returned in `dim`) over pairwise disjoint ranges,
/// sorted by start; empty otherwise.
SmallVector<Piece> disjointPieces(ArrayRef<Value> terms, RankedTensorType type,
                                  int64_t &dim) {
  SmallVector<Piece> pieces;
  for (Value term : terms) {
    auto slice = term.getDefiningOp<SliceBackwardOp>();
    if (!slice || slice.getType() != type || slice.getStep() != 1 ||
        cast<ComputeOpInterface>(slice.getOperation()).isInplaceOrOut())
      return {};
    // The verifier checked the dim against the (nonzero) rank.
    int64_t d = normalizeDim(slice.getDim(), type.getRank());
    if (pieces.empty())
      dim = d;
    if (d != dim)
      return {};
    SliceRange range = sliceRange(type.getDimSize(dim), slice.getStartAttr(),
                                  slice.getEndAttr(), 1);
    pieces.push_back({slice, range.start, range.length});
  }
  llvm::sort(pieces,
             [](const Piece &a, const Piece &b) { return a.start < b.start; });
  for (size_t i = 1; i < pieces.size(); ++i)
    if (pieces[i - 1].start + pieces[i - 1].length > pieces[i].start)
      return {};
  return pieces;
}

/// A tensor of zeros of `type` with `length` elements along `dim`.
Value zeros(OpBuilder &b, Location loc, RankedTensorType type, int64_t dim,
            int64_t length) {
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = length;
  auto zerosType = RankedTensorType::get(shape, type.getElementType());
  return ConstantOp::create(b, loc, zerosType,
                            cast<DenseElementsAttr>(b.getZeroAttr(zerosType)));
}

struct JoinSliceGradientsPass
    : public tp::impl::TPJoinSliceGradientsPassBase<JoinSliceGradientsPass> {
  void runOnOperation() override {
    // Roots: plain adds whose result is not itself a term of a larger sum.
    SmallVector<AddOp> roots;
    getOperation().walk([&](AddOp add) {
      if (!isPlainSum(add))
        return;
      Value r = add.getResult();
      if (r.hasOneUse())
        if (auto user = dyn_cast<AddOp>(*r.getUsers().begin()))
          if (isPlainSum(user) && user.getType() == add.getType())
            return;
      roots.push_back(add);
    });
    IRRewriter rewriter(&getContext());
    for (AddOp root : roots) {
      auto type = dyn_cast<RankedTensorType>(root.getType());
      // Real element types (a zero attribute of the type exists; bool sums
      // are not sums).
      Type elem = type ? type.getElementType() : Type();
      if (!type || !type.hasStaticShape() ||
          !(isa<FloatType>(elem) ||
            (isa<IntegerType>(elem) && elem.getIntOrFloatBitWidth() > 1)))
        continue;
      SmallVector<Value> terms;
      SmallVector<Operation *> inner;
      collectTerms(root.getResult(), /*root=*/true, terms, inner);
      int64_t dim = 0;
      SmallVector<Piece> pieces = disjointPieces(terms, type, dim);
      if (pieces.size() < 2)
        continue;
      Location loc = root.getLoc();
      rewriter.setInsertionPoint(root);
      auto scalarType = RankedTensorType::get({}, type.getElementType());
      Value zero = ConstantOp::create(
          rewriter, loc, scalarType,
          cast<DenseElementsAttr>(rewriter.getZeroAttr(scalarType)));
      SmallVector<Value> parts;
      int64_t next = 0;
      for (Piece &p : pieces) {
        if (p.length == 0) // an empty slice adds nothing
          continue;
        if (p.start > next)
          parts.push_back(zeros(rewriter, loc, type, dim, p.start - next));
        // + 0: the sum's value bit for bit (-0 + 0 is +0).
        parts.push_back(AddOp::create(rewriter, p.op.getLoc(),
                                      ValueRange{p.op.getGradOutput(), zero}));
        next = p.start + p.length;
      }
      if (next < type.getDimSize(dim))
        parts.push_back(
            zeros(rewriter, loc, type, dim, type.getDimSize(dim) - next));
      Value joined =
          CatOp::create(rewriter, loc, type, parts,
                        rewriter.getI64IntegerAttr(dim), UnitAttr(),
                        ValueRange());
      rewriter.replaceOp(root, joined);
      // The inner sums (users before operands), then the slice gradients
      // left without users.
      for (Operation *op : inner)
        rewriter.eraseOp(op);
      for (Piece &p : pieces)
        if (p.op->use_empty())
          rewriter.eraseOp(p.op);
    }
  }
};

} // namespace
