//===- Autodiff.cpp - The tp-autodiff pass --------------------------------===//
//
// Reverse mode on tp IR: for each selected function @f, a copy @f_grad whose
// body is @f's (the saved activations) followed by the backward ops, built
// in reverse program order by the rules of BackwardRules.cpp, before its
// return, which also returns the gradients of the `wrt` arguments.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Transforms/Autodiff.h"
#include "tensorplay/Transforms/Passes.h"

#include "AutodiffControlFlow.h"
#include "BackwardRules.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_AUTODIFFPASS
#include "tensorplay/Transforms/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;

bool tp::isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

bool tp::returnsLoss(func::FuncOp func) {
  if (func.getNumResults() == 0)
    return false;
  auto first = dyn_cast<RankedTensorType>(func.getResultTypes()[0]);
  return first && first.getRank() == 0 &&
         isa<FloatType>(first.getElementType());
}

namespace {
/// Records the ops a builder creates (the backward ops), so that those left
/// without a use (contributions to values no argument depends on) can go.
struct CreatedOps : public OpBuilder::Listener {
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.insert(op);
  }
  llvm::SetVector<Operation *> ops;
};

/// Differentiates one function (the @f_grad copy) in place.
class Differentiator {
public:
  Differentiator(func::FuncOp func, ArrayRef<unsigned> wrt)
      : func(func), wrt(wrt), builder(func.getContext()) {
    builder.setListener(&created);
  }

  LogicalResult run();
  unsigned numBackwardOps() const { return numCreated; }

private:
  LogicalResult backward(Block &block);
  /// The backward of `ops` (forward order), in reverse.
  LogicalResult backwardOps(ArrayRef<Operation *> ops);
  /// Marks what depends on a differentiated value under `root`, through
  /// the regions' yields and an scf.for's carried values (to a fixpoint).
  void propagateActivity(Operation *root);
  /// The active float tensors defined outside `op` that its regions read.
  llvm::SetVector<Value> capturedActive(Operation *op);
  void accumulate(Value value, Value grad);
  /// A tp.custom_function's own backward region.
  void applyCustomBackward(CustomFunctionOp custom);
  /// An scf.if: a backward scf.if on the same condition whose branches hold
  /// the backward of the forward's branches.
  LogicalResult backwardIf(scf::IfOp op);
  /// An scf.for of run-time trip count: a backward scf.for over the
  /// iterations in reverse, each recomputing its forward state from the
  /// loop's start (a replay loop) and then the backward of one iteration.
  LogicalResult backwardFor(scf::ForOp loop);

  /// The state of a nested backward region (a backward scf.if branch, a
  /// backward scf.for body): a gradient map of its own and the insertion
  /// point before its yield. The outer ones come back when the scope ends,
  /// also on an early failure.
  class RegionScope {
  public:
    explicit RegionScope(Differentiator &d)
        : d(d), outerGrads(std::move(d.grads)), outerPoint(d.insertBefore) {}
    ~RegionScope() {
      d.grads = std::move(outerGrads);
      d.insertBefore = outerPoint;
      d.builder.setInsertionPoint(outerPoint);
    }
    /// Starts (again) with no gradients, inserting before `yield`.
    void enter(Operation *yield) {
      d.grads.clear();
      d.insertBefore = yield;
      d.builder.setInsertionPoint(yield);
    }
    /// The gradient `value` has outside the region.
    Value outer(Value value) const { return outerGrads.lookup(value); }

  private:
    Differentiator &d;
    DenseMap<Value, Value> outerGrads;
    Operation *outerPoint;
  };

  func::FuncOp func;
  ArrayRef<unsigned> wrt;
  OpBuilder builder;
  /// Where backward ops go: before the return, or before the yield of a
  /// backward scf.if branch.
  Operation *insertBefore = nullptr;
  CreatedOps created;
  /// Values that depend on a differentiated argument.
  DenseSet<Value> active;
  DenseMap<Value, Value> grads;
  /// The backward ops that survived (for the pass statistic).
  unsigned numCreated = 0;
  bool failedToAccumulate = false;
};
} // namespace

void Differentiator::accumulate(Value value, Value grad) {
  if (!grad || !active.contains(value) || !isDifferentiable(value.getType()))
    return;
  Location loc = value.getLoc();
  if (grad.getType() != value.getType()) {
    auto from = cast<RankedTensorType>(grad.getType());
    auto to = cast<RankedTensorType>(value.getType());
    if (from.getShape() != to.getShape()) {
      emitError(loc, "internal error: tp-autodiff built a gradient of type ")
          << from << " for a value of type " << to;
      failedToAccumulate = true;
      return;
    }
    // A real value read as complex (a real operand of a complex op) gets
    // the real part of its complex gradient.
    if (isa<ComplexType>(from.getElementType()) &&
        !isa<ComplexType>(to.getElementType()))
      grad = realPartOf(builder, loc, grad);
    // The reverse of the forward's (explicit or implicit) cast.
    if (grad.getType() != to)
      grad = CastOp::create(builder, loc, to, grad);
  }
  auto [it, inserted] = grads.try_emplace(value, grad);
  if (!inserted)
    it->second = AddOp::create(builder, loc, ValueRange{it->second, grad});
}

LogicalResult Differentiator::backward(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  return backwardOps(ops);
}

LogicalResult Differentiator::backwardOps(ArrayRef<Operation *> forward) {
  for (Operation *opPtr : llvm::reverse(forward)) {
    Operation &op = *opPtr;
    if (!llvm::any_of(op.getResults(), [&](Value v) { return grads.count(v); }))
      continue;
    if (auto region = dyn_cast<AutocastOp>(op)) {
      // The region's values flow out through its yield.
      for (auto [result, yielded] :
           llvm::zip(region.getResults(), region.getYield().getValues()))
        accumulate(yielded, grads.lookup(result));
      if (failed(backward(region.getBody().front())))
        return failure();
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (failed(backwardIf(ifOp)))
        return failure();
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (failed(backwardFor(loop)))
        return failure();
      continue;
    }
    if (!llvm::any_of(op.getOperands(),
                      [&](Value v) { return active.contains(v); }))
      continue;
    if (auto custom = dyn_cast<CustomFunctionOp>(op)) {
      applyCustomBackward(custom);
      if (failedToAccumulate)
        return failure();
      continue;
    }
    if (op.getNumRegions() != 0)
      return op.emitOpError("tp-autodiff: '")
             << op.getName()
             << "' is not differentiated; tp.autocast, tp.custom_function, "
                "scf.if, scf.for and calls are";
    SmallVector<Value> resultGrads;
    for (Value result : op.getResults())
      resultGrads.push_back(grads.lookup(result));
    builder.setInsertionPoint(insertBefore);
    BackwardBuilder b(
        builder, op.getLoc(), [&](Value v, Value g) { accumulate(v, g); },
        [&](Value v) { return active.contains(v); });
    LogicalResult applied = applyBackwardRule(&op, resultGrads, b);
    if (failed(applied) || failedToAccumulate)
      return failure();
  }
  return success();
}

void Differentiator::applyCustomBackward(CustomFunctionOp custom) {
  // The backward region, inlined before the return: its block takes the
  // inputs, the results and the results' gradients (zero where a result
  // has none) and yields the inputs' gradients.
  builder.setInsertionPoint(insertBefore);
  Block &bwd = custom.getBackward().front();
  unsigned n = custom.getInputs().size(), m = custom.getNumResults();
  IRMapping mapping;
  for (unsigned i = 0; i < n; ++i)
    mapping.map(bwd.getArgument(i), custom.getInputs()[i]);
  for (unsigned j = 0; j < m; ++j) {
    Value result = custom.getResult(j);
    Value grad = grads.lookup(result);
    if (!grad)
      grad = createZeros(builder, custom.getLoc(),
                         cast<RankedTensorType>(result.getType()));
    mapping.map(bwd.getArgument(n + j), result);
    mapping.map(bwd.getArgument(n + m + j), grad);
  }
  for (Operation &inner : bwd.without_terminator())
    builder.clone(inner, mapping);
  for (auto [input, grad] :
       llvm::zip(custom.getInputs(), custom.getBackwardYield().getValues()))
    accumulate(input, mapping.lookupOrDefault(grad));
}

llvm::SetVector<Value> Differentiator::capturedActive(Operation *op) {
  llvm::SetVector<Value> captured;
  op->walk([&](Operation *inner) {
    if (inner == op)
      return;
    for (Value v : inner->getOperands())
      if (active.contains(v) && isDifferentiable(v.getType()) &&
          !op->isAncestor(v.getParentRegion()->getParentOp()))
        captured.insert(v);
  });
  return captured;
}

LogicalResult Differentiator::backwardIf(scf::IfOp op) {
  // The values the branches read from outside that need a gradient: the
  // backward branches yield their gradients.
  llvm::SetVector<Value> captured = capturedActive(op);
  // Without them no argument reaches the results (and an scf.if without
  // results is built with terminators already).
  if (captured.empty())
    return success();
  SmallVector<Type> types;
  for (Value v : captured)
    types.push_back(v.getType());
  builder.setInsertionPoint(insertBefore);
  auto backward = scf::IfOp::create(builder, op.getLoc(), types,
                                    op.getCondition(), /*withElse=*/true);
  {
    RegionScope scope(*this);
    for (auto [forward, reverse] :
         {std::pair<Region *, Region *>{&op.getThenRegion(),
                                        &backward.getThenRegion()},
          {&op.getElseRegion(), &backward.getElseRegion()}}) {
      Block &block = reverse->front();
      builder.setInsertionPointToEnd(&block);
      auto yield = scf::YieldOp::create(builder, op.getLoc());
      scope.enter(yield);
      if (!forward->empty()) {
        auto forwardYield =
            cast<scf::YieldOp>(forward->front().getTerminator());
        for (auto [result, yielded] :
             llvm::zip(op.getResults(), forwardYield.getOperands()))
          accumulate(yielded, scope.outer(result));
        if (failedToAccumulate || failed(this->backward(forward->front())))
          return failure();
      }
      builder.setInsertionPoint(yield);
      SmallVector<Value> values;
      for (Value v : captured) {
        Value g = grads.lookup(v);
        values.push_back(g ? g
                           : createZeros(builder, op.getLoc(),
                                         cast<RankedTensorType>(v.getType())));
      }
      yield->setOperands(values);
    }
  }
  for (auto [v, g] : llvm::zip(captured, backward.getResults()))
    accumulate(v, g);
  return success(!failedToAccumulate);
}

void Differentiator::propagateActivity(Operation *root) {
  bool changed = true;
  // Complex values carry derivatives too: an op reading one has to have a
  // complex rule (an error otherwise, never a zero gradient).
  auto mark = [&](Value v) {
    if (isDifferentiable(v.getType()) && active.insert(v).second)
      changed = true;
  };
  while (changed) {
    changed = false;
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (llvm::any_of(op->getOperands(),
                       [&](Value v) { return active.contains(v); }))
        for (Value result : op->getResults())
          mark(result);
      // A loop's carried values: its body's arguments carry the initial
      // values and what the body yields.
      if (auto loop = dyn_cast<scf::ForOp>(op))
        for (auto [init, arg] :
             llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs()))
          if (active.contains(init))
            mark(arg);
      Operation *parent = op->getParentOp();
      if (!op->hasTrait<OpTrait::IsTerminator>() || !parent)
        return;
      // A region's results carry what its body yields.
      if ((isa<YieldOp>(op) && isa<AutocastOp>(parent)) ||
          (isa<scf::YieldOp>(op) && isa<scf::IfOp, scf::ForOp>(parent)))
        for (auto [i, value] : llvm::enumerate(op->getOperands()))
          if (active.contains(value)) {
            mark(parent->getResult(i));
            if (auto loop = dyn_cast<scf::ForOp>(parent))
              mark(loop.getRegionIterArgs()[i]);
          }
    });
  }
}

LogicalResult Differentiator::backwardFor(scf::ForOp loop) {
  Location loc = loop.getLoc();
  llvm::SetVector<Value> captured = capturedActive(loop);
  // The carried values with gradients.
  SmallVector<unsigned> carried;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (active.contains(arg))
      carried.push_back(static_cast<unsigned>(i));
  if (carried.empty() && captured.empty())
    return success();
  builder.setInsertionPoint(insertBefore);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  Type counter = lb.getType();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getIntegerAttr(counter, v));
  };
  Value zero = constant(0), one = constant(1);
  Value span = arith::MaxSIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, ub, lb), zero);
  Value trips = arith::CeilDivSIOp::create(builder, loc, span, step);
  auto zeros = [&](Type type) {
    return createZeros(builder, loc, cast<RankedTensorType>(type));
  };
  SmallVector<Value> inits;
  for (unsigned i : carried) {
    Value g = grads.lookup(loop.getResult(i));
    inits.push_back(g ? g : zeros(loop.getResult(i).getType()));
  }
  for (Value v : captured)
    inits.push_back(zeros(v.getType()));
  auto reverse = scf::ForOp::create(builder, loc, zero, trips, one, inits);
  Block *body = reverse.getBody();
  builder.setInsertionPointToStart(body);
  // The forward iteration this one undoes: trips - 1 - j.
  Value index = arith::SubIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, trips, one),
      reverse.getInductionVar());
  Value iv = arith::AddIOp::create(
      builder, loc, lb, arith::MulIOp::create(builder, loc, index, step));
  // Its state: the forward loop replayed up to it.
  auto replay =
      scf::ForOp::create(builder, loc, lb, iv, step, loop.getInitArgs());
  IRMapping replayed;
  replayed.map(loop.getInductionVar(), replay.getInductionVar());
  for (auto [from, to] :
       llvm::zip(loop.getRegionIterArgs(), replay.getRegionIterArgs()))
    replayed.map(from, to);
  builder.setInsertionPointToEnd(replay.getBody());
  for (Operation &op : *loop.getBody())
    builder.clone(op, replayed);
  // The iteration itself, cloned after the replay and differentiated.
  builder.setInsertionPointToEnd(body);
  auto yield = scf::YieldOp::create(builder, loc, ValueRange{});
  builder.setInsertionPoint(yield);
  IRMapping once;
  once.map(loop.getInductionVar(), iv);
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    once.map(arg, replay.getResult(i));
    if (active.contains(arg))
      active.insert(replay.getResult(i));
  }
  SmallVector<Operation *> iteration;
  for (Operation &op : loop.getBody()->without_terminator())
    iteration.push_back(builder.clone(op, once));
  for (Operation *op : iteration)
    propagateActivity(op);

  {
    RegionScope scope(*this);
    scope.enter(yield);
    auto forwardYield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [n, i] : llvm::enumerate(carried))
      accumulate(once.lookupOrDefault(forwardYield.getOperand(i)),
                 body->getArgument(1 + n));
    if (failedToAccumulate || failed(backwardOps(iteration)))
      return failure();
    builder.setInsertionPoint(yield);
    SmallVector<Value> values;
    for (unsigned i : carried) {
      Value g = grads.lookup(replay.getResult(i));
      values.push_back(g ? g : zeros(replay.getResult(i).getType()));
    }
    for (auto [c, v] : llvm::enumerate(captured)) {
      Value sum = body->getArgument(1 + carried.size() + c);
      if (Value g = grads.lookup(v))
        sum = AddOp::create(builder, loc, ValueRange{sum, g});
      values.push_back(sum);
    }
    yield->setOperands(values);
  }
  for (auto [n, i] : llvm::enumerate(carried))
    accumulate(loop.getInitArgs()[i], reverse.getResult(n));
  for (auto [c, v] : llvm::enumerate(captured))
    accumulate(v, reverse.getResult(carried.size() + c));
  return success(!failedToAccumulate);
}

LogicalResult Differentiator::run() {
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  insertBefore = ret;
  for (unsigned index : wrt)
    active.insert(body.getArgument(index));
  propagateActivity(func);

  Value loss = ret.getOperand(0);
  builder.setInsertionPoint(ret);
  if (active.contains(loss))
    grads[loss] = createFloatSplat(builder, loss.getLoc(),
                                   cast<RankedTensorType>(loss.getType()), 1.0);
  if (failed(backward(body)))
    return failure();

  builder.setInsertionPoint(ret);
  SmallVector<Value> results(ret.getOperands());
  SmallVector<Type> resultTypes(func.getFunctionType().getResults());
  for (unsigned index : wrt) {
    BlockArgument arg = body.getArgument(index);
    Value grad = grads.lookup(arg);
    if (!grad)
      grad = createZeros(builder, arg.getLoc(),
                         cast<RankedTensorType>(arg.getType()));
    results.push_back(grad);
    resultTypes.push_back(arg.getType());
  }
  ret->setOperands(results);
  func.setType(FunctionType::get(
      func.getContext(), func.getFunctionType().getInputs(), resultTypes));
  // Contributions to values that no argument depends on are dead. They go
  // users first and nested ops before their parents (a walk in reverse
  // post-order), so that no op is visited after a parent took it along;
  // what survives is the statistic.
  llvm::DenseSet<Operation *> backwardOps(created.ops.begin(),
                                          created.ops.end());
  unsigned erased = 0;
  func.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
    if (!backwardOps.contains(op) || !op->use_empty() ||
        op->hasTrait<OpTrait::IsTerminator>())
      return;
    op->walk([&](Operation *inner) { erased += backwardOps.contains(inner); });
    op->erase();
  });
  numCreated = static_cast<unsigned>(backwardOps.size()) - erased;
  // Backward ops after a region read the forward values inside it.
  return exposeEscapingValues(func);
}

FailureOr<func::FuncOp> tp::buildGradientFunction(func::FuncOp func,
                                                  ArrayRef<unsigned> wrt,
                                                  StringRef name,
                                                  SymbolTable &symbols,
                                                  unsigned *numBackwardOps) {
  if (!returnsLoss(func))
    return func.emitOpError("tp-autodiff: the first result of @")
           << func.getName()
           << " must be a 0-d floating tensor (the loss) to differentiate it";
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("tp-autodiff: control flow between blocks is not "
                            "differentiated yet; @")
           << func.getName() << " has " << func.getBody().getBlocks().size()
           << " blocks";
  if (symbols.lookup(name))
    return func.emitOpError("tp-autodiff: @") << name << " exists already";
  ArrayRef<Type> inputs = func.getFunctionType().getInputs();
  for (unsigned index : wrt) {
    if (index >= inputs.size())
      return func.emitOpError("tp-autodiff: wrt index ")
             << index << " is out of range: @" << func.getName() << " has "
             << inputs.size() << " arguments";
    if (!isDifferentiable(inputs[index]))
      return func.emitOpError("tp-autodiff: wrt argument #")
             << index << " of @" << func.getName()
             << " is not a floating or complex tensor but " << inputs[index];
  }
  auto grad = cast<func::FuncOp>(func->clone());
  grad.setName(name);
  grad.setPublic();
  OpBuilder b(func.getContext());
  SmallVector<int64_t> indices(wrt.begin(), wrt.end());
  grad->setAttr(kGradientOfAttrName,
                b.getDictionaryAttr(
                    {b.getNamedAttr("function",
                                    FlatSymbolRefAttr::get(func.getNameAttr())),
                     b.getNamedAttr("wrt", b.getDenseI64ArrayAttr(indices))}));
  symbols.insert(grad, std::next(Block::iterator(func)));
  if (failed(flattenForAutodiff(grad, symbols)))
    return failure();
  Differentiator differentiator(grad, wrt);
  if (failed(differentiator.run()))
    return failure();
  if (numBackwardOps)
    *numBackwardOps = differentiator.numBackwardOps();
  return grad;
}

namespace {
struct AutodiffPass : public tp::impl::AutodiffPassBase<AutodiffPass> {
  using AutodiffPassBase::AutodiffPassBase;

  void runOnOperation() override;
};
} // namespace

/// The default selection: a public function with a body that returns a
/// loss.
static bool isLossFunction(func::FuncOp func) {
  return !func.isExternal() && func.isPublic() && returnsLoss(func);
}

void AutodiffPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> selected;
  if (functions.empty()) {
    for (auto func : module.getOps<func::FuncOp>())
      if (isLossFunction(func))
        selected.push_back(func);
  } else {
    for (const std::string &name : functions) {
      auto func = symbols.lookup<func::FuncOp>(name);
      if (!func || func.isExternal()) {
        module.emitError("tp-autodiff: no function @")
            << name << " with a body to differentiate";
        return signalPassFailure();
      }
      selected.push_back(func);
    }
  }
  for (func::FuncOp func : selected) {
    SmallVector<unsigned> indices(wrt.begin(), wrt.end());
    if (wrt.empty())
      for (auto [index, type] :
           llvm::enumerate(func.getFunctionType().getInputs()))
        if (isDifferentiable(type))
          indices.push_back(index);
    unsigned created = 0;
    if (failed(buildGradientFunction(func, indices,
                                     (func.getName() + "_grad").str(), symbols,
                                     &created)))
      return signalPassFailure();
    numBackwardOps += created;
  }
}
