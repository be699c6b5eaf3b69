//===- AutodiffControlFlow.cpp - Control flow for tp-autodiff -------------===//
//
// Calls inlined and constant loops unrolled before differentiation; values
// read across region boundaries after it yielded out of their regions.
//
//===----------------------------------------------------------------------===//

#include "AutodiffControlFlow.h"
#include "BackwardRules.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Dialect/TP/Transforms/Transforms.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tp;

/// Calls nested deeper than this are taken for recursion.
static constexpr unsigned kMaxInlineDepth = 64;

static LogicalResult inlineCall(func::CallOp call, SymbolTable &symbols) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!callee || callee.isExternal())
    return call.emitOpError("tp-autodiff: cannot differentiate through a "
                            "call of @")
           << call.getCallee() << ", which has no body";
  if (!callee.getBody().hasOneBlock())
    return call.emitOpError("tp-autodiff: @")
           << call.getCallee()
           << " has more than one block; only single-block callees are "
              "differentiated";
  Block &body = callee.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), call.getOperands());
  OpBuilder builder(call);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  for (auto [result, returned] :
       llvm::zip(call.getResults(), body.getTerminator()->getOperands()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
  call.erase();
  return success();
}

LogicalResult mlir::tp::flattenForAutodiff(func::FuncOp func,
                                           SymbolTable &symbols) {
  for (unsigned depth = 0;; ++depth) {
    SmallVector<func::CallOp> calls;
    func.walk([&](func::CallOp call) { calls.push_back(call); });
    if (calls.empty())
      break;
    if (depth == kMaxInlineDepth)
      return calls.front().emitOpError("tp-autodiff: calls nest more than ")
             << kMaxInlineDepth << " deep from @" << func.getName()
             << " (a recursion?); recursive calls are not differentiated";
    for (func::CallOp call : calls)
      if (failed(inlineCall(call, symbols)))
        return failure();
  }
  // Innermost loops first, so that an outer loop unrolls straight-line
  // bodies.
  SmallVector<scf::ForOp> loops;
  func.walk<WalkOrder::PostOrder>(
      [&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    // A loop of run-time trip count stays: the backward replays it.
    if (!loop.getConstantStep() || !getConstantIntValue(loop.getLowerBound()) ||
        !getConstantIntValue(loop.getUpperBound()))
      continue;
    if (failed(loopUnrollFull(loop)))
      return loop.emitOpError("tp-autodiff: could not unroll this loop");
  }
  // Composite ops as the tp ops they are made of (the rewrites the CPU
  // pipeline applies, in the ops' dtypes), whose rules compose their
  // backward: attention, product chains, conv_tbc, rnn_cell; and the grid
  // samplers as gathers and the Householder products as their reflectors
  // (in gradient functions only).
  RewritePatternSet patterns(func.getContext());
  populateDecomposeAttentionPatterns(patterns);
  populateDecomposeCompositePatterns(patterns);
  populateDecomposeGridSamplePatterns(patterns);
  populateDecomposeHouseholderPatterns(patterns);
  populateStripOutFormPatterns(patterns);
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  config.enableFolding(false);
  config.enableConstantCSE(false);
  (void)applyPatternsGreedily(func, std::move(patterns), config);
  return success();
}

/// A zero of `type` (the placeholder an scf.if branch yields for a value
/// of the other branch).
static Value zeroOf(OpBuilder &builder, Location loc, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  if (isa<ComplexType>(tensor.getElementType()))
    return createZeros(builder, loc, tensor);
  return ConstantOp::create(
      builder, loc, tensor,
      DenseElementsAttr::get(tensor,
                             builder.getZeroAttr(tensor.getElementType())));
}

/// `op` again with `extra` values of its regions as further results; the
/// old results are replaced by the first ones. Returns the new op.
static FailureOr<Operation *> yieldMore(Operation *op, ArrayRef<Value> extra) {
  if (llvm::any_of(op->getRegions(), [](Region &r) { return r.empty(); }))
    return op->emitOpError("internal error: tp-autodiff cannot yield a value "
                           "out of an op with an empty region");
  OpBuilder builder(op);
  SmallVector<Type> types(op->getResultTypes());
  for (Value v : extra)
    types.push_back(v.getType());
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(op->getOperands());
  state.addAttributes(op->getAttrs());
  state.addTypes(types);
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    state.addRegion();
  Operation *grown = builder.create(state);
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    grown->getRegion(i).takeBody(op->getRegion(i));
  // Each region's terminator yields its own values and zeros for the
  // others'.
  for (Region &region : grown->getRegions()) {
    Operation *yield = region.front().getTerminator();
    OpBuilder at(yield);
    SmallVector<Value> values(yield->getOperands());
    for (Value v : extra)
      values.push_back(v.getParentRegion() == &region
                           ? v
                           : zeroOf(at, op->getLoc(), v.getType()));
    yield->setOperands(values);
  }
  op->replaceAllUsesWith(grown->getResults().take_front(op->getNumResults()));
  op->erase();
  return grown;
}

LogicalResult mlir::tp::exposeEscapingValues(func::FuncOp func) {
  // Each round lifts the escaping values one region up.
  while (true) {
    DominanceInfo dominance(func);
    llvm::MapVector<Operation *, llvm::SetVector<Value>> escaping;
    func.walk([&](Operation *user) {
      for (Value v : user->getOperands())
        if (!dominance.properlyDominates(v, user))
          if (Operation *parent = v.getParentRegion()->getParentOp();
              parent && parent != func)
            escaping[parent].insert(v);
    });
    if (escaping.empty())
      return success();
    for (auto &entry : escaping) {
      Operation *parent = entry.first;
      llvm::SetVector<Value> &values = entry.second;
      if (!isa<AutocastOp, scf::IfOp>(parent))
        return parent->emitOpError(
            "internal error: tp-autodiff cannot yield a value out of "
            "this op for the backward");
      // A value the region yields already is read from its result (in an
      // scf.if, the result is the value whenever its branch ran, which is
      // when the backward branch that reads it runs).
      SmallVector<Value> extra;
      for (Value v : values) {
        Operation *yield = v.getParentRegion()->front().getTerminator();
        auto it = llvm::find(yield->getOperands(), v);
        if (it == yield->operand_end()) {
          extra.push_back(v);
          continue;
        }
        Value result =
            parent->getResult(std::distance(yield->operand_begin(), it));
        v.replaceUsesWithIf(result, [&](OpOperand &use) {
          return !parent->isProperAncestor(use.getOwner());
        });
      }
      if (extra.empty())
        continue;
      unsigned first = parent->getNumResults();
      FailureOr<Operation *> grown = yieldMore(parent, extra);
      if (failed(grown))
        return failure();
      for (auto [i, v] : llvm::enumerate(extra)) {
        Value lifted = (*grown)->getResult(first + i);
        v.replaceUsesWithIf(lifted, [&](OpOperand &use) {
          return !(*grown)->isProperAncestor(use.getOwner());
        });
      }
    }
  }
}
