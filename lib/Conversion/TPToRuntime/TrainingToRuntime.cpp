//===- TrainingToRuntime.cpp - GradScaler and optimizer ops to calls ------===//
//
// tp.amp_check_finite, tp.amp_update_scale, tp.fused_sgd and tp.fused_adamw
// become tp_rt.call ops of the runtime's tp_rt_codegen_* wrappers
// (tensorplay/Runtime/Codegen.h), or for device buffers of their
// tp_rt_codegen_cuda_* twins, which run the CUDA kernels. The state they update
// (found_inf, scale and tracker, parameter, optimizer state, step, and with a
// scale the gradient) is passed as updated outputs, so bufferization runs the
// kernels in place wherever the old value is not needed afterwards.
// Absent optional operands become zero-element tensors. These lowerings do
// not need oneDNN.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tp;
namespace rc = mlir::tp::runtime_call;

/// The wrappers' suffix for the element type of `value` (a tensor).
static StringRef suffixOf(Value value) {
  Type t = cast<RankedTensorType>(value.getType()).getElementType();
  if (t.isF16())
    return "f16";
  return rc::dtypeSuffix(t);
}

/// The prefix of the train-step calls for `device`.
static StringRef callPrefix(TrainingDevice device) {
  return device == TrainingDevice::CUDA ? "tp_rt_codegen_cuda_"
                                        : "tp_rt_codegen_";
}

static Value f64Constant(OpBuilder &b, Location loc, const APFloat &value) {
  return arith::ConstantOp::create(b, loc,
                                   b.getF64FloatAttr(value.convertToDouble()));
}

static Value i64Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
}

/// `value` read by the call, or a zero-element tensor of `elementType`
/// when absent.
static rc::Argument optionalInput(OpBuilder &b, Location loc, Value value,
                                  Type elementType) {
  return rc::input(value ? value : rc::emptyTensor(b, loc, elementType));
}

namespace {

struct CheckFiniteToRuntime : public OpRewritePattern<AmpCheckFiniteOp> {
  CheckFiniteToRuntime(MLIRContext *ctx, TrainingDevice device)
      : OpRewritePattern(ctx), device(device) {}
  TrainingDevice device;

  LogicalResult matchAndRewrite(AmpCheckFiniteOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0f));
    Value found =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{}, f32);
    found = linalg::FillOp::create(rewriter, loc, zero, found).getResult(0);
    for (Value grad : op.getGrads()) {
      std::string name =
          (callPrefix(device) + "check_finite_" + suffixOf(grad)).str();
      found = rc::emitCall(rewriter, loc, op, name,
                           {rc::input(grad), rc::update(found)})[0];
    }
    rewriter.replaceOp(op, found);
    return success();
  }
};

struct UpdateScaleToRuntime : public OpRewritePattern<AmpUpdateScaleOp> {
  UpdateScaleToRuntime(MLIRContext *ctx, TrainingDevice device)
      : OpRewritePattern(ctx), device(device) {}
  TrainingDevice device;

  LogicalResult matchAndRewrite(AmpUpdateScaleOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> results = rc::emitCall(
        rewriter, loc, op, (callPrefix(device) + "update_scale").str(),
        {rc::update(op.getScale()), rc::update(op.getGrowthTracker()),
         rc::input(op.getFoundInf()),
         rc::input(f64Constant(rewriter, loc, op.getGrowthFactor())),
         rc::input(f64Constant(rewriter, loc, op.getBackoffFactor())),
         rc::input(i64Constant(rewriter, loc, op.getGrowthInterval()))});
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The arguments both optimizers end their tensors with: the step, the
/// scale and found_inf (zero-element when absent) and the parameter copy
/// (updated: its buffer receives the rounded parameter; zero-element of the
/// parameter's element type when absent).
static void appendStepArguments(OpBuilder &b, Location loc, Value param,
                                Value step, Value gradScale, Value foundInf,
                                Value copy,
                                SmallVectorImpl<rc::Argument> &args) {
  args.push_back(rc::update(step));
  args.push_back(optionalInput(b, loc, gradScale, b.getF32Type()));
  args.push_back(optionalInput(b, loc, foundInf, b.getF32Type()));
  args.push_back(
      copy ? rc::update(copy)
           : rc::input(rc::emptyTensor(
                 b, loc,
                 cast<RankedTensorType>(param.getType()).getElementType())));
}

/// Whether the call updates the gradient: it writes it back unscaled when
/// there is a scale and the gradient has the parameter's type (a narrower
/// gradient is only read).
static bool gradUpdated(Value param, Value grad, Value gradScale) {
  return gradScale && grad.getType() == param.getType();
}

static rc::Argument gradArgument(Value param, Value grad, Value gradScale) {
  return gradUpdated(param, grad, gradScale) ? rc::update(grad)
                                             : rc::input(grad);
}

/// Calls tp_rt_codegen_<kind>_step_<suffix> with `args` (the suffix names
/// the parameter's element type, then a gradient of another type and the
/// copy's, when present: Codegen.h) and replaces `op` by the call's
/// results: those are the parameter, the gradient when it is updated (the
/// op does not return it), the state, the step and the copy when there is
/// one, which the op returns before the step.
template <typename OpTy>
static void replaceByOptimizerCall(PatternRewriter &rewriter, OpTy op,
                                   TrainingDevice device, StringRef kind,
                                   ArrayRef<rc::Argument> args) {
  Value param = op.getParam(), grad = op.getGrad(), copy = op.getParamCopy();
  std::string name =
      (callPrefix(device) + kind + "_step_" + suffixOf(param)).str();
  if (grad.getType() != param.getType())
    name += ("_g" + suffixOf(grad)).str();
  if (copy)
    name += ("_c" + suffixOf(copy)).str();
  SmallVector<Value> results =
      rc::emitCall(rewriter, op.getLoc(), op, name, args);
  if (gradUpdated(param, grad, op.getGradScale()))
    results.erase(results.begin() + 1);
  if (copy)
    std::swap(results[results.size() - 2], results.back());
  rewriter.replaceOp(op, results);
}

struct SgdToRuntime : public OpRewritePattern<FusedSgdOp> {
  SgdToRuntime(MLIRContext *ctx, TrainingDevice device)
      : OpRewritePattern(ctx), device(device) {}
  TrainingDevice device;

  LogicalResult matchAndRewrite(FusedSgdOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem =
        cast<RankedTensorType>(op.getParam().getType()).getElementType();
    Value momentum = op.getMomentumBuffer();
    SmallVector<rc::Argument> args = {
        rc::update(op.getParam()),
        gradArgument(op.getParam(), op.getGrad(), op.getGradScale()),
        momentum ? rc::update(momentum)
                 : rc::input(rc::emptyTensor(rewriter, loc, elem))};
    appendStepArguments(rewriter, loc, op.getParam(), op.getStep(),
                        op.getGradScale(), op.getFoundInf(), op.getParamCopy(),
                        args);
    for (const APFloat &value :
         {op.getLr(), op.getMomentum(), op.getDampening(), op.getWeightDecay()})
      args.push_back(rc::input(f64Constant(rewriter, loc, value)));
    args.push_back(rc::input(i64Constant(rewriter, loc, op.getNesterov())));
    args.push_back(rc::input(i64Constant(rewriter, loc, op.getMaximize())));
    replaceByOptimizerCall(rewriter, op, device, "sgd", args);
    return success();
  }
};

struct AdamwToRuntime : public OpRewritePattern<FusedAdamwOp> {
  AdamwToRuntime(MLIRContext *ctx, TrainingDevice device)
      : OpRewritePattern(ctx), device(device) {}
  TrainingDevice device;

  LogicalResult matchAndRewrite(FusedAdamwOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem =
        cast<RankedTensorType>(op.getParam().getType()).getElementType();
    Value max = op.getMaxExpAvgSq();
    SmallVector<rc::Argument> args = {
        rc::update(op.getParam()),
        gradArgument(op.getParam(), op.getGrad(), op.getGradScale()),
        rc::update(op.getExpAvg()), rc::update(op.getExpAvgSq()),
        max ? rc::update(max)
            : rc::input(rc::emptyTensor(rewriter, loc, elem))};
    appendStepArguments(rewriter, loc, op.getParam(), op.getStep(),
                        op.getGradScale(), op.getFoundInf(), op.getParamCopy(),
                        args);
    for (const APFloat &value : {op.getLr(), op.getBeta1(), op.getBeta2(),
                                 op.getEps(), op.getWeightDecay()})
      args.push_back(rc::input(f64Constant(rewriter, loc, value)));
    args.push_back(rc::input(i64Constant(rewriter, loc, op.getAmsgrad())));
    args.push_back(rc::input(i64Constant(rewriter, loc, op.getMaximize())));
    replaceByOptimizerCall(rewriter, op, device, "adamw", args);
    return success();
  }
};

} // namespace

void tp::populateTrainingToRuntimePatterns(RewritePatternSet &patterns,
                                           TrainingDevice device) {
  patterns.add<CheckFiniteToRuntime, UpdateScaleToRuntime, SgdToRuntime,
               AdamwToRuntime>(patterns.getContext(), device);
}
