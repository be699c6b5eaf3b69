//===- DecomposeQuantile.cpp - quantile and nanquantile -------------------===//
//
// aten::quantile / nanquantile as tensorplay's quantile_compute: the values
// along dim sorted ascending (NaN last: a tp.topk of all of them, smallest
// first), the rank q * (n - 1) of each q (for nanquantile n counts the
// non-NaN values and an all-NaN row takes rank 0; for quantile a row with a
// NaN takes the last rank, so both give NaN), adjusted by the interpolation
// (lower: floor, higher: ceil, nearest: round half to even), the values at
// the ranks below and above gathered and, for linear and midpoint,
// interpolated with aten's lerp. q outside [0, 1] is an error where q is a
// constant (tensorplay checks at run time); a q known only at run time
// outside [0, 1] or NaN gives NaN. The sort is O(n^2) along dim.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

Value compare(PatternRewriter &rewriter, Location loc, StringRef name, Value x,
              double value) {
  Value rhs = scalarTensor(rewriter, loc, elementTypeOf(x), value);
  if (name == "tp.lt")
    return build<LtOp>(rewriter, loc, {x, rhs});
  if (name == "tp.gt")
    return build<GtOp>(rewriter, loc, {x, rhs});
  return build<NeOp>(rewriter, loc, {x, rhs});
}

/// trunc(x) for x >= 0 (floor), in x's float type.
Value truncated(PatternRewriter &rewriter, Location loc, Value x) {
  return castTo(rewriter, loc, castTo(rewriter, loc, x, rewriter.getI64Type()),
                elementTypeOf(x));
}

/// ceil(x) for x >= 0.
Value ceiled(PatternRewriter &rewriter, Location loc, Value x) {
  Value t = truncated(rewriter, loc, x);
  Value up = build<GtOp>(rewriter, loc, {x, t});
  return build<AddOp>(
      rewriter, loc,
      {t,
       build<WhereOp>(rewriter, loc,
                      {up, scalarTensor(rewriter, loc, elementTypeOf(x), 1.0),
                       scalarTensor(rewriter, loc, elementTypeOf(x), 0.0)})});
}

/// aten's lerp: a + w (b - a) for w < 0.5, else b - (b - a) (1 - w).
Value lerp(PatternRewriter &rewriter, Location loc, Value a, Value b, Value w) {
  Type t = elementTypeOf(a);
  Value diff = build<SubOp>(rewriter, loc, {b, a});
  Value low =
      build<AddOp>(rewriter, loc, {a, build<MulOp>(rewriter, loc, {w, diff})});
  Value rest =
      build<SubOp>(rewriter, loc, {scalarTensor(rewriter, loc, t, 1.0), w});
  Value high = build<SubOp>(rewriter, loc,
                            {b, build<MulOp>(rewriter, loc, {diff, rest})});
  Value small =
      build<LtOp>(rewriter, loc, {w, scalarTensor(rewriter, loc, t, 0.5)});
  return build<WhereOp>(rewriter, loc, {small, low, high});
}

template <typename OpTy>
struct DecomposeQuantile : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty() ||
        !cast<ShapedType>(op.getType()).hasStaticShape() ||
        !cast<ShapedType>(op.getInput().getType()).hasStaticShape())
      return failure();
    constexpr bool ignoreNan = std::is_same_v<OpTy, NanquantileOp>;
    Location loc = op.getLoc();
    Value x = op.getInput(), q = op.getQ();
    Type t = elementTypeOf(x);
    if (!t.isF32() && !t.isF64())
      return op.emitOpError("input tensor must be either float or double "
                            "dtype (as tensorplay's quantile), got ")
             << x.getType();
    if (elementTypeOf(q) != t)
      return op.emitOpError("q tensor must be same dtype as the input tensor "
                            "(as tensorplay's quantile), got ")
             << q.getType() << " and " << x.getType();
    DenseFPElementsAttr constant;
    if (matchPattern(q, m_Constant(&constant)))
      for (const APFloat &v : constant.getValues<APFloat>()) {
        double d = v.convertToDouble();
        if (!(d >= 0.0 && d <= 1.0))
          return op.emitOpError("q values must be in the range [0, 1], got ")
                 << d;
      }
    // The values along dim last (the others in order), or all of them.
    ArrayRef<int64_t> shape = shapeOf(x);
    int64_t rank = shape.size();
    if (std::optional<int64_t> dimAttr = op.getDim()) {
      int64_t dim = *dimAttr < 0 ? *dimAttr + rank : *dimAttr;
      SmallVector<int64_t> order;
      for (int64_t d = 0; d < rank; ++d)
        if (d != dim)
          order.push_back(d);
      order.push_back(dim);
      if (dim != rank - 1)
        x = permute(rewriter, loc, x, order);
    } else {
      int64_t n = 1;
      for (int64_t s : shape)
        n *= s;
      x = reshape(rewriter, loc, x, {n});
    }
    int64_t n = shapeOf(x).back();
    if (n == 0)
      return op.emitOpError("input tensor must be non-empty");
    Operation *topk = TopkOp::create(
        rewriter, loc, ValueRange{x},
        {i64Attr(rewriter, "k", n), i64Attr(rewriter, "dim", -1),
         rewriter.getNamedAttr("largest", rewriter.getBoolAttr(false))});
    Value sorted = topk->getResult(0);
    int64_t lead = shapeOf(sorted).size() - 1;
    // q as [Q], against each row: ranks [..., Q].
    bool scalarQ = shapeOf(q).empty();
    Value q1 = scalarQ ? reshape(rewriter, loc, q, {1}) : q;
    Value isNan = build<NeOp>(rewriter, loc, {sorted, sorted});
    Value ranks;
    Value zero = scalarTensor(rewriter, loc, t, 0.0);
    if (ignoreNan) {
      Value valid = build<SumOp>(
          rewriter, loc,
          castTo(rewriter, loc, build<EqOp>(rewriter, loc, {sorted, sorted}),
                 rewriter.getI64Type()),
          {arrayAttr(rewriter, "dim", {-1}),
           rewriter.getNamedAttr("keepdim", rewriter.getBoolAttr(true))});
      Value count = castTo(
          rewriter, loc,
          build<SubOp>(
              rewriter, loc,
              {valid, scalarTensor(rewriter, loc, rewriter.getI64Type(), 1.0)}),
          t);
      ranks = build<MulOp>(rewriter, loc, {q1, count});
      ranks = build<WhereOp>(
          rewriter, loc,
          {compare(rewriter, loc, "tp.lt", ranks, 0.0), zero, ranks});
    } else {
      Value anyNan = build<AmaxOp>(
          rewriter, loc, castTo(rewriter, loc, isNan, t),
          {arrayAttr(rewriter, "dim", {-1}),
           rewriter.getNamedAttr("keepdim", rewriter.getBoolAttr(true))});
      Value last = scalarTensor(rewriter, loc, t, (double)(n - 1));
      Value scaled = build<MulOp>(rewriter, loc, {q1, last});
      ranks = build<WhereOp>(
          rewriter, loc,
          {compare(rewriter, loc, "tp.gt", anyNan, 0.0), last, scaled});
    }
    // q outside [0, 1] (or NaN): rank 0 here, NaN at the end.
    Value yes = scalarTensor(rewriter, loc, rewriter.getI1Type(), 1.0);
    Value bad = build<WhereOp>(
        rewriter, loc,
        {compare(rewriter, loc, "tp.lt", q1, 0.0), yes,
         build<WhereOp>(rewriter, loc,
                        {compare(rewriter, loc, "tp.gt", q1, 1.0), yes,
                         build<NeOp>(rewriter, loc, {q1, q1})})});
    ranks = build<WhereOp>(rewriter, loc, {bad, zero, ranks});
    StringRef mode = op.getInterpolation();
    if (mode == "lower")
      ranks = truncated(rewriter, loc, ranks);
    else if (mode == "higher")
      ranks = ceiled(rewriter, loc, ranks);
    else if (mode == "nearest")
      ranks = build<FakeQuantizePerTensorAffineOp>(
          rewriter, loc, ranks,
          {f64Attr(rewriter, "scale", 1.0), i64Attr(rewriter, "zero_point", 0),
           i64Attr(rewriter, "quant_min", 0),
           i64Attr(rewriter, "quant_max", n - 1)});
    Value below = castTo(rewriter, loc, ranks, rewriter.getI64Type());
    Value result = build<GatherOp>(rewriter, loc, {sorted, below},
                                   {i64Attr(rewriter, "dim", lead)});
    if (mode == "linear" || mode == "midpoint") {
      Value weights =
          mode == "midpoint"
              ? scalarTensor(rewriter, loc, t, 0.5)
              : build<SubOp>(rewriter, loc,
                             {ranks, castTo(rewriter, loc, below, t)});
      Value above = castTo(rewriter, loc, ceiled(rewriter, loc, ranks),
                           rewriter.getI64Type());
      Value upper = build<GatherOp>(rewriter, loc, {sorted, above},
                                    {i64Attr(rewriter, "dim", lead)});
      result = lerp(rewriter, loc, result, upper, weights);
    }
    result = build<WhereOp>(rewriter, loc,
                            {bad, scalarTensor(rewriter, loc, t, NAN), result});
    // [..., Q] -> [Q, ...] (a 1-D q) and the op's shape (keepdim's ones).
    if (!scalarQ && lead > 0) {
      SmallVector<int64_t> order = {lead};
      for (int64_t d = 0; d < lead; ++d)
        order.push_back(d);
      result = permute(rewriter, loc, result, order);
    }
    return replaceWith(rewriter, op,
                       reshape(rewriter, loc, result, shapeOf(op.getResult())));
  }
};

} // namespace

void mlir::tp::decompose::populateDecomposeQuantilePatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeQuantile<QuantileOp>, DecomposeQuantile<NanquantileOp>>(
      patterns.getContext());
}
