//===- TrainStep.cpp - The tp-train-step pass -----------------------------===//
//
// Builds @f_train_step from the loss function @f: a copy of @f whose loss is
// multiplied by the GradScaler's scale (with grad-scaler) is differentiated
// by tp-autodiff's buildGradientFunction; its body is inlined into the step,
// followed by the found_inf check, one fused optimizer op per parameter and
// the scale update. The helper functions are erased again.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Transforms/Autodiff.h"
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

struct TrainStepPass : public tp::impl::TrainStepPassBase<TrainStepPass> {
  using TrainStepPassBase::TrainStepPassBase;

  void runOnOperation() override;

private:
  FailureOr<func::FuncOp> selectFunction(ModuleOp module, SymbolTable &symbols);
  LogicalResult checkOptions(ModuleOp module);
  /// The state tensors of one parameter, in argument order.
  SmallVector<std::pair<StringRef, Type>> stateOf(Type param,
                                                  MLIRContext *ctx) const;
  LogicalResult build(func::FuncOp func, SymbolTable &symbols);

  Optimizer kind = Optimizer::SGD;
  /// weight-decay, or the optimizer's default.
  double decay = 0.0;
};

} // namespace

/// `base`, or `base` with a number appended, whichever no symbol has.
static std::string unusedName(SymbolTable &symbols, const std::string &base) {
  std::string name = base;
  for (unsigned i = 0; symbols.lookup(name); ++i)
    name = base + "_" + std::to_string(i);
  return name;
}

LogicalResult TrainStepPass::checkOptions(ModuleOp module) {
  if (optimizer == "sgd")
    kind = Optimizer::SGD;
  else if (optimizer == "adamw")
    kind = Optimizer::AdamW;
  else
    return module.emitError("tp-train-step: unknown optimizer '")
           << optimizer << "': expected sgd or adamw";
  decay = weightDecay >= 0.0 ? weightDecay.getValue()
                             : (kind == Optimizer::SGD ? 0.0 : 0.01);
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

SmallVector<std::pair<StringRef, Type>>
TrainStepPass::stateOf(Type param, MLIRContext *ctx) const {
  Type step = RankedTensorType::get({}, IntegerType::get(ctx, 64));
  SmallVector<std::pair<StringRef, Type>> state;
  if (kind == Optimizer::SGD) {
    if (momentum != 0.0)
      state.push_back({"momentum_buffer", param});
  } else {
    state.push_back({"exp_avg", param});
    state.push_back({"exp_avg_sq", param});
    if (amsgrad)
      state.push_back({"max_exp_avg_sq", param});
  }
  state.push_back({"step", step});
  return state;
}

LogicalResult TrainStepPass::build(func::FuncOp func, SymbolTable &symbols) {
  MLIRContext *ctx = func.getContext();
  FunctionType type = func.getFunctionType();
  std::string stepName = (func.getName() + "_train_step").str();
  if (symbols.lookup(stepName))
    return func.emitOpError("tp-train-step: @")
           << stepName << " exists already";
  if (!returnsLoss(func))
    return func.emitOpError("tp-train-step: the first result of @")
           << func.getName() << " must be a 0-d floating tensor (the loss)";
  if (numInputs > type.getNumInputs())
    return func.emitOpError("tp-train-step: num-inputs=")
           << static_cast<unsigned>(numInputs) << " but @" << func.getName()
           << " has " << type.getNumInputs() << " arguments";
  SmallVector<unsigned> params;
  for (unsigned i = numInputs; i < type.getNumInputs(); ++i) {
    if (!isFloatTensor(type.getInput(i)))
      return func.emitOpError("tp-train-step: argument #")
             << i << " of @" << func.getName()
             << " follows the num-inputs=" << static_cast<unsigned>(numInputs)
             << " batch arguments, so it is a parameter, but it is "
             << type.getInput(i) << ", not a floating tensor";
    params.push_back(i);
  }
  if (params.empty())
    return func.emitOpError("tp-train-step: @")
           << func.getName() << " has no parameters after its "
           << static_cast<unsigned>(numInputs) << " batch arguments";

  OpBuilder b(ctx);
  Location loc = func.getLoc();
  auto f32Scalar = RankedTensorType::get({}, b.getF32Type());
  auto i32Scalar = RankedTensorType::get({}, b.getI32Type());

  // The function to differentiate: @f, or with the GradScaler a copy whose
  // first result is loss * scale and whose second is the loss.
  func::FuncOp source = func;
  if (gradScaler) {
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
  SmallVector<Type> inputs(type.getInputs());
  SmallVector<Type> results = {type.getResult(0)};
  SmallVector<Attribute> stateNames;
  for (unsigned p : params)
    results.push_back(type.getInput(p));
  for (unsigned p : params)
    for (auto [name, stateType] : stateOf(type.getInput(p), ctx)) {
      inputs.push_back(stateType);
      results.push_back(stateType);
    }
  for (auto [name, stateType] : stateOf(type.getInput(params[0]), ctx))
    stateNames.push_back(b.getStringAttr(name));
  if (gradScaler) {
    inputs.append({f32Scalar, i32Scalar});
    results.append({f32Scalar, i32Scalar, f32Scalar});
  }
  b.setInsertionPointAfter(func);
  auto step = func::FuncOp::create(b, loc, stepName,
                                   FunctionType::get(ctx, inputs, results));
  symbols.insert(step);
  step.setPublic();
  NamedAttrList layout;
  layout.set("function", b.getStringAttr(func.getName()));
  layout.set("num_inputs", b.getI64IntegerAttr(numInputs));
  layout.set("params", b.getDenseI64ArrayAttr(
                           SmallVector<int64_t>(params.begin(), params.end())));
  layout.set("state", b.getArrayAttr(stateNames));
  layout.set("optimizer", b.getStringAttr(optimizer));
  layout.set("grad_scaler", b.getBoolAttr(gradScaler));
  step->setAttr("tp.train_step", layout.getDictionary(ctx));

  // Forward and backward: the gradient function's body, inlined.
  Block *entry = step.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  Block &gradBody = grad->getBody().front();
  for (unsigned i = 0; i < type.getNumInputs(); ++i)
    mapping.map(gradBody.getArgument(i), entry->getArgument(i));
  unsigned next = type.getNumInputs();
  for (unsigned p : params)
    next += stateOf(type.getInput(p), ctx).size();
  Value scale, tracker;
  if (gradScaler) {
    scale = entry->getArgument(next);
    tracker = entry->getArgument(next + 1);
    mapping.map(gradBody.getArgument(type.getNumInputs()), scale);
  }
  for (Operation &op : gradBody.without_terminator())
    b.clone(op, mapping);
  auto gradRet = cast<func::ReturnOp>(gradBody.getTerminator());
  unsigned numForward = gradRet.getNumOperands() - params.size();
  Value loss = mapping.lookup(gradRet.getOperand(gradScaler ? 1 : 0));
  SmallVector<Value> grads;
  for (unsigned i = 0; i < params.size(); ++i)
    grads.push_back(mapping.lookup(gradRet.getOperand(numForward + i)));
  symbols.erase(*grad);

  // The GradScaler and the optimizer.
  Value foundInf;
  if (gradScaler)
    foundInf = AmpCheckFiniteOp::create(b, loc, grads).getFoundInf();
  SmallVector<Value> newParams, newState;
  unsigned stateArg = type.getNumInputs();
  for (auto [p, g] : llvm::zip_equal(params, grads)) {
    Value param = entry->getArgument(p);
    size_t count = stateOf(param.getType(), ctx).size();
    ValueRange state = entry->getArguments().slice(stateArg, count);
    stateArg += count;
    Operation *update;
    if (kind == Optimizer::SGD) {
      Value buffer = momentum != 0.0 ? state[0] : Value();
      update = FusedSgdOp::create(
          b, loc, param, g, buffer, state.back(), scale, foundInf,
          b.getF64FloatAttr(lr), b.getF64FloatAttr(momentum),
          b.getF64FloatAttr(dampening), b.getF64FloatAttr(decay),
          b.getBoolAttr(nesterov), b.getBoolAttr(maximize));
    } else {
      Value max = amsgrad ? state[2] : Value();
      update = FusedAdamwOp::create(
          b, loc, param, g, state[0], state[1], max, state.back(), scale,
          foundInf, b.getF64FloatAttr(lr), b.getF64FloatAttr(beta1),
          b.getF64FloatAttr(beta2), b.getF64FloatAttr(eps),
          b.getF64FloatAttr(decay), b.getBoolAttr(amsgrad),
          b.getBoolAttr(maximize));
    }
    if (failed(verify(update)))
      return failure();
    newParams.push_back(update->getResult(0));
    llvm::append_range(newState, update->getResults().drop_front());
  }
  SmallVector<Value> returned = {loss};
  llvm::append_range(returned, newParams);
  llvm::append_range(returned, newState);
  if (gradScaler) {
    auto updateScale = AmpUpdateScaleOp::create(
        b, loc, scale, tracker, foundInf, b.getF64FloatAttr(growthFactor),
        b.getF64FloatAttr(backoffFactor), b.getI64IntegerAttr(growthInterval));
    if (failed(verify(updateScale)))
      return failure();
    returned.append({updateScale.getNewScale(),
                     updateScale.getNewGrowthTracker(), foundInf});
  }
  func::ReturnOp::create(b, loc, returned);
  return success();
}

void TrainStepPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkOptions(module)))
    return signalPassFailure();
  SymbolTable symbols(module);
  FailureOr<func::FuncOp> func = selectFunction(module, symbols);
  if (failed(func) || failed(build(*func, symbols)))
    return signalPassFailure();
}
