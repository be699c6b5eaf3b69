//===- DonateResults.cpp - The tp-donate-results pass ---------------------===//
//
// A donated result is written into its argument's buffer and dropped from
// the function's results: nothing to do when bufferization updated the
// buffer in place, one memref.copy otherwise.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Donation.h"
#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPDONATERESULTSPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {
/// `v` without the memref.casts in front of it.
Value stripCasts(Value v) {
  while (auto cast = v.getDefiningOp<memref::CastOp>())
    v = cast.getSource();
  return v;
}

struct DonateResultsPass
    : public tp::impl::TPDonateResultsPassBase<DonateResultsPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      std::optional<SmallVector<int64_t>> donors = tp::donatedArguments(fn);
      if (!donors)
        continue;
      fn->removeAttr(tp::kDonateAttrName);
      auto ret = cast<func::ReturnOp>(fn.getBody().back().getTerminator());
      OpBuilder b(ret);
      SmallVector<Value> kept;
      SmallVector<Type> keptTypes;
      for (auto [j, value] : llvm::enumerate(ret.getOperands())) {
        int64_t donor = (*donors)[j];
        if (donor < 0) {
          // A result that is a donated argument's buffer would see the new
          // value, not the one the function computed with.
          auto arg = dyn_cast<BlockArgument>(stripCasts(value));
          if (arg && llvm::is_contained(
                         *donors, static_cast<int64_t>(arg.getArgNumber()))) {
            fn.emitOpError("result #")
                << j << " is the donated argument #" << arg.getArgNumber()
                << "; it cannot be returned as well";
            return signalPassFailure();
          }
          kept.push_back(value);
          keptTypes.push_back(value.getType());
          continue;
        }
        Value arg = fn.getArgument(donor);
        if (stripCasts(value) != arg)
          memref::CopyOp::create(b, ret.getLoc(), value, arg);
      }
      ret->setOperands(kept);
      fn.setType(FunctionType::get(
          &getContext(), fn.getFunctionType().getInputs(), keptTypes));
    }
  }
};
} // namespace
