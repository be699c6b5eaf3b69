//===- TPRuntimeDialect.cpp - The tp_rt dialect ---------------------------===//
//
// The dialect, tp_rt.call's verifier and accessors (TPRuntimeOps.td).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TPRuntime/IR/TPRuntime.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tp::rt;

#include "tensorplay/Dialect/TPRuntime/IR/TPRuntimeDialect.cpp.inc"

void TPRuntimeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tensorplay/Dialect/TPRuntime/IR/TPRuntimeOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TPRuntime/IR/TPRuntimeOps.cpp.inc"

Type tp::rt::calleeArgumentType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return UnrankedMemRefType::get(tensor.getElementType(), Attribute());
  return type;
}

SmallVector<Value> CallOp::getCallArguments() {
  size_t count = getInputs().size() + getOutputs().size();
  SmallVector<Value> args(count);
  for (auto [position, output] :
       llvm::zip_equal(getOutputPositions(), getOutputs()))
    args[position] = output;
  auto input = getInputs().begin();
  for (Value &arg : args)
    if (!arg)
      arg = *input++;
  return args;
}

ArrayRef<int64_t> CallOp::getView(unsigned i) {
  if (!getViews())
    return {};
  return cast<DenseI64ArrayAttr>((*getViews())[i]).asArrayRef();
}

FunctionType CallOp::getCalleeType() {
  SmallVector<Type> types;
  for (Value arg : getCallArguments())
    types.push_back(calleeArgumentType(arg.getType()));
  return FunctionType::get(getContext(), types,
                           {IntegerType::get(getContext(), 32)});
}

LogicalResult CallOp::verify() {
  size_t count = getInputs().size() + getOutputs().size();
  ArrayRef<int64_t> positions = getOutputPositions();
  if (positions.size() != getOutputs().size())
    return emitOpError("expected one output position per output, got ")
           << positions.size() << " for " << getOutputs().size();
  SmallVector<bool> taken(count, false);
  for (int64_t p : positions) {
    if (p < 0 || p >= (int64_t)count)
      return emitOpError("output position ")
             << p << " is not an argument index (0 to " << count - 1 << ")";
    if (taken[p])
      return emitOpError("output position ") << p << " appears twice";
    taken[p] = true;
  }
  if (std::optional<ArrayRef<int64_t>> updates = getUpdates()) {
    SmallVector<bool> updated(getOutputs().size(), false);
    for (int64_t u : *updates) {
      if (u < 0 || u >= (int64_t)getOutputs().size())
        return emitOpError("updated output ")
               << u << " is not an output index (0 to "
               << (int64_t)getOutputs().size() - 1 << ")";
      if (updated[u])
        return emitOpError("updated output ") << u << " appears twice";
      updated[u] = true;
    }
  }
  if (!getViews())
    return success();
  if (getViews()->size() != count)
    return emitOpError("expected one view per argument (")
           << count << "), got " << getViews()->size();
  for (auto [i, arg] : llvm::enumerate(getCallArguments())) {
    ArrayRef<int64_t> view = getView(i);
    if (view.empty())
      continue;
    auto tensor = dyn_cast<RankedTensorType>(arg.getType());
    if (!tensor)
      return emitOpError("argument #") << i << " is a scalar and has no view";
    SmallVector<bool> seen(tensor.getRank(), false);
    bool valid = (int64_t)view.size() == tensor.getRank();
    for (int64_t d : view) {
      valid = valid && d >= 0 && d < tensor.getRank() && !seen[d];
      if (valid)
        seen[d] = true;
    }
    if (!valid)
      return emitOpError("view of argument #")
             << i << " is not a permutation of its " << tensor.getRank()
             << " dimensions";
  }
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError("callee @")
           << getCallee() << " is not a func.func declaration";
  if (fn.getFunctionType() != getCalleeType())
    return emitOpError("callee @")
           << getCallee() << " has type " << fn.getFunctionType()
           << ", the call needs " << getCalleeType();
  return success();
}
