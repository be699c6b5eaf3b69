//===- TrainStep.cpp - The tp-train-step pass -----------------------------===//
//
// Builds @f_train_step from the loss function @f: a copy of @f whose loss is
// multiplied by the GradScaler's scale (with grad-scaler) is differentiated
// by tp-autodiff's buildGradientFunction; its body is inlined into the step,
// followed (data parallel: world-size > 1) by the all-reduce of the
// gradients, then the found_inf check, one fused optimizer op per parameter
// and the scale update. The helper functions are erased again.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Transforms/TrainStep.h"

#include "tensorplay/Transforms/Autodiff.h"
#include "tensorplay/Transforms/DownCasts.h"
#include "tensorplay/Transforms/Passes.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TRAINSTEPPASS
#include "tensorplay/Transforms/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;

namespace {

enum class Optimizer { SGD, AdamW };

/// Builds @f_train_step for `opts` (TrainStep.h).
class TrainStepBuilder {
public:
  explicit TrainStepBuilder(const TrainStepPassOptions &opts) : opts(opts) {}

  LogicalResult checkOptions(Operation *anchor);
  FailureOr<func::FuncOp> build(func::FuncOp func, SymbolTable &symbols);

private:
  /// Data parallel: replaces `grads` by their means over the ranks (and
  /// `loss` by its mean when it has their element type) and sets `foundInf`
  /// (with grad-scaler) to the ranks' agreed flag.
  LogicalResult reduceAcrossRanks(OpBuilder &b, Location loc, func::FuncOp func,
                                  SmallVectorImpl<Value> &grads, Value &loss,
                                  Value &foundInf);
  /// The names of each parameter's state tensors, in argument order (the
  /// step counter is a tensor<i64>, the others have the parameter's type).
  SmallVector<StringRef> stateNames() const;

  const TrainStepPassOptions &opts;
  Optimizer kind = Optimizer::SGD;
  /// weight-decay, or the optimizer's default.
  double decay = 0.0;
};

struct TrainStepPass : public tp::impl::TrainStepPassBase<TrainStepPass> {
  using TrainStepPassBase::TrainStepPassBase;

  void runOnOperation() override;

private:
  FailureOr<func::FuncOp> selectFunction(ModuleOp module, SymbolTable &symbols);
  /// The pass's options as the builder's struct.
  TrainStepPassOptions currentOptions() const;
};

} // namespace

/// With param-copies: when the f32 `param` is cast down by tp.casts to one
/// type (bf16 or f16), a new argument of its block of that type, which
/// replaces the casts; else null.
static Value replaceDownCastsByCopy(BlockArgument param, Location loc) {
  SmallVector<CastOp> casts;
  Type copyType = collectDownCasts(param, casts);
  if (!copyType)
    return {};
  Value copy = param.getOwner()->addArgument(copyType, loc);
  for (CastOp cast : casts) {
    cast.getResult().replaceAllUsesWith(copy);
    cast.erase();
  }
  return copy;
}

/// `base`, or `base` with a number appended, whichever no symbol has.
static std::string unusedName(SymbolTable &symbols, const std::string &base) {
  std::string name = base;
  for (unsigned i = 0; symbols.lookup(name); ++i)
    name = base + "_" + std::to_string(i);
  return name;
}

LogicalResult TrainStepBuilder::checkOptions(Operation *anchor) {
  if (opts.optimizer == "sgd")
    kind = Optimizer::SGD;
  else if (opts.optimizer == "adamw")
    kind = Optimizer::AdamW;
  else
    return anchor->emitError("tp-train-step: unknown optimizer '")
           << opts.optimizer << "': expected sgd or adamw";
  decay = opts.weightDecay >= 0.0 ? opts.weightDecay
                                  : (kind == Optimizer::SGD ? 0.0 : 0.01);
  if (opts.worldSize < 1 || opts.worldSize > (int64_t{1} << 24))
    return anchor->emitError("tp-train-step: world-size must be from 1 to "
                             "2^24, got ")
           << opts.worldSize;
  if (opts.bucketBytes < 1)
    return anchor->emitError("tp-train-step: bucket-bytes must be > 0, got ")
           << opts.bucketBytes;
  return success();
}

/// A 0-d constant of `element`.
static Value scalarConstant(OpBuilder &b, Location loc, Type element,
                            double v) {
  auto type = RankedTensorType::get({}, element);
  return ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, b.getFloatAttr(element, v)));
}

LogicalResult TrainStepBuilder::reduceAcrossRanks(OpBuilder &b, Location loc,
                                                  func::FuncOp func,
                                                  SmallVectorImpl<Value> &grads,
                                                  Value &loss,
                                                  Value &foundInf) {
  Type element = getElementTypeOrSelf(grads.front().getType());
  for (Value g : grads)
    if (getElementTypeOrSelf(g.getType()) != element ||
        !(element.isF32() || element.isF64()))
      return func.emitOpError("tp-train-step: world-size=")
             << opts.worldSize
             << " averages the gradients in one buffer: the parameters must "
                "all be f32 or all f64, got "
             << element << " and " << getElementTypeOrSelf(g.getType());
  auto scalar = RankedTensorType::get({}, element);
  auto f32Scalar = RankedTensorType::get({}, b.getF32Type());
  // Riders in the last bucket (the first parameters', whose gradients the
  // backward makes last; the flag needs them all): this rank's found_inf
  // (0 or 1, summed over the ranks: > 0 when any rank found an inf or NaN)
  // and the loss.
  SmallVector<Value> riders;
  if (opts.gradScaler) {
    Value flag = AmpCheckFiniteOp::create(b, loc, grads).getFoundInf();
    if (!element.isF32())
      flag = CastOp::create(b, loc, scalar, flag);
    riders.push_back(flag);
  }
  bool lossRides = loss.getType() == scalar;
  if (lossRides)
    riders.push_back(loss);
  // Buckets of at most bucket-bytes (one gradient may exceed it alone),
  // from the last parameter back, the order in which the backward makes
  // the gradients.
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  SmallVector<SmallVector<int64_t>> buckets;
  int64_t bytes = 0;
  for (int64_t g = int64_t(grads.size()) - 1; g >= 0; --g) {
    int64_t size = cast<RankedTensorType>(grads[g].getType()).getNumElements() *
                   elementBytes;
    if (buckets.empty() || bytes + size > opts.bucketBytes) {
      buckets.emplace_back();
      bytes = 0;
    }
    buckets.back().push_back(g);
    bytes += size;
  }
  Block *block = b.getInsertionBlock();
  SmallVector<AllReduceOp> reduces;
  for (auto [i, members] : llvm::enumerate(buckets)) {
    bool last = i + 1 == buckets.size();
    SmallVector<Value> values;
    for (int64_t member : members)
      values.push_back(grads[member]);
    if (last)
      values.append(riders.begin(), riders.end());
    OpBuilder::InsertionGuard guard(b);
    if (opts.overlap) {
      // Right after the last of its values: the backward goes on while the
      // collective runs.
      Operation *after = nullptr;
      for (Value v : values) {
        Operation *def = v.getDefiningOp();
        if (!def) // a block argument: nothing to wait for
          continue;
        def = block->findAncestorOpInBlock(*def);
        if (def && (!after || after->isBeforeInBlock(def)))
          after = def;
      }
      if (after)
        b.setInsertionPointAfter(after);
      else
        b.setInsertionPointToStart(block);
    }
    auto reduce =
        AllReduceOp::create(b, loc, values, b.getStringAttr("sum"),
                            opts.overlap ? b.getUnitAttr() : UnitAttr());
    reduces.push_back(reduce);
  }
  // The means, before the optimizer.
  Value ranks = scalarConstant(b, loc, element, double(opts.worldSize));
  SmallVector<Value> means(grads.size());
  Value flagSum;
  for (auto [members, reduce] : llvm::zip_equal(buckets, reduces)) {
    ResultRange sums = reduce.getResults();
    for (auto [member, sum] : llvm::zip(members, sums))
      means[member] = DivOp::create(b, loc, ValueRange{sum, ranks});
    if (reduce != reduces.back())
      continue;
    ResultRange riding = sums.drop_front(members.size());
    if (opts.gradScaler)
      flagSum = riding.front();
    if (lossRides)
      loss = DivOp::create(b, loc, ValueRange{riding.back(), ranks});
  }
  grads.assign(means.begin(), means.end());
  if (opts.gradScaler) {
    // found_inf: any rank's flag, or an inf or NaN in the means (a sum can
    // overflow where no addend did). Both are the same bits on every rank,
    // so every rank takes the same decision.
    Value any = MinimumOp::create(
        b, loc, ValueRange{flagSum, scalarConstant(b, loc, element, 1.0)});
    if (!element.isF32())
      any = CastOp::create(b, loc, f32Scalar, any);
    Value inMeans = AmpCheckFiniteOp::create(b, loc, grads).getFoundInf();
    foundInf = MaximumOp::create(b, loc, ValueRange{any, inMeans});
  }
  return success();
}

FailureOr<func::FuncOp> TrainStepPass::selectFunction(ModuleOp module,
                                                      SymbolTable &symbols) {
  if (!function.empty()) {
    auto func = symbols.lookup<func::FuncOp>(function);
    if (!func || func.isExternal())
      return module.emitError("tp-train-step: no function @")
             << function << " with a body";
    return func;
  }
  SmallVector<func::FuncOp> losses;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && func.isPublic() && returnsLoss(func))
      losses.push_back(func);
  if (losses.size() == 1)
    return losses.front();
  InFlightDiagnostic diag = module.emitError("tp-train-step: ");
  if (losses.empty())
    diag << "the module has no public function whose first result is a 0-d "
            "floating tensor (a loss)";
  else
    diag << "the module has " << losses.size()
         << " loss functions; name one with function=";
  return diag;
}

SmallVector<StringRef> TrainStepBuilder::stateNames() const {
  SmallVector<StringRef> names;
  if (kind == Optimizer::SGD) {
    if (opts.momentum != 0.0)
      names.push_back("momentum_buffer");
  } else {
    names.append({"exp_avg", "exp_avg_sq"});
    if (opts.amsgrad)
      names.push_back("max_exp_avg_sq");
  }
  names.push_back("step");
  return names;
}

FailureOr<func::FuncOp> TrainStepBuilder::build(func::FuncOp func,
                                                SymbolTable &symbols) {
  MLIRContext *ctx = func.getContext();
  FunctionType type = func.getFunctionType();
  std::string stepName = (func.getName() + "_train_step").str();
  if (symbols.lookup(stepName))
    return func.emitOpError("tp-train-step: @")
           << stepName << " exists already";
  if (!returnsLoss(func))
    return func.emitOpError("tp-train-step: the first result of @")
           << func.getName() << " must be a 0-d floating tensor (the loss)";
  if (opts.numInputs > type.getNumInputs())
    return func.emitOpError("tp-train-step: num-inputs=")
           << static_cast<unsigned>(opts.numInputs) << " but @"
           << func.getName() << " has " << type.getNumInputs() << " arguments";
  SmallVector<unsigned> params;
  for (unsigned i = opts.numInputs; i < type.getNumInputs(); ++i) {
    if (!isFloatTensor(type.getInput(i)))
      return func.emitOpError("tp-train-step: argument #")
             << i << " of @" << func.getName() << " follows the num-inputs="
             << static_cast<unsigned>(opts.numInputs)
             << " batch arguments, so it is a parameter, but it is "
             << type.getInput(i) << ", not a floating tensor";
    params.push_back(i);
  }
  if (params.empty())
    return func.emitOpError("tp-train-step: @")
           << func.getName() << " has no parameters after its "
           << static_cast<unsigned>(opts.numInputs) << " batch arguments";

  OpBuilder b(ctx);
  Location loc = func.getLoc();
  auto f32Scalar = RankedTensorType::get({}, b.getF32Type());
  auto i32Scalar = RankedTensorType::get({}, b.getI32Type());

  // The function to differentiate: @f, or with the GradScaler a copy whose
  // first result is loss * scale and whose second is the loss.
  func::FuncOp source = func;
  if (opts.gradScaler) {
    source = cast<func::FuncOp>(func->clone());
    source.setName(unusedName(symbols, "__tp_scaled_" + func.getName().str()));
    symbols.insert(source);
    Block &body = source.getBody().front();
    BlockArgument scale = body.addArgument(f32Scalar, loc);
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    b.setInsertionPoint(ret);
    Value loss = ret.getOperand(0);
    Value loss32 = loss;
    if (!cast<RankedTensorType>(loss.getType()).getElementType().isF32())
      loss32 = CastOp::create(b, loc, f32Scalar, loss);
    Value scaled = MulOp::create(b, loc, ValueRange{loss32, scale});
    ret->setOperands({scaled, loss});
    source.setType(FunctionType::get(ctx, body.getArgumentTypes(),
                                     {scaled.getType(), loss.getType()}));
  }
  FailureOr<func::FuncOp> grad = buildGradientFunction(
      source, params, unusedName(symbols, "__tp_grad_" + func.getName().str()),
      symbols);
  if (source != func)
    symbols.erase(source);
  if (failed(grad))
    return failure();

  // The step's signature.
  SmallVector<StringRef> names = stateNames();
  auto stepType = RankedTensorType::get({}, b.getI64Type());
  SmallVector<Type> inputs(type.getInputs());
  SmallVector<Type> results = {type.getResult(0)};
  for (unsigned p : params)
    results.push_back(type.getInput(p));
  for (unsigned p : params)
    for (StringRef name : names) {
      Type stateType = name == "step" ? stepType : type.getInput(p);
      inputs.push_back(stateType);
      results.push_back(stateType);
    }
  if (opts.gradScaler) {
    inputs.append({f32Scalar, i32Scalar});
    results.append({f32Scalar, i32Scalar, f32Scalar});
  }
  b.setInsertionPointAfter(func);
  auto step = func::FuncOp::create(b, loc, stepName,
                                   FunctionType::get(ctx, inputs, results));
  symbols.insert(step);
  step.setPublic();
  NamedAttrList layout;
  // The layout; num_inputs, optimizer and grad_scaler are in `options`.
  layout.set("function", b.getStringAttr(func.getName()));
  layout.set("params", b.getDenseI64ArrayAttr(
                           SmallVector<int64_t>(params.begin(), params.end())));
  layout.set("state", b.getStrArrayAttr(names));
  layout.set("options", trainStepOptionsAttr(ctx, opts));
  step->setAttr(kTrainStepAttrName, layout.getDictionary(ctx));

  // Forward and backward: the gradient function's body, inlined.
  Block *entry = step.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  Block &gradBody = grad->getBody().front();
  for (unsigned i = 0; i < type.getNumInputs(); ++i)
    mapping.map(gradBody.getArgument(i), entry->getArgument(i));
  unsigned next = type.getNumInputs() + params.size() * names.size();
  Value scale, tracker;
  if (opts.gradScaler) {
    scale = entry->getArgument(next);
    tracker = entry->getArgument(next + 1);
    mapping.map(gradBody.getArgument(type.getNumInputs()), scale);
  }
  for (Operation &op : gradBody.without_terminator())
    b.clone(op, mapping);
  // With param-copies: the copy arguments, standing for the forward's
  // down-casts of their parameters (null: the parameter has none).
  SmallVector<Value> copies(params.size());
  if (opts.paramCopies)
    for (auto [i, p] : llvm::enumerate(params))
      copies[i] = replaceDownCastsByCopy(entry->getArgument(p), loc);
  auto gradRet = cast<func::ReturnOp>(gradBody.getTerminator());
  unsigned numForward = gradRet.getNumOperands() - params.size();
  Value loss = mapping.lookup(gradRet.getOperand(opts.gradScaler ? 1 : 0));
  SmallVector<Value> grads;
  for (unsigned i = 0; i < params.size(); ++i)
    grads.push_back(mapping.lookup(gradRet.getOperand(numForward + i)));
  symbols.erase(*grad);

  // Data parallel: the gradients averaged over the ranks.
  Value foundInf;
  if (opts.worldSize > 1 &&
      failed(reduceAcrossRanks(b, loc, func, grads, loss, foundInf)))
    return failure();

  // The GradScaler and the optimizer.
  if (opts.gradScaler && !foundInf)
    foundInf = AmpCheckFiniteOp::create(b, loc, grads).getFoundInf();
  SmallVector<Value> newParams, newState;
  unsigned stateArg = type.getNumInputs();
  SmallVector<Value> newCopies;
  for (auto [p, g, copy] : llvm::zip_equal(params, grads, copies)) {
    Value param = entry->getArgument(p);
    ValueRange state = entry->getArguments().slice(stateArg, names.size());
    stateArg += names.size();
    Operation *update;
    if (kind == Optimizer::SGD) {
      Value buffer = opts.momentum != 0.0 ? state[0] : Value();
      update = FusedSgdOp::create(
          b, loc, param, g, buffer, copy, state.back(), scale, foundInf,
          b.getF64FloatAttr(opts.lr), b.getF64FloatAttr(opts.momentum),
          b.getF64FloatAttr(opts.dampening), b.getF64FloatAttr(decay),
          b.getBoolAttr(opts.nesterov), b.getBoolAttr(opts.maximize));
    } else {
      Value max = opts.amsgrad ? state[2] : Value();
      update = FusedAdamwOp::create(
          b, loc, param, g, state[0], state[1], max, copy, state.back(), scale,
          foundInf, b.getF64FloatAttr(opts.lr), b.getF64FloatAttr(opts.beta1),
          b.getF64FloatAttr(opts.beta2), b.getF64FloatAttr(opts.eps),
          b.getF64FloatAttr(decay), b.getBoolAttr(opts.amsgrad),
          b.getBoolAttr(opts.maximize));
    }
    if (failed(verify(update)))
      return failure();
    // The results: parameter, state (the copy last but for the step).
    ResultRange results = update->getResults();
    newParams.push_back(results.front());
    ResultRange updated = results.drop_front();
    if (copy) {
      newCopies.push_back(updated[updated.size() - 2]);
      llvm::append_range(newState, updated.drop_back(2));
      newState.push_back(updated.back());
    } else {
      llvm::append_range(newState, updated);
    }
  }
  SmallVector<Value> returned = {loss};
  llvm::append_range(returned, newParams);
  llvm::append_range(returned, newState);
  if (opts.gradScaler) {
    auto updateScale = AmpUpdateScaleOp::create(
        b, loc, scale, tracker, foundInf, b.getF64FloatAttr(opts.growthFactor),
        b.getF64FloatAttr(opts.backoffFactor),
        b.getI64IntegerAttr(opts.growthInterval));
    if (failed(verify(updateScale)))
      return failure();
    returned.append(
        {updateScale.getNewScale(), updateScale.getNewGrowthTracker()});
  }
  llvm::append_range(returned, newCopies);
  if (opts.gradScaler)
    returned.push_back(foundInf);
  func::ReturnOp::create(b, loc, returned);
  step.setType(FunctionType::get(ctx, entry->getArgumentTypes(),
                                 ValueRange(returned).getTypes()));
  SmallVector<int64_t> copied;
  for (auto [i, copy] : llvm::enumerate(copies))
    if (copy)
      copied.push_back(static_cast<int64_t>(i));
  layout.set("param_copies", b.getDenseI64ArrayAttr(copied));
  step->setAttr(kTrainStepAttrName, layout.getDictionary(ctx));
  return step;
}

void TrainStepPass::runOnOperation() {
  ModuleOp module = getOperation();
  TrainStepPassOptions opts = currentOptions();
  TrainStepBuilder builder(opts);
  if (failed(builder.checkOptions(module)))
    return signalPassFailure();
  SymbolTable symbols(module);
  FailureOr<func::FuncOp> func = selectFunction(module, symbols);
  if (failed(func) || failed(builder.build(*func, symbols)))
    return signalPassFailure();
}

TrainStepPassOptions TrainStepPass::currentOptions() const {
  const TrainStepPass &pass = *this;
  TrainStepPassOptions o;
  o.function = pass.function;
  o.numInputs = pass.numInputs;
  o.optimizer = pass.optimizer;
  o.lr = pass.lr;
  o.momentum = pass.momentum;
  o.dampening = pass.dampening;
  o.nesterov = pass.nesterov;
  o.weightDecay = pass.weightDecay;
  o.beta1 = pass.beta1;
  o.beta2 = pass.beta2;
  o.eps = pass.eps;
  o.amsgrad = pass.amsgrad;
  o.maximize = pass.maximize;
  o.gradScaler = pass.gradScaler;
  o.growthFactor = pass.growthFactor;
  o.backoffFactor = pass.backoffFactor;
  o.growthInterval = pass.growthInterval;
  o.paramCopies = pass.paramCopies;
  o.worldSize = pass.worldSize;
  o.bucketBytes = pass.bucketBytes;
  o.overlap = pass.overlap;
  return o;
}

//===----------------------------------------------------------------------===//
// The options recorded on the step (TrainStep.h)
//===----------------------------------------------------------------------===//

DictionaryAttr tp::trainStepOptionsAttr(MLIRContext *ctx,
                                        const TrainStepPassOptions &o) {
  Builder b(ctx);
  auto f = [&](double v) { return b.getF64FloatAttr(v); };
  DictionaryAttr options = b.getDictionaryAttr({
      b.getNamedAttr("num_inputs", b.getI64IntegerAttr(o.numInputs)),
      b.getNamedAttr("optimizer", b.getStringAttr(o.optimizer)),
      b.getNamedAttr("lr", f(o.lr)),
      b.getNamedAttr("momentum", f(o.momentum)),
      b.getNamedAttr("dampening", f(o.dampening)),
      b.getNamedAttr("nesterov", b.getBoolAttr(o.nesterov)),
      b.getNamedAttr("weight_decay", f(o.weightDecay)),
      b.getNamedAttr("beta1", f(o.beta1)),
      b.getNamedAttr("beta2", f(o.beta2)),
      b.getNamedAttr("eps", f(o.eps)),
      b.getNamedAttr("amsgrad", b.getBoolAttr(o.amsgrad)),
      b.getNamedAttr("maximize", b.getBoolAttr(o.maximize)),
      b.getNamedAttr("grad_scaler", b.getBoolAttr(o.gradScaler)),
      b.getNamedAttr("growth_factor", f(o.growthFactor)),
      b.getNamedAttr("backoff_factor", f(o.backoffFactor)),
      b.getNamedAttr("growth_interval", b.getI64IntegerAttr(o.growthInterval)),
      b.getNamedAttr("param_copies", b.getBoolAttr(o.paramCopies)),
  });
  // Data parallel only (a one-process step records what it always did).
  if (o.worldSize > 1) {
    NamedAttrList withRanks(options);
    withRanks.set("world_size", b.getI64IntegerAttr(o.worldSize));
    withRanks.set("bucket_bytes", b.getI64IntegerAttr(o.bucketBytes));
    withRanks.set("overlap", b.getBoolAttr(o.overlap));
    options = withRanks.getDictionary(ctx);
  }
  return options;
}

FailureOr<TrainStepPassOptions> tp::readTrainStepOptions(func::FuncOp step) {
  std::optional<TrainStepLayout> layout = getTrainStep(step);
  DictionaryAttr dict = layout ? layout->options : nullptr;
  TrainStepPassOptions o;
  bool ok = static_cast<bool>(layout);
  auto real = [&](StringRef name, double &out) {
    auto a = dict ? dict.getAs<FloatAttr>(name) : nullptr;
    ok &= static_cast<bool>(a);
    if (a)
      out = a.getValueAsDouble();
  };
  auto flag = [&](StringRef name, bool &out) {
    auto a = dict ? dict.getAs<BoolAttr>(name) : nullptr;
    ok &= static_cast<bool>(a);
    if (a)
      out = a.getValue();
  };
  auto integer = [&](StringRef name, auto &out) {
    auto a = dict ? dict.getAs<IntegerAttr>(name) : nullptr;
    ok &= static_cast<bool>(a);
    if (a)
      out = a.getInt();
  };
  integer("num_inputs", o.numInputs);
  integer("growth_interval", o.growthInterval);
  real("lr", o.lr);
  real("momentum", o.momentum);
  real("dampening", o.dampening);
  real("weight_decay", o.weightDecay);
  real("beta1", o.beta1);
  real("beta2", o.beta2);
  real("eps", o.eps);
  real("growth_factor", o.growthFactor);
  real("backoff_factor", o.backoffFactor);
  flag("nesterov", o.nesterov);
  flag("amsgrad", o.amsgrad);
  flag("maximize", o.maximize);
  flag("grad_scaler", o.gradScaler);
  // Absent in steps recorded before the option existed.
  if (auto copies = dict ? dict.getAs<BoolAttr>("param_copies") : nullptr)
    o.paramCopies = copies.getValue();
  if (auto ranks = dict ? dict.getAs<IntegerAttr>("world_size") : nullptr)
    o.worldSize = ranks.getInt();
  if (auto bucket = dict ? dict.getAs<IntegerAttr>("bucket_bytes") : nullptr)
    o.bucketBytes = bucket.getInt();
  if (auto overlap = dict ? dict.getAs<BoolAttr>("overlap") : nullptr)
    o.overlap = overlap.getValue();
  auto optimizer = dict ? dict.getAs<StringAttr>("optimizer") : nullptr;
  ok &= static_cast<bool>(optimizer);
  if (!ok)
    return step.emitOpError("malformed ")
           << kTrainStepAttrName
           << ": expected the layout and options tp-train-step records";
  o.optimizer = optimizer.str();
  o.function = layout->function.str();
  return o;
}

FailureOr<func::FuncOp> tp::buildTrainStep(func::FuncOp func,
                                           const TrainStepPassOptions &options,
                                           SymbolTable &symbols) {
  TrainStepBuilder builder(options);
  if (failed(builder.checkOptions(func)))
    return failure();
  return builder.build(func, symbols);
}
