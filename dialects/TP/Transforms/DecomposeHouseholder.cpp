//===- DecomposeHouseholder.cpp - Householder products, for tp-autodiff ---===//
//
// orgqr / linalg_householder_product and ormqr of real matrices as the
// products they stand for, written with tp ops: the k reflectors
// H_i = I - tau_i v_i v_i^T, v_i being column i of the input below row i
// with a 1 on row i (zeros above), applied one after another to the
// identity's first n columns (orgqr: Q = H_0 ... H_{k-1}) or to the other
// operand (ormqr: Q C, Q^T C, C Q or C Q^T), each application two matrix
// products (H_i X = X - tau_i v_i (v_i^T X)). tp-autodiff differentiates
// this form in its gradient functions (the CPU pipeline calls LAPACK's
// orgqr / ormqr), which gives the input and tau their gradients as
// PyTorch's householder_product_backward and ormqr_backward do; geqrf
// itself has no derivative (none in PyTorch either).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"
#include "tensorplay/Dialect/TP/Transforms/Transforms.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

/// A constant of `shape` x `elementType` holding `values` (row-major).
Value floatConstant(PatternRewriter &rw, Location loc, ArrayRef<int64_t> shape,
                    Type elementType, ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, elementType);
  SmallVector<Attribute> elements;
  for (double v : values)
    elements.push_back(rw.getFloatAttr(elementType, v));
  return makeOp<ConstantOp>(
      rw, loc, type, {},
      {rw.getNamedAttr("value", DenseElementsAttr::get(type, elements))});
}

/// The reflectors of `input` (..., rows, >= k) and `tau` (..., k).
struct Reflectors {
  PatternRewriter &rw;
  Location loc;
  Value input, tau;

  int64_t rows() const { return shapeOf(input).end()[-2]; }
  int64_t count() const { return shapeOf(tau).back(); }

  /// v_i (..., rows, 1): the input's column i below row i, 1 on row i.
  Value vector(int64_t i) {
    int64_t rank = rankOf(input), r = rows();
    Value column = slice(rw, loc, input, rank - 1, i, i + 1);
    auto maskType = RankedTensorType::get({r, 1}, rw.getI1Type());
    SmallVector<bool> below(r);
    SmallVector<double> unit(r, 0.0);
    for (int64_t j = 0; j < r; ++j)
      below[j] = j > i;
    unit[i] = 1.0;
    Value mask = makeOp<ConstantOp>(
        rw, loc, maskType, {},
        {rw.getNamedAttr("value", DenseElementsAttr::get(maskType, below))});
    Value one = floatConstant(rw, loc, {r, 1}, elementTypeOf(input), unit);
    return build<WhereOp>(rw, loc, {mask, column, one});
  }
  /// tau_i as (..., 1, 1).
  Value scale(int64_t i) {
    Value t = slice(rw, loc, tau, rankOf(tau) - 1, i, i + 1);
    SmallVector<int64_t> shape(shapeOf(t));
    shape.push_back(1);
    return reshape(rw, loc, t, shape);
  }
  /// H_i x (left) or x H_i (right).
  Value apply(int64_t i, Value x, bool left) {
    Value v = vector(i), vt = transposeLast2(rw, loc, v);
    Value product = left ? matmul(rw, loc, v, matmul(rw, loc, vt, x))
                         : matmul(rw, loc, matmul(rw, loc, x, v), vt);
    return build<SubOp>(rw, loc,
                        {x, build<MulOp>(rw, loc, {scale(i), product})});
  }
};

bool decomposable(Operation *op) {
  Type elem = elementTypeOf(op->getOperand(0));
  if (!isa<Float32Type, Float64Type>(elem))
    return false;
  for (Value v : op->getOperands())
    if (elementTypeOf(v) != elem ||
        !cast<ShapedType>(v.getType()).hasStaticShape())
      return false;
  return true;
}

/// orgqr(input, tau) and linalg_householder_product(input, tau).
template <typename OpTy>
struct DecomposeOrgqr : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    if (!decomposable(op))
      return failure();
    Location loc = op.getLoc();
    Reflectors h{rw, loc, op->getOperand(0), op->getOperand(1)};
    auto type = cast<RankedTensorType>(op.getType());
    int64_t m = type.getShape().end()[-2], n = type.getShape().back();
    SmallVector<double> eye(m * n, 0.0);
    for (int64_t j = 0; j < std::min(m, n); ++j)
      eye[j * n + j] = 1.0;
    Value q = floatConstant(rw, loc, {m, n}, type.getElementType(), eye);
    for (int64_t i = h.count() - 1; i >= 0; --i)
      q = h.apply(i, q, /*left=*/true);
    if (!broadcastsTo(shapeOf(q), type.getShape()))
      return failure();
    if (shapeOf(q) != type.getShape())
      q = build<ExpandOp>(rw, loc, q,
                          {arrayAttr(rw, "size", type.getShape())});
    return replaceWith(rw, op, q);
  }
};

/// ormqr(input, tau, other, left, transpose): Q C, Q^T C, C Q or C Q^T with
/// Q = H_0 ... H_{k-1} (each H_i symmetric).
struct DecomposeOrmqr : public OpRewritePattern<OrmqrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(OrmqrOp op,
                                PatternRewriter &rw) const override {
    if (!decomposable(op))
      return failure();
    Reflectors h{rw, op.getLoc(), op.getInput(), op.getInput2()};
    bool left = op.getLeft();
    // H_{k-1} first for Q C and C Q^T, H_0 first for Q^T C and C Q.
    bool lastFirst = left != op.getTranspose();
    Value x = op.getInput3();
    int64_t k = h.count();
    for (int64_t step = 0; step < k; ++step)
      x = h.apply(lastFirst ? k - 1 - step : step, x, left);
    auto type = cast<RankedTensorType>(op.getType());
    // Reflectors batched beyond the other operand's batch (which the
    // result's shape follows) have no product of the result's shape.
    if (!broadcastsTo(shapeOf(x), type.getShape()))
      return failure();
    if (shapeOf(x) != type.getShape())
      x = build<ExpandOp>(rw, op.getLoc(), x,
                          {arrayAttr(rw, "size", type.getShape())});
    return replaceWith(rw, op, x);
  }
};

} // namespace

void mlir::tp::populateDecomposeHouseholderPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeOrgqr<OrgqrOp>,
               DecomposeOrgqr<LinalgHouseholderProductOp>, DecomposeOrmqr>(
      patterns.getContext());
}
