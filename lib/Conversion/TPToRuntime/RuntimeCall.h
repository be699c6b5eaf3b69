//===- RuntimeCall.h - Building calls of the tp_rt_* ABI --------*- C++ -*-===//
//
// Helpers shared by the TPToRuntime patterns: tensors handed to a runtime
// call as memrefs, result buffers wrapped back into tensors, and the
// declarations of the called functions.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_CONVERSION_TPTORUNTIME_RUNTIMECALL_H
#define TENSORPLAY_LIB_CONVERSION_TPTORUNTIME_RUNTIMECALL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tp {
namespace runtime_call {

/// The suffix the runtime uses for element type `t` ("f32", "bf16"), or ""
/// when oneDNN calls do not take it.
StringRef dtypeSuffix(Type t);

/// A read-only memref view (any strides) of tensor `t`.
Value bufferOf(OpBuilder &b, Location loc, Value t);
/// `buffer` with its two trailing dimensions swapped (a strided view).
Value transposeLast2(OpBuilder &b, Location loc, Value buffer);
/// `buffer` viewed with its dimensions permuted: result dim i is dim
/// perm[i] of `buffer` (a strided view, no copy).
Value permuteView(OpBuilder &b, Location loc, Value buffer,
                  ArrayRef<int64_t> perm);
/// A new buffer of `shape` x `elementType` the call writes.
Value allocBuffer(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType);
/// An empty (zero-element) rank-1 buffer: "no bias".
Value emptyBuffer(OpBuilder &b, Location loc, Type elementType);
/// The tensor holding what the call wrote into `buffer`.
Value tensorOf(OpBuilder &b, Location loc, Value buffer);

/// Calls `name(args...) -> i32`, declaring it in the module around `anchor`
/// if needed. Memref arguments cross as unranked memrefs; scalars (i64) as
/// they are.
void emitCall(OpBuilder &b, Location loc, Operation *anchor, StringRef name,
              ValueRange buffers);

} // namespace runtime_call
} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_CONVERSION_TPTORUNTIME_RUNTIMECALL_H
