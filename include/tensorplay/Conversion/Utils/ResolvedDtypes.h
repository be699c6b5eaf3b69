//===- ResolvedDtypes.h - What the lowerings refuse before autocast -*- C++ -*-===//
//
// A tp op whose rule wants one floating dtype may hold several (a program
// captured under eager autocast, before tp-autocast resolved it; see
// tp::hasMixedFloatingOperands). The lowerings out of tp cannot compile
// such an op: they refuse it with one error per op.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CONVERSION_UTILS_RESOLVEDDTYPES_H
#define TENSORPLAY_CONVERSION_UTILS_RESOLVEDDTYPES_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace tp {

/// Emits an error at every tp op under `root` whose operands still have
/// mixed floating dtypes where its rule wants one, naming `consumer` (the
/// pass or pipeline that cannot compile it). Fails when there is one.
LogicalResult verifyResolvedDtypes(Operation *root, StringRef consumer);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CONVERSION_UTILS_RESOLVEDDTYPES_H
