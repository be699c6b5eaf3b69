//===- TPEnums.h - The tp dialect's enums -----------------------*- C++ -*-===//
//
// DeviceType, Reduction and GeluApproximation (TPBase.td), with their
// stringify / symbolize functions; usable without the dialect's ops.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPENUMS_H
#define TENSORPLAY_DIALECT_TP_IR_TPENUMS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

#include "tensorplay/Dialect/TP/IR/TPEnums.h.inc"

#endif // TENSORPLAY_DIALECT_TP_IR_TPENUMS_H
