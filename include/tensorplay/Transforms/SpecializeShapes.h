//===- SpecializeShapes.h - Dynamic dimensions given sizes -----*- C++ -*-===//
//
// The C++ form of tp-specialize-shapes (Passes.td): a function with `?`
// argument dimensions made static for given sizes, every op's result types
// inferred again.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TRANSFORMS_SPECIALIZESHAPES_H
#define TENSORPLAY_TRANSFORMS_SPECIALIZESHAPES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace tp {

/// Whether some argument of `fn` has a dynamic dimension.
bool hasDynamicArguments(func::FuncOp fn);

/// Gives `fn`'s arguments the types `arguments` (each the declared type
/// with its `?` dimensions given sizes) and infers every op's result types
/// again, then `fn`'s result types. Errors (an argument type that does not
/// refine the declared one, an op whose shape rules refuse the new shapes)
/// are emitted at the function or the op; `fn` is then left partly
/// retyped.
LogicalResult specializeShapes(func::FuncOp fn, ArrayRef<Type> arguments);

/// The declared argument types of `fn` with their `?` dimensions given
/// `sizes` in order (one size: every `?`); an error at `fn` when the count
/// does not match.
FailureOr<SmallVector<Type>> argumentTypesWithSizes(func::FuncOp fn,
                                                    ArrayRef<int64_t> sizes);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_SPECIALIZESHAPES_H
