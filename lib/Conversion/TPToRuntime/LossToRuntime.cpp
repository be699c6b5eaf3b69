//===- LossToRuntime.cpp - ctc_loss to the runtime's CTC kernel -----------===//
//
// tp.ctc_loss on f32 and f64 log-probabilities becomes a tp_rt.call of
// tp_rt_ctc_loss_{f32,f64} (runtime/codegen/LossCalls.cpp), which computes
// each sample's negative log-likelihood as tensorplay's CPU kernel does
// and checks the lengths at run time; zero_infinity and the reduction are
// tp ops around it (mean: each loss over its target length, at least 1,
// then the batch mean), lowered by convert-tp-to-linalg. An unbatched
// (T, C) input is a batch of one. Other element types are an error
// (tensorplay's CPU kernel takes float and double; under autocast the op
// runs in f32).
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

/// "f32" or "f64": the kernel's suffix; "" for other element types.
static StringRef ctcSuffix(CtcLossOp op) {
  Type t = elementTypeOf(op.getLogProbs());
  return t.isF32() ? "f32" : t.isF64() ? "f64" : "";
}

namespace {

struct CtcLossToRuntime : public OpRewritePattern<CtcLossOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CtcLossOp op,
                                PatternRewriter &rewriter) const override {
    StringRef suffix = ctcSuffix(op);
    if (!op.getOut().empty() || suffix.empty())
      return failure();
    Location loc = op.getLoc();
    Value logProbs = op.getLogProbs();
    ArrayRef<int64_t> x = shapeOf(logProbs);
    bool unbatched = x.size() == 2;
    int64_t batch = unbatched ? 1 : x[1];
    Type elem = elementTypeOf(logProbs), i64 = rewriter.getI64Type();

    // Each operand in the kernel's form: (T, N, C) log-probabilities, i64
    // targets and (N) i64 lengths.
    auto reshaped = [&](Value v, ArrayRef<int64_t> shape) {
      return shapeOf(v) == shape ? v : reshape(rewriter, loc, v, shape);
    };
    auto asI64 = [&](Value v, ArrayRef<int64_t> shape) {
      return reshaped(castTo(rewriter, loc, v, i64), shape);
    };
    if (unbatched)
      logProbs = reshaped(logProbs, {x[0], 1, x[1]});
    Value targets = castTo(rewriter, loc, op.getTargets(), i64);
    Value inputLengths = asI64(op.getInputLengths(), {batch});
    Value targetLengths = asI64(op.getTargetLengths(), {batch});
    Value nll = rc::emitCall(
        rewriter, loc, op, ("tp_rt_ctc_loss_" + suffix).str(),
        {rc::input(logProbs), rc::input(targets), rc::input(inputLengths),
         rc::input(targetLengths), rc::output(rewriter, loc, {batch}, elem),
         rc::input(arith::ConstantOp::create(
             rewriter, loc, rewriter.getI64IntegerAttr(op.getBlank())))})[0];

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

} // namespace

void mlir::tp::populateLossToRuntimePatterns(RewritePatternSet &patterns) {
  patterns.add<CtcLossToRuntime>(patterns.getContext());
}

LogicalResult mlir::tp::checkCtcLossOp(Operation *op) {
  auto ctc = dyn_cast<CtcLossOp>(op);
  if (!ctc || !ctcSuffix(ctc).empty())
    return success();
  return op->emitOpError("runs on f32 and f64 log_probs, got ")
         << ctc.getLogProbs().getType()
         << " (tensorplay's CPU kernel takes float and double; under "
            "autocast ctc_loss runs in f32)";
}
