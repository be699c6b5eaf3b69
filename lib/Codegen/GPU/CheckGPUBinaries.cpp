//===- CheckGPUBinaries.cpp - The tp-check-gpu-binaries pass --------------===//
//
// gpu-module-to-binary only emits a diagnostic when a kernel module fails
// to serialize; this pass turns a gpu.module left behind into a failure.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPCHECKGPUBINARIESPASS
#include "tensorplay/Codegen/GPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

struct CheckGPUBinariesPass
    : public tp::impl::TPCheckGPUBinariesPassBase<CheckGPUBinariesPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](gpu::GPUModuleOp module) {
      module.emitError("tp-lower-to-nvvm: kernel module @")
          << module.getName()
          << " was not compiled to a binary (see the error above)";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
