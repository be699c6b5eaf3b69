//===- NormalizationToRuntime.cpp - softmax backward to oneDNN calls ------===//
//
// softmax_backward and log_softmax_backward on static f32 or bf16 tensors
// become one tp_rt_dnnl_softmax_backward_* call (oneDNN's softmax_backward
// / logsoftmax_backward primitive) with the normalized dim and the kind as
// i64 scalars; other dtypes and 0-d tensors stay for the linalg lowering.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tp;
namespace rc = mlir::tp::runtime_call;

namespace {

template <typename OpTy, bool Log>
class SoftmaxBackwardToRuntime : public OpRewritePattern<OpTy> {
public:
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType();
    Value g = op.getGradOutput(), y = op.getOutput();
    if (rc::dtypeSuffix(elem).empty() || type.getRank() == 0 ||
        !type.hasStaticShape() || g.getType() != type || y.getType() != type)
      return failure();
    int64_t dim =
        normalizeDim(static_cast<int64_t>(op.getDim()), type.getRank());
    auto i64 = [&](int64_t v) {
      return (Value)arith::ConstantOp::create(rewriter, loc,
                                              rewriter.getI64IntegerAttr(v));
    };
    Value dx =
        rc::emitCall(
            rewriter, loc, op,
            ("tp_rt_dnnl_softmax_backward_" + rc::dtypeSuffix(elem)).str(),
            {rc::input(g), rc::input(y),
             rc::output(rewriter, loc, type.getShape(), elem),
             rc::input(i64(dim)), rc::input(i64(Log ? 1 : 0))})
            .front();
    rewriter.replaceOp(op, dx);
    return success();
  }
};

} // namespace

void mlir::tp::populateNormalizationToRuntimePatterns(
    RewritePatternSet &patterns) {
  patterns.add<SoftmaxBackwardToRuntime<SoftmaxBackwardOp, false>,
               SoftmaxBackwardToRuntime<LogSoftmaxBackwardOp, true>>(
      patterns.getContext());
}
