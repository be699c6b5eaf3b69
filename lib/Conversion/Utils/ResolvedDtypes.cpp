//===- ResolvedDtypes.cpp - What the lowerings refuse before autocast -----===//

#include "tensorplay/Conversion/Utils/ResolvedDtypes.h"

#include "tensorplay/Dialect/TP/IR/DtypeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

LogicalResult mlir::tp::verifyResolvedDtypes(Operation *root,
                                            StringRef consumer) {
  bool failed = false;
  root->walk([&](ComputeOpInterface op) {
    if (!op.hasMixedFloatingOperands())
      return;
    InFlightDiagnostic diag = op->emitOpError("has operands of dtypes ");
    llvm::SetVector<Type> dtypes;
    for (Value v : op.getComputeOperands())
      if (auto t = dyn_cast<RankedTensorType>(v.getType()))
        if (isFloatingOrComplex(t.getElementType()))
          dtypes.insert(t.getElementType());
    llvm::interleave(
        dtypes, diag, [&](Type t) { diag << t; }, " and ");
    diag << ", which only autocast resolves: run tp-autocast "
            "(--autocast=<device>[:<dtype>]) before "
         << consumer << ", or cast them to one dtype";
    failed = true;
  });
  return failure(failed);
}
