//===- FuseSiblings.cpp - The tp-fuse-siblings pass -----------------------===//
//
// Horizontal fusion: independent linalg.generic ops over one iteration
// space (the same static loop ranges, iterator types and output maps)
// become one generic with all their operands and results. A batch norm's
// backward sums the gradient and its products with the normalized input
// over the same (N, S) dimensions in four reductions; fused, they are one
// loop nest (one parallel region, one pass over the operands) instead of
// four. Each result is computed by its own ops, in its own order: the
// values are those of the separate ops.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include <unordered_map>

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPFUSESIBLINGSPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

/// How many later loops over the same space a loop is weighed against.
constexpr size_t kLookahead = 32;

/// A generic the pass may fuse: on tensors, with static loop ranges and
/// no zero-size dimension, and no gather (tensor.extract) in its body:
/// tp-tile-and-vectorize leaves most gathers scalar, and fused, a gather
/// would make its siblings scalar too.
bool isCandidate(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() == 0)
    return false;
  if (op.getBody()
          ->walk([](tensor::ExtractOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return false;
  return llvm::all_of(op.getStaticLoopRanges(), [](int64_t r) {
    return !ShapedType::isDynamic(r) && r > 0;
  });
}

/// Whether `a` and `b` iterate over the same space and write alike.
bool sameIterationSpace(linalg::GenericOp a, linalg::GenericOp b) {
  if (a.getStaticLoopRanges() != b.getStaticLoopRanges() ||
      a.getIteratorTypesArray() != b.getIteratorTypesArray())
    return false;
  AffineMap out = a.getMatchingIndexingMap(a.getDpsInitOperand(0));
  return llvm::all_of(b.getDpsInitsMutable(), [&](OpOperand &init) {
    return b.getMatchingIndexingMap(&init) == out;
  });
}

/// A hash of what sameIterationSpace compares.
llvm::hash_code spaceKey(linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  llvm::hash_code h = llvm::hash_combine_range(ranges.begin(), ranges.end());
  for (utils::IteratorType t : op.getIteratorTypesArray())
    h = llvm::hash_combine(h, static_cast<int>(t));
  return llvm::hash_combine(h,
                            op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
}

/// Makes `value` available before `at`: true when it already dominates it,
/// or when its defining op (a constant, tensor.empty or linalg.fill, whose
/// operands can be made available in turn) could be moved there.
bool makeAvailable(Value value, Operation *at, DominanceInfo &dom,
                   unsigned depth = 0) {
  if (dom.properlyDominates(value, at))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 2 || def->getBlock() != at->getBlock() ||
      !isa<arith::ConstantOp, tensor::EmptyOp, linalg::FillOp>(def))
    return false;
  for (Value operand : def->getOperands())
    if (!makeAvailable(operand, at, dom, depth + 1))
      return false;
  def->moveBefore(at);
  return true;
}

/// One generic computing `group` (in order) at the place of the first.
void fuse(IRRewriter &rewriter, ArrayRef<linalg::GenericOp> group) {
  linalg::GenericOp first = group.front();
  SmallVector<Value> inputs, inits;
  SmallVector<AffineMap> inputMaps, initMaps;
  SmallVector<Type> resultTypes;
  for (linalg::GenericOp op : group) {
    for (OpOperand *in : op.getDpsInputOperands()) {
      inputs.push_back(in->get());
      inputMaps.push_back(op.getMatchingIndexingMap(in));
    }
    for (OpOperand &init : op.getDpsInitsMutable()) {
      inits.push_back(init.get());
      initMaps.push_back(op.getMatchingIndexingMap(&init));
    }
    llvm::append_range(resultTypes, op.getResultTypes());
  }
  SmallVector<AffineMap> maps(inputMaps);
  maps.append(initMaps);
  rewriter.setInsertionPoint(first);
  auto fused =
      linalg::GenericOp::create(rewriter, first.getLoc(), resultTypes, inputs,
                                inits, maps, first.getIteratorTypesArray());
  // The block's arguments: every op's inputs, then every op's inits.
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (bool initsPart : {false, true})
    for (linalg::GenericOp op : group)
      for (BlockArgument arg : op.getBody()->getArguments()) {
        bool isInit = arg.getArgNumber() >= op.getNumDpsInputs();
        if (isInit == initsPart) {
          argTypes.push_back(arg.getType());
          argLocs.push_back(arg.getLoc());
        }
      }
  Block *body = rewriter.createBlock(&fused.getRegion(), {}, argTypes, argLocs);
  IRMapping mapping;
  unsigned nextInput = 0, nextInit = inputs.size();
  for (linalg::GenericOp op : group)
    for (BlockArgument arg : op.getBody()->getArguments())
      mapping.map(arg,
                  body->getArgument(arg.getArgNumber() < op.getNumDpsInputs()
                                        ? nextInput++
                                        : nextInit++));
  SmallVector<Value> yielded;
  for (linalg::GenericOp op : group) {
    for (Operation &inner : op.getBody()->without_terminator())
      rewriter.clone(inner, mapping);
    for (Value v : op.getBody()->getTerminator()->getOperands())
      yielded.push_back(mapping.lookupOrDefault(v));
  }
  linalg::YieldOp::create(rewriter, first.getLoc(), yielded);
  unsigned next = 0;
  for (linalg::GenericOp op : group) {
    unsigned n = op->getNumResults();
    rewriter.replaceOp(op, fused->getResults().slice(next, n));
    next += n;
  }
}

struct FuseSiblingsPass
    : public tp::impl::TPFuseSiblingsPassBase<FuseSiblingsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    IRRewriter rewriter(&getContext());
    DominanceInfo dom(fn);
    // Post-order: a generic's body comes before the block holding the
    // generic, so no block listed is inside a generic already fused away.
    SmallVector<Block *> blocks;
    fn.walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks) {
      // The candidates in order, in buckets by iteration space (so that a
      // block of thousands of loops is not compared pair by pair).
      SmallVector<linalg::GenericOp> generics;
      std::unordered_map<size_t, SmallVector<size_t>> buckets;
      SmallVector<size_t> keys;
      for (Operation &op : *block)
        if (auto generic = dyn_cast<linalg::GenericOp>(op))
          if (isCandidate(generic)) {
            keys.push_back(spaceKey(generic));
            buckets[keys.back()].push_back(generics.size());
            generics.push_back(generic);
          }
      llvm::SmallPtrSet<Operation *, 16> taken;
      for (size_t i = 0; i < generics.size(); ++i) {
        linalg::GenericOp first = generics[i];
        if (taken.contains(first))
          continue;
        SmallVector<linalg::GenericOp> group = {first};
        unsigned operands = first->getNumOperands();
        ArrayRef<size_t> bucket = buckets[keys[i]];
        // Each loop is weighed against the next few of its space only: a
        // chain of thousands of dependent loops stays linear.
        auto later = llvm::upper_bound(bucket, i);
        size_t count = std::min<size_t>(kLookahead, bucket.end() - later);
        for (size_t j : ArrayRef<size_t>(later, count)) {
          linalg::GenericOp next = generics[j];
          if (group.size() >= maxOps)
            break;
          if (taken.contains(next) || !sameIterationSpace(first, next) ||
              operands + next->getNumOperands() > maxOperands)
            continue;
          // Its operands, and the values its body reads from above (a
          // gather's source), must exist where the group is computed; one
          // that depends on a member of the group (or anything after the
          // first) keeps it out.
          SetVector<Value> used(llvm::from_range, next->getOperands());
          getUsedValuesDefinedAbove(next->getRegions(), used);
          if (!llvm::all_of(
                  used, [&](Value v) { return makeAvailable(v, first, dom); }))
            continue;
          group.push_back(next);
          operands += next->getNumOperands();
        }
        if (group.size() < 2)
          continue;
        for (linalg::GenericOp op : group)
          taken.insert(op);
        fuse(rewriter, group);
      }
    }
  }
};

} // namespace
