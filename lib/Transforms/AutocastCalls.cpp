//===- AutocastCalls.cpp - Autocast of functions and calls ---------------===//
//
// The AutocastRewriter's handling of functions (FunctionOpInterface: the
// body, the returns, the result types) and calls (CallOpInterface: the
// callee run in the call site's context, or specialized for it).
//
//===----------------------------------------------------------------------===//

#include "AutocastRewriter.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tp;

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

LogicalResult AutocastRewriter::processEntry(FunctionOpInterface func) {
  if (done.contains(func) || inProgress.contains(func) || func.isExternal())
    return success();
  return processFunction(func, getFunctionAutocastContext(func, options));
}

/// The terminators of `func`'s body that return from it: those with no
/// successors that pass one value per result (func.return and gpu.return;
/// not llvm.unreachable).
static SmallVector<Operation *> getReturns(FunctionOpInterface func) {
  SmallVector<Operation *> returns;
  for (Block &block : func.getFunctionBody()) {
    if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>())
      continue;
    Operation &terminator = block.back();
    if (terminator.getNumSuccessors() == 0 &&
        terminator.getNumOperands() == func.getNumResults())
      returns.push_back(&terminator);
  }
  return returns;
}

LogicalResult
AutocastRewriter::processFunction(FunctionOpInterface func,
                                  const AutocastContext &context) {
  inProgress.insert(func);
  for (Operation *ret : getReturns(func))
    handledExits.insert(ret);
  LogicalResult result = processRegion(func.getFunctionBody(), context, func);
  bool keepIo = (keepIoTypes && !specializedFrom.count(func)) ||
                forceKeepIo.contains(func);
  if (succeeded(result))
    result = finishFunction(func, keepIo);
  inProgress.erase(func);
  done.insert(func);
  return result;
}

LogicalResult AutocastRewriter::finishFunction(FunctionOpInterface func,
                                               bool keepIo) {
  SmallVector<Operation *> returns = getReturns(func);
  ArrayRef<Type> declared = func.getResultTypes();
  SmallVector<Type> results(declared);
  if (!keepIo) {
    // The results take the new types; several returns meet at the widest.
    for (auto [index, declaredType] : llvm::enumerate(declared)) {
      Type joined;
      for (Operation *ret : returns) {
        Type t = ret->getOperand(index).getType();
        joined = joined ? join(joined, t) : t;
        if (!joined)
          return ret->emitOpError("returned values of result #")
                 << index << " disagree in more than their dtype";
      }
      if (joined)
        results[index] = joined;
    }
  }
  for (Operation *ret : returns)
    for (auto [index, type] : llvm::enumerate(results))
      if (ret->getOperand(index).getType() != type)
        castOperandTo(ret->getOpOperand(index),
                      cast<ShapedType>(type).getElementType(), func,
                      /*shared=*/true);
  func.setType(func.cloneTypeWith(func.getArgumentTypes(), results));
  return success();
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

/// retargeted to a specialization beside the original).
static SymbolRefAttr withLeaf(SymbolRefAttr ref, StringRef name) {
  auto leaf = FlatSymbolRefAttr::get(ref.getContext(), name);
  if (ref.getNestedReferences().empty())
    return leaf;
  SmallVector<FlatSymbolRefAttr> nested(ref.getNestedReferences());
  nested.back() = leaf;
  return SymbolRefAttr::get(ref.getRootReference(), nested);
}

LogicalResult AutocastRewriter::processCall(CallOpInterface call,
                                            const AutocastContext &context,
                                            Operation *scope) {
  auto callee = dyn_cast_or_null<FunctionOpInterface>(
      call.resolveCallableInTable(&symbolTables));
  auto calleeRef = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
  if (!callee || callee.isExternal() || !calleeRef) {
    conformOperands(call, scope);
    return success();
  }
  // Operands that are not arguments keep their original types.
  MutableOperandRange args = call.getArgOperandsMutable();
  DenseSet<OpOperand *> argOperands;
  for (OpOperand &operand : args)
    argOperands.insert(&operand);
  for (OpOperand &operand : call->getOpOperands())
    if (!argOperands.contains(&operand))
      conformOperand(operand, scope);

  // The original function a specialization was made from.
  Operation *original = callee;
  if (auto it = specializedFrom.find(callee); it != specializedFrom.end())
    original = it->second;
  auto origFunc = cast<FunctionOpInterface>(original);

  // The callee runs on its own device (tp.device, or the one recorded on a
  // specialization); a callee of no device runs on the caller's. It sees
  // the autocast state of that device at the call site: a cpu function
  // called from cuda code is untouched by the cuda state (eager semantics).
  AutocastContext entry = getFunctionAutocastContext(origFunc, options);
  std::optional<Device> device = getDeclaredDevice(origFunc);
  if (!device && origFunc->hasAttr(kAutocastStateAttrName))
    device = entry.getDevice();
  if (!device)
    device = context.getDevice();
  AutocastContext callContext = context.on(device);

  SmallVector<Type> argTypes(call.getArgOperands().getTypes());
  if (argTypes.size() != origFunc.getNumArguments())
    return call->emitOpError("passes ")
           << argTypes.size() << " arguments to a function of "
           << origFunc.getNumArguments();
  std::vector<const void *> argKey;
  for (Type t : argTypes)
    argKey.push_back(t.getAsOpaquePointer());
  auto key = std::make_tuple(original, callContext.key(), argKey);

  FunctionOpInterface target;
  if (auto it = specializations.find(key); it != specializations.end()) {
    target = it->second;
  } else if (callContext == entry &&
             TypeRange(argTypes) == origFunc.getArgumentTypes()) {
    // The call site's context is the function's own: call it as it is.
    target = origFunc;
    if (failed(processEntry(origFunc)))
      return failure();
  } else {
    // Specialize a pristine copy of the callee for this context and these
    // argument types.
    FunctionOpInterface source = pristine.lookup(original);
    if (!source)
      return call->emitOpError("internal error: no pristine copy of callee");
    target = cast<FunctionOpInterface>(source->clone());
    SymbolTable::setSymbolVisibility(target, SymbolTable::Visibility::Private);
    SymbolTable::setSymbolName(target, (origFunc.getName() + "_autocast_" +
                                        callContext.current().tag())
                                           .str());
    symbolTables.getSymbolTable(origFunc->getParentOp())
        .insert(target, std::next(Block::iterator(origFunc)));
    setFunctionAutocastContext(target, callContext, options);
    specializations[key] = target;
    specializedFrom[target] = original;
    for (auto [arg, type] : llvm::zip(target.getArguments(), argTypes))
      retype(arg, type);
    target.setType(target.cloneTypeWith(argTypes, target.getResultTypes()));
    if (failed(processFunction(target, callContext)))
      return failure();
  }
  if (inProgress.contains(target)) {
    // Recursion: the callee keeps its signature; the call conforms to it.
    forceKeepIo.insert(target);
    for (auto [operand, type] : llvm::zip(args, target.getArgumentTypes()))
      if (operand.get().getType() != type)
        castOperandTo(operand, cast<ShapedType>(type).getElementType(), scope,
                      /*shared=*/true);
  }
  call.setCalleeFromCallable(withLeaf(calleeRef, target.getName()));
  for (auto [result, type] :
       llvm::zip(call->getResults(), target.getResultTypes()))
    retype(result, type);
  return success();
}
