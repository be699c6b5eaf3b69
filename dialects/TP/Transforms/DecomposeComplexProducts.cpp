//===- DecomposeComplexProducts.cpp - complex matrix products as real ones ===//
//
// mm, bmm, matmul, mv and dot of complex tensors as four real products of
// the operands' real and imaginary parts (view_as_real, sliced):
// (Ar + i Ai)(Br + i Bi) = (Ar Br - Ai Bi) + i (Ar Bi + Ai Br), the parts
// stacked as pairs and viewed as complex. The real products reach the
// oneDNN / linalg lowerings of the op, and tp-autodiff differentiates this
// form.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

/// The real and imaginary parts of the complex `z`.
std::pair<Value, Value> parts(PatternRewriter &rw, Location loc, Value z) {
  Value pairs = build<ViewAsRealOp>(rw, loc, z);
  int64_t rank = rankOf(z);
  auto part = [&](int64_t which) {
    return reshape(rw, loc, slice(rw, loc, pairs, rank, which, which + 1),
                   shapeOf(z));
  };
  return {part(0), part(1)};
}

template <typename OpTy>
struct DecomposeComplexProduct : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    Value a = op->getOperand(0), b = op->getOperand(1);
    auto type = dyn_cast<ComplexType>(elementTypeOf(op->getResult(0)));
    if (!type || elementTypeOf(a) != type || elementTypeOf(b) != type)
      return failure();
    for (Value v : {a, b})
      if (!cast<ShapedType>(v.getType()).hasStaticShape())
        return failure();
    Location loc = op.getLoc();
    auto [ar, ai] = parts(rw, loc, a);
    auto [br, bi] = parts(rw, loc, b);
    auto product = [&](Value x, Value y) {
      return build<OpTy>(rw, loc, {x, y});
    };
    Value re =
        build<SubOp>(rw, loc, {product(ar, br), product(ai, bi)});
    Value im =
        build<AddOp>(rw, loc, {product(ar, bi), product(ai, br)});
    Value pairs = build<StackOp>(
        rw, loc, {re, im},
        {segments(rw, {2, 0}), i64Attr(rw, "dim", rankOf(re))});
    return replaceWith(rw, op, build<ViewAsComplexOp>(rw, loc, pairs));
  }
};

} // namespace

void decompose::populateDecomposeComplexProductPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeComplexProduct<MmOp>, DecomposeComplexProduct<BmmOp>,
               DecomposeComplexProduct<MatmulOp>,
               DecomposeComplexProduct<MvOp>, DecomposeComplexProduct<DotOp>>(
      patterns.getContext());
}
