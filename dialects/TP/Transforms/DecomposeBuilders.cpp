//===- DecomposeBuilders.cpp - building tp ops in decompositions ----------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;

Value decompose::scalarTensor(PatternRewriter &rewriter, Location loc,
                              Type elementType, double value) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute attr;
  if (auto ft = dyn_cast<FloatType>(elementType))
    attr = DenseElementsAttr::get(type, rewriter.getFloatAttr(ft, value));
  else if (elementType.isInteger(1))
    attr = DenseElementsAttr::get(type, rewriter.getBoolAttr(value != 0));
  else
    attr = DenseElementsAttr::get(
        type, rewriter.getIntegerAttr(elementType, (int64_t)value));
  return makeOp<ConstantOp>(rewriter, loc, type, {},
                            {rewriter.getNamedAttr("value", attr)});
}

Value decompose::scalarFor(PatternRewriter &rewriter, Location loc, Value like,
                           double value) {
  Type element = elementTypeOf(like);
  if (element.isF16() || element.isBF16())
    element = rewriter.getF32Type();
  return scalarTensor(rewriter, loc, element, value);
}

Value decompose::indexTensor(PatternRewriter &rewriter, Location loc,
                             ArrayRef<int64_t> values) {
  auto type =
      RankedTensorType::get({(int64_t)values.size()}, rewriter.getI64Type());
  return makeOp<ConstantOp>(
      rewriter, loc, type, {},
      {rewriter.getNamedAttr("value", DenseElementsAttr::get(type, values))});
}

Value decompose::zerosOf(PatternRewriter &rewriter, Location loc,
                         RankedTensorType type) {
  return makeOp<ConstantOp>(
      rewriter, loc, type, {},
      {rewriter.getNamedAttr(
          "value", DenseElementsAttr::get(
                       type, rewriter.getZeroAttr(type.getElementType())))});
}

LogicalResult decompose::replaceWith(PatternRewriter &rewriter, Operation *op,
                                     Value value) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  value = castTo(rewriter, op->getLoc(), value, type.getElementType());
  if (value.getType() != type)
    return op->emitOpError("decomposition produced ")
           << value.getType() << " instead of " << type;
  rewriter.replaceOp(op, value);
  return success();
}

Value decompose::castTo(PatternRewriter &rewriter, Location loc, Value x,
                        Type elementType) {
  RankedTensorType type = tensorTypeOf(x);
  if (type.getElementType() == elementType)
    return x;
  return makeOp<CastOp>(rewriter, loc, type.clone(elementType), x);
}

Value decompose::transposeLast2(PatternRewriter &rewriter, Location loc,
                                Value x) {
  int64_t r = rankOf(x);
  return build<TransposeOp>(
      rewriter, loc, x,
      {i64Attr(rewriter, "dim0", r - 2), i64Attr(rewriter, "dim1", r - 1)});
}

Value decompose::matmul(PatternRewriter &rewriter, Location loc, Value a,
                        Value b) {
  return build<MatmulOp>(rewriter, loc, {a, b});
}

Value decompose::permute(PatternRewriter &rewriter, Location loc, Value x,
                         ArrayRef<int64_t> dims) {
  return build<PermuteOp>(rewriter, loc, x,
                          {arrayAttr(rewriter, "dims", dims)});
}

Value decompose::linear(PatternRewriter &rewriter, Location loc, Value x,
                        Value w, Value b) {
  SmallVector<Value> operands = {x, w};
  if (b)
    operands.push_back(b);
  return build<LinearOp>(rewriter, loc, operands,
                         {segments(rewriter, {1, 1, b ? 1 : 0, 0})});
}

Value decompose::slice(PatternRewriter &rewriter, Location loc, Value x,
                       int64_t dim, int64_t start, int64_t end) {
  return build<SliceOp>(rewriter, loc, x,
                        {i64Attr(rewriter, "dim", dim),
                         i64Attr(rewriter, "start", start),
                         i64Attr(rewriter, "end", end)});
}

Value decompose::unsqueeze(PatternRewriter &rewriter, Location loc, Value x,
                           int64_t dim) {
  return build<UnsqueezeOp>(rewriter, loc, x, {i64Attr(rewriter, "dim", dim)});
}

Value decompose::reshape(PatternRewriter &rewriter, Location loc, Value x,
                         ArrayRef<int64_t> shape) {
  return build<ReshapeOp>(rewriter, loc, x,
                          {arrayAttr(rewriter, "shape", shape)});
}
