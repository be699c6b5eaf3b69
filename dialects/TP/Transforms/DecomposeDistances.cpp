//===- DecomposeDistances.cpp - cross, cdist, pdist, renorm into tp ops ---===//
//
// The vector cross product, the pairwise distances and renorm as the tp ops
// they are made of (slices and products; differences and tp.norm; norm,
// compare and scale). tp.norm carries the p-norm cases (0, 1, 2, inf,
// -inf, any p), so each of these has every p its op accepts.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

/// tp.norm of x over `dims` (keepdim as given), accumulated and returned in
/// `dtype` when it is not x's element type.
Value pNorm(PatternRewriter &rewriter, Location loc, Value x, double p,
            ArrayRef<int64_t> dims, bool keepdim, Type dtype = {}) {
  SmallVector<NamedAttribute> attrs = {
      f64Attr(rewriter, "p", p), arrayAttr(rewriter, "dim", dims),
      rewriter.getNamedAttr("keepdim", rewriter.getBoolAttr(keepdim))};
  if (dtype && dtype != elementTypeOf(x))
    attrs.push_back(rewriter.getNamedAttr("dtype", TypeAttr::get(dtype)));
  return build<NormOp>(rewriter, loc, x, attrs);
}

/// cross(a, b) along dim (the first size-3 dimension when absent):
/// (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0), as tensorplay's kernel.
struct DecomposeCross : public OpRewritePattern<CrossOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CrossOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    ArrayRef<int64_t> shape = shapeOf(op.getResult());
    int64_t rank = shape.size(), dim = -1;
    if (std::optional<int64_t> given = op.getDim())
      dim = *given < 0 ? *given + rank : *given;
    else
      dim = llvm::find(shape, 3) - shape.begin();
    int64_t fromEnd = dim - rank;
    auto component = [&](Value x, int64_t k) {
      return slice(rewriter, loc, x, rankOf(x) + fromEnd, k, k + 1);
    };
    Value a[3], b[3];
    for (int64_t k = 0; k < 3; ++k) {
      a[k] = component(op.getInput(), k);
      b[k] = component(op.getOther(), k);
    }
    auto term = [&](int64_t i, int64_t j) {
      return build<SubOp>(rewriter, loc,
                          {build<MulOp>(rewriter, loc, {a[i], b[j]}),
                           build<MulOp>(rewriter, loc, {a[j], b[i]})});
    };
    Value c = build<CatOp>(
        rewriter, loc, {term(1, 2), term(2, 0), term(0, 1)},
        {segments(rewriter, {3, 0}), i64Attr(rewriter, "dim", dim)});
    return replaceWith(rewriter, op, c);
  }
};

/// cdist(x1 [..., P, M], x2 [..., R, M]) = norm_p(x1[..., :, None, :] -
/// x2[..., None, :, :]) over M: always the difference form, also where
/// tensorplay's compute_mode would take p = 2 through x1 x2^T (more exact;
/// that route cancels catastrophically for near points).
struct DecomposeCdist : public OpRewritePattern<CdistOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CdistOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    Value x1 = unsqueeze(rewriter, loc, op.getX1(), rankOf(op.getX1()) - 1);
    Value x2 = unsqueeze(rewriter, loc, op.getX2(), rankOf(op.getX2()) - 2);
    Value diff = build<SubOp>(rewriter, loc, {x1, x2});
    return replaceWith(rewriter, op,
                       pNorm(rewriter, loc, diff, op.getP().convertToDouble(),
                             {rankOf(diff) - 1}, false));
  }
};

/// pdist(x [N, M]): norm_p(x[i] - x[j]) for i < j, row-major: the rows of
/// each pair gathered by constant indices (tp.embedding).
struct DecomposePdist : public OpRewritePattern<PdistOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PdistOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    int64_t n = shapeOf(op.getInput())[0];
    if (ShapedType::isDynamic(n))
      return op.emitOpError("has no CPU lowering for a dynamic row count");
    SmallVector<int64_t> first, second;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) {
        first.push_back(i);
        second.push_back(j);
      }
    auto rows = [&](ArrayRef<int64_t> indices) {
      return build<EmbeddingOp>(
          rewriter, loc, {op.getInput(), indexTensor(rewriter, loc, indices)});
    };
    Value diff = build<SubOp>(rewriter, loc, {rows(first), rows(second)});
    return replaceWith(
        rewriter, op,
        pNorm(rewriter, loc, diff, op.getP().convertToDouble(), {1}, false));
  }
};

/// renorm(x, p, dim, maxnorm), as tensorplay's: the p-norm of each slice
/// along dim (over the other dimensions, in f32 for bf16 / f16), the factor
/// maxnorm / (norm + 1e-7) where the norm exceeds maxnorm and 1 elsewhere,
/// rounded to x's dtype, times x.
struct DecomposeRenorm : public OpRewritePattern<RenormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RenormOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    Value x = op.getInput();
    int64_t rank = rankOf(x);
    int64_t dim = (int64_t)op.getDim(); // I64Attr reads back unsigned
    if (dim < 0)
      dim += rank;
    SmallVector<int64_t> others;
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim)
        others.push_back(d);
    Type elem = elementTypeOf(x);
    Type acc = elem.isBF16() || elem.isF16() ? rewriter.getF32Type() : elem;
    Value norm =
        pNorm(rewriter, loc, x, op.getP().convertToDouble(), others, true, acc);
    double maxnorm = op.getMaxnorm().convertToDouble();
    Value limit = scalarTensor(rewriter, loc, acc, maxnorm);
    Value scaled = build<DivOp>(
        rewriter, loc,
        {limit, build<AddOp>(rewriter, loc,
                             {norm, scalarTensor(rewriter, loc, acc, 1e-7)})});
    Value factor =
        build<WhereOp>(rewriter, loc,
                       {build<GtOp>(rewriter, loc, {norm, limit}), scaled,
                        scalarTensor(rewriter, loc, acc, 1.0)});
    factor = castTo(rewriter, loc, factor, elem);
    return replaceWith(rewriter, op, build<MulOp>(rewriter, loc, {x, factor}));
  }
};

} // namespace

void mlir::tp::decompose::populateDecomposeDistancePatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeCross, DecomposeCdist, DecomposePdist, DecomposeRenorm>(
      patterns.getContext());
}
