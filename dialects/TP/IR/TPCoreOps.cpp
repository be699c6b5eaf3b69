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
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), source);
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
