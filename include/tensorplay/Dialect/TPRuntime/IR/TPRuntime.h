//===- TPRuntime.h - The tp_rt dialect --------------------------*- C++ -*-===//
//
// tp_rt: calls of the runtime's C ABI on tensors (TPRuntimeOps.td), and the
// bufferization that turns them into func.call on memrefs.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TPRUNTIME_IR_TPRUNTIME_H
#define TENSORPLAY_DIALECT_TPRUNTIME_IR_TPRUNTIME_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tensorplay/Dialect/TPRuntime/IR/TPRuntimeDialect.h.inc"

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TPRuntime/IR/TPRuntimeOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace tp::rt {

/// The type a call argument of type `type` has in the callee: a tensor's
/// unranked memref, a scalar itself.
Type calleeArgumentType(Type type);

/// Registers the BufferizableOpInterface of tp_rt.call.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace tp::rt
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TPRUNTIME_IR_TPRUNTIME_H
