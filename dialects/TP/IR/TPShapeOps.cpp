//===- TPShapeOps.cpp - tp data movement, indexing, pooling ---------------===//

#include "CheckedInt64.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPShapeOps.cpp.inc"

static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }

static LogicalResult layoutShape(RuleContext &op, LayoutKind kind,
                                 SmallVectorImpl<int64_t> &shape) {
  Value input = op.getOperand(0);
  ArrayRef<int64_t> x = shapeOf(input);
  int64_t rank = x.size();
  switch (kind) {
  case LayoutKind::Transpose: {
    auto t = op.as<TransposeOp>();
    FailureOr<int64_t> a = normalizeDim(op, t.getDim0(), rank, "dim0");
    FailureOr<int64_t> b = normalizeDim(op, t.getDim1(), rank, "dim1");
    if (failed(a) || failed(b))
      return failure();
    shape.assign(x.begin(), x.end());
    if (rank)
      std::swap(shape[*a], shape[*b]);
    return success();
  }
  case LayoutKind::Permute: {
    ArrayRef<int64_t> dims = op.as<PermuteOp>().getDims();
    if (static_cast<int64_t>(dims.size()) != rank)
      return op.emitOpError("dims must list each of the ")
             << rank << " dimensions once, got " << dims.size() << " entries";
    llvm::SmallSet<int64_t, 4> seen;
    for (int64_t d : dims) {
      FailureOr<int64_t> dim = normalizeDim(op, d, rank, "dims entry");
      if (failed(dim))
        return failure();
      if (!seen.insert(*dim).second)
        return op.emitOpError("dims is not a permutation: ") << d << " repeats";
      shape.push_back(x[*dim]);
    }
    return success();
  }
  case LayoutKind::Reshape: {
    ArrayRef<int64_t> target = op.as<ReshapeOp>().getShape();
    auto formatTarget = [&] {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "[";
      llvm::interleaveComma(target, os);
      os << "]";
      return text;
    };
    int64_t inferred = -1;
    CheckedInt64 known = 1;
    for (auto [i, d] : llvm::enumerate(target)) {
      if (d == -1) {
        if (inferred >= 0)
          return op.emitOpError("only one dimension can be inferred (-1)");
        inferred = i;
      } else if (d < 0) {
        return op.emitOpError("invalid shape dimension ") << d;
      } else {
        known = known * d;
      }
    }
    if (!known.value())
      return op.emitOpError("shape ")
             << formatTarget()
             << " is too large: its number of elements overflows int64";
    shape.assign(target.begin(), target.end());
    int64_t numel = numElementsOrDynamic(x), size = *known.value();
    auto invalid = [&] {
      return op.emitOpError("shape ")
             << formatTarget() << " is invalid for an input of " << numel
             << " elements";
    };
    if (inferred < 0) {
      if (!isDyn(numel) && numel != size)
        return invalid();
      return success();
    }
    if (size == 0) {
      // -1 next to a 0 dimension: any size fits (PyTorch's infer_size).
      if (!isDyn(numel) && numel != 0)
        return invalid();
      InFlightDiagnostic diag = op.emitOpError("cannot reshape a tensor of ");
      if (isDyn(numel))
        diag << "?";
      else
        diag << numel;
      return diag << " elements into shape " << formatTarget()
                  << " because the unspecified dimension size -1 can be any "
                     "value and is ambiguous";
    }
    if (isDyn(numel))
      shape[inferred] = ShapedType::kDynamic;
    else if (numel % size != 0)
      return invalid();
    else
      shape[inferred] = numel / size;
    return success();
  }
  case LayoutKind::Expand: {
    ArrayRef<int64_t> size = op.as<ExpandOp>().getSize();
    int64_t extra = static_cast<int64_t>(size.size()) - rank;
    if (extra < 0)
      return op.emitOpError("the number of sizes (")
             << size.size() << ") must be at least the input rank (" << rank
             << ")";
    for (auto [i, d] : llvm::enumerate(size)) {
      int64_t in = static_cast<int64_t>(i) >= extra ? x[i - extra] : 1;
      if (d == -1) {
        if (static_cast<int64_t>(i) < extra)
          return op.emitOpError("-1 is not allowed for a new leading "
                                "dimension");
        shape.push_back(in);
      } else if (d < 0) {
        return op.emitOpError("invalid expand size ") << d;
      } else if (in == 1 || isDyn(in) || in == d) {
        shape.push_back(d);
      } else {
        return op.emitOpError("cannot expand dimension ")
               << i << " of size " << in << " to " << d;
      }
    }
    return success();
  }
  case LayoutKind::Unsqueeze: {
    FailureOr<int64_t> dim =
        normalizeDim(op, op.as<UnsqueezeOp>().getDim(), rank + 1);
    if (failed(dim))
      return failure();
    shape.assign(x.begin(), x.end());
    shape.insert(shape.begin() + *dim, 1);
    return success();
  }
  case LayoutKind::Squeeze: {
    std::optional<ArrayRef<int64_t>> dims = op.as<SqueezeOp>().getDim();
    llvm::SmallSet<int64_t, 4> selected;
    if (dims) {
      for (int64_t d : *dims) {
        FailureOr<int64_t> dim = normalizeDim(op, d, rank);
        if (failed(dim))
          return failure();
        selected.insert(*dim);
      }
    }
    for (int64_t i = 0; i < rank; ++i)
      if (x[i] != 1 || (dims && !selected.count(i)))
        shape.push_back(x[i]);
    return success();
  }
  case LayoutKind::Flatten: {
    auto f = op.as<FlattenOp>();
    if (rank == 0) {
      shape.push_back(1);
      return success();
    }
    FailureOr<int64_t> s = normalizeDim(op, f.getStartDim(), rank, "start_dim");
    FailureOr<int64_t> e = normalizeDim(op, f.getEndDim(), rank, "end_dim");
    if (failed(s) || failed(e))
      return failure();
    if (*s > *e)
      return op.emitOpError("start_dim cannot come after end_dim");
    shape.append(x.begin(), x.begin() + *s);
    shape.push_back(numElementsOrDynamic(x.slice(*s, *e - *s + 1)));
    shape.append(x.begin() + *e + 1, x.end());
    return success();
  }
  }
  llvm_unreachable("unknown layout kind");
}

LogicalResult mlir::tp::inferLayoutShape(RuleContext &op, LayoutKind kind) {
  SmallVector<int64_t> shape;
  if (failed(layoutShape(op, kind, shape)))
    return failure();
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferJoinShape(RuleContext &op, bool stack) {
  ValueRange tensors = op.getComputeOperands();
  if (tensors.empty())
    return op.emitOpError("expected a non-empty list of tensors");
  ArrayRef<int64_t> first = shapeOf(tensors.front());
  int64_t rank = first.size();
  int64_t d = op.getAttrOfType<IntegerAttr>("dim")
                  ? op.getAttrOfType<IntegerAttr>("dim").getInt()
                  : 0;
  FailureOr<int64_t> dim = normalizeDim(op, d, stack ? rank + 1 : rank);
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(first);
  int64_t total = 0;
  for (auto [i, t] : llvm::enumerate(tensors)) {
    ArrayRef<int64_t> s = shapeOf(t);
    if (static_cast<int64_t>(s.size()) != rank)
      return op.emitOpError("tensor #")
             << i << " has rank " << s.size() << ", expected " << rank;
    for (int64_t j = 0; j < rank; ++j) {
      if (!stack && j == *dim)
        continue;
      if (failed(expectDimsMatch(op, s[j], first[j],
                                 "tensor #" + std::to_string(i) +
                                     " differs in dimension " +
                                     std::to_string(j))))
        return failure();
    }
    if (!stack)
      total = isDyn(total) || isDyn(s[*dim]) ? ShapedType::kDynamic
                                             : total + s[*dim];
  }
  if (stack)
    shape.insert(shape.begin() + *dim, tensors.size());
  else
    shape[*dim] = total;
  return op.setResultShape(0, shape);
}

/// aten's scatter/gather shape rule: index is no larger than `other` in
/// every dimension but `skipDim` (-1: none).
static LogicalResult expectIndexFits(RuleContext &op, Value index, Value other,
                                     int64_t skipDim, StringRef otherName) {
  ArrayRef<int64_t> in = shapeOf(index), to = shapeOf(other);
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d)
    if (d != skipDim && !isDyn(in[d]) && !isDyn(to[d]) && in[d] > to[d])
      return op.emitOpError("index has size ")
             << in[d] << " in dimension " << d << ", larger than " << otherName
             << "'s " << to[d];
  return success();
}

static LogicalResult expectIndexTensor(RuleContext &op, Value index,
                                       StringRef name, bool allowBool = false) {
  Type type = elementTypeOf(index);
  if ((isa<IntegerType>(type) && !type.isInteger(1)) ||
      (allowBool && type.isInteger(1)))
    return success();
  return op.emitOpError("expected ")
         << name << " to be an integer tensor, got " << index.getType();
}

LogicalResult mlir::tp::inferIndexedShape(RuleContext &op, Value input,
                                          Value index, Value source) {
  int64_t d = op.getAttrOfType<IntegerAttr>("dim").getInt();
  FailureOr<int64_t> dim = normalizeDim(op, d, rankOf(input));
  if (failed(dim) || failed(expectIndexTensor(op, index, "index")))
    return failure();
  if (op.isa<IndexCopyOp>()) {
    if (failed(expectRank(op, index, "a 1-D index", 0, 1)))
      return failure();
    SmallVector<int64_t> expected(shapeOf(input));
    if (!expected.empty())
      expected[*dim] = rankOf(index) ? shapeOf(index)[0] : 1;
    if (rankOf(source) != static_cast<int64_t>(expected.size()) ||
        !llvm::equal(shapeOf(source), expected, [](int64_t a, int64_t b) {
          return isDyn(a) || isDyn(b) || a == b;
        }))
      return op.emitOpError("source must have shape ")
             << formatShape(expected) << ", got "
             << formatShape(shapeOf(source));
  } else if (rankOf(index) != rankOf(input) ||
             rankOf(source) != rankOf(input)) {
    return op.emitOpError("index and src must have the rank of self (")
           << rankOf(input) << ")";
  } else if (failed(expectIndexFits(op, index, input, *dim, "self")) ||
             failed(expectIndexFits(op, index, source, -1, "src"))) {
    return failure();
  }
  return op.setResultShape(0, shapeOf(input));
}

LogicalResult mlir::tp::inferGatherShape(RuleContext &op) {
  auto gather = op.as<GatherOp>();
  Value input = gather.getInput(), index = gather.getIndex();
  FailureOr<int64_t> dim = normalizeDim(op, gather.getDim(), rankOf(input));
  if (failed(dim) || failed(expectIndexTensor(op, index, "index")))
    return failure();
  if (rankOf(index) != rankOf(input))
    return op.emitOpError("index must have the rank of self (")
           << rankOf(input) << "), got " << rankOf(index);
  if (failed(expectIndexFits(op, index, input, *dim, "self")))
    return failure();
  return op.setResultShape(0, shapeOf(index));
}

LogicalResult mlir::tp::inferIndexPutShape(RuleContext &op) {
  auto put = op.as<IndexPutOp>();
  ArrayRef<int64_t> self = shapeOf(put.getInput());
  // An integer index takes one dimension of self, a boolean mask as many
  // as it has, whose sizes it must have (tensorplay's check).
  int64_t taken = 0;
  for (Value index : put.getIndices()) {
    if (failed(expectIndexTensor(op, index, "indices", /*allowBool=*/true)))
      return failure();
    if (!elementTypeOf(index).isInteger(1)) {
      ++taken;
      continue;
    }
    for (auto [j, size] : llvm::enumerate(shapeOf(index))) {
      int64_t d = taken + static_cast<int64_t>(j);
      if (d < static_cast<int64_t>(self.size()) && !isDyn(size) &&
          !isDyn(self[d]) && size != self[d])
        return op.emitOpError("the shape of the mask ")
               << formatShape(shapeOf(index)) << " at index " << j
               << " does not match the shape of the indexed tensor "
               << formatShape(self) << " at index " << d;
    }
    taken += rankOf(index);
  }
  if (taken > static_cast<int64_t>(self.size()))
    return op.emitOpError("too many indices for a tensor of rank ")
           << self.size();
  return op.setResultShape(0, self);
}

LogicalResult mlir::tp::inferEmbeddingShape(RuleContext &op) {
  auto emb = op.as<EmbeddingOp>();
  if (failed(expectRank(op, emb.getWeight(), "a 2-D weight", 2, 2)) ||
      failed(expectIndexTensor(op, emb.getIndices(), "indices")))
    return failure();
  SmallVector<int64_t> shape(shapeOf(emb.getIndices()));
  shape.push_back(shapeOf(emb.getWeight())[1]);
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferEmbeddingDenseBackwardShape(RuleContext &op) {
  auto bwd = op.as<EmbeddingDenseBackwardOp>();
  Value grad = bwd.getGradOutput(), indices = bwd.getIndices();
  if (failed(expectIndexTensor(op, indices, "indices")))
    return failure();
  int64_t rank = rankOf(indices);
  if (failed(expectRank(op, grad, "a grad_output of the indices' rank + 1",
                        rank + 1, rank + 1)))
    return failure();
  ArrayRef<int64_t> g = shapeOf(grad), i = shapeOf(indices);
  for (int64_t d = 0; d < rank; ++d)
    if (failed(expectDimsMatch(op, g[d], i[d],
                               "grad_output dim " + Twine(d) +
                                   " must equal the indices'")))
      return failure();
  int64_t rows = bwd.getNumWeights(), padding = bwd.getPaddingIdx();
  if (rows < 1)
    return op.emitOpError("num_weights must be positive, got ") << rows;
  if (padding < -1 || padding >= rows)
    return op.emitOpError("padding_idx must be -1 (none) or in [0, ")
           << rows << "), got " << padding;
  return op.setResultShape(0, {rows, g[rank]});
}

SliceRange mlir::tp::sliceRange(int64_t size, std::optional<int64_t> start,
                                std::optional<int64_t> end, int64_t step) {
  auto clampIndex = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v)
      return dflt;
    int64_t i = *v < 0 ? (*v < -size ? 0 : *v + size) : *v;
    return std::min(i, size);
  };
  int64_t lo = clampIndex(start, 0), hi = clampIndex(end, size);
  int64_t length = hi > lo ? (hi - lo - 1) / step + 1 : 0;
  return {lo, length};
}

SliceRange mlir::tp::sliceRange(int64_t size, IntegerAttr start,
                                IntegerAttr end, int64_t step) {
  auto value = [](IntegerAttr a) -> std::optional<int64_t> {
    return a ? std::optional<int64_t>(a.getInt()) : std::nullopt;
  };
  return sliceRange(size, value(start), value(end), step);
}

LogicalResult mlir::tp::inferSliceShape(RuleContext &op, bool backward) {
  Value v = op.getOperand(0);
  SmallVector<int64_t> shape;
  if (backward) {
    ArrayRef<int64_t> sizes =
        op.getAttrOfType<DenseI64ArrayAttr>("input_sizes");
    if (sizes.size() != static_cast<size_t>(rankOf(v)))
      return op.emitOpError("input_sizes must have grad_output's rank (")
             << rankOf(v) << "), got " << sizes.size() << " values";
    if (llvm::any_of(sizes, [](int64_t s) { return s < 0; }))
      return op.emitOpError("input_sizes must not be negative");
    shape.assign(sizes.begin(), sizes.end());
  } else {
    shape.assign(shapeOf(v).begin(), shapeOf(v).end());
  }
  if (shape.empty())
    return op.emitOpError("cannot slice a 0-d tensor");
  FailureOr<int64_t> dim = normalizeDim(
      op, op.getAttrOfType<IntegerAttr>("dim").getInt(), shape.size());
  if (failed(dim))
    return failure();
  int64_t step = op.getAttrOfType<IntegerAttr>("step").getInt();
  if (step <= 0)
    return op.emitOpError("slice step must be positive, got ") << step;
  SmallVector<int64_t> sliced(shape);
  int64_t &d = sliced[*dim];
  if (!isDyn(d))
    d = sliceRange(d, op.getAttrOfType<IntegerAttr>("start"),
                   op.getAttrOfType<IntegerAttr>("end"), step)
            .length;
  if (!backward)
    return op.setResultShape(0, sliced);
  if (failed(expectGradShape(op, v, sliced, "slice")))
    return failure();
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferPadShape(RuleContext &op, int64_t n) {
  Value input = op.getOperand(0);
  ArrayRef<int64_t> padding = op.getAttrOfType<DenseI64ArrayAttr>("padding");
  if (failed(expectRank(op, input, "an input", n + 1, n + 2)))
    return failure();
  if (static_cast<int64_t>(padding.size()) != 2 * n)
    return op.emitOpError("padding must have ")
           << 2 * n << " values, got " << padding.size();
  bool reflection = op.getName().getStringRef().contains("reflection");
  SmallVector<int64_t> shape(shapeOf(input));
  for (int64_t i = 0; i < n; ++i) {
    // padding lists (left, right) of the last dimension first.
    int64_t lo = padding[2 * i], hi = padding[2 * i + 1];
    int64_t &dim = shape[shape.size() - 1 - i];
    if (reflection && !isDyn(dim) && (lo >= dim || hi >= dim))
      return op.emitOpError("reflection padding must be smaller than the "
                            "padded dimension (")
             << dim << ")";
    if (!isDyn(dim)) {
      std::optional<int64_t> padded = (CheckedInt64(dim) + lo + hi).value();
      if (!padded)
        return op.emitOpError("padding too large: the padded size "
                              "overflows int64");
      dim = *padded;
      if (dim <= 0)
        return op.emitOpError("padded size must be positive");
    }
  }
  return op.setResultShape(0, shape);
}

/// The output shape of a pool of `input` (checking the attributes).
static FailureOr<SmallVector<int64_t>>
poolOutputShape(RuleContext &op, Value input, int64_t n,
                ArrayRef<int64_t> kernel,
                std::optional<ArrayRef<int64_t>> stride,
                std::optional<ArrayRef<int64_t>> padding,
                std::optional<ArrayRef<int64_t>> dilation, bool ceilMode) {
  if (failed(expectRank(op, input, "an input", n + 1, n + 2)))
    return failure();
  if (auto divisor = op.getAttrOfType<IntegerAttr>("divisor_override"))
    if (divisor.getInt() <= 0)
      return op.emitOpError("divisor_override must be positive, got ")
             << divisor.getInt();
  auto expand = [&](std::optional<ArrayRef<int64_t>> v, ArrayRef<int64_t> dflt,
                    StringRef name,
                    SmallVectorImpl<int64_t> &out) -> LogicalResult {
    if (!v || v->empty())
      out.assign(dflt.begin(), dflt.end());
    else if (v->size() == 1)
      out.assign(n, v->front());
    else if (static_cast<int64_t>(v->size()) == n)
      out.assign(v->begin(), v->end());
    else
      return op.emitOpError() << name << " must have 1 or " << n << " values";
    return success();
  };
  SmallVector<int64_t> k, s, p, d;
  SmallVector<int64_t> ones(n, 1), zeros(n, 0);
  if (failed(expand(kernel, ones, "kernel_size", k)) ||
      failed(expand(stride, k, "stride", s)) ||
      failed(expand(padding, zeros, "padding", p)) ||
      failed(expand(dilation, ones, "dilation", d)))
    return failure();
  SmallVector<int64_t> shape(shapeOf(input));
  for (int64_t i = 0; i < n; ++i) {
    if (k[i] <= 0 || s[i] <= 0 || d[i] <= 0)
      return op.emitOpError("kernel_size, stride and dilation must be "
                            "positive");
    if (p[i] < 0 || p[i] > k[i] / 2)
      return op.emitOpError("padding should be at most half of the kernel "
                            "size");
    int64_t &dim = shape[shape.size() - n + i];
    if (isDyn(dim))
      continue;
    CheckedInt64 span = CheckedInt64(dim) + CheckedInt64(p[i]) * 2 -
                        CheckedInt64(d[i]) * (k[i] - 1) - 1;
    CheckedInt64 out = (ceilMode ? (span + s[i] - 1) / s[i] : span / s[i]) + 1;
    std::optional<int64_t> size = out.value();
    // ceil_mode: the last window must start inside the (left-padded) input.
    std::optional<int64_t> lastStart = ((out - 1) * s[i]).value();
    if (!span.value() || !size || !lastStart)
      return op.emitOpError("kernel_size, stride, padding or dilation too "
                            "large: the output size of spatial dimension ")
             << i << " overflows int64";
    if (ceilMode && *lastStart - p[i] >= dim)
      --*size;
    if (*span.value() < 0 || *size <= 0)
      return op.emitOpError("input too small for the pooling window");
    dim = *size;
  }
  return shape;
}

/// Sets every result of `op` to `shape`.
static LogicalResult setAllResultShapes(RuleContext &op,
                                        ArrayRef<int64_t> shape) {
  for (unsigned i = 0; i < op.getNumResults(); ++i)
    if (failed(op.setResultShape(i, shape)))
      return failure();
  return success();
}

/// Checks a max pool backward's `indices`: integers of grad_output's shape.
static LogicalResult expectPoolIndices(RuleContext &op, Value grad,
                                       Value indices) {
  if (failed(expectIndexTensor(op, indices, "indices")))
    return failure();
  if (shapeOf(indices) != shapeOf(grad))
    return op.emitOpError("indices must have grad_output's shape ")
           << formatShape(shapeOf(grad)) << ", got "
           << formatShape(shapeOf(indices));
  return success();
}

LogicalResult
mlir::tp::inferPoolShape(RuleContext &op, int64_t n, ArrayRef<int64_t> kernel,
                         std::optional<ArrayRef<int64_t>> stride,
                         std::optional<ArrayRef<int64_t>> padding,
                         std::optional<ArrayRef<int64_t>> dilation,
                         bool ceilMode) {
  FailureOr<SmallVector<int64_t>> shape = poolOutputShape(
      op, op.getOperand(0), n, kernel, stride, padding, dilation, ceilMode);
  if (failed(shape))
    return failure();
  return setAllResultShapes(op, *shape);
}

LogicalResult mlir::tp::inferPoolBackwardShape(
    RuleContext &op, int64_t n, ArrayRef<int64_t> kernel,
    std::optional<ArrayRef<int64_t>> stride,
    std::optional<ArrayRef<int64_t>> padding,
    std::optional<ArrayRef<int64_t>> dilation, bool ceilMode) {
  Value grad = op.getOperand(0), input = op.getOperand(1);
  FailureOr<SmallVector<int64_t>> output = poolOutputShape(
      op, input, n, kernel, stride, padding, dilation, ceilMode);
  if (failed(output) || failed(expectGradShape(op, grad, *output, "output")))
    return failure();
  if (op.getNumOperands() > 2 &&
      failed(expectPoolIndices(op, grad, op.getOperand(2))))
    return failure();
  return op.setResultShape(0, shapeOf(input));
}

LogicalResult mlir::tp::inferAdaptivePoolBackwardShape(RuleContext &op,
                                                       int64_t n) {
  Value grad = op.getOperand(0), input = op.getOperand(1);
  if (failed(expectRank(op, input, "an input", n + 1, n + 2)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(input), g = shapeOf(grad);
  if (g.size() != x.size())
    return op.emitOpError("grad_output must have the input's rank (")
           << x.size() << "), got " << formatShape(g);
  for (size_t d = 0; d + n < x.size(); ++d)
    if (failed(expectDimsMatch(op, g[d], x[d],
                               "grad_output dim " + Twine(d) +
                                   " must equal the input's")))
      return failure();
  if (llvm::any_of(g.take_back(n), [](int64_t v) { return v == 0; }))
    return op.emitOpError("grad_output's spatial sizes (the output size) "
                          "must be positive");
  if (op.getNumOperands() > 2 &&
      failed(expectPoolIndices(op, grad, op.getOperand(2))))
    return failure();
  return op.setResultShape(0, x);
}

LogicalResult mlir::tp::inferUnpoolShape(RuleContext &op, int64_t n) {
  Value input = op.getOperand(0), indices = op.getOperand(1);
  ArrayRef<int64_t> outputSize =
      op.getAttrOfType<DenseI64ArrayAttr>("output_size");
  if (failed(expectRank(op, input, "an input", n + 1, n + 2)) ||
      failed(expectIndexTensor(op, indices, "indices")))
    return failure();
  if (shapeOf(indices) != shapeOf(input))
    return op.emitOpError("indices must have the input's shape");
  if (static_cast<int64_t>(outputSize.size()) != n)
    return op.emitOpError("output_size must have ") << n << " values";
  SmallVector<int64_t> shape(shapeOf(input).drop_back(n));
  shape.append(outputSize.begin(), outputSize.end());
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferAdaptivePoolShape(RuleContext &op, int64_t n,
                                               ArrayRef<int64_t> outputSize) {
  Value input = op.getOperand(0);
  if (failed(expectRank(op, input, "an input", n + 1, n + 2)))
    return failure();
  if (static_cast<int64_t>(outputSize.size()) != n)
    return op.emitOpError("output_size must have ") << n << " values";
  if (llvm::any_of(outputSize, [](int64_t v) { return v <= 0; }))
    return op.emitOpError("output_size values must be positive");
  SmallVector<int64_t> shape(shapeOf(input).drop_back(n));
  shape.append(outputSize.begin(), outputSize.end());
  return setAllResultShapes(op, shape);
}

LogicalResult mlir::tp::inferGridSampleShape(RuleContext &op, int64_t n) {
  Value input = op.getOperand(0), grid = op.getOperand(1);
  if (n == 0)
    n = rankOf(input) == 5 ? 3 : 2;
  if (failed(expectRank(op, input, "an (N, C, ...) input", n + 2, n + 2)) ||
      failed(expectRank(op, grid, "a grid", n + 2, n + 2)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(input), g = shapeOf(grid);
  if (failed(expectDimsMatch(op, x[0], g[0],
                             "input and grid batch sizes "
                             "differ")) ||
      failed(expectDimsMatch(op, g.back(), n,
                             "grid's last dimension must hold the " +
                                 std::to_string(n) + " coordinates")))
    return failure();
  if (auto sample = op.dynAs<GridSampleOp>()) {
    if (!llvm::is_contained({"bilinear", "nearest", "bicubic"},
                            sample->getMode()))
      return op.emitOpError("mode must be bilinear, nearest or bicubic");
    if (!llvm::is_contained({"zeros", "border", "reflection"},
                            sample->getPaddingMode()))
      return op.emitOpError("padding_mode must be zeros, border or "
                            "reflection");
  } else {
    auto mode = op.getAttrOfType<IntegerAttr>("interpolation_mode").getInt();
    auto pad = op.getAttrOfType<IntegerAttr>("padding_mode").getInt();
    if (mode < 0 || mode > 2 || pad < 0 || pad > 2)
      return op.emitOpError("interpolation_mode and padding_mode must be "
                            "0, 1 or 2");
  }
  SmallVector<int64_t> shape{x[0], x[1]};
  shape.append(g.begin() + 1, g.end() - 1);
  return op.setResultShape(0, shape);
}
