//===- BackwardRulesIndexing.cpp - Rules of joins, gathers and pads -------===//
//
// The backward of the ops that move elements by position:
//
//   cat / stack: each input gets its slice of the gradient (tp.slice);
//   slice: tp.slice_backward (the gradient in zeros);
//   embedding: tp.embedding_dense_backward, a scatter-add of g's rows into
//     the weight's (rows of padding_idx get nothing; scale_grad_by_freq
//     divides by each index's count);
//   reflection_pad / replication_pad: the adjoint of the gather along each
//     padded dimension, a sum of gathers (Rule::scatterAlong);
//   trace: g on the diagonal;
//   gather: g scatter-added into zeros at the index (tp.scatter_add);
//   scatter_add: self gets g, src the gather of g at the index (zeros
//     where src is larger than the index);
//   index_copy: self gets g without the copied rows, source the rows of g
//     at the index (a gather with the index expanded);
//   index_put: self gets g (accumulate) or g with the written places
//     zeroed (an index_put of zeros), values g at the indices (a gather of
//     rows by the flattened, wrapped index).
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
LogicalResult catRule(Rule &r, CatOp cat) {
  int64_t dim =
      normalizeDim(static_cast<int64_t>(cat.getDim()), rankOf(cat.getResult()));
  int64_t offset = 0;
  for (Value input : cat.getTensors()) {
    int64_t size = shapeOf(input)[dim];
    if (size > 0 && r.active(input))
      r.give(input, r.sliceAlong(r.grad, dim, offset, size));
    offset += size;
  }
  return success();
}

LogicalResult stackRule(Rule &r, StackOp stack) {
  int64_t dim = normalizeDim(static_cast<int64_t>(stack.getDim()),
                             rankOf(stack.getResult()));
  for (auto [i, input] : llvm::enumerate(stack.getTensors()))
    if (r.active(input))
      r.give(input,
             r.reshape(r.sliceAlong(r.grad, dim, static_cast<int64_t>(i), 1),
                       shapeOf(input)));
  return success();
}

LogicalResult embeddingRule(Rule &r, EmbeddingOp embedding) {
  Value weight = embedding.getWeight(), indices = embedding.getIndices();
  if (!r.active(weight))
    return success();
  int64_t vocabulary = shapeOf(weight)[0];
  auto padding = static_cast<int64_t>(embedding.getPaddingIdx());
  if (padding < 0 || padding >= vocabulary)
    padding = -1; // aten's "none"
  OpBuilder &builder = r.b.builder;
  r.give(weight,
         r.make<EmbeddingDenseBackwardOp>(
             {r.grad, indices},
             {r.attr("num_weights", builder.getI64IntegerAttr(vocabulary)),
              r.attr("padding_idx", builder.getI64IntegerAttr(padding)),
              r.attr("scale_grad_by_freq",
                     builder.getBoolAttr(embedding.getScaleGradByFreq()))}));
  return success();
}

/// reflection_pad{1,2}d, replication_pad{1,2,3}d: padding is (left, right)
/// per dimension, the last dimension first.
LogicalResult padRule(Rule &r, ArrayRef<int64_t> padding, bool reflect) {
  Value x = r.op->getOperand(0), g = r.grad;
  int64_t rank = rankOf(x);
  for (size_t k = 0; 2 * k + 1 < padding.size(); ++k) {
    int64_t dim = rank - 1 - static_cast<int64_t>(k);
    int64_t size = shapeOf(x)[dim], left = padding[2 * k];
    int64_t padded = shapeOf(g)[dim];
    SmallVector<int64_t> source;
    for (int64_t i = 0; i < padded; ++i) {
      int64_t s = i - left;
      if (reflect)
        s = s < 0 ? -s : (s >= size ? 2 * (size - 1) - s : s);
      else
        s = std::clamp<int64_t>(s, 0, size - 1);
      source.push_back(s);
    }
    g = r.scatterAlong(g, dim, source, size);
  }
  r.give(x, g);
  return success();
}

/// slice: aten's slice_backward (the gradient in zeros of the input's
/// shape).
LogicalResult sliceRule(Rule &r, SliceOp slice) {
  Value x = slice.getInput();
  if (!r.active(x))
    return success();
  SmallVector<NamedAttribute> attrs = {
      r.attr("input_sizes", r.b.builder.getDenseI64ArrayAttr(shapeOf(x)))};
  for (NamedAttribute a : slice->getAttrs())
    if (!a.getName().getValue().contains('.'))
      attrs.push_back(a);
  r.give(x, r.make<SliceBackwardOp>(r.grad, attrs));
  return success();
}

LogicalResult traceRule(Rule &r, TraceOp trace) {
  Value x = trace.getInput();
  ArrayRef<int64_t> shape = shapeOf(x);
  SmallVector<double> eye;
  for (int64_t i = 0; i < shape[0]; ++i)
    for (int64_t j = 0; j < shape[1]; ++j)
      eye.push_back(i == j ? 1.0 : 0.0);
  r.give(x, r.mul(r.constant(shape, elementTypeOf(r.grad), eye), r.grad));
  return success();
}
LogicalResult gatherRule(Rule &r, GatherOp gather) {
  Value x = gather.getInput();
  if (r.active(x))
    r.give(x, r.scatterIntoZeros(shapeOf(x),
                                 normalizeDim(gather.getDim(), rankOf(x)),
                                 gather.getIndex(), r.grad));
  return success();
}

/// `g` in zeros up to `shape` (each dimension starting at 0): a chain of
/// tp.slice_backward where g is shorter.
Value padWithZeros(Rule &r, Value g, ArrayRef<int64_t> shape) {
  for (int64_t d = 0; g && d < rankOf(g); ++d) {
    int64_t have = shapeOf(g)[d];
    if (have == shape[d])
      continue;
    SmallVector<int64_t> sizes(shapeOf(g));
    sizes[d] = shape[d];
    OpBuilder &builder = r.b.builder;
    g = r.make<SliceBackwardOp>(
        g, {r.attr("input_sizes", builder.getDenseI64ArrayAttr(sizes)),
            r.attr("dim", builder.getI64IntegerAttr(d)),
            r.attr("start", builder.getI64IntegerAttr(0)),
            r.attr("end", builder.getI64IntegerAttr(have)),
            r.attr("step", builder.getI64IntegerAttr(1))});
  }
  return g;
}

LogicalResult scatterAddRule(Rule &r, ScatterAddOp scatter) {
  Value self = scatter.getInput(), src = scatter.getSrc();
  int64_t dim = normalizeDim(scatter.getDim(), rankOf(self));
  if (r.active(self))
    r.give(self, r.grad);
  if (r.active(src))
    r.give(src, padWithZeros(r, r.gather(r.grad, dim, scatter.getIndex()),
                             shapeOf(src)));
  return success();
}

LogicalResult indexCopyRule(Rule &r, IndexCopyOp copy) {
  Value self = copy.getInput(), source = copy.getSource();
  int64_t rank = rankOf(self);
  int64_t dim = normalizeDim(copy.getDim(), rank);
  if (r.active(self)) {
    ++r.b.numCreated;
    Value zeros = createFloatSplat(
        r.b.builder, r.b.loc,
        RankedTensorType::get(shapeOf(source), elementTypeOf(r.grad)), 0.0);
    r.give(self, r.make<IndexCopyOp>(
                     {r.grad, copy.getIndex(), zeros},
                     {r.attr("dim", r.b.builder.getI64IntegerAttr(dim))}));
  }
  if (r.active(source)) {
    if (rank == 0) {
      r.give(source, r.grad);
      return success();
    }
    SmallVector<int64_t> along(rank, 1);
    along[dim] = shapeOf(source)[dim];
    Value index = r.expand(r.reshape(copy.getIndex(), along), shapeOf(source));
    r.give(source, r.gather(r.grad, dim, index));
  }
  return success();
}

/// index_put(self, [i_0 .. i_k-1], values): the gradient of self, and that
/// of values: g's rows (over the k indexed dims) at sum_j wrap(i_j)
/// stride_j, as the lowering reads them.
LogicalResult indexPutRule(Rule &r, IndexPutOp put) {
  Value self = put.getInput(), values = put.getValues(), g = r.grad;
  ValueRange indices = put.getIndices();
  for (Value index : indices)
    if (elementTypeOf(index).isInteger(1))
      return put.emitOpError(
          "tp-autodiff: index_put with a boolean mask is differentiated "
          "only alone and with values of one selected row (self[mask] = v, "
          "decomposed as where); the count of the mask's true entries is "
          "data");
  if (r.active(self)) {
    if (put.getAccumulate()) {
      r.give(self, g);
    } else {
      SmallVector<Value> operands = {g};
      operands.append(indices.begin(), indices.end());
      operands.push_back(r.scalar(g, 0.0));
      r.give(self,
             r.make<IndexPutOp>(operands,
                                {r.attr("operandSegmentSizes",
                                        put->getAttr("operandSegmentSizes"))}));
    }
  }
  if (!r.active(values))
    return success();
  ArrayRef<int64_t> s = shapeOf(self);
  auto k = static_cast<int64_t>(indices.size());
  int64_t rows = 1, width = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
    (d < k ? rows : width) *= s[d];
  Type i64 = r.b.builder.getI64Type();
  auto integer = [&](int64_t v) {
    return r.constant({}, i64, {static_cast<double>(v)});
  };
  Value flat;
  int64_t stride = rows;
  for (auto [j, index] : llvm::enumerate(indices)) {
    int64_t size = s[j];
    stride /= size;
    Value i = r.castTo(index, i64);
    Value wrapped =
        r.where(r.make<LtOp>({i, integer(0)}), r.add(i, integer(size)), i);
    Value term = stride == 1 ? wrapped : r.mul(wrapped, integer(stride));
    flat = flat ? r.add(flat, term) : term;
  }
  Value taken = r.make<EmbeddingOp>({r.reshape(g, {rows, width}), flat});
  if (!taken)
    return success();
  SmallVector<int64_t> shape(shapeOf(flat));
  shape.append(s.begin() + k, s.end());
  r.give(values, r.reshape(taken, shape));
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyIndexingRule(Rule &r) {
  Operation *op = r.op;
  if (auto cat = dyn_cast<CatOp>(op))
    return catRule(r, cat);
  if (auto stack = dyn_cast<StackOp>(op))
    return stackRule(r, stack);
  if (auto embedding = dyn_cast<EmbeddingOp>(op))
    return embeddingRule(r, embedding);
  if (isa<ReflectionPad1dOp, ReflectionPad2dOp>(op))
    return padRule(r, op->getAttrOfType<DenseI64ArrayAttr>("padding"),
                   /*reflect=*/true);
  if (isa<ReplicationPad1dOp, ReplicationPad2dOp, ReplicationPad3dOp>(op))
    return padRule(r, op->getAttrOfType<DenseI64ArrayAttr>("padding"),
                   /*reflect=*/false);
  if (auto trace = dyn_cast<TraceOp>(op))
    return traceRule(r, trace);
  if (auto slice = dyn_cast<SliceOp>(op))
    return sliceRule(r, slice);
  if (auto gather = dyn_cast<GatherOp>(op))
    return gatherRule(r, gather);
  if (auto scatter = dyn_cast<ScatterAddOp>(op))
    return scatterAddRule(r, scatter);
  if (auto copy = dyn_cast<IndexCopyOp>(op))
    return indexCopyRule(r, copy);
  if (auto put = dyn_cast<IndexPutOp>(op))
    return indexPutRule(r, put);
  return std::nullopt;
}
