//===- DecomposeLogsumexp.cpp - logsumexp into amax, exp, sum, log --------===//
//
// tp.logsumexp as tensorplay's logsumexp: the maximum m over the reduced
// dimensions (kept), replaced by 0 where it is infinite (a row of -inf gives
// -inf, one holding +inf gives +inf, no inf - inf), then
// log(sum(exp(x - m))) + m. Autocast has decided the op as one (it is not in
// the tables): its parts run in its input's type.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

#include <limits>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

struct DecomposeLogsumexp : public OpRewritePattern<LogsumexpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LogsumexpOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    Type elem = elementTypeOf(op.getResult());
    if (elementTypeOf(x) != elem)
      x = castTo(rewriter, loc, x, elem);
    SmallVector<NamedAttribute> kept = {
        arrayAttr(rewriter, "dim", op.getDim()),
        rewriter.getNamedAttr("keepdim", rewriter.getBoolAttr(true))};
    Value m = build<AmaxOp>(rewriter, loc, {x}, kept);
    Value infinity = scalarTensor(rewriter, loc, elem,
                                  std::numeric_limits<double>::infinity());
    Value infinite =
        build<EqOp>(rewriter, loc, {build<AbsOp>(rewriter, loc, {m}), infinity});
    Value shift = build<WhereOp>(
        rewriter, loc, {infinite, scalarTensor(rewriter, loc, elem, 0.0), m});
    Value e = build<ExpOp>(rewriter, loc, {build<SubOp>(rewriter, loc, {x, shift})});
    SmallVector<NamedAttribute> reduce = {
        arrayAttr(rewriter, "dim", op.getDim())};
    if (op.getKeepdim())
      reduce.push_back(
          rewriter.getNamedAttr("keepdim", rewriter.getBoolAttr(true)));
    Value total = build<SumOp>(rewriter, loc, {e}, reduce);
    Value log = build<LogOp>(rewriter, loc, {total});
    if (!op.getKeepdim())
      shift = reshape(rewriter, loc, shift, shapeOf(log));
    return replaceWith(rewriter, op, build<AddOp>(rewriter, loc, {log, shift}));
  }
};

} // namespace

void mlir::tp::decompose::populateDecomposeLogsumexpPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeLogsumexp>(patterns.getContext());
}
