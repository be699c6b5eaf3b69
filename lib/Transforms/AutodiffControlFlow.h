//===- AutodiffControlFlow.h - Control flow for tp-autodiff -----*- C++ -*-===//
//
// What tp-autodiff does to a gradient function's control flow besides
// differentiating scf.if (Autodiff.cpp): calls are inlined, scf.for loops
// with constant trip counts unrolled and composite ops decomposed before
// the backward is built (the saved activations are then each call's and
// each iteration's own values), and afterwards forward values that backward ops
// read from inside a region (a tp.autocast body, an scf.if branch) are yielded
// out of it. Private to tp-autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_TRANSFORMS_AUTODIFFCONTROLFLOW_H
#define TENSORPLAY_LIB_TRANSFORMS_AUTODIFFCONTROLFLOW_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace tp {

/// Inlines every call of `func` (to functions with a body, recursively),
/// fully unrolls every scf.for with constant bounds and decomposes the
/// composite ops (attention, product chains, conv_tbc, rnn_cell) into the
/// tp ops they are made of. Fails with a
/// diagnostic at a call of a function without a body, at a recursive call
/// and at a loop whose trip count is not a constant.
LogicalResult flattenForAutodiff(func::FuncOp func, SymbolTable &symbols);

/// Makes every value of `func` that is used where it is not visible (a
/// value defined in a tp.autocast body or an scf.if branch, read by a
/// backward op after the region) a result of the region op that defines
/// it: the region yields it (an scf.if's other branch yields zeros, which
/// only the other branch's backward could read, and it does not).
LogicalResult exposeEscapingValues(func::FuncOp func);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_TRANSFORMS_AUTODIFFCONTROLFLOW_H
