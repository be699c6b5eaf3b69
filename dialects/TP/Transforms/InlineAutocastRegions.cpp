//===- InlineAutocastRegions.cpp - tp.autocast regions into their parent --===//
//
// Once autocast has run, a tp.autocast region only marks where an autocast
// state held: the lowerings inline it. A tp.custom_function runs its
// forward region in place (its backward region serves tp-autodiff only).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Dialect/TP/Transforms/Transforms.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tp;

void mlir::tp::inlineAutocastRegions(Operation *root) {
  SmallVector<AutocastOp> regions;
  root->walk([&](AutocastOp op) { regions.push_back(op); });
  IRRewriter rewriter(root->getContext());
  SmallVector<CustomFunctionOp> functions;
  root->walk([&](CustomFunctionOp op) { functions.push_back(op); });
  for (CustomFunctionOp op : functions) {
    Block &body = op.getForward().front();
    YieldOp yield = op.getForwardYield();
    SmallVector<Value> results(yield.getValues());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&body, op, op.getInputs());
    rewriter.replaceOp(op, results);
  }
  // Innermost first (post-order walk), so bodies move outwards.
  for (AutocastOp op : regions) {
    Block &body = op.getBody().front();
    YieldOp yield = op.getYield();
    SmallVector<Value> results(yield.getValues());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&body, op);
    rewriter.replaceOp(op, results);
  }
}
