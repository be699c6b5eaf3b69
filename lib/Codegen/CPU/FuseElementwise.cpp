//===- FuseElementwise.cpp - The tp-fuse-elementwise pass -----------------===//
//
// Upstream linalg elementwise fusion with tensorplay's control function: a
// producer fuses into a consumer when it has a single use, or when its body
// is small enough to recompute in every consumer (a tp.cast is one
// arith.extf/truncf), so casts never stay as standalone loops between
// fusible ops. Reshapes are propagated by expansion so that they do not
// block fusion.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPFUSEELEMENTWISEPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

/// True when every indexing map of `op` is a projected permutation: the op
/// reads and writes whole rows of its iteration space. Gathers written with
/// affine index arithmetic (im2col, flips) stay materialized: fused into a
/// contraction they would make its loop ranges depend on a strided,
/// reversed access.
bool hasPermutationMaps(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp &&
         llvm::all_of(linalgOp.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation(/*allowZeroInResults=*/true);
         });
}

/// linalg.matmul / batch_matmul: what tp-tile-and-vectorize tiles into
/// register blocks.
bool isNamedContraction(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
}

struct FuseElementwisePass
    : public tp::impl::TPFuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    unsigned maxOps = maxRecomputedOps;
    linalg::ControlFusionFn control = [maxOps](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || !hasPermutationMaps(producer) ||
          !hasPermutationMaps(fused->getOwner()))
        return false;
      if (producer->hasOneUse())
        return true;
      auto generic = dyn_cast<linalg::GenericOp>(producer);
      if (!generic || generic.getNumReductionLoops() != 0)
        return false;
      // Never duplicate gathers (tensor.extract) or other ops with regions.
      // Transcendental functions (math dialect) count as many ops: they
      // become polynomials of a dozen or more operations.
      unsigned count = 0;
      for (Operation &op : generic.getBody()->without_terminator()) {
        if (op.getNumRegions() != 0 || isa<tensor::ExtractOp>(op))
          return false;
        count += isa<math::MathDialect>(op.getDialect()) ? 16 : 1;
      }
      return count <= maxOps;
    };
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    // Named contractions keep their form (folding a reshape into one
    // rewrites it as a linalg.generic, which tp-tile-and-vectorize would
    // not tile as a matmul): reshapes stop at them.
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *fused) {
          Operation *producer = fused->get().getDefiningOp();
          return producer && producer->hasOneUse() &&
                 !isNamedContraction(producer) &&
                 !isNamedContraction(fused->getOwner()) &&
                 (!isa<linalg::LinalgOp>(fused->getOwner()) ||
                  hasPermutationMaps(fused->getOwner()));
        });
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
