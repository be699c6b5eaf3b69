//===- TPOps.h - tp dialect ops ---------------------------------*- C++ -*-===//
//
// Declarations of every tp op, generated from the family .td files.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPOPS_H
#define TENSORPLAY_DIALECT_TP_IR_TPOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tensorplay/Dialect/TP/IR/DtypeRules.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Dialect/TP/IR/TPInterfaces.h.inc"

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPCoreOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPElementwiseOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPMatmulOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPConvOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPRecurrentOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPReductionOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPLossOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPShapeOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPLinalgOps.h.inc"
#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPTrainingOps.h.inc"

namespace mlir {
namespace tp {
/// A plain sum lhs + rhs: alpha 1, not in place, no out=, both operands of
/// the result's type (no broadcasting or promotion). The rewrites of sums
/// (joined slice gradients, products accumulated into a tensor) match it.
inline bool isPlainSum(AddOp add) {
  Type type = add.getType();
  return add.getAlpha().convertToDouble() == 1.0 &&
         !cast<ComputeOpInterface>(add.getOperation()).isInplaceOrOut() &&
         add.getLhs().getType() == type && add.getRhs().getType() == type;
}
} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_IR_TPOPS_H
