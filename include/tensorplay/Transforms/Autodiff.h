//===- Autodiff.h - Reverse mode on tp IR as a library ----------*- C++ -*-===//
//
// What tp-autodiff does for one function, for the passes that build on it
// (tp-train-step): build the gradient function of a loss function.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TRANSFORMS_AUTODIFF_H
#define TENSORPLAY_TRANSFORMS_AUTODIFF_H

#include "tensorplay/Dialect/TP/IR/TPFunctionAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace tp {

// kGradientOfAttrName (TPFunctionAttrs.h) links a gradient function to its
// forward function: {function = @f, wrt = array<i64: ...>}. tp-autocast
// builds a linked function again from the autocast forward function, so
// that its backward ops take their forward ops' decisions
// (AutocastGradients.h).

/// True when the first result of `func` is a 0-d floating tensor (a loss).
bool returnsLoss(func::FuncOp func);

/// True for a ranked tensor of a floating element type.
bool isFloatTensor(Type type);

/// Adds a public function @`name` after `func`: `func`'s arguments,
/// returning `func`'s results followed by the gradient of its first result
/// (the loss) with respect to each argument in `wrt` (indices), each in that
/// argument's type. Errors (reported at `func` or at the op concerned):
/// `func` returns no loss, has control flow between blocks, an index is out
/// of range or not a floating tensor, @`name` exists, an op has no backward
/// rule. `numBackwardOps`, when given, receives the backward ops built. The
/// function carries the kGradientOfAttrName link to `func`.
FailureOr<func::FuncOp>
buildGradientFunction(func::FuncOp func, ArrayRef<unsigned> wrt, StringRef name,
                      SymbolTable &symbols, unsigned *numBackwardOps = nullptr);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_AUTODIFF_H
