//===- ConvToRuntime.cpp - tp convolutions to oneDNN calls ----------------===//
//
// conv1d/2d/3d, conv_transpose1d/2d/3d and convolution on f32 or bf16
// operands become one tp_rt_dnnl_conv_* call: the weight is passed in
// tensorplay's layout (the runtime describes it to oneDNN with strides), the
// bias is fused, and the geometry travels as an i64 constant. Forms oneDNN
// cannot express (negative right padding of a transposed convolution) stay
// for the linalg lowering.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;
namespace rc = mlir::tp::runtime_call;

namespace {

class ConvToRuntime : public RewritePattern {
public:
  ConvToRuntime(MLIRContext *ctx, StringRef name)
      : RewritePattern(name, /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    FailureOr<ConvParams> params = getConvParams(op);
    if (failed(params))
      return failure();
    auto computeOperands = cast<ComputeOpInterface>(op).getComputeOperands();
    Value input = computeOperands[0], weight = computeOperands[1];
    Value bias = computeOperands.size() > 2 ? computeOperands[2] : Value();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type elem = resultType.getElementType();
    for (Value v : {input, weight, bias}) {
      if (!v)
        continue;
      auto t = cast<RankedTensorType>(v.getType());
      if (!t.hasStaticShape() || t.getNumElements() == 0 ||
          t.getElementType() != elem)
        return failure();
    }
    if (rc::dtypeSuffix(elem).empty() || !resultType.hasStaticShape())
      return failure();
    int64_t r = params->spatialRank;
    SmallVector<int64_t> padHigh(params->padding);
    if (params->transposed)
      for (int64_t i = 0; i < r; ++i) {
        padHigh[i] -= params->outputPadding[i];
        if (padHigh[i] < 0)
          return failure();
      }
    if (!params->batched) {
      SmallVector<int64_t> s = {1};
      s.append(shapeOf(input).begin(), shapeOf(input).end());
      input = reshapeTo(rewriter, loc, input, s);
    }
    SmallVector<int64_t> dstShape = {shapeOf(input)[0]};
    ArrayRef<int64_t> rs = resultType.getShape();
    dstShape.append(rs.end() - (r + 1), rs.end());

    SmallVector<int64_t> p = {r, params->transposed ? 1 : 0, params->groups};
    p.append(params->stride.begin(), params->stride.end());
    p.append(params->padding.begin(), params->padding.end());
    p.append(padHigh.begin(), padHigh.end());
    p.append(params->dilation.begin(), params->dilation.end());
    auto pType =
        RankedTensorType::get({(int64_t)p.size()}, rewriter.getI64Type());
    Value pTensor = arith::ConstantOp::create(
        rewriter, loc, DenseIntElementsAttr::get(pType, ArrayRef<int64_t>(p)));

    Value biasTensor = bias ? bias : rc::emptyTensor(rewriter, loc, elem);
    std::string name = ("tp_rt_dnnl_conv_" + rc::dtypeSuffix(elem) + "_" +
                        rc::dtypeSuffix(elem))
                           .str();
    Value dst =
        rc::emitCall(
            rewriter, loc, op, name,
            {rc::input(input), rc::input(weight), rc::input(biasTensor),
             rc::output(rewriter, loc, dstShape, elem), rc::input(pTensor)})
            .front();
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, dst, rs));
    return success();
  }
};

} // namespace

void mlir::tp::populateConvToRuntimePatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (StringRef name :
       {Conv1dOp::getOperationName(), Conv2dOp::getOperationName(),
        Conv3dOp::getOperationName(), ConvTranspose1dOp::getOperationName(),
        ConvTranspose2dOp::getOperationName(),
        ConvTranspose3dOp::getOperationName(),
        ConvolutionOp::getOperationName()})
    patterns.add<ConvToRuntime>(ctx, name);
}
