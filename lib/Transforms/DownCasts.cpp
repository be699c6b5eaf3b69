//===- DownCasts.cpp - The bf16/f16 casts of an f32 value -----------------===//

#include "tensorplay/Transforms/DownCasts.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tp;

Type mlir::tp::collectDownCasts(Value value,
                                llvm::SmallVectorImpl<CastOp> &casts) {
  if (!getElementTypeOrSelf(value.getType()).isF32())
    return {};
  SmallVector<CastOp> found;
  Type castType;
  for (Operation *user : value.getUsers()) {
    auto cast = dyn_cast<CastOp>(user);
    if (!cast)
      continue;
    Type to = cast.getType();
    Type elem = getElementTypeOrSelf(to);
    if (!elem.isBF16() && !elem.isF16())
      continue;
    if (castType && to != castType)
      return {}; // cast to two types: no one copy serves both
    castType = to;
    found.push_back(cast);
  }
  if (found.empty())
    return {};
  casts.append(found.begin(), found.end());
  return castType;
}
