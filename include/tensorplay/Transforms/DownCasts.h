//===- DownCasts.h - The bf16/f16 casts of an f32 value ---------*- C++ -*-===//
//
// What tp-train-step's param-copies and tp-cast-arguments share: finding the
// casts that convert an f32 tensor to one half-precision type.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TRANSFORMS_DOWNCASTS_H
#define TENSORPLAY_TRANSFORMS_DOWNCASTS_H

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace tp {

/// The one bf16 or f16 tensor type that the tp.casts among the users of the
/// f32 tensor `value` convert it to, with those casts appended to `casts`;
/// null (and `casts` unchanged) when `value` is not f32, has no such cast
/// or has casts to two types.
Type collectDownCasts(Value value, llvm::SmallVectorImpl<CastOp> &casts);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_DOWNCASTS_H
