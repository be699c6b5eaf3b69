//===- TPDialect.h - The tp dialect -----------------------------*- C++ -*-===//
//
// The tp dialect: tensorplay programs on builtin ranked tensors.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPDIALECT_H
#define TENSORPLAY_DIALECT_TP_IR_TPDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "tensorplay/Dialect/TP/IR/TPDialect.h.inc"
#include "tensorplay/Dialect/TP/IR/TPEnums.h"

#define GET_ATTRDEF_CLASSES
#include "tensorplay/Dialect/TP/IR/TPAttrs.h.inc"

#endif // TENSORPLAY_DIALECT_TP_IR_TPDIALECT_H
