//===- TPDialect.cpp - The tp dialect -------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

#include "tensorplay/Dialect/TP/IR/TPDialect.cpp.inc"
#include "tensorplay/Dialect/TP/IR/TPInterfaces.cpp.inc"

void TPDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPCoreOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPElementwiseOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPMatmulOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPConvOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPRecurrentOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPReductionOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPLossOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPShapeOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPLinalgOps.cpp.inc"
      >();
}

Operation *TPDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
