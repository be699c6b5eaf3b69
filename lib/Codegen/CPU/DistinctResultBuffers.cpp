//===- DistinctResultBuffers.cpp - The tp-distinct-result-buffers pass ----===//
//
// A memref a func.return returns at several positions keeps the first; each
// later position returns a copy in an allocation of its own. Then
// buffer-results-to-out-params can compute every allocated result in its
// out-param (hoist-static-allocs), which assumes each allocation is
// returned once.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPDISTINCTRESULTBUFFERSPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {
struct DistinctResultBuffersPass
    : public tp::impl::TPDistinctResultBuffersPassBase<
          DistinctResultBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallPtrSet<Value, 8> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        auto type = dyn_cast<MemRefType>(operand.get().getType());
        if (!type || seen.insert(operand.get()).second)
          continue;
        // A fresh buffer of the result's shape (its layout is the function
        // type's, the identity for the ABI's results).
        SmallVector<Value> sizes;
        for (auto [i, size] : llvm::enumerate(type.getShape()))
          if (ShapedType::isDynamic(size))
            sizes.push_back(
                memref::DimOp::create(b, ret.getLoc(), operand.get(), i));
        auto plain =
            MemRefType::get(type.getShape(), type.getElementType(),
                            MemRefLayoutAttrInterface(), type.getMemorySpace());
        Value copy = memref::AllocOp::create(b, ret.getLoc(), plain, sizes);
        memref::CopyOp::create(b, ret.getLoc(), operand.get(), copy);
        if (plain != type)
          copy = memref::CastOp::create(b, ret.getLoc(), type, copy);
        operand.set(copy);
      }
    });
  }
};
} // namespace
