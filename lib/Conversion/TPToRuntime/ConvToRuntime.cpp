//===- ConvToRuntime.cpp - tp convolutions to oneDNN calls ----------------===//
//
// conv1d/2d/3d, conv_transpose1d/2d/3d and convolution on f32 or bf16
// operands become one tp_rt_dnnl_conv_* call: the weight is passed in
// tensorplay's layout (the runtime describes it to oneDNN with strides), the
// bias is fused, and the geometry travels as an i64 constant. Forms oneDNN
// cannot express (negative right padding of a transposed convolution) stay
// for the linalg lowering.
//
// convolution_backward: its weight gradient (with the bias gradient, when
// both are used) becomes one tp_rt_dnnl_conv_backward_weights_* call; its
// input gradient a tp.convolution (the transposed one of a convolution),
// which the pattern above then takes.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Conversion/Utils/ConvolutionUtils.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;
namespace rc = mlir::tp::runtime_call;

namespace {

/// The i64 geometry operand of the tp_rt_dnnl_conv* calls (Codegen.h):
/// rank, transposed, groups, stride, low and high padding, dilation.
/// Failure where oneDNN cannot express it (a transposed convolution whose
/// output_padding exceeds its padding).
FailureOr<SmallVector<int64_t>> geometry(const ConvParams &params) {
  int64_t r = params.spatialRank;
  SmallVector<int64_t> padHigh(params.padding);
  if (params.transposed)
    for (int64_t i = 0; i < r; ++i) {
      padHigh[i] -= params.outputPadding[i];
      if (padHigh[i] < 0)
        return failure();
    }
  SmallVector<int64_t> p = {r, params.transposed ? 1 : 0, params.groups};
  p.append(params.stride.begin(), params.stride.end());
  p.append(params.padding.begin(), params.padding.end());
  p.append(padHigh.begin(), padHigh.end());
  p.append(params.dilation.begin(), params.dilation.end());
  return p;
}

Value i64Constant(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({(int64_t)values.size()}, b.getI64Type());
  return arith::ConstantOp::create(b, loc,
                                   DenseIntElementsAttr::get(type, values));
}

/// Whether `values` are static, non-empty tensors of element type `elem`.
bool staticOf(ValueRange values, Type elem) {
  return llvm::all_of(values, [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return t.hasStaticShape() && t.getNumElements() > 0 &&
           t.getElementType() == elem;
  });
}

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
    FailureOr<SmallVector<int64_t>> p = geometry(*params);
    if (failed(p))
      return failure();
    Value pTensor = i64Constant(rewriter, loc, *p);
    int64_t r = params->spatialRank;
    if (!params->batched) {
      SmallVector<int64_t> s = {1};
      s.append(shapeOf(input).begin(), shapeOf(input).end());
      input = reshapeTo(rewriter, loc, input, s);
    }
    SmallVector<int64_t> dstShape = {shapeOf(input)[0]};
    ArrayRef<int64_t> rs = resultType.getShape();
    dstShape.append(rs.end() - (r + 1), rs.end());

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

class ConvBackwardToRuntime : public OpRewritePattern<ConvolutionBackwardOp> {
public:
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvolutionBackwardOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = elementTypeOf(op.getGradWeight());
    ValueRange operands = op->getOperands().take_front(3);
    if (rc::dtypeSuffix(elem).empty() || !staticOf(operands, elem) ||
        !staticOf(op->getResults(), elem))
      return failure();
    ConvParams params = *getConvParams(op);
    bool weight = !op.getGradWeight().use_empty(),
         bias = !op.getGradBias().use_empty();
    FailureOr<SmallVector<int64_t>> p = geometry(params);
    if (weight && failed(p))
      return failure();
    SmallVector<Value> results(3);
    if (!op.getGradInput().use_empty() &&
        !(results[0] = buildConvolutionInputGradient(rewriter, op, operands)))
      return failure();
    if (weight) {
      Value g = operands[0], x = operands[1];
      rc::Argument biasArg =
          bias ? rc::output(rewriter, loc, shapeOf(op.getGradBias()), elem)
               : rc::input(rc::emptyTensor(rewriter, loc, elem));
      SmallVector<Value> outs = rc::emitCall(
          rewriter, loc, op,
          ("tp_rt_dnnl_conv_backward_weights_" + rc::dtypeSuffix(elem)).str(),
          {rc::input(g), rc::input(x),
           rc::output(rewriter, loc, shapeOf(op.getGradWeight()), elem),
           biasArg, rc::input(i64Constant(rewriter, loc, *p))});
      results[1] = outs[0];
      if (bias)
        results[2] = outs[1];
    } else if (bias && !(results[2] = buildConvolutionBiasGradient(rewriter, op,
                                                                   operands))) {
      return failure();
    }
    rewriter.replaceOp(op, results);
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
  patterns.add<ConvBackwardToRuntime>(ctx);
}
