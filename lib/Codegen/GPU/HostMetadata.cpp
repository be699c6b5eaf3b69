//===- HostMetadata.cpp - Buffers that stay in host memory ----------------===//
//
// See HostMetadata.h.
//
//===----------------------------------------------------------------------===//

#include "HostMetadata.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

bool tp::isDeallocationHelper(func::FuncOp func) {
  return func.getSymName().starts_with("dealloc_helper");
}

bool tp::isHostMetadata(Value buffer) {
  // The buffer at the root of casts and views.
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto cast = dyn_cast<memref::CastOp>(def))
      buffer = cast.getSource();
    else
      break;
  }
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto cast = dyn_cast<memref::CastOp>(user)) {
        worklist.push_back(cast.getResult());
        continue;
      }
      auto call = dyn_cast<func::CallOp>(user);
      if (call && call.getCallee().starts_with("dealloc_helper"))
        return true;
    }
  }
  return false;
}
