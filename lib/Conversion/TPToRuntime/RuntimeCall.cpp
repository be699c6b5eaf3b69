//===- RuntimeCall.cpp - Building calls of the tp_rt_* ABI ----------------===//
//
// See RuntimeCall.h. A call is a tp_rt.call on tensors: bufferization sees
// which tensors it reads and which it writes, and turns it into a
// func.call on unranked memrefs (each a (rank, descriptor pointer) pair,
// the layout Codegen.h documents) with the views as strided memrefs.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/Utils/LoweringUtils.h"

#include "tensorplay/Dialect/TPRuntime/IR/TPRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringMap.h"

#include <string>

using namespace mlir;
using namespace mlir::tp;
namespace rc = mlir::tp::runtime_call;

StringRef rc::dtypeSuffix(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isBF16())
    return "bf16";
  return "";
}

rc::Argument rc::input(Value value, ArrayRef<int64_t> view) {
  return {value, SmallVector<int64_t>(view), /*output=*/false};
}

rc::Argument rc::output(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                        Type elementType, ArrayRef<int64_t> view) {
  Value init = tensor::EmptyOp::create(b, loc, shape, elementType);
  return {init, SmallVector<int64_t>(view), /*output=*/true};
}

rc::Argument rc::update(Value value) {
  return {value, {}, /*output=*/true, /*updated=*/true};
}

Value rc::emptyTensor(OpBuilder &b, Location loc, Type elementType) {
  return tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{0}, elementType);
}

rc::Argument rc::transposeLast2(Argument arg) {
  int64_t rank = cast<RankedTensorType>(arg.value.getType()).getRank();
  if (arg.view.empty())
    for (int64_t d = 0; d < rank; ++d)
      arg.view.push_back(d);
  std::swap(arg.view[rank - 1], arg.view[rank - 2]);
  return arg;
}

SmallVector<Value> rc::emitCall(OpBuilder &b, Location loc, Operation *anchor,
                                StringRef name, ArrayRef<Argument> args) {
  SmallVector<Value> inputs, outputs;
  SmallVector<Type> resultTypes;
  SmallVector<int64_t> positions, updates;
  SmallVector<Attribute> views;
  bool anyView = false;
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (arg.output) {
      if (arg.updated)
        updates.push_back(outputs.size());
      outputs.push_back(arg.value);
      resultTypes.push_back(arg.value.getType());
      positions.push_back(i);
    } else {
      inputs.push_back(arg.value);
    }
    views.push_back(b.getDenseI64ArrayAttr(arg.view));
    anyView |= !arg.view.empty();
  }
  auto call = rt::CallOp::create(
      b, loc, resultTypes, FlatSymbolRefAttr::get(b.getContext(), name), inputs,
      outputs, b.getDenseI64ArrayAttr(positions),
      updates.empty() ? DenseI64ArrayAttr() : b.getDenseI64ArrayAttr(updates),
      anyView ? b.getArrayAttr(views) : ArrayAttr());
  lowering::declareExternalFunction(b, anchor, name, call.getCalleeType());
  return SmallVector<Value>(call.getResults());
}

std::optional<StringRef> rc::declaredSignature(StringRef name) {
  static const llvm::StringMap<std::string> declared = {
#define TP_RT_MEMREF(name) 'm'
#define TP_RT_I64(name) 'i'
#define TP_RT_F64(name) 'f'
#define TP_RT_KINDS(...) std::string{__VA_ARGS__}
#define TP_RT_CALL(NAME, ARGS) {#NAME, TP_RT_KINDS ARGS},
#include "tensorplay/Runtime/CodegenCalls.def"
#undef TP_RT_KINDS
  };
  auto it = declared.find(name);
  if (it == declared.end())
    return std::nullopt;
  return StringRef(it->second);
}

/// The kinds of `signature` in words: "memref, i64, f64".
static std::string describeKinds(StringRef signature) {
  std::string words;
  for (char kind : signature) {
    if (!words.empty())
      words += ", ";
    words += kind == 'm' ? "memref" : kind == 'i' ? "i64" : "f64";
  }
  return words;
}

LogicalResult rc::verifyDeclaredCalls(Operation *root) {
  WalkResult result = root->walk([](rt::CallOp call) {
    StringRef name = call.getCallee();
    std::optional<StringRef> declared = declaredSignature(name);
    if (!declared) {
      call.emitOpError("internal error: the runtime declares no @")
          << name << " (CodegenCalls.def)";
      return WalkResult::interrupt();
    }
    std::string passed;
    for (Type type : call.getCalleeType().getInputs())
      passed += isa<ShapedType>(type) ? 'm'
                : type.isInteger(64)  ? 'i'
                : type.isF64()        ? 'f'
                                      : '?';
    if (passed != *declared) {
      call.emitOpError("internal error: @")
          << name << " takes (" << describeKinds(*declared)
          << ") in CodegenCalls.def, the call passes (" << describeKinds(passed)
          << ")";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
