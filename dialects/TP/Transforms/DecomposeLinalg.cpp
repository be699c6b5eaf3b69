//===- DecomposeLinalg.cpp - linear algebra built on the factorizations --===//
//
// The linear-algebra ops tensorplay computes from another factorization,
// rewritten as it does (torch/linalg): pinverse from the reduced SVD,
// linalg_matrix_rank from the singular values (or |eigenvalues| when
// hermitian), linalg_cond from the singular values (p = +-2) or from the
// matrix norms of A and its inverse (p = +-1, +-inf), linalg_tensorinv and
// linalg_tensorsolve as the matrix inverse and solve of reshaped operands.
// Tolerances are compared in f64, as tensorplay's double tolerance tensors.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

Type f64Type(PatternRewriter &rewriter) { return rewriter.getF64Type(); }

/// x[..., i] along the last dimension, without it.
Value selectLast(PatternRewriter &rewriter, Location loc, Value x, int64_t i) {
  ArrayRef<int64_t> s = shapeOf(x);
  int64_t rank = s.size();
  Value one = slice(rewriter, loc, x, rank - 1, i, i + 1);
  return reshape(rewriter, loc, one, s.drop_back());
}

/// The static matrix dimensions (m, n) of `op`'s first operand, or
/// nothing for an out= form or a dynamic matrix (left alone).
std::optional<std::pair<int64_t, int64_t>> staticMatrix(Operation *op,
                                                        bool hasOut) {
  ArrayRef<int64_t> s = shapeOf(op->getOperand(0));
  int64_t m = s[s.size() - 2], n = s.back();
  if (hasOut || ShapedType::isDynamic(m) || ShapedType::isDynamic(n))
    return std::nullopt;
  return std::make_pair(m, n);
}

/// Zeros of `op`'s first result type (an empty input's answer).
LogicalResult replaceByZeros(PatternRewriter &rewriter, Operation *op) {
  rewriter.replaceOp(
      op, zerosOf(rewriter, op->getLoc(),
                  cast<RankedTensorType>(op->getResult(0).getType())));
  return success();
}

/// pinverse(A, rcond) = linalg_pinv(A, rtol = rcond): V diag(1/S) U^T over
/// the singular values above rcond * max(S).
struct DecomposePinverse : public OpRewritePattern<PinverseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PinverseOp op,
                                PatternRewriter &rewriter) const override {
    auto dims = staticMatrix(op, !op.getOut().empty());
    if (!dims)
      return failure();
    Location loc = op.getLoc();
    Value a = op.getInput();
    if (std::min(dims->first, dims->second) == 0)
      return replaceByZeros(rewriter, op);
    Operation *svd = LinalgSvdOp::create(
        rewriter, loc, a,
        {rewriter.getNamedAttr("full_matrices", rewriter.getBoolAttr(false))});
    Value u = svd->getResult(0), values = svd->getResult(1),
          vh = svd->getResult(2);
    int64_t rank = shapeOf(values).size();
    Value largest =
        castTo(rewriter, loc, slice(rewriter, loc, values, rank - 1, 0, 1),
               f64Type(rewriter));
    Value tol =
        build<MulOp>(rewriter, loc,
                     {largest, scalarTensor(rewriter, loc, f64Type(rewriter),
                                            op.getRcond().convertToDouble())});
    Value kept = build<GtOp>(rewriter, loc, {values, tol});
    Value inverted = build<WhereOp>(
        rewriter, loc,
        {kept, build<ReciprocalOp>(rewriter, loc, values),
         scalarTensor(rewriter, loc, elementTypeOf(values), 0.0)});
    Value scaled = build<MulOp>(rewriter, loc,
                                {transposeLast2(rewriter, loc, vh),
                                 unsqueeze(rewriter, loc, inverted, rank - 1)});
    return replaceWith(
        rewriter, op,
        matmul(rewriter, loc, scaled, transposeLast2(rewriter, loc, u)));
  }
};

/// The number of singular values (|eigenvalues| when hermitian) above
/// max(atol, rtol * the largest); rtol defaults to eps * max(m, n), or to
/// 0 when only a positive atol is given.
struct DecomposeMatrixRank : public OpRewritePattern<LinalgMatrixRankOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinalgMatrixRankOp op,
                                PatternRewriter &rewriter) const override {
    auto dims = staticMatrix(op, !op.getOut().empty());
    if (!dims)
      return failure();
    auto [m, n] = *dims;
    Location loc = op.getLoc();
    Value a = op.getInput();
    if (std::min(m, n) == 0)
      return replaceByZeros(rewriter, op);
    Type elem = elementTypeOf(a);
    double eps = elem.isF64() ? std::numeric_limits<double>::epsilon()
                              : std::numeric_limits<float>::epsilon();
    double atol = op.getAtol() ? op.getAtol()->convertToDouble() : 0.0;
    double rtol = op.getRtol()               ? op.getRtol()->convertToDouble()
                  : op.getAtol() && atol > 0 ? 0.0
                                             : eps * (double)std::max(m, n);
    Value values, largest;
    if (op.getHermitian()) {
      values = build<AbsOp>(rewriter, loc,
                            build<LinalgEigvalshOp>(rewriter, loc, a));
      largest = build<AmaxOp>(
          rewriter, loc, values,
          {arrayAttr(rewriter, "dim", {-1}),
           rewriter.getNamedAttr("keepdim", rewriter.getBoolAttr(true))});
    } else {
      values = build<LinalgSvdvalsOp>(rewriter, loc, a);
      largest = slice(rewriter, loc, values, shapeOf(values).size() - 1, 0, 1);
    }
    Value tol =
        build<MulOp>(rewriter, loc,
                     {castTo(rewriter, loc, largest, f64Type(rewriter)),
                      scalarTensor(rewriter, loc, f64Type(rewriter), rtol)});
    tol = build<MaximumOp>(
        rewriter, loc,
        {tol, scalarTensor(rewriter, loc, f64Type(rewriter), atol)});
    Value above =
        castTo(rewriter, loc, build<GtOp>(rewriter, loc, {values, tol}),
               rewriter.getI64Type());
    return replaceWith(
        rewriter, op,
        build<SumOp>(rewriter, loc, above, {arrayAttr(rewriter, "dim", {-1})}));
  }
};

/// The matrix p-norm of x for p = 1, -1 (max / min column sums of |x|), inf
/// and -inf (max / min row sums).
Value matrixNorm(PatternRewriter &rewriter, Location loc, Value x, double p) {
  Value sums =
      build<SumOp>(rewriter, loc, build<AbsOp>(rewriter, loc, x),
                   {arrayAttr(rewriter, "dim", {std::isinf(p) ? -1 : -2})});
  auto amax = [&](Value v) {
    return build<AmaxOp>(rewriter, loc, v, {arrayAttr(rewriter, "dim", {-1})});
  };
  if (p > 0)
    return amax(sums);
  return build<NegOp>(rewriter, loc, amax(build<NegOp>(rewriter, loc, sums)));
}

/// linalg_cond: p = 2 (or absent): S_max / S_min; -2: S_min / S_max;
/// p = +-1, +-inf: norm(A) norm(A^-1), inf where A is singular.
struct DecomposeCond : public OpRewritePattern<LinalgCondOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinalgCondOp op,
                                PatternRewriter &rewriter) const override {
    auto dims = staticMatrix(op, !op.getOut().empty());
    if (!dims)
      return failure();
    auto [m, n] = *dims;
    Location loc = op.getLoc();
    Value a = op.getInput();
    double p = op.getP() ? op.getP()->convertToDouble() : 2.0;
    if (std::abs(p) == 2.0) {
      if (std::min(m, n) == 0)
        return replaceByZeros(rewriter, op);
      Value values = build<LinalgSvdvalsOp>(rewriter, loc, a);
      int64_t k = shapeOf(values).back();
      Value first = selectLast(rewriter, loc, values, 0),
            last = selectLast(rewriter, loc, values, k - 1);
      return replaceWith(rewriter, op,
                         p > 0 ? build<DivOp>(rewriter, loc, {first, last})
                               : build<DivOp>(rewriter, loc, {last, first}));
    }
    if (std::abs(p) != 1.0 && !std::isinf(p))
      return op.emitOpError("linalg.cond got an invalid norm type: ")
             << p << " (p must be 2, -2, 1, -1, inf or -inf)";
    if (m != n)
      return op.emitOpError("linalg.cond(ord=")
             << p << "): A must be batches of square matrices, but they are "
             << m << " by " << n << " matrices";
    if (m == 0)
      return replaceByZeros(rewriter, op);
    Operation *inv = LinalgInvExOp::create(rewriter, loc, ValueRange{a},
                                           ArrayRef<NamedAttribute>{});
    Value product =
        build<MulOp>(rewriter, loc,
                     {matrixNorm(rewriter, loc, a, p),
                      matrixNorm(rewriter, loc, inv->getResult(0), p)});
    Value singular =
        build<GtOp>(rewriter, loc,
                    {inv->getResult(1),
                     scalarTensor(rewriter, loc, rewriter.getI32Type(), 0.0)});
    return replaceWith(
        rewriter, op,
        build<MaskedFillOp>(rewriter, loc, {product, singular},
                            {f64Attr(rewriter, "value", INFINITY)}));
  }
};

int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

/// linalg_tensorinv(A, ind): inv(A reshaped to [prod(A.shape[ind:])]^2),
/// reshaped to A.shape[ind:] + A.shape[:ind].
struct DecomposeTensorinv : public OpRewritePattern<LinalgTensorinvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinalgTensorinvOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty() ||
        !cast<ShapedType>(op.getType()).hasStaticShape())
      return failure();
    Location loc = op.getLoc();
    ArrayRef<int64_t> s = shapeOf(op.getInput());
    auto ind = (int64_t)op.getInd();
    int64_t p = product(s.drop_front(ind));
    Value square = reshape(rewriter, loc, op.getInput(), {p, p});
    Value inverse = build<LinalgInvOp>(rewriter, loc, square);
    return replaceWith(
        rewriter, op, reshape(rewriter, loc, inverse, shapeOf(op.getResult())));
  }
};

/// linalg_tensorsolve(A, B, dims): A with `dims` moved to the end, reshaped
/// to [prod(B.shape), prod(x.shape)], solved against flattened B.
struct DecomposeTensorsolve : public OpRewritePattern<LinalgTensorsolveOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinalgTensorsolveOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty() ||
        !cast<ShapedType>(op.getType()).hasStaticShape())
      return failure();
    Location loc = op.getLoc();
    Value a = op.getInput(), b = op.getOther();
    int64_t rank = shapeOf(a).size();
    if (std::optional<ArrayRef<int64_t>> dims = op.getDims()) {
      SmallVector<int64_t> moved, order;
      for (int64_t d : *dims)
        moved.push_back(d < 0 ? d + rank : d);
      for (int64_t d = 0; d < rank; ++d)
        if (!llvm::is_contained(moved, d))
          order.push_back(d);
      order.append(moved.begin(), moved.end());
      a = permute(rewriter, loc, a, order);
    }
    int64_t rows = product(shapeOf(b)), cols = product(shapeOf(op.getResult()));
    Value matrix = reshape(rewriter, loc, a, {rows, cols});
    Value solved = build<LinalgSolveOp>(
        rewriter, loc, {matrix, reshape(rewriter, loc, b, {rows})});
    return replaceWith(rewriter, op,
                       reshape(rewriter, loc, solved, shapeOf(op.getResult())));
  }
};

} // namespace

void mlir::tp::decompose::populateDecomposeLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposePinverse, DecomposeMatrixRank, DecomposeCond,
               DecomposeTensorinv, DecomposeTensorsolve>(patterns.getContext());
}
