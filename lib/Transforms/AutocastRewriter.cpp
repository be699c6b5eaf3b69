//===- AutocastRewriter.cpp - Applies autocast decisions to a module ------===//
//
// The rewrite is done in place and in program order (blocks in dominance
// order): when an op's operands are cast or its results retyped, the ops
// after it see the new types when they are reached. Every step "conforms" an op
// to the current types, so processing an op twice changes nothing more; loops
// are processed until their carried types are stable (types only widen, so this
// terminates). Control flow is in AutocastControlFlow.cpp, functions and
// calls in AutocastCalls.cpp.
//
//===----------------------------------------------------------------------===//

#include "AutocastRewriter.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tp;

AutocastRewriter::AutocastRewriter(ModuleOp module,
                                   const AutocastOptions &options,
                                   ArrayRef<AutocastPolicy> policies,
                                   StringRef policyFile, bool keepIoTypes,
                                   bool record, AutocastResult &result)
    : module(module), options(options), policies(policies),
      policyFile(policyFile.str()), keepIoTypes(keepIoTypes), record(record),
      result(result) {}

AutocastRewriter::~AutocastRewriter() {
  for (auto &entry : pristine)
    entry.second->erase();
}

//===----------------------------------------------------------------------===//
// Types and casts
//===----------------------------------------------------------------------===//

void AutocastRewriter::retype(Value value, Type type) {
  if (value.getType() == type)
    return;
  originalTypes.try_emplace(value, value.getType());
  value.setType(type);
}

Type AutocastRewriter::join(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb || ta.getShape() != tb.getShape())
    return {};
  Type ea = ta.getElementType(), eb = tb.getElementType();
  if (!isa<FloatType>(ea) || !isa<FloatType>(eb))
    return {};
  return ta.clone(widestFloatType(ea, eb));
}

Value AutocastRewriter::getCast(Value value, Type elementType, Operation *scope,
                                Operation *user, bool shared) {
  // A cast this pass made that became an identity (its input widened when
  // a loop was processed again) is looked through.
  if (auto def = value.getDefiningOp<CastOp>();
      def && createdCasts.contains(def) &&
      def.getInput().getType() == def.getType())
    value = def.getInput();
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == elementType)
    return value;
  // cast(cast(x : A -> B) : B -> A) is x when A -> B is lossless.
  if (auto def = value.getDefiningOp<CastOp>()) {
    Value source = def.getInput();
    if (elementTypeOf(source) == elementType &&
        isLosslessConversion(elementType, type.getElementType())) {
      if (!createdCasts.contains(def))
        bypassedCasts.insert(def);
      return source;
    }
  }
  auto key =
      std::make_tuple(value, elementType, scope, shared ? nullptr : user);
  auto it = castCache.find(key);
  if (it != castCache.end())
    return it->second;

  OpBuilder builder(value.getContext());
  Operation *def = value.getDefiningOp();
  bool definedInScope = isa<FunctionOpInterface>(scope) ||
                        scope->isProperAncestor(
                            def ? def : value.getParentBlock()->getParentOp());
  if (!shared) {
    builder.setInsertionPoint(user);
  } else if (!definedInScope) {
    // The value enters the region: cast once at the region's entry.
    builder.setInsertionPointToStart(&scope->getRegion(0).front());
  } else if (def) {
    builder.setInsertionPointAfter(def);
  } else {
    builder.setInsertionPointToStart(value.getParentBlock());
  }
  auto castOp =
      CastOp::create(builder, value.getLoc(), type.clone(elementType), value);
  createdCasts.insert(castOp);
  castCache[key] = castOp.getResult();
  return castOp.getResult();
}

bool AutocastRewriter::castOperandTo(OpOperand &operand, Type elementType,
                                     Operation *scope, bool shared) {
  Value cast =
      getCast(operand.get(), elementType, scope, operand.getOwner(), shared);
  if (cast != operand.get())
    operand.set(cast);
  Operation *def = cast.getDefiningOp();
  return def && createdCasts.contains(def);
}

void AutocastRewriter::conformOperand(OpOperand &operand, Operation *scope) {
  auto it = originalTypes.find(operand.get());
  if (it == originalTypes.end() || it->second == operand.get().getType())
    return;
  castOperandTo(operand, cast<ShapedType>(it->second).getElementType(), scope,
                /*shared=*/true);
}

void AutocastRewriter::conformOperands(Operation *op, Operation *scope) {
  for (OpOperand &operand : op->getOpOperands())
    conformOperand(operand, scope);
}

void AutocastRewriter::joinInto(Value target, ArrayRef<OpOperand *> incoming,
                                Operation *scope, bool shared) {
  Type joined;
  for (OpOperand *operand : incoming) {
    Type t = operand->get().getType();
    joined = joined ? join(joined, t) : t;
    if (!joined)
      break;
  }
  if (!joined)
    joined = target.getType();
  castIncoming(incoming, joined, scope, shared);
  retype(target, joined);
}

void AutocastRewriter::castIncoming(ArrayRef<OpOperand *> incoming, Type type,
                                    Operation *scope, bool shared) {
  Type elementType = cast<ShapedType>(type).getElementType();
  for (OpOperand *operand : incoming)
    if (operand->get().getType() != type)
      castOperandTo(*operand, elementType, scope, shared);
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult AutocastRewriter::processOp(Operation *op,
                                          const AutocastContext &context,
                                          Operation *scope) {
  if (isa<ComputeOpInterface>(op))
    return processCompute(op, context, scope);
  if (isa<AutocastOp>(op))
    return processRegionOp(op, context, scope);
  if (auto custom = dyn_cast<CustomFunctionOp>(op))
    return processCustomFunction(custom, context, scope);
  if (isa<CastOp, ConstantOp>(op)) {
    recordUntouched(op, context);
    return success();
  }
  if (handledExits.contains(op))
    return success();
  if (auto call = dyn_cast<CallOpInterface>(op))
    return processCall(call, context, scope);
  if (auto branch = dyn_cast<RegionBranchOpInterface>(op))
    return processRegionBranch(branch, context, scope);
  if (isa<BranchOpInterface>(op) && op->getNumRegions() == 0)
    return processBranch(op, scope);
  return processOpaque(op, context, scope);
}

LogicalResult AutocastRewriter::processOpaque(Operation *op,
                                              const AutocastContext &context,
                                              Operation *scope) {
  // The op cannot follow a dtype change: it gets its original types. Its
  // regions' terminators are processed as ops of their own (processOp), so
  // they too give back the original types.
  conformOperands(op, scope);
  for (Region &region : op->getRegions())
    if (failed(processRegion(region, context, scope)))
      return failure();
  return success();
}

LogicalResult AutocastRewriter::reinferResults(Operation *op) {
  auto compute = cast<ComputeOpInterface>(op);
  SmallVector<Type> elementTypes;
  // The operand rule holds for every form (an out= mm of bf16 and f32 fails
  // in eager mode too); in-place and out= results then follow the
  // destination.
  if (failed(compute.inferResultElementTypes(elementTypes, /*emit=*/false))) {
    InFlightDiagnostic diag =
        op->emitOpError("operands have incompatible dtypes after autocast: ");
    llvm::interleaveComma(compute.getComputeOperands(), diag,
                          [&](Value v) { diag << elementTypeOf(v); });
    if (compute.isInplaceOrOut())
      diag.attachNote() << "in-place and out= forms are not autocast, and "
                           "this op requires matching dtypes (eager "
                           "autocast fails here too); cast its operands "
                           "explicitly with tp.cast or use the plain form";
    else
      diag.attachNote() << "this op is not on a cast list of the active "
                           "policy and requires matching dtypes (eager "
                           "autocast fails here too); cast explicitly with "
                           "tp.cast or add the op to a list with "
                           "--autocast-policy";
    return diag;
  }
  if (compute.isInplace()) {
    elementTypes.assign(1, elementTypeOf(compute.getComputeOperands()[0]));
  } else if (compute.isInplaceOrOut()) {
    elementTypes.clear();
    for (Value out :
         op->getOperands().drop_front(compute.getComputeOperands().size()))
      elementTypes.push_back(elementTypeOf(out));
  }
  for (auto [result, elementType] : llvm::zip(op->getResults(), elementTypes)) {
    auto type = cast<RankedTensorType>(result.getType());
    if (type.getElementType() != elementType)
      retype(result, type.clone(elementType));
  }
  return success();
}

LogicalResult AutocastRewriter::processCompute(Operation *op,
                                               const AutocastContext &context,
                                               Operation *scope) {
  auto compute = cast<ComputeOpInterface>(op);
  // Processed again (a loop body): decide from the op as written, not from
  // the dtype this pass gave it.
  if (dtypeSet.contains(op))
    op->removeAttr("dtype");
  SmallVector<Type> elementTypes;
  for (Value v : compute.getComputeOperands())
    elementTypes.push_back(elementTypeOf(v));
  AutocastState state = context.current();
  const AutocastPolicy *policy =
      state.device ? &policies[static_cast<unsigned>(*state.device)] : nullptr;
  AutocastDecision decision = decideAutocast(op, elementTypes, state, policy,
                                             isDeviceMismatch(state, options));
  OpRecord *opRecord = record ? &result.records[op] : nullptr;
  if (opRecord) {
    opRecord->decision = decision;
    opRecord->state = state;
    opRecord->casts.clear();
  }
  if (decision.reason == AutocastReason::Banned) {
    // Diagnosed; the rest of the module is still rewritten (and reported).
    (void)reportBanned(op, state);
    failedSoftly = true;
    return reinferResults(op);
  }
  for (auto [index, to] : llvm::enumerate(decision.castTo)) {
    if (!to)
      continue;
    bool casted =
        castOperandTo(op->getOpOperand(index), to, scope, state.cacheEnabled);
    // A cast the pass folded away (an input f16 -> f32 cast read back as
    // f16) is not one it caused.
    if (opRecord && casted)
      opRecord->casts.push_back(
          {static_cast<unsigned>(index), elementTypes[index], to});
  }
  if (decision.setDtypeF32) {
    op->setAttr("dtype", TypeAttr::get(Float32Type::get(op->getContext())));
    dtypeSet.insert(op);
  }
  return reinferResults(op);
}

LogicalResult AutocastRewriter::reportBanned(Operation *op,
                                             const AutocastState &state) {
  StringRef device = stringifyDeviceType(*state.device);
  if (isa<BinaryCrossEntropyOp>(op))
    return op->emitOpError()
           << "is banned in an enabled " << device
           << " autocast region: its backward may produce gradients that "
              "are not representable in "
           << state.dtype
           << " (casting the inputs to f32 does not help, as the cast is "
              "reversed in backward); use binary_cross_entropy_with_logits "
              "(sigmoid and binary cross entropy in one op), which is safe "
              "to autocast";
  // Only binary_cross_entropy is banned by default: this ban comes from the
  // policy file.
  return op->emitOpError()
         << "is banned in an enabled " << device
         << " autocast region by the autocast policy file '" << policyFile
         << "' (it is on its '" << device
         << ".banned' list); run it where autocast is disabled or take it off "
            "that list";
}

void AutocastRewriter::recordUntouched(Operation *op,
                                       const AutocastContext &context) {
  if (!record || createdCasts.contains(op))
    return;
  OpRecord &opRecord = result.records[op];
  opRecord.state = context.current();
  opRecord.decision = AutocastDecision();
  opRecord.decision.list = PolicyList::Unlisted;
  opRecord.decision.reason = isa<CastOp>(op) ? AutocastReason::ExplicitCast
                                             : AutocastReason::NoFloatOperand;
  opRecord.casts.clear();
}

LogicalResult AutocastRewriter::processRegionOp(Operation *op,
                                                const AutocastContext &outer,
                                                Operation *scope) {
  auto region = cast<AutocastOp>(op);
  handledExits.insert(region.getYield());
  if (failed(processBlock(region.getBody().front(), outer.enter(region), op)))
    return failure();
  for (auto [result, yielded] :
       llvm::zip(op->getResults(), region.getYield().getValues()))
    retype(result, yielded.getType());
  return success();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void AutocastRewriter::cleanUpAndCount() {
  // Casts that became identities or lost their users (loops processed more
  // than once) go away; the rest are counted.
  for (Operation *op : llvm::reverse(createdCasts)) {
    auto castOp = cast<CastOp>(op);
    if (castOp.getInput().getType() == castOp.getType())
      castOp.getResult().replaceAllUsesWith(castOp.getInput());
    if (castOp->use_empty()) {
      castOp->erase();
      continue;
    }
    ++result.summary.castsInserted;
    auto type = cast<RankedTensorType>(castOp.getInput().getType());
    if (!type.hasStaticShape()) {
      ++result.summary.dynamicCasts;
      continue;
    }
    result.summary.bytesCast +=
        type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
  }
  // Input casts whose every use a round-trip fold bypassed are dead now.
  for (Operation *op : llvm::reverse(bypassedCasts)) {
    if (!op->use_empty())
      continue;
    result.records.erase(op);
    op->erase();
  }
  for (auto &entry : result.records)
    result.summary.castsNaive += entry.second.casts.size();
}

LogicalResult AutocastRewriter::run() {
  // Keep untouched copies of every called function to specialize from.
  module.walk([&](CallOpInterface call) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(
        call.resolveCallableInTable(&symbolTables));
    if (!callee || callee.isExternal() || pristine.count(callee))
      return;
    pristine[callee] = cast<FunctionOpInterface>(callee->clone());
  });
  // Every function, in nested modules too.
  SmallVector<FunctionOpInterface> functions;
  module->walk<WalkOrder::PreOrder>(
      [&](FunctionOpInterface func) { functions.push_back(func); });
  for (FunctionOpInterface func : functions)
    if (failed(processEntry(func)))
      return failure();
  cleanUpAndCount();
  result.complete = true;
  return failure(failedSoftly);
}

LogicalResult mlir::tp::applyAutocast(ModuleOp module,
                                      const AutocastOptions &options,
                                      ArrayRef<AutocastPolicy> policies,
                                      StringRef policyFile, bool keepIoTypes,
                                      bool record, AutocastResult &result) {
  return AutocastRewriter(module, options, policies, policyFile, keepIoTypes,
                          record, result)
      .run();
}
