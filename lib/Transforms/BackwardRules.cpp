//===- BackwardRules.cpp - Reverse-mode rules of tp ops -------------------===//
//
// Each rule reads the forward op (its operands are the saved activations,
// its results the saved outputs) and the gradient of its result, and builds
// the gradient contributions of its operands as tp ops in the forward's
// dtypes. A contribution whose dtype differs from its operand's (a promoted
// binary op, an explicit dtype=) is cast back by the accumulation.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tp;

//===----------------------------------------------------------------------===//
// BackwardBuilder
//===----------------------------------------------------------------------===//

Operation *BackwardBuilder::createNamedOp(Operation *forward, StringRef name,
                                          ValueRange operands,
                                          ArrayRef<NamedAttribute> attrs) {
  // An attribute the op does not declare would be kept as a discardable one
  // and its default used instead: a misspelled `keepdim` would change the
  // result silently.
  std::optional<RegisteredOperationName> info =
      RegisteredOperationName::lookup(name, builder.getContext());
  for (const NamedAttribute &attr : attrs) {
    if (info && llvm::is_contained(info->getAttributeNames(), attr.getName()))
      continue;
    forward->emitOpError("internal error: tp-autodiff gave ")
        << name << " the attribute '" << attr.getName().getValue()
        << "', which it does not have";
    hadError = true;
    return nullptr;
  }
  Operation *op =
      createWithInferredResultTypes(builder, loc, name, operands, attrs);
  if (!op) {
    forward->emitOpError("internal error: tp-autodiff could not build ")
        << name << " for its backward";
    hadError = true;
    return nullptr;
  }
  ++numCreated;
  return op;
}

Value mlir::tp::createFloatSplat(OpBuilder &builder, Location loc,
                                 RankedTensorType type, double value) {
  // A complex splat: the pair (value, 0) expanded and viewed as complex.
  if (auto complex = dyn_cast<ComplexType>(type.getElementType())) {
    Type real = complex.getElementType();
    auto pairType = RankedTensorType::get({2}, real);
    Value pair = ConstantOp::create(
        builder, loc, pairType,
        DenseElementsAttr::get(
            pairType, ArrayRef<Attribute>{builder.getFloatAttr(real, value),
                                          builder.getFloatAttr(real, 0.0)}));
    SmallVector<int64_t> pairs(type.getShape());
    pairs.push_back(2);
    Value expanded =
        createWithInferredResultTypes(
            builder, loc, ExpandOp::getOperationName(), pair,
            {builder.getNamedAttr("size", builder.getDenseI64ArrayAttr(pairs))})
            ->getResult(0);
    return createWithInferredResultTypes(
               builder, loc, ViewAsComplexOp::getOperationName(), expanded, {})
        ->getResult(0);
  }
  return ConstantOp::create(
      builder, loc, type,
      DenseElementsAttr::get(
          type, builder.getFloatAttr(type.getElementType(), value)));
}

Value mlir::tp::createZeros(OpBuilder &builder, Location loc,
                            RankedTensorType type) {
  auto complex = dyn_cast<ComplexType>(type.getElementType());
  if (!complex)
    return createFloatSplat(builder, loc, type, 0.0);
  SmallVector<int64_t> pairs(type.getShape());
  pairs.push_back(2);
  Value zeros = createFloatSplat(
      builder, loc, RankedTensorType::get(pairs, complex.getElementType()),
      0.0);
  return createWithInferredResultTypes(
             builder, loc, ViewAsComplexOp::getOperationName(), zeros, {})
      ->getResult(0);
}

bool mlir::tp::isDifferentiable(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType, ComplexType>(tensor.getElementType());
}

Value mlir::tp::realPartOf(OpBuilder &builder, Location loc, Value z) {
  auto make = [&](StringRef name, Value v, ArrayRef<NamedAttribute> attrs) {
    return createWithInferredResultTypes(builder, loc, name, v, attrs)
        ->getResult(0);
  };
  int64_t last = cast<RankedTensorType>(z.getType()).getRank();
  Value re = make(SliceOp::getOperationName(),
                  make(ViewAsRealOp::getOperationName(), z, {}),
                  {builder.getNamedAttr("dim", builder.getI64IntegerAttr(last)),
                   builder.getNamedAttr("start", builder.getI64IntegerAttr(0)),
                   builder.getNamedAttr("end", builder.getI64IntegerAttr(1))});
  return make(ReshapeOp::getOperationName(), re,
              {builder.getNamedAttr("shape",
                                    builder.getDenseI64ArrayAttr(shapeOf(z)))});
}

Value BackwardBuilder::scalar(Value like, double value) {
  ++numCreated;
  // A complex tensor is scaled by a real scalar.
  Type element = elementTypeOf(like);
  if (auto complex = dyn_cast<ComplexType>(element))
    element = complex.getElementType();
  return createFloatSplat(builder, loc, RankedTensorType::get({}, element),
                          value);
}

Value BackwardBuilder::unbroadcast(Operation *forward, Value grad,
                                   Value target) {
  ArrayRef<int64_t> from = shapeOf(grad), to = shapeOf(target);
  if (from == to)
    return grad;
  SmallVector<int64_t> dims;
  size_t lead = from.size() - to.size();
  for (size_t d = 0; d < from.size(); ++d)
    if (d < lead || (to[d - lead] == 1 && from[d] != 1))
      dims.push_back(static_cast<int64_t>(d));
  // A complex gradient is summed as its (..., 2) real pairs.
  bool complex = isa<ComplexType>(elementTypeOf(grad));
  Value summed = grad;
  if (!dims.empty()) {
    if (complex)
      summed = create<ViewAsRealOp>(forward, summed, {});
    summed = create<SumOp>(
        forward, summed,
        {builder.getNamedAttr("dim", builder.getDenseI64ArrayAttr(dims)),
         builder.getNamedAttr("keepdim", builder.getBoolAttr(true))});
    if (complex && summed)
      summed = create<ViewAsComplexOp>(forward, summed, {});
  }
  if (!summed || shapeOf(summed) == to)
    return summed;
  return create<ReshapeOp>(
      forward, summed,
      {builder.getNamedAttr("shape", builder.getDenseI64ArrayAttr(to))});
}

//===----------------------------------------------------------------------===//
// Rule
//===----------------------------------------------------------------------===//

Operation *Rule::makeNamedOp(StringRef name, ValueRange operands,
                             ArrayRef<NamedAttribute> attrs) {
  for (Value v : operands)
    if (!v)
      return nullptr;
  return b.createNamedOp(op, name, operands, attrs);
}

Value Rule::makeNamed(StringRef name, ValueRange operands,
                      ArrayRef<NamedAttribute> attrs) {
  Operation *created = makeNamedOp(name, operands, attrs);
  return created ? created->getResult(0) : Value();
}

Value Rule::scalar(Value like, double value) {
  if (!like)
    return {};
  return b.scalar(like, value);
}

Value Rule::scale(Value x, double value) {
  if (value == 1.0)
    return x;
  return mul(x, scalar(x, value));
}

Value Rule::transpose(Value x, int64_t dim0, int64_t dim1) {
  return make<TransposeOp>(x,
                           {attr("dim0", b.builder.getI64IntegerAttr(dim0)),
                            attr("dim1", b.builder.getI64IntegerAttr(dim1))});
}

Value Rule::transposeLast(Value x) {
  if (!x)
    return {};
  int64_t rank = rankOf(x);
  return transpose(x, rank - 2, rank - 1);
}

Value Rule::permute(Value x, ArrayRef<int64_t> dims) {
  bool identity = true;
  for (auto [i, d] : llvm::enumerate(dims))
    identity &= d == static_cast<int64_t>(i);
  if (!x || identity)
    return x;
  return make<PermuteOp>(x,
                         {attr("dims", b.builder.getDenseI64ArrayAttr(dims))});
}

Value Rule::reshape(Value x, ArrayRef<int64_t> shape) {
  if (!x || shapeOf(x) == shape)
    return x;
  return make<ReshapeOp>(
      x, {attr("shape", b.builder.getDenseI64ArrayAttr(shape))});
}

Value Rule::expand(Value x, ArrayRef<int64_t> shape) {
  if (!x || shapeOf(x) == shape)
    return x;
  return make<ExpandOp>(x,
                        {attr("size", b.builder.getDenseI64ArrayAttr(shape))});
}

Value Rule::sumAlong(Value x, ArrayRef<int64_t> dims, bool keepdim) {
  return make<SumOp>(x, {attr("dim", b.builder.getDenseI64ArrayAttr(dims)),
                         attr("keepdim", b.builder.getBoolAttr(keepdim))});
}

Value Rule::meanAlong(Value x, ArrayRef<int64_t> dims, bool keepdim) {
  return make<MeanOp>(x, {attr("dim", b.builder.getDenseI64ArrayAttr(dims)),
                          attr("keepdim", b.builder.getBoolAttr(keepdim))});
}

Value Rule::castTo(Value x, Type element) {
  if (!x || elementTypeOf(x) == element)
    return x;
  ++b.numCreated;
  return CastOp::create(b.builder, b.loc,
                        cast<RankedTensorType>(x.getType()).clone(element), x);
}

Value Rule::passAbove(Value g, Value self, double threshold) {
  return make<ThresholdBackwardOp>(
      {g, self}, {attr("threshold", b.builder.getF64FloatAttr(threshold))});
}

Value Rule::softmaxBackward(Value g, Value y, int64_t dim, bool log) {
  return makeNamed(log ? LogSoftmaxBackwardOp::getOperationName()
                       : SoftmaxBackwardOp::getOperationName(),
                   {g, y}, {attr("dim", b.builder.getI64IntegerAttr(dim))});
}

Value Rule::isZero(Value x) {
  Value one = scalar(x, 1.0);
  return sub(one, passAbove(one, make<AbsOp>(x), 0.0));
}

Value Rule::sign(Value x) {
  Value one = scalar(x, 1.0);
  return sub(passAbove(one, x, 0.0), passAbove(one, neg(x), 0.0));
}

Value Rule::power(Value x, double e) {
  return make<PowOp>(
      x,
      {attr("operandSegmentSizes", b.builder.getDenseI32ArrayAttr({1, 0, 0})),
       attr("scalar_exponent", b.builder.getF64FloatAttr(e))});
}

Value Rule::cat(ValueRange values, int64_t dim) {
  return make<CatOp>(values,
                     {attr("operandSegmentSizes",
                           b.builder.getDenseI32ArrayAttr(
                               {static_cast<int32_t>(values.size()), 0})),
                      attr("dim", b.builder.getI64IntegerAttr(dim))});
}

Value Rule::equalIndices(Value a, Value b, Type element) {
  return isZero(castTo(sub(a, b), element));
}

Value Rule::clamp(Value x, double lo, double hi) {
  return make<MaximumOp>({make<MinimumOp>({x, scalar(x, hi)}), scalar(x, lo)});
}

Value Rule::constant(ArrayRef<int64_t> shape, Type element,
                     ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, element);
  SmallVector<Attribute> entries;
  for (double v : values)
    entries.push_back(
        isa<IntegerType>(element)
            ? static_cast<Attribute>(
                  b.builder.getIntegerAttr(element, static_cast<int64_t>(v)))
            : static_cast<Attribute>(b.builder.getFloatAttr(element, v)));
  ++b.numCreated;
  return ConstantOp::create(b.builder, b.loc, type,
                            DenseElementsAttr::get(type, entries));
}

Value Rule::gatherAlong(Value v, int64_t dim, ArrayRef<int64_t> indices) {
  if (!v)
    return {};
  int64_t rank = rankOf(v);
  SmallVector<int64_t> perm = {dim};
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      perm.push_back(d);
  SmallVector<int64_t> inverse = invertPermutationVector(perm);
  Value front = permute(v, perm);
  if (!front)
    return {};
  SmallVector<int64_t> frontShape(shapeOf(front));
  int64_t rest = 1;
  for (int64_t d = 1; d < rank; ++d)
    rest *= frontShape[d];
  Value rows = reshape(front, {frontShape[0], rest});
  SmallVector<double> entries(indices.begin(), indices.end());
  Value index = constant({static_cast<int64_t>(indices.size())},
                         b.builder.getIntegerType(64), entries);
  Value kept = make<EmbeddingOp>({rows, index});
  frontShape[0] = static_cast<int64_t>(indices.size());
  return permute(reshape(kept, frontShape), inverse);
}

Value Rule::scatterIntoZeros(ArrayRef<int64_t> shape, int64_t dim, Value index,
                             Value src) {
  if (!src || !index)
    return {};
  ++b.numCreated;
  Value zeros = createFloatSplat(
      b.builder, b.loc, RankedTensorType::get(shape, elementTypeOf(src)), 0.0);
  return make<ScatterAddOp>({zeros, index, src},
                            {attr("dim", b.builder.getI64IntegerAttr(dim))});
}

Value Rule::gather(Value v, int64_t dim, Value index) {
  return make<GatherOp>({v, index},
                        {attr("dim", b.builder.getI64IntegerAttr(dim))});
}

Value Rule::sliceAlong(Value v, int64_t dim, int64_t start, int64_t size) {
  if (!v || (start == 0 && shapeOf(v)[dim] == size))
    return v;
  OpBuilder &builder = b.builder;
  return make<SliceOp>(v,
                       {attr("dim", builder.getI64IntegerAttr(dim)),
                        attr("start", builder.getI64IntegerAttr(start)),
                        attr("end", builder.getI64IntegerAttr(start + size))});
}

Value Rule::scatterAlong(Value g, int64_t dim, ArrayRef<int64_t> target,
                         int64_t size) {
  if (!g)
    return {};
  // sources[j]: the entries of g that go to entry j.
  SmallVector<SmallVector<int64_t>> sources(size);
  for (auto [i, j] : llvm::enumerate(target))
    if (j >= 0)
      sources[j].push_back(static_cast<int64_t>(i));
  size_t depth = 0;
  bool identity = static_cast<int64_t>(target.size()) == size;
  for (auto [j, list] : llvm::enumerate(sources)) {
    depth = std::max(depth, list.size());
    identity &= list.size() == 1 && list[0] == static_cast<int64_t>(j);
  }
  if (identity)
    return g;
  // g with one zero entry appended along dim, which the gathers read where
  // an entry has fewer sources than the deepest.
  SmallVector<int64_t> zeroShape(shapeOf(g));
  zeroShape[dim] = 1;
  auto zeroType = RankedTensorType::get(zeroShape, elementTypeOf(g));
  ++b.numCreated;
  Value zeros = createFloatSplat(b.builder, b.loc, zeroType, 0.0);
  auto zeroIndex = static_cast<int64_t>(target.size());
  Value padded = cat({g, zeros}, dim);
  Value sum;
  for (size_t k = 0; k < depth; ++k) {
    SmallVector<int64_t> indices;
    for (const auto &list : sources)
      indices.push_back(k < list.size() ? list[k] : zeroIndex);
    Value part = gatherAlong(padded, dim, indices);
    sum = sum ? add(sum, part) : part;
  }
  return sum;
}

void Rule::give(Value operand, Value contribution) {
  if (!contribution || !active(operand))
    return;
  if (Value v = b.unbroadcast(op, contribution, operand))
    b.add(operand, v);
}

Value mlir::tp::expandReduced(Rule &r, Value grad, Value input,
                              ArrayRef<int64_t> dims, bool keepdim) {
  SmallVector<int64_t> kept(shapeOf(input));
  for (int64_t d : dims)
    kept[d] = 1;
  Value g = keepdim ? grad : r.reshape(grad, kept);
  return r.expand(g, shapeOf(input));
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult mlir::tp::applyBackwardRule(Operation *op,
                                          ArrayRef<Value> resultGrads,
                                          BackwardBuilder &b) {
  if (isa<ConstantOp>(op))
    return success();
  if (auto compute = dyn_cast<ComputeOpInterface>(op)) {
    if (compute.isInplaceOrOut())
      return op->emitOpError(
          "tp-autodiff: in-place and out= forms are not differentiated; use "
          "the plain form");
  }
  Rule r{op, resultGrads.empty() ? Value() : resultGrads[0], b, resultGrads};
  if (llvm::none_of(resultGrads, [](Value g) { return static_cast<bool>(g); }))
    return success();
  // The factorizations differentiate each of their results.
  if (std::optional<LogicalResult> linalg = applyLinalgRule(r))
    return success(succeeded(*linalg) && !b.hadError);
  // The other rules differentiate the first result only.
  for (auto [i, g] : llvm::enumerate(resultGrads))
    if (i > 0 && g)
      return op->emitOpError("tp-autodiff: the gradient through result #")
             << i << " of '" << op->getName()
             << "' is not implemented (only the first result's is)";
  if (!r.grad)
    return success();
  if (auto cast = dyn_cast<CastOp>(op)) {
    // The cast is reversed: the gradient goes back to the source dtype.
    r.give(cast.getInput(), r.grad);
    return success();
  }
  std::optional<LogicalResult> result;
  for (auto family :
       {applyComplexRule, applyElementwiseRule, applyProductRule,
        applyReductionRule, applyNormalizationRule, applyConvolutionRule,
        applyLossRule, applyExtremaRule, applyIndexingRule, applyPoolingRule})
    if ((result = family(r)))
      break;
  if (!result)
    return op->emitOpError("tp-autodiff: no backward rule for '")
           << op->getName()
           << "' yet (it is on the path from a differentiated argument to "
              "the loss)";
  // A backward op that could not be built was diagnosed where it failed.
  return success(succeeded(*result) && !b.hadError);
}
