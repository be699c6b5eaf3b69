//===- TPToRuntimePass.cpp - The convert-tp-to-runtime pass ---------------===//
//
// Applies the MatmulToRuntime and ConvToRuntime patterns (with `onednn`;
// NormalizationToRuntime's with `onednn-softmax-backward` too; with
// device=cuda the cuBLASLt products), the TrainingToRuntime ones (for
// the device) and, on the CPU, the LAPACK and CTC calls (LinalgToRuntime,
// LossToRuntime) greedily; ops they
// do not take (other dtypes, unsupported geometry) stay for
// convert-tp-to-linalg.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/Passes.h"
#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Conversion/Utils/ResolvedDtypes.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Dialect/TP/Transforms/Transforms.h"
#include "tensorplay/Dialect/TPRuntime/IR/TPRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_CONVERTTPTORUNTIMEPASS
#include "tensorplay/Conversion/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;

namespace {

struct ConvertTPToRuntimePass
    : public tp::impl::ConvertTPToRuntimePassBase<ConvertTPToRuntimePass> {
  using ConvertTPToRuntimePassBase::ConvertTPToRuntimePassBase;

  void runOnOperation() override {
    if (failed(
            tp::verifyResolvedDtypes(getOperation(), "convert-tp-to-runtime")))
      return signalPassFailure();
    if (device != "cpu" && device != "cuda") {
      getOperation().emitError("convert-tp-to-runtime: device must be cpu or "
                               "cuda, got '")
          << device << "'";
      return signalPassFailure();
    }
    bool cuda = device == "cuda";
    if (onednn && cuda) {
      getOperation().emitError(
          "convert-tp-to-runtime: onednn=1 calls oneDNN on host buffers; "
          "device=cuda needs onednn=0");
      return signalPassFailure();
    }
    // The linear-algebra ops LAPACK cannot compute, and ctc_loss on types
    // its kernel does not take, are errors here, before anything is
    // rewritten.
    bool refused = false;
    // The collectives of data-parallel train steps are MPI calls from host
    // code: the GPU pipeline has none.
    if (cuda)
      getOperation()->walk([&](AllReduceOp op) {
        op.emitOpError("has no GPU lowering: data-parallel train steps run "
                       "on the CPU (tp-train --distributed)");
        refused = true;
      });
    if (!cuda)
      getOperation()->walk([&](Operation *op) {
        refused |= failed(checkLapackOp(op)) || failed(checkCtcLossOp(op)) ||
                   failed(checkFftOp(op));
      });
    if (refused)
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    if (cuda && cublaslt)
      populateMatmulToRuntimePatterns(patterns, ProductLibrary::CublasLt);
    if (onednn) {
      populateMatmulToRuntimePatterns(patterns);
      populateConvToRuntimePatterns(patterns);
      if (onednnSoftmaxBackward)
        populateNormalizationToRuntimePatterns(patterns);
    }
    populateTrainingToRuntimePatterns(patterns, cuda ? TrainingDevice::CUDA
                                                     : TrainingDevice::CPU);
    if (!cuda) {
      // The LAPACK calls take the out= forms as the plain op and a cast.
      RewritePatternSet lapack(&getContext());
      populateLinalgToRuntimePatterns(lapack);
      populateStripOutFormPatterns(lapack);
      for (std::unique_ptr<RewritePattern> &pattern :
           lapack.getNativePatterns())
        patterns.add(std::move(pattern));
      populateLossToRuntimePatterns(patterns);
      populateFftToRuntimePatterns(patterns);
    }
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    // Every call agrees with the runtime's declaration of its callee.
    if (failed(runtime_call::verifyDeclaredCalls(getOperation())))
      signalPassFailure();
  }
};

} // namespace
