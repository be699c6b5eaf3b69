//===- HostMetadata.h - Buffers that stay in host memory --------*- C++ -*-===//
//
// Buffer deallocation's lowering keeps ownership bookkeeping in small
// buffers (memref<Nxindex>, memref<Nxi1>) that it fills, passes to its
// private dealloc_helper function and reads on the host. The GPU passes
// leave them, and that function, on the host.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_CODEGEN_GPU_HOSTMETADATA_H
#define TENSORPLAY_LIB_CODEGEN_GPU_HOSTMETADATA_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace tp {

/// True for buffer deallocation's helper functions.
bool isDeallocationHelper(func::FuncOp func);

/// True when `buffer` (directly or through memref.cast) is an argument of a
/// call of a deallocation helper: host bookkeeping, not tensor data.
bool isHostMetadata(Value buffer);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_CODEGEN_GPU_HOSTMETADATA_H
