//===- PrepareFunctionABI.cpp - The tp-prepare-function-abi pass ----------===//
//
// Public functions are what tp-run and the JIT call: their tensor arguments
// are marked non-writable for bufferization (compiled code never writes its
// inputs, so a benchmark calling a function repeatedly sees the same
// inputs) unless `tp.donate` names them (Donation.h), and they get the C
// interface wrapper.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Donation.h"
#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPPREPAREFUNCTIONABIPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

struct PrepareFunctionABIPass
    : public tp::impl::TPPrepareFunctionABIPassBase<PrepareFunctionABIPass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder b(&getContext());
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || !fn.isPublic())
        continue;
      if (failed(tp::verifyDonation(fn)))
        return signalPassFailure();
      SmallVector<int64_t> donors =
          tp::donatedArguments(fn).value_or(SmallVector<int64_t>());
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (isa<TensorType>(fn.getArgument(i).getType()))
          fn.setArgAttr(i,
                        bufferization::BufferizationDialect::kWritableAttrName,
                        b.getBoolAttr(llvm::is_contained(donors, i)));
      if (emitCInterface)
        fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    b.getUnitAttr());
    }
  }
};

} // namespace
