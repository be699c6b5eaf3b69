//===- DeviceBuffers.cpp - The tp-device-buffers pass ---------------------===//
//
// After bufferization the host functions of the GPU pipeline allocate,
// copy and read constants with memref ops on host memory; this pass gives
// them device memory instead: gpu.alloc / gpu.dealloc for the buffers,
// gpu.memcpy for contiguous copies (linalg.copy, later mapped to threads,
// for strided ones) and a device copy of each constant global.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/GPU/Passes.h"

#include "HostMetadata.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPDEVICEBUFFERSPASS
#include "tensorplay/Codegen/GPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

/// A device buffer like `type` (identity layout, same memory space).
MemRefType deviceType(MemRefType type) {
  return MemRefType::get(type.getShape(), type.getElementType(), AffineMap(),
                         type.getMemorySpace());
}

/// gpu.alloc of `type` at `b`'s insertion point.
Value allocate(OpBuilder &b, Location loc, MemRefType type,
               ValueRange dynamicSizes) {
  return gpu::AllocOp::create(b, loc, deviceType(type), /*asyncToken=*/Type(),
                              ValueRange(), dynamicSizes, ValueRange())
      .getMemref();
}

/// Frees `buffer` before every return of `func`.
void freeAtReturns(func::FuncOp func, Value buffer) {
  func.walk([&](func::ReturnOp ret) {
    OpBuilder b(ret);
    gpu::DeallocOp::create(b, ret.getLoc(), /*asyncToken=*/Type(), ValueRange(),
                           buffer);
  });
}

struct DeviceBuffersPass
    : public tp::impl::TPDeviceBuffersPassBase<DeviceBuffersPass> {
  using TPDeviceBuffersPassBase::TPDeviceBuffersPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || tp::isDeallocationHelper(func))
      return;
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
              memref::CopyOp, memref::GetGlobalOp>(op) &&
          !llvm::any_of(op->getOperands(), tp::isHostMetadata) &&
          !llvm::any_of(op->getResults(), tp::isHostMetadata))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(process(func, op)))
        return signalPassFailure();
  }

  /// Moves `op` (an alloc, alloca, dealloc, copy or get_global of a host
  /// function) to device memory.
  LogicalResult process(func::FuncOp func, Operation *op) {
    Block &entry = func.getBody().front();
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (!alloc.getType().getLayout().isIdentity())
        return alloc.emitError("tp-device-buffers: a buffer with a layout "
                               "cannot be allocated on the device");
      alloc.replaceAllUsesWith(
          allocate(b, loc, alloc.getType(), alloc.getDynamicSizes()));
      alloc.erase();
      return success();
    }
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      if (alloca->getBlock() != &entry ||
          !alloca.getType().getLayout().isIdentity())
        return alloca.emitError("tp-device-buffers: only identity-layout "
                                "allocas of the function's entry block can "
                                "move to the device");
      Value buffer =
          allocate(b, loc, alloca.getType(), alloca.getDynamicSizes());
      alloca.replaceAllUsesWith(buffer);
      alloca.erase();
      freeAtReturns(func, buffer);
      return success();
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                             dealloc.getMemref());
      dealloc.erase();
      return success();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      auto src = cast<MemRefType>(copy.getSource().getType());
      auto dst = cast<MemRefType>(copy.getTarget().getType());
      if (src.getLayout().isIdentity() && dst.getLayout().isIdentity())
        gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                              copy.getTarget(), copy.getSource());
      else
        linalg::CopyOp::create(b, loc, copy.getSource(), copy.getTarget());
      copy.erase();
      return success();
    }
    if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
      auto type = cast<MemRefType>(global.getType());
      if (!type.getLayout().isIdentity())
        return global.emitError("tp-device-buffers: a constant with a "
                                "layout cannot be copied to the device");
      b.setInsertionPointAfter(global);
      Value buffer = allocate(b, loc, type, ValueRange());
      global.getResult().replaceAllUsesWith(buffer);
      gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(), buffer,
                            global.getResult());
      freeAtReturns(func, buffer);
      return success();
    }
    return success();
  }
};

} // namespace
