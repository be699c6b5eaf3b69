//===- StripOutForms.cpp - out= forms of decomposed ops as plain ones -----===//
//
// A decomposition rewrites an op into others from its operands; its out=
// form (trailing destinations, whose types the results take) is the same
// computation with the results cast to the destinations' types. The pattern
// here turns the out= form of every op that the set's other patterns
// decompose into the plain op and a tp.cast per result whose element type
// differs, so that no op that verifies with out= is left without a lowering
// ("has no CPU lowering") because of it. (A tensor's destination holds no
// data the computation reads: the IR has value semantics.)
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"
#include "tensorplay/Dialect/TP/Transforms/Transforms.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tp;

namespace {

struct StripOutForm : public RewritePattern {
  StripOutForm(MLIRContext *ctx, llvm::DenseSet<OperationName> ops)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, ctx),
        ops(std::move(ops)) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto compute = dyn_cast<ComputeOpInterface>(op);
    if (!compute || !ops.contains(op->getName()))
      return failure();
    OperandRange operands = compute.getComputeOperands();
    if (operands.size() == op->getNumOperands())
      return failure();
    NamedAttrList attrs = attributesWithOutSegment(op, 0);
    Operation *plain = createWithInferredResultTypes(
        rewriter, op->getLoc(), op->getName().getStringRef(), operands,
        attrs.getAttrs());
    // An op whose rules leave a result to the caller (mkldnn_rnn_layer's
    // workspace) keeps the destinations' types.
    if (!plain)
      plain = rewriter.create(OperationState(op->getLoc(), op->getName(),
                                             operands, op->getResultTypes(),
                                             attrs.getAttrs()));
    SmallVector<Value> results;
    for (auto [result, wanted] :
         llvm::zip_equal(plain->getResults(), op->getResultTypes()))
      results.push_back(
          decompose::castTo(rewriter, op->getLoc(), result,
                            cast<RankedTensorType>(wanted).getElementType()));
    rewriter.replaceOp(op, results);
    return success();
  }

  llvm::DenseSet<OperationName> ops;
};

} // namespace

void mlir::tp::populateStripOutFormPatterns(RewritePatternSet &patterns) {
  llvm::DenseSet<OperationName> roots;
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      roots.insert(*root);
  patterns.add<StripOutForm>(patterns.getContext(), std::move(roots));
}
