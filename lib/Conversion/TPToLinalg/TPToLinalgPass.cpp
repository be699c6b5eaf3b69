//===- TPToLinalgPass.cpp - The convert-tp-to-linalg pass -----------------===//
//
// Runs every TPToLinalg pattern as a partial dialect conversion with the tp
// dialect illegal. Ops no pattern is rooted at are reported up front, each
// at its location, so an unsupported program fails with one clear error per
// op instead of a generic legalization failure.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Passes.h"
#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/ResolvedDtypes.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Dialect/TP/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_CONVERTTPTOLINALGPASS
#include "tensorplay/Conversion/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;

void mlir::tp::populateTPToLinalgPatterns(RewritePatternSet &patterns,
                                          uint64_t dropoutSeed) {
  populateElementwiseToLinalgPatterns(patterns, dropoutSeed);
  populateShapeToLinalgPatterns(patterns);
  populateReductionToLinalgPatterns(patterns);
  populateNormalizationToLinalgPatterns(patterns);
  populateLossToLinalgPatterns(patterns);
  populateMatmulToLinalgPatterns(patterns);
  populateConvToLinalgPatterns(patterns);
  populatePoolingToLinalgPatterns(patterns);
  populateIndexingToLinalgPatterns(patterns);
  populateGridSampleToLinalgPatterns(patterns);
  populateComplexToLinalgPatterns(patterns);
  populateFractionalPoolToLinalgPatterns(patterns);
  populateCollectiveToMPIPatterns(patterns);
}

llvm::StringSet<> mlir::tp::getLoweredOpNames(RewritePatternSet &patterns) {
  llvm::StringSet<> names;
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      names.insert(root->getStringRef());
  return names;
}

namespace {

struct ConvertTPToLinalgPass
    : public tp::impl::ConvertTPToLinalgPassBase<ConvertTPToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (failed(
            tp::verifyResolvedDtypes(getOperation(), "convert-tp-to-linalg")))
      return signalPassFailure();
    ModuleOp module = getOperation();
    inlineAutocastRegions(module);

    RewritePatternSet patterns(ctx);
    populateTPToLinalgPatterns(patterns, dropoutSeed);
    RewritePatternSet prePatterns(ctx);
    populateScanToLinalgPatterns(prePatterns);
    populateOverlappedCollectivePatterns(prePatterns);
    llvm::StringSet<> lowered = getLoweredOpNames(patterns);
    for (const auto &entry : getLoweredOpNames(prePatterns))
      lowered.insert(entry.getKey());

    bool unsupported = false;
    module.walk([&](Operation *op) {
      if (!isa<TPDialect>(op->getDialect()))
        return;
      if (lowered.contains(op->getName().getStringRef()))
        return;
      op->emitOpError("has no CPU lowering");
      unsupported = true;
    });
    if (unsupported)
      return signalPassFailure();
    if (failed(applyPatternsGreedily(module, std::move(prePatterns))))
      return signalPassFailure();

    ConversionTarget target(*ctx);
    target.addIllegalDialect<TPDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    // A pattern that cannot lower a form of its op says why at the op; the
    // driver's "failed to legalize" that follows adds nothing.
    bool explained = false;
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      if (explained && StringRef(diag.str()).starts_with("failed to legalize"))
        return success();
      explained = true;
      return failure();
    });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
