//===- TPCoreOps.cpp - tp.cast, tp.constant, tp.autocast ------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tp;

/// tp.autocast's device, written as a string: "cuda", "xpu" or "cpu".
static ParseResult parseDeviceName(OpAsmParser &parser,
                                   DeviceTypeAttr &device) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseString(&name))
    return failure();
  std::optional<DeviceType> value = symbolizeDeviceType(name);
  if (!value)
    return parser.emitError(loc, "unknown device type '")
           << name << "': expected one of cuda, xpu, cpu";
  device = DeviceTypeAttr::get(parser.getContext(), *value);
  return success();
}

static void printDeviceName(OpAsmPrinter &printer, Operation *,
                            DeviceTypeAttr device) {
  printer.printString(stringifyDeviceType(device.getValue()));
}

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPCoreOps.cpp.inc"

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

bool CastOp::areCastCompatible(TypeRange inputs, TypeRange outputs) {
  if (inputs.size() != 1 || outputs.size() != 1)
    return false;
  auto in = dyn_cast<RankedTensorType>(inputs.front());
  auto out = dyn_cast<RankedTensorType>(outputs.front());
  return in && out && in.getShape() == out.getShape();
}

static bool isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

LogicalResult CastOp::verify() {
  Type from = elementTypeOf(getInput()), to = elementTypeOf(getResult());
  if (getSaturate() && !isFloat8(to))
    return emitOpError("saturate applies to casts to f8E4M3FN or f8E5M2, not ")
           << to;
  if ((isFloat8(from) && isa<ComplexType>(to)) ||
      (isFloat8(to) && isa<ComplexType>(from)))
    return emitOpError("casts between ")
           << from << " and " << to
           << " are not supported: f8 values convert to and from real types";
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  Type resultType = getType();
  if (getInput().getType() == resultType)
    return getInput();
  // cast(cast(x : A -> B) : B -> A) is x when A -> B is lossless.
  if (auto inner = getInput().getDefiningOp<CastOp>()) {
    Value source = inner.getInput();
    Type a = elementTypeOf(source), b = elementTypeOf(inner.getResult());
    if (source.getType() == resultType && isLosslessConversion(a, b))
      return source;
  }
  return {};
}

namespace {
/// cast(cast(x : A -> B) : B -> C) -> cast(x : A -> C) when A -> B is lossless.
struct FoldLosslessCastChain : public OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<CastOp>();
    if (!inner)
      return failure();
    Value source = inner.getInput();
    if (!isLosslessConversion(elementTypeOf(source),
                              elementTypeOf(inner.getResult())))
      return failure();
    auto chained =
        rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), source);
    chained.setSaturate(op.getSaturate());
    return success();
  }
};
} // namespace

void CastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<FoldLosslessCastChain>(context);
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// AutocastOp
//===----------------------------------------------------------------------===//

Type AutocastOp::getEffectiveDtype() {
  if (auto dtype = getDtype())
    return *dtype;
  MLIRContext *ctx = getContext();
  if (getDeviceType() == DeviceType::Cpu)
    return BFloat16Type::get(ctx);
  return Float16Type::get(ctx);
}

YieldOp AutocastOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult AutocastOp::verify() {
  if (auto dtype = getDtype()) {
    if (!dtype->isF16() && !dtype->isBF16())
      return emitOpError("autocast dtype must be f16 or bf16, got ") << *dtype;
  }
  TypeRange yielded = getYield().getValues().getTypes();
  if (yielded != getResultTypes())
    return emitOpError("region yields ")
           << yielded.size() << " value(s) whose types do not match the "
           << getNumResults() << " result type(s) of the op";
  return success();
}

//===----------------------------------------------------------------------===//
// CustomFunctionOp
//===----------------------------------------------------------------------===//

YieldOp CustomFunctionOp::getForwardYield() {
  return cast<YieldOp>(getForward().front().getTerminator());
}

YieldOp CustomFunctionOp::getBackwardYield() {
  return cast<YieldOp>(getBackward().front().getTerminator());
}

/// The device_type of a custom_fwd / custom_bwd dictionary.
static std::optional<DeviceType> deviceOf(std::optional<DictionaryAttr> dict) {
  if (!dict)
    return std::nullopt;
  auto name = dict->getAs<StringAttr>("device_type");
  return name ? symbolizeDeviceType(name.getValue()) : std::nullopt;
}

std::optional<DeviceType> CustomFunctionOp::getForwardDevice() {
  return deviceOf(getCustomFwd());
}

std::optional<DeviceType> CustomFunctionOp::getBackwardDevice() {
  return deviceOf(getCustomBwd());
}

Type CustomFunctionOp::getCastInputs() {
  if (std::optional<DictionaryAttr> dict = getCustomFwd())
    if (auto type = dict->getAs<TypeAttr>("cast_inputs"))
      return type.getValue();
  return {};
}

/// Checks a custom_fwd / custom_bwd dictionary: a known device_type and, for
/// custom_fwd, an optional floating cast_inputs.
static LogicalResult verifyDecorator(CustomFunctionOp op, StringRef name,
                                     DictionaryAttr dict, bool forward) {
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    if (key == "device_type") {
      auto device = dyn_cast<StringAttr>(entry.getValue());
      if (!device || !symbolizeDeviceType(device.getValue()))
        return op.emitOpError()
               << name << ": device_type must be \"cuda\", \"xpu\" or \"cpu\"";
      continue;
    }
    if (forward && key == "cast_inputs") {
      auto type = dyn_cast<TypeAttr>(entry.getValue());
      if (!type || !isa<FloatType>(type.getValue()))
        return op.emitOpError()
               << name << ": cast_inputs must be a floating type";
      continue;
    }
    return op.emitOpError() << name << ": unknown entry '" << key << "'";
  }
  if (!dict.get("device_type"))
    return op.emitOpError() << name << " needs a device_type";
  return success();
}

LogicalResult CustomFunctionOp::verify() {
  if (std::optional<DictionaryAttr> fwd = getCustomFwd())
    if (failed(verifyDecorator(*this, "custom_fwd", *fwd, /*forward=*/true)))
      return failure();
  if (std::optional<DictionaryAttr> bwd = getCustomBwd())
    if (failed(verifyDecorator(*this, "custom_bwd", *bwd, /*forward=*/false)))
      return failure();
  Block &fwd = getForward().front();
  if (fwd.getArgumentTypes() != getInputs().getTypes())
    return emitOpError("the forward block must take one argument per input, "
                       "of its type");
  if (getForwardYield().getValues().getTypes() != getResultTypes())
    return emitOpError("the forward region must yield the op's result types");
  Block &bwd = getBackward().front();
  SmallVector<Type> expected(getInputs().getTypes());
  llvm::append_range(expected, getResultTypes());
  llvm::append_range(expected, getResultTypes());
  if (bwd.getArgumentTypes() != ArrayRef<Type>(expected))
    return emitOpError("the backward block must take the inputs, the "
                       "results and the results' gradients, of their types");
  ValueRange grads = getBackwardYield().getValues();
  if (grads.size() != getInputs().size())
    return emitOpError("the backward region must yield one gradient per "
                       "input, got ")
           << grads.size() << " for " << getInputs().size();
  for (auto [i, grad, input] : llvm::enumerate(grads, getInputs()))
    if (cast<ShapedType>(grad.getType()).getShape() !=
        cast<ShapedType>(input.getType()).getShape())
      return emitOpError("the gradient of input #")
             << i << " must have its shape " << input.getType() << ", got "
             << grad.getType();
  return success();
}
