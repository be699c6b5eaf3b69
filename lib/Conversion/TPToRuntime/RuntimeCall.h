//===- RuntimeCall.h - Building calls of the tp_rt_* ABI --------*- C++ -*-===//
//
// Helpers shared by the TPToRuntime patterns: the arguments of a runtime
// call (tensors it reads, possibly through a permuted view; tensors it
// writes; scalars) and the tp_rt.call that carries them until
// bufferization, with the declaration of the called function.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_CONVERSION_TPTORUNTIME_RUNTIMECALL_H
#define TENSORPLAY_LIB_CONVERSION_TPTORUNTIME_RUNTIMECALL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace tp {
namespace runtime_call {

/// The suffix the runtime uses for element type `t` ("f32", "bf16"), or ""
/// when oneDNN calls do not take it.
StringRef dtypeSuffix(Type t);

/// One argument of a runtime call.
struct Argument {
  /// A tensor, or an integer or f64 scalar.
  Value value;
  /// The permutation the callee sees the tensor through (dimension d of
  /// the view is dimension view[d] of the tensor); empty: none.
  SmallVector<int64_t> view;
  /// A tensor the call overwrites; the call returns it.
  bool output = false;
  /// An output the call reads and updates in place.
  bool updated = false;
};

/// A tensor (or scalar) the call reads.
Argument input(Value value, ArrayRef<int64_t> view = {});
/// A new tensor of `shape` x `elementType` the call writes, seen through
/// `view`.
Argument output(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                Type elementType, ArrayRef<int64_t> view = {});
/// `value`, updated in place by the call (read, then written); the call
/// returns the updated tensor.
Argument update(Value value);
/// An empty (zero-element) rank-1 tensor: "no bias".
Value emptyTensor(OpBuilder &b, Location loc, Type elementType);
/// `arg` seen with its two trailing view dimensions swapped.
Argument transposeLast2(Argument arg);

/// Emits tp_rt.call @name(args), declaring @name in the module around
/// `anchor` if needed; returns the tensors the call wrote, one per output
/// argument, in order.
SmallVector<Value> emitCall(OpBuilder &b, Location loc, Operation *anchor,
                            StringRef name, ArrayRef<Argument> args);

/// The arguments of the runtime call `name` as CodegenCalls.def declares
/// them, one character each: 'm' a memref, 'i' an i64, 'f' an f64; nullopt
/// for a name it does not declare.
std::optional<StringRef> declaredSignature(StringRef name);

/// Checks every tp_rt.call in `root` against CodegenCalls.def: a callee it
/// does not declare, or arguments of other kinds or number than it
/// declares, is an internal error of the conversion, reported at the call.
LogicalResult verifyDeclaredCalls(Operation *root);

} // namespace runtime_call
} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_CONVERSION_TPTORUNTIME_RUNTIMECALL_H
