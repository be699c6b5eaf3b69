//===- LossToRuntime.cpp - ctc_loss to the runtime's CTC kernel -----------===//
//
// tp.ctc_loss on f32 and f64 log-probabilities becomes a tp_rt.call of
// tp_rt_ctc_loss_{f32,f64} (runtime/calls/LossCalls.cpp), which computes
// each sample's negative log-likelihood as tensorplay's CPU kernel does
// and checks the lengths at run time; zero_infinity and the reduction are
// tp ops around it (mean: each loss over its target length, at least 1,
// then the batch mean), lowered by convert-tp-to-linalg. An unbatched
// (T, C) input is a batch of one. Other element types are an error
// (tensorplay's CPU kernel takes float and double; under autocast the op
// runs in f32). tp.ctc_loss_backward (tp-autodiff's) becomes a call of
// tp_rt_ctc_loss_backward_{f32,f64} on the same operands in the same
// forms, with the per-sample gradient first.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::tp;
namespace rc = mlir::tp::runtime_call;
using namespace mlir::tp::decompose;

/// "f32" or "f64": the kernel's suffix for log-probabilities `logProbs`;
/// "" for other element types.
static StringRef ctcSuffix(Value logProbs) {
  Type t = elementTypeOf(logProbs);
  return t.isF32() ? "f32" : t.isF64() ? "f64" : "";
}

namespace {

/// The CTC operands in the kernels' forms: (T, N, C) log-probabilities,
/// i64 targets and (N) i64 lengths.
struct CtcOperands {
  Value logProbs, targets, inputLengths, targetLengths;
  int64_t batch;
  bool unbatched;
};

CtcOperands ctcOperands(PatternRewriter &rewriter, Location loc, Value logProbs,
                        Value targets, Value inputLengths,
                        Value targetLengths) {
  ArrayRef<int64_t> x = shapeOf(logProbs);
  CtcOperands o;
  o.unbatched = x.size() == 2;
  o.batch = o.unbatched ? 1 : x[1];
  Type i64 = rewriter.getI64Type();
  auto reshaped = [&](Value v, ArrayRef<int64_t> shape) {
    return shapeOf(v) == shape ? v : reshape(rewriter, loc, v, shape);
  };
  auto asI64 = [&](Value v) {
    return reshaped(castTo(rewriter, loc, v, i64), {o.batch});
  };
  o.logProbs = o.unbatched ? reshaped(logProbs, {x[0], 1, x[1]}) : logProbs;
  o.targets = castTo(rewriter, loc, targets, i64);
  o.inputLengths = asI64(inputLengths);
  o.targetLengths = asI64(targetLengths);
  return o;
}

Value i64Constant(PatternRewriter &rewriter, Location loc, int64_t v) {
  return arith::ConstantOp::create(rewriter, loc,
                                   rewriter.getI64IntegerAttr(v));
}

struct CtcLossToRuntime : public OpRewritePattern<CtcLossOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CtcLossOp op,
                                PatternRewriter &rewriter) const override {
    StringRef suffix = ctcSuffix(op.getLogProbs());
    if (!op.getOut().empty() || suffix.empty())
      return failure();
    Location loc = op.getLoc();
    CtcOperands o =
        ctcOperands(rewriter, loc, op.getLogProbs(), op.getTargets(),
                    op.getInputLengths(), op.getTargetLengths());
    bool unbatched = o.unbatched;
    int64_t batch = o.batch;
    Type elem = elementTypeOf(o.logProbs);
    Value targetLengths = o.targetLengths;
    auto reshaped = [&](Value v, ArrayRef<int64_t> shape) {
      return shapeOf(v) == shape ? v : reshape(rewriter, loc, v, shape);
    };
    Value nll = rc::emitCall(
        rewriter, loc, op, ("tp_rt_ctc_loss_" + suffix).str(),
        {rc::input(o.logProbs), rc::input(o.targets), rc::input(o.inputLengths),
         rc::input(targetLengths), rc::output(rewriter, loc, {batch}, elem),
         rc::input(i64Constant(rewriter, loc, op.getBlank()))})[0];

    // tensorplay: where(loss == inf, 0, loss); then the reduction.
    if (op.getZeroInfinity()) {
      Value inf = scalarTensor(rewriter, loc, elem,
                               std::numeric_limits<double>::infinity());
      Value isInf = build<EqOp>(rewriter, loc, {nll, inf});
      nll = build<WhereOp>(
          rewriter, loc, {isInf, scalarTensor(rewriter, loc, elem, 0.0), nll});
    }
    Value result = nll;
    switch (op.getReduction()) {
    case Reduction::None:
      if (unbatched)
        result = reshaped(nll, {});
      break;
    case Reduction::Sum:
      result = build<SumOp>(rewriter, loc, {nll});
      break;
    case Reduction::Mean: {
      Value lengths =
          build<MaximumOp>(rewriter, loc,
                           {castTo(rewriter, loc, targetLengths, elem),
                            scalarTensor(rewriter, loc, elem, 1.0)});
      result = build<MeanOp>(rewriter, loc,
                             {build<DivOp>(rewriter, loc, {nll, lengths})});
      break;
    }
    }
    return replaceWith(rewriter, op, result);
  }
};

struct CtcLossBackwardToRuntime : public OpRewritePattern<CtcLossBackwardOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CtcLossBackwardOp op,
                                PatternRewriter &rewriter) const override {
    StringRef suffix = ctcSuffix(op.getLogProbs());
    if (!op.getOut().empty() || suffix.empty() ||
        elementTypeOf(op.getGradOutput()) != elementTypeOf(op.getLogProbs()))
      return failure();
    Location loc = op.getLoc();
    CtcOperands o =
        ctcOperands(rewriter, loc, op.getLogProbs(), op.getTargets(),
                    op.getInputLengths(), op.getTargetLengths());
    Value grad = op.getGradOutput();
    if (shapeOf(grad) != ArrayRef<int64_t>{o.batch})
      grad = reshape(rewriter, loc, grad, {o.batch});
    ArrayRef<int64_t> lp = shapeOf(o.logProbs);
    Value result = rc::emitCall(
        rewriter, loc, op, ("tp_rt_ctc_loss_backward_" + suffix).str(),
        {rc::input(grad), rc::input(o.logProbs), rc::input(o.targets),
         rc::input(o.inputLengths), rc::input(o.targetLengths),
         rc::output(rewriter, loc, lp, elementTypeOf(o.logProbs)),
         rc::input(i64Constant(rewriter, loc, op.getBlank())),
         rc::input(i64Constant(rewriter, loc, op.getZeroInfinity()))})[0];
    if (o.unbatched)
      result = reshape(rewriter, loc, result, shapeOf(op.getLogProbs()));
    return replaceWith(rewriter, op, result);
  }
};

} // namespace

void mlir::tp::populateLossToRuntimePatterns(RewritePatternSet &patterns) {
  patterns.add<CtcLossToRuntime, CtcLossBackwardToRuntime>(
      patterns.getContext());
}

LogicalResult mlir::tp::checkCtcLossOp(Operation *op) {
  auto bwd = dyn_cast<CtcLossBackwardOp>(op);
  Value logProbs;
  if (auto ctc = dyn_cast<CtcLossOp>(op))
    logProbs = ctc.getLogProbs();
  else if (bwd)
    logProbs = bwd.getLogProbs();
  if (!logProbs)
    return success();
  if (ctcSuffix(logProbs).empty())
    return op->emitOpError("runs on f32 and f64 log_probs, got ")
           << logProbs.getType()
           << " (tensorplay's CPU kernel takes float and double; under "
              "autocast ctc_loss runs in f32)";
  if (bwd && elementTypeOf(bwd.getGradOutput()) != elementTypeOf(logProbs))
    return op->emitOpError("expects grad_output in log_probs' dtype ")
           << elementTypeOf(logProbs) << ", got "
           << bwd.getGradOutput().getType();
  return success();
}
