//===- AutocastRewriter.cpp - Applies autocast decisions to a module ------===//
//
// The rewrite is done in place and in program order (blocks in dominance
// order): when an op's operands are cast or its results retyped, the ops
// after it see the new types when they are reached. Every step "conforms" an op
// to the current types, so processing an op twice changes nothing more; loops
// are processed until their carried types are stable (types only widen, so this
// terminates).
//
//===----------------------------------------------------------------------===//

#include "AutocastRewriter.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/PostOrderIterator.h"

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
// Ops
//===----------------------------------------------------------------------===//

LogicalResult AutocastRewriter::processBlock(Block &block,
                                             const AutocastContext &context,
                                             Operation *scope) {
  for (Operation &op : llvm::make_early_inc_range(block))
    if (failed(processOp(&op, context, scope)))
      return failure();
  return success();
}

LogicalResult AutocastRewriter::processRegion(Region &region,
                                              const AutocastContext &context,
                                              Operation *scope) {
  if (region.empty())
    return success();
  for (Block &block : region)
    processedBlocks.erase(&block);
  SmallVector<Block *> order;
  for (Block *block : llvm::ReversePostOrderTraversal<Block *>(&region.front()))
    order.push_back(block);
  DenseSet<Block *> reachable(order.begin(), order.end());
  for (Block &block : region)
    if (!reachable.contains(&block))
      order.push_back(&block);
  for (Block *block : order) {
    reconcileBlockArguments(*block, scope);
    processedBlocks.insert(block);
    if (failed(processBlock(*block, context, scope)))
      return failure();
  }
  return success();
}

/// The operands of `pred`'s terminator that `block`'s argument #index
/// receives (several when it branches to `block` more than once); false when
/// the terminator is not a BranchOpInterface or produces the argument.
static bool getIncoming(Block *pred, Block &block, unsigned index,
                        SmallVectorImpl<OpOperand *> &incoming) {
  auto branch = dyn_cast<BranchOpInterface>(pred->getTerminator());
  if (!branch)
    return false;
  for (unsigned i = 0, e = branch->getNumSuccessors(); i < e; ++i) {
    if (branch->getSuccessor(i) != &block)
      continue;
    SuccessorOperands operands = branch.getSuccessorOperands(i);
    unsigned produced = operands.getProducedOperandCount();
    if (index < produced)
      return false;
    MutableOperandRange forwarded = operands.getMutableForwardedOperands();
    incoming.push_back(&forwarded[index - produced]);
  }
  return true;
}

void AutocastRewriter::reconcileBlockArguments(Block &block, Operation *scope) {
  if (block.isEntryBlock())
    return;
  SmallVector<Block *> preds(block.getPredecessors());
  for (BlockArgument arg : block.getArguments()) {
    if (!isa<RankedTensorType>(arg.getType()))
      continue;
    SmallVector<OpOperand *> incoming;
    bool known = true;
    for (Block *pred : preds) {
      if (!processedBlocks.contains(pred))
        known = false; // a back edge: processBranch casts it later
      else if (!getIncoming(pred, block, arg.getArgNumber(), incoming))
        known = false;
    }
    if (known)
      joinInto(arg, incoming, scope, /*shared=*/false);
    else
      castIncoming(incoming, arg.getType(), scope, /*shared=*/false);
  }
}

LogicalResult AutocastRewriter::processBranch(Operation *op, Operation *scope) {
  auto branch = cast<BranchOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<BlockArgument> arg =
        branch.getSuccessorBlockArgument(operand.getOperandNumber());
    if (!arg) {
      conformOperand(operand, scope);
      continue;
    }
    if (!processedBlocks.contains(arg->getOwner()))
      continue; // reconciled when the successor is processed
    auto argType = dyn_cast<RankedTensorType>(arg->getType());
    if (argType && operand.get().getType() != argType &&
        isa<RankedTensorType>(operand.get().getType()))
      castOperandTo(operand, argType.getElementType(), scope,
                    /*shared=*/false);
  }
  return success();
}

LogicalResult AutocastRewriter::processOp(Operation *op,
                                          const AutocastContext &context,
                                          Operation *scope) {
  if (isa<ComputeOpInterface>(op))
    return processCompute(op, context, scope);
  if (isa<AutocastOp>(op))
    return processRegionOp(op, context, scope);
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

namespace {
/// What a RegionBranchOpInterface op passes where: each edge carries one
/// operand (of the op, into its entry successors, or of a region's
/// terminator) into one successor input (an argument of a region or a
/// result of the op). Inputs that receive a common operand (a loop's region
/// argument and its result, both fed by the initial value) must share a
/// type: they form one group.
struct RegionBranchFlow {
  struct Edge {
    OpOperand *source;
    unsigned group;
  };
  SmallVector<SmallVector<Value>> groups;
  SmallVector<Edge> edges;
  /// The region terminators the edges leave from.
  SmallVector<Operation *> exits;
};
} // namespace

/// The flow of `op`; nullopt unless its successor edges account for every
/// value it passes: each successor receives as many values as it has inputs,
/// every result of the op is an input, and so is every tensor argument of a
/// region's entry block (scf.forall, whose results come from
/// tensor.parallel_insert_slice, is not such an op).
static std::optional<RegionBranchFlow>
getRegionBranchFlow(RegionBranchOpInterface op) {
  SmallVector<std::pair<OpOperand *, Value>> pairs;
  RegionBranchFlow flow;
  SmallVector<RegionSuccessor> successors;
  op.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  for (const RegionSuccessor &successor : successors) {
    OperandRange operands = op.getEntrySuccessorOperands(successor);
    ValueRange inputs = successor.getSuccessorInputs();
    if (operands.size() != inputs.size())
      return std::nullopt;
    if (operands.empty())
      continue;
    unsigned begin = operands.getBeginOperandIndex();
    for (auto [index, input] : llvm::enumerate(inputs))
      pairs.push_back({&op->getOpOperand(begin + index), input});
  }
  for (Region &region : op->getRegions()) {
    for (Block &block : region) {
      if (block.empty())
        continue;
      auto terminator =
          dyn_cast<RegionBranchTerminatorOpInterface>(&block.back());
      if (!terminator)
        continue; // a branch to another block of the region
      flow.exits.push_back(terminator);
      successors.clear();
      op.getSuccessorRegions(RegionBranchPoint(terminator), successors);
      for (const RegionSuccessor &successor : successors) {
        MutableOperandRange operands =
            terminator.getMutableSuccessorOperands(successor);
        ValueRange inputs = successor.getSuccessorInputs();
        if (operands.size() != inputs.size())
          return std::nullopt;
        for (auto [index, input] : llvm::enumerate(inputs))
          pairs.push_back({&operands[index], input});
      }
    }
  }

  // Group the inputs that share a source.
  llvm::EquivalenceClasses<Value> classes;
  DenseMap<OpOperand *, Value> firstInput;
  for (auto [source, input] : pairs) {
    classes.insert(input);
    auto [it, inserted] = firstInput.try_emplace(source, input);
    if (!inserted)
      classes.unionSets(it->second, input);
  }
  DenseMap<Value, unsigned> groupOf;
  DenseSet<std::pair<OpOperand *, unsigned>> seen;
  for (auto [source, input] : pairs) {
    Value leader = classes.getLeaderValue(input);
    auto [it, inserted] = groupOf.try_emplace(leader, flow.groups.size());
    if (inserted)
      flow.groups.emplace_back();
    SmallVector<Value> &group = flow.groups[it->second];
    if (!llvm::is_contained(group, input))
      group.push_back(input);
    if (seen.insert({source, it->second}).second)
      flow.edges.push_back({source, it->second});
  }

  for (Value result : op->getResults())
    if (!classes.contains(result))
      return std::nullopt;
  for (Region &region : op->getRegions())
    if (!region.empty())
      for (BlockArgument arg : region.front().getArguments())
        if (isa<TensorType>(arg.getType()) && !classes.contains(arg))
          return std::nullopt;
  return flow;
}

LogicalResult
AutocastRewriter::processRegionBranch(RegionBranchOpInterface op,
                                      const AutocastContext &context,
                                      Operation *scope) {
  std::optional<RegionBranchFlow> flow = getRegionBranchFlow(op);
  if (!flow)
    return processOpaque(op, context, scope);
  handledExits.insert(flow->exits.begin(), flow->exits.end());

  // Operands that flow into no region (bounds, conditions) keep their
  // original types.
  DenseSet<OpOperand *> forwarded;
  for (const RegionBranchFlow::Edge &edge : flow->edges)
    forwarded.insert(edge.source);
  for (OpOperand &operand : op->getOpOperands())
    if (!forwarded.contains(&operand))
      conformOperand(operand, scope);

  unsigned numGroups = flow->groups.size();
  // A group is set once it has a known incoming value; it is fixed when its
  // incoming values disagree in more than the dtype (it keeps its type).
  SmallVector<bool> set(numGroups, false), fixed(numGroups, false);
  auto isKnown = [&](OpOperand *source) {
    Operation *owner = source->getOwner();
    return owner == op.getOperation() ||
           processedBlocks.contains(owner->getBlock());
  };
  // Gives the group the widest type of its known incoming values (and of
  // its type so far); true when that changed its type.
  auto update = [&](unsigned group) {
    if (fixed[group])
      return false;
    ArrayRef<Value> inputs = flow->groups[group];
    Type joined = set[group] ? inputs.front().getType() : Type();
    bool any = false;
    for (const RegionBranchFlow::Edge &edge : flow->edges) {
      if (edge.group != group || !isKnown(edge.source))
        continue;
      any = true;
      Type t = edge.source->get().getType();
      joined = joined ? join(joined, t) : t;
      if (!joined) {
        fixed[group] = true;
        return false;
      }
    }
    if (!any)
      return false;
    set[group] = true;
    bool changed = false;
    for (Value input : inputs) {
      if (input.getType() == joined)
        continue;
      retype(input, joined);
      changed = true;
    }
    return changed;
  };
  auto groupsOf = [&](function_ref<bool(Value)> pred) {
    SmallVector<unsigned> groups;
    for (auto [index, inputs] : llvm::enumerate(flow->groups))
      if (llvm::any_of(inputs, pred))
        groups.push_back(index);
    return groups;
  };
  SmallVector<SmallVector<unsigned>> entryGroups;
  for (Region &region : op->getRegions())
    entryGroups.push_back(groupsOf([&](Value v) {
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner()->getParent() == &region;
    }));
  SmallVector<unsigned> argumentGroups =
      groupsOf([](Value v) { return isa<BlockArgument>(v); });

  for (unsigned round = 0;; ++round) {
    for (Region &region : op->getRegions()) {
      for (unsigned group : entryGroups[region.getRegionNumber()])
        update(group);
      if (failed(processRegion(region, context, scope)))
        return failure();
    }
    // A value fed back to a region (a loop) that widened: its region runs
    // again with the wider type.
    bool widened = false;
    for (unsigned group : argumentGroups)
      widened |= update(group);
    if (!widened)
      break;
    // Each round widens a group (f16/bf16 -> f32 -> f64).
    assert(round <= 3 * numGroups && "region argument types only widen");
  }
  for (unsigned group = 0; group < numGroups; ++group)
    update(group);
  // The narrower incoming values are cast to their group's type.
  for (const RegionBranchFlow::Edge &edge : flow->edges) {
    Type type = flow->groups[edge.group].front().getType();
    if (edge.source->get().getType() != type &&
        isa<RankedTensorType>(edge.source->get().getType()) &&
        isa<RankedTensorType>(type))
      castOperandTo(*edge.source, cast<ShapedType>(type).getElementType(),
                    scope, /*shared=*/true);
  }
  return success();
}

/// The reference to `name` in place of `ref`'s leaf (the callee of a call
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
        .insert(target, Block::iterator(origFunc->getNextNode()));
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
