//===- TPDialect.cpp - The tp dialect -------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Dialect/TP/IR/TPFunctionAttrs.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include "tensorplay/Dialect/TP/IR/TPDialect.cpp.inc"
#include "tensorplay/Dialect/TP/IR/TPEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "tensorplay/Dialect/TP/IR/TPAttrs.cpp.inc"
#include "tensorplay/Dialect/TP/IR/TPInterfaces.cpp.inc"

void TPDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tensorplay/Dialect/TP/IR/TPAttrs.cpp.inc"
      >();
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
      ,
#define GET_OP_LIST
#include "tensorplay/Dialect/TP/IR/TPTrainingOps.cpp.inc"
      >();
}

Operation *TPDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

/// One autocast state, {enabled, cache_enabled, dtype}: the flags are
/// booleans and an enabled state names f16 or bf16.
static bool isAutocastState(DictionaryAttr state) {
  auto enabled = state.getAs<BoolAttr>("enabled");
  if (!enabled || !state.getAs<BoolAttr>("cache_enabled"))
    return false;
  Attribute dtype = state.get("dtype");
  if (!dtype)
    return !enabled.getValue();
  auto type = dyn_cast<TypeAttr>(dtype);
  return type && (type.getValue().isF16() || type.getValue().isBF16());
}

/// tp.autocast_state: the function's own state (with its device_type) and
/// one nested state per other device that differs.
static bool isAutocastContext(DictionaryAttr context) {
  if (!isAutocastState(context))
    return false;
  for (NamedAttribute entry : context) {
    StringRef key = entry.getName().getValue();
    if (key == "enabled" || key == "cache_enabled" || key == "dtype")
      continue;
    if (key == "device_type") {
      auto device = dyn_cast<StringAttr>(entry.getValue());
      if (!device || !symbolizeDeviceType(device.getValue()))
        return false;
      continue;
    }
    auto nested = dyn_cast<DictionaryAttr>(entry.getValue());
    if (!symbolizeDeviceType(key) || !nested || !isAutocastState(nested))
      return false;
  }
  return true;
}

LogicalResult TPDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == kDeviceAttrName) {
    if (!isa<FunctionOpInterface>(op))
      return op->emitError("tp.device belongs on a function");
    auto device = dyn_cast<StringAttr>(attribute.getValue());
    if (!device)
      return op->emitError("tp.device must be a string: cuda, xpu or cpu");
    if (!symbolizeDeviceType(device.getValue()))
      return op->emitError("unknown tp.device '")
             << device.getValue() << "': expected one of cuda, xpu, cpu";
    return success();
  }
  if (name == kAutocastStateAttrName) {
    if (!isa<FunctionOpInterface>(op))
      return op->emitError("tp.autocast_state belongs on a function");
    auto context = dyn_cast<DictionaryAttr>(attribute.getValue());
    if (!context)
      return op->emitError("malformed tp.autocast_state attribute: expected "
                           "a dictionary");
    if (!isAutocastContext(context))
      return op->emitError("malformed tp.autocast_state attribute ")
             << context
             << ": expected {device_type, enabled, cache_enabled, dtype = "
                "f16 or bf16 when enabled} and per-device states";
    return success();
  }
  // The function attributes passes leave for later passes and tools.
  if (std::optional<LogicalResult> checked =
          verifyFunctionAttribute(op, attribute))
    return *checked;
  // The codegen passes' markers (tp.parallel_body, tp.vectorize, ...) are
  // theirs to check.
  return success();
}
