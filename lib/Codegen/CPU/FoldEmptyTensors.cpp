//===- FoldEmptyTensors.cpp - The tp-fold-empty-tensors pass --------------===//
//
// A tp op whose results all hold no element has nothing to compute: its
// results become tensor.empty, so no lowering ever sees such an op (their
// shape arithmetic divides by sizes that are 0 here).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPFOLDEMPTYTENSORSPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

bool isEmptyTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
}

struct FoldEmptyTensorsPass
    : public tp::impl::TPFoldEmptyTensorsPassBase<FoldEmptyTensorsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<tp::TPDialect>(op->getDialect()) && op->getNumResults() > 0 &&
          op->getNumRegions() == 0 &&
          llvm::all_of(op->getResultTypes(), isEmptyTensor))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      SmallVector<Value> empties;
      for (Type type : op->getResultTypes()) {
        auto tensor = cast<RankedTensorType>(type);
        empties.push_back(tensor::EmptyOp::create(rewriter, op->getLoc(),
                                                  tensor.getShape(),
                                                  tensor.getElementType()));
      }
      rewriter.replaceOp(op, empties);
    }
  }
};

} // namespace
