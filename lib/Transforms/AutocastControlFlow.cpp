//===- AutocastControlFlow.cpp - Autocast through control flow -----------===//
//
// The AutocastRewriter's handling of control flow: the blocks of a region in
// dominance order, block arguments reconciled through BranchOpInterface
// branches, and RegionBranchOpInterface ops (scf.if, scf.for, scf.while,
// affine.for, ...) through their successor edges.
//
//===----------------------------------------------------------------------===//

#include "AutocastRewriter.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/RegionGraphTraits.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/PostOrderIterator.h"

using namespace mlir;
using namespace mlir::tp;

//===----------------------------------------------------------------------===//
// Regions and branches
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

//===----------------------------------------------------------------------===//
// Region branch ops
//===----------------------------------------------------------------------===//

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
