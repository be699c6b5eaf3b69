//===- StreamOrder.cpp - The tp-stream-order pass -------------------------===//
//
// Chains the host's GPU ops with async tokens, block by block, and waits
// once before each return. See Passes.td for why one stream is enough.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/GPU/Passes.h"

#include "HostMetadata.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPSTREAMORDERPASS
#include "tensorplay/Codegen/GPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

struct StreamOrderPass
    : public tp::impl::TPStreamOrderPassBase<StreamOrderPass> {
  /// `op` (a synchronous GPU op) made asynchronous after `token`; returns
  /// its token.
  Value makeAsync(Operation *op, Value token) {
    Type tokenType = token.getType();
    gpu::addAsyncDependency(op, token);
    SmallVector<Type> types(op->getResultTypes());
    types.push_back(tokenType);
    OpBuilder b(op);
    Operation *async = Operation::create(
        op->getLoc(), op->getName(), types, op->getOperands(),
        op->getDiscardableAttrDictionary(), op->getPropertiesStorage(),
        op->getSuccessors(), /*numRegions=*/0);
    b.insert(async);
    op->replaceAllUsesWith(async->getResults().drop_back());
    op->erase();
    return async->getResults().back();
  }

  void orderBlock(Block &block) {
    Value token;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
        continue;
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          orderBlock(nested);
      auto async = dyn_cast<gpu::AsyncOpInterface>(op);
      if (!async || isa<gpu::WaitOp>(op) || async.getAsyncToken() ||
          op.getNumRegions() != 0)
        continue;
      if (!token) {
        OpBuilder b(&op);
        token = gpu::WaitOp::create(b, op.getLoc(),
                                    gpu::AsyncTokenType::get(&getContext()),
                                    ValueRange())
                    .getAsyncToken();
      }
      token = makeAsync(&op, token);
    }
    if (token && isa<func::ReturnOp>(block.back())) {
      OpBuilder b(&block.back());
      gpu::WaitOp::create(b, block.back().getLoc(), Type(), ValueRange(token));
    }
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || tp::isDeallocationHelper(func))
      return;
    for (Block &block : func.getBody())
      orderBlock(block);
  }
};

} // namespace
