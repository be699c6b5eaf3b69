//===- LowerVectors.cpp - The tp-lower-vectors pass -----------------------===//
//
// After bufferization: hoist redundant transfers out of loops, then lower
// the vector ops the vectorizer produced into the forms
// convert-vector-to-llvm handles well on x86: vector.contract into outer
// products (one broadcast FMA per row of the register tile),
// multi_reduction into inner reductions, transposes by 16x16 shuffles,
// and N-D transfers into 1-D loads/stores.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/MathPatterns.h"
#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPLOWERVECTORSPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

/// memref.copy between non-contiguous layouts would become a call of MLIR's
/// C runner library; as a linalg.copy it becomes loops.
struct CopyToLinalg : public OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    // Contiguous copies stay memref.copy: memref-to-llvm makes them one
    // llvm.memcpy (as loops, LLVM unrolls a small static copy into one
    // huge block whose scheduling dominated the JIT's compile time).
    auto contiguous = [](Value v) {
      auto type = dyn_cast<MemRefType>(v.getType());
      return type && memref::isStaticShapeAndContiguousRowMajor(type);
    };
    if (contiguous(op.getSource()) && contiguous(op.getTarget()))
      return failure();
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};

struct LowerVectorsPass
    : public tp::impl::TPLowerVectorsPassBase<LowerVectorsPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    MLIRContext *ctx = &getContext();
    linalg::hoistRedundantVectorTransfers(fn);

    auto apply = [&](auto populate) {
      RewritePatternSet patterns(ctx);
      populate(patterns);
      return applyPatternsGreedily(fn, std::move(patterns));
    };
    // Leading unit dimensions (batch_matmul register tiles) go first, so
    // contractions are plain MxNxK ones.
    if (failed(apply([&](RewritePatternSet &p) {
          vector::populateCastAwayVectorLeadingOneDimPatterns(p);
        })))
      return signalPassFailure();
    // Contractions and reductions first (they produce broadcasts,
    // transposes and shape casts the next stage lowers).
    if (failed(apply([&](RewritePatternSet &p) {
          vector::populateVectorContractLoweringPatterns(
              p, vector::VectorContractLowering::OuterProduct);
          vector::populateVectorMultiReductionLoweringPatterns(
              p, vector::VectorMultiReductionLowering::InnerReduction);
          vector::populateVectorMaskOpLoweringPatterns(p);
          vector::populateVectorTransferPermutationMapLoweringPatterns(p);
        })))
      return signalPassFailure();
    if (failed(apply([&](RewritePatternSet &p) {
          vector::populateVectorOuterProductLoweringPatterns(p);
          vector::populateVectorTransposeLoweringPatterns(
              p, vector::VectorTransposeLowering::Shuffle16x16);
          vector::populateVectorBroadcastLoweringPatterns(p);
          vector::populateVectorShapeCastLoweringPatterns(p);
          vector::populateVectorTransferLoweringPatterns(p, /*maxRank=*/1);
          vector::populateVectorTransferPermutationMapLoweringPatterns(p);
        })))
      return signalPassFailure();
    // What is left of rank > 1 transfers: unrolled 1-D transfers. Copies
    // become linalg.copy; f32 math (vector and scalar, also inside linalg
    // bodies) becomes polynomial approximations LLVM can vectorize.
    if (failed(apply([&](RewritePatternSet &p) {
          populateVectorToSCFConversionPatterns(
              p, VectorTransferToSCFOptions().enableFullUnroll());
          p.add<CopyToLinalg>(ctx);
          // sin/cos: an exact range reduction first (benefit 2), the
          // polynomial only on the reduced argument.
          tp::populateAccurateSinCosPatterns(p);
          tp::populateSubnormalPatterns(p);
          populateMathPolynomialApproximationPatterns(p);
          populatePolynomialApproximateErfcPattern(p);
        })))
      return signalPassFailure();
  }
};

} // namespace
