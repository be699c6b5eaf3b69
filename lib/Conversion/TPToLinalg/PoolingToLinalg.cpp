//===- PoolingToLinalg.cpp - tp pools and their backward ops to linalg ----===//
//
// Every pool over the trailing n spatial dimensions (max, avg, adaptive avg,
// adaptive max; 2-D and 3-D) is one gather: a linalg.generic over the
// leading dimensions, the output's spatial positions and the window's
// offsets (reduced; run outside the positions where rows of outputs are
// longer than the window), reading the input with tensor.extract at the window
// position, clamped into the input and masked where it falls in the
// padding. Max pools keep aten's order (the first of equal maxima, the
// last NaN) and the flat spatial index of the element taken; average pools
// divide the window sums by aten's divisor in an elementwise generic that
// fuses into the sum's consumer.
//
// The average pools' backward ops gather too, from each input position:
// over the windows that can hold it (at most (K - 1) * dilation / stride +
// 1 per dimension, or, adaptive, the windows overlapping it), the window's
// gradient over its divisor; every input element is written once. The max
// pools' backward is aten's scatter: one update per output element, at
// the index the forward chose, in a loop over the outputs (an input
// position gathers from up to K^n windows where a scatter does one update).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/IndexingUtils.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

/// A list attribute expanded to one value per spatial dimension (one value
/// for all, or `dflt` when absent).
SmallVector<int64_t> perDim(std::optional<ArrayRef<int64_t>> v,
                            ArrayRef<int64_t> dflt, int64_t n) {
  if (!v || v->empty())
    return SmallVector<int64_t>(dflt);
  if (v->size() == 1)
    return SmallVector<int64_t>(n, v->front());
  return SmallVector<int64_t>(*v);
}

/// The windows of one pool along its spatial dimensions (sizes `in` of the
/// input, `out` of the output). A regular window of output o starts at
/// o * stride - padding and holds kernel positions dilation apart; an
/// adaptive one spans [floor(o * in / out), ceil((o + 1) * in / out)).
struct Windows {
  bool adaptive = false;
  SmallVector<int64_t> in, out, kernel, stride, padding, dilation;

  int64_t rank() const { return in.size(); }

  static Windows regular(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                         ArrayRef<int64_t> kernel,
                         std::optional<ArrayRef<int64_t>> stride,
                         std::optional<ArrayRef<int64_t>> padding,
                         std::optional<ArrayRef<int64_t>> dilation) {
    int64_t n = in.size();
    Windows w;
    w.in.assign(in.begin(), in.end());
    w.out.assign(out.begin(), out.end());
    w.kernel = perDim(kernel, {}, n);
    w.stride = perDim(stride, w.kernel, n);
    w.padding = perDim(padding, SmallVector<int64_t>(n, 0), n);
    w.dilation = perDim(dilation, SmallVector<int64_t>(n, 1), n);
    return w;
  }

  static Windows adaptiveOf(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
    int64_t n = in.size();
    Windows w;
    w.adaptive = true;
    w.in.assign(in.begin(), in.end());
    w.out.assign(out.begin(), out.end());
    w.stride.assign(n, 1);
    w.padding.assign(n, 0);
    w.dilation.assign(n, 1);
    for (int64_t d = 0; d < n; ++d) {
      int64_t widest = 0;
      for (int64_t o = 0; o < out[d]; ++o)
        widest =
            std::max(widest, end(o, in[d], out[d]) - start(o, in[d], out[d]));
      w.kernel.push_back(widest);
    }
    return w;
  }

  static int64_t start(int64_t o, int64_t in, int64_t out) {
    return o * in / out;
  }
  static int64_t end(int64_t o, int64_t in, int64_t out) {
    return ((o + 1) * in + out - 1) / out;
  }

  /// The most windows that hold one input position along `d` (the
  /// reduction extent of the backward gather).
  int64_t windowsPerPosition(int64_t d) const {
    if (!adaptive) // windows o with o * s <= p + pad < o * s + span
      return std::min(kernel[d], (kernel[d] - 1) * dilation[d] / stride[d] + 1);
    int64_t most = 0;
    for (int64_t i = 0; i < in[d]; ++i)
      most = std::max(most, end(i, out[d], in[d]) - start(i, out[d], in[d]));
    return most;
  }
};

/// Index arithmetic inside a generic body.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  /// The loop of each logical dimension (empty: the same order).
  ArrayRef<int64_t> loopOf = {};
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y));
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivSIOp::create(b, loc, x, c(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemSIOp::create(b, loc, x, c(y));
  }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value both(Value x, Value y) {
    return x ? arith::AndIOp::create(b, loc, x, y) : y;
  }
  /// The index of logical dimension `dim` of the generic.
  Value index(int64_t dim) {
    return linalg::IndexOp::create(b, loc, loopOf.empty() ? dim : loopOf[dim]);
  }

  /// The first input position of output o's window along `d`.
  Value windowStart(const Windows &w, int64_t d, Value o) {
    if (w.adaptive)
      return div(mul(o, w.in[d]), w.out[d]);
    return sub(mul(o, w.stride[d]), c(w.padding[d]));
  }
  /// One past the last input position of an adaptive window.
  Value adaptiveEnd(const Windows &w, int64_t d, Value o) {
    return div(add(mul(add(o, c(1)), w.in[d]), c(w.out[d] - 1)), w.out[d]);
  }
  /// Input position k of output o's window along `d`, and whether it lies
  /// in the input (and the window).
  std::pair<Value, Value> position(const Windows &w, int64_t d, Value o,
                                   Value k) {
    Value pos = add(windowStart(w, d, o), mul(k, w.dilation[d]));
    Value valid = both(cmp(arith::CmpIPredicate::sge, pos, c(0)),
                       cmp(arith::CmpIPredicate::slt, pos, c(w.in[d])));
    if (w.adaptive)
      valid = both(valid,
                   cmp(arith::CmpIPredicate::slt, pos, adaptiveEnd(w, d, o)));
    return {pos, valid};
  }
  /// `pos` clamped into [0, size).
  Value clampInto(Value pos, int64_t size) {
    return min(max(pos, c(0)), c(size - 1));
  }
};

/// The generic of a gather over the logical dimensions [lead...,
/// spatial..., offsets...] writing `inits` (of shape [lead..., spatial...]);
/// `body` gets the accumulators and indexes the logical dimensions.
///
/// The loops run the offsets before the spatial positions when the rows
/// of positions are longer than the window's: the innermost loop is then
/// a row of outputs instead of a few window offsets per output, each with
/// its own subviews (a 3x3 max pool took 30% of a ResNet's forward so).
/// Either order computes the same values: each output's window is still
/// visited in offset order.
linalg::GenericOp buildWindowGeneric(
    OpBuilder &b, Location loc, ArrayRef<int64_t> outShape,
    ArrayRef<int64_t> offsets, ValueRange inits,
    function_ref<SmallVector<Value>(IndexMath &, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  int64_t outRank = outShape.size(), n = offsets.size(), lead = outRank - n;
  int64_t loops = outRank + n;
  bool offsetsFirst = n > 0 && outShape.back() > offsets.back();
  SmallVector<int64_t> loopOf;
  for (int64_t d = 0; d < loops; ++d)
    loopOf.push_back(!offsetsFirst || d < lead ? d
                     : d < outRank             ? d + n
                                               : d - n);
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < outRank; ++d)
    outExprs.push_back(getAffineDimExpr(loopOf[d], ctx));
  // The window's shape (an empty tensor, as linalg's pooling ops take)
  // gives the offset loops their bounds.
  SmallVector<AffineExpr> windowExprs;
  for (int64_t d = 0; d < n; ++d)
    windowExprs.push_back(getAffineDimExpr(loopOf[outRank + d], ctx));
  Value window = tensor::EmptyOp::create(b, loc, offsets, b.getI1Type());
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, windowExprs, ctx)};
  maps.append(inits.size(), AffineMap::get(loops, 0, outExprs, ctx));
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  for (int64_t d = 0; d < n; ++d)
    iterators[loopOf[outRank + d]] = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
      b, loc, TypeRange(inits), ValueRange{window}, inits, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IndexMath m{nb, nloc, loopOf};
        linalg::YieldOp::create(nb, nloc, body(m, args.drop_front()));
      });
}

/// The flat spatial index (row-major over `sizes`) of `pos`.
Value flatIndex(IndexMath &m, ArrayRef<Value> pos, ArrayRef<int64_t> sizes) {
  Value flat = m.c(0);
  for (auto [p, size] : llvm::zip(pos, sizes))
    flat = m.add(m.mul(flat, size), p);
  return flat;
}

/// Reads `input` at the window position of offset `k` of the output
/// position given by the generic's leading loops; `valid` is set where it
/// lies in the input.
Value readWindow(IndexMath &m, Value input, const Windows &w, int64_t lead,
                 SmallVectorImpl<Value> &positions, Value &valid) {
  int64_t n = w.rank();
  SmallVector<Value> idx;
  for (int64_t d = 0; d < lead; ++d)
    idx.push_back(m.index(d));
  valid = nullptr;
  for (int64_t d = 0; d < n; ++d) {
    auto [pos, ok] = m.position(w, d, m.index(lead + d), m.index(lead + n + d));
    valid = m.both(valid, ok);
    positions.push_back(pos);
    idx.push_back(m.clampInto(pos, w.in[d]));
  }
  return tensor::ExtractOp::create(m.b, m.loc, input, idx);
}

/// The max pool of `input` over windows `w`: (values, flat i64 indices).
/// aten's order: a valid element replaces the best when it is larger or
/// NaN, and the first valid element always initialises.
std::pair<Value, Value> buildMaxPool(OpBuilder &b, Location loc, Value input,
                                     const Windows &w, bool withIndices) {
  Type elem = elementTypeOf(input);
  Type valType = computeTypeFor(elem);
  int64_t n = w.rank(), lead = rankOf(input) - n;
  SmallVector<int64_t> outShape(shapeOf(input).drop_back(n));
  outShape.append(w.out);
  SmallVector<Value> inits = {
      filledTensor(b, loc, outShape, extremeConstant(b, loc, valType, true))};
  if (withIndices)
    inits.push_back(filledTensor(b, loc, outShape, b.getI64Type(), -1.0));
  auto generic = buildWindowGeneric(
      b, loc, outShape, w.kernel, inits, [&](IndexMath &m, ValueRange acc) {
        SmallVector<Value> pos;
        Value valid;
        Value x = convertScalar(
            m.b, m.loc, readWindow(m, input, w, lead, pos, valid), valType);
        Value better;
        if (!isa<FloatType>(valType))
          better = m.cmp(arith::CmpIPredicate::sgt, x, acc[0]);
        else {
          // UGT: larger, or either NaN; a NaN best is kept only by a NaN x.
          better = arith::CmpFOp::create(m.b, m.loc, arith::CmpFPredicate::UGT,
                                         x, acc[0]);
          Value bestNan = arith::CmpFOp::create(
              m.b, m.loc, arith::CmpFPredicate::UNO, acc[0], acc[0]);
          Value xNan = arith::CmpFOp::create(m.b, m.loc,
                                             arith::CmpFPredicate::UNO, x, x);
          better = arith::SelectOp::create(m.b, m.loc, bestNan, xNan, better);
        }
        SmallVector<Value> next;
        if (withIndices) {
          Value unset = arith::CmpIOp::create(
              m.b, m.loc, arith::CmpIPredicate::slt, acc[1],
              scalarConstant(m.b, m.loc, m.b.getI64Type(), 0));
          Value take =
              m.both(valid, arith::OrIOp::create(m.b, m.loc, better, unset));
          Value flat = arith::IndexCastOp::create(m.b, m.loc, m.b.getI64Type(),
                                                  flatIndex(m, pos, w.in));
          next.push_back(arith::SelectOp::create(m.b, m.loc, take, x, acc[0]));
          next.push_back(
              arith::SelectOp::create(m.b, m.loc, take, flat, acc[1]));
        } else {
          Value take = m.both(valid, better);
          next.push_back(arith::SelectOp::create(m.b, m.loc, take, x, acc[0]));
        }
        return next;
      });
  Value values = convertTensor(b, loc, generic.getResult(0), elem);
  return {values, withIndices ? generic.getResult(1) : Value()};
}

/// aten's divisor of each average-pool window: the window's size within
/// the padded input (count_include_pad) or within the input, or the
/// override. `o` are the output's spatial positions.
Value buildDivisor(IndexMath &m, const Windows &w, ArrayRef<Value> o,
                   bool countIncludePad) {
  Value divisor = m.c(1);
  for (int64_t d = 0; d < w.rank(); ++d) {
    Value start = m.windowStart(w, d, o[d]);
    Value end = w.adaptive ? m.adaptiveEnd(w, d, o[d])
                           : m.min(m.add(start, m.c(w.kernel[d])),
                                   m.c(w.in[d] + w.padding[d]));
    if (!w.adaptive && !countIncludePad) {
      start = m.max(start, m.c(0));
      end = m.min(end, m.c(w.in[d]));
    }
    divisor = arith::MulIOp::create(m.b, m.loc, divisor, m.sub(end, start));
  }
  return divisor;
}

/// `t` (of shape [lead..., out...], compute type) divided elementwise by
/// each window's divisor (or `override`).
Value divideByWindow(OpBuilder &b, Location loc, Value t, const Windows &w,
                     bool countIncludePad, std::optional<int64_t> override) {
  int64_t rank = rankOf(t), n = w.rank();
  Type type = elementTypeOf(t);
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps(2, AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = emptyTensor(b, loc, shapeOf(t), type);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{t}, ValueRange{init},
             maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               IndexMath m{nb, nloc};
               Value divisor;
               if (override) {
                 divisor = m.c(*override);
               } else {
                 SmallVector<Value> o;
                 for (int64_t d = 0; d < n; ++d)
                   o.push_back(m.index(rank - n + d));
                 divisor = buildDivisor(m, w, o, countIncludePad);
               }
               Value f = arith::SIToFPOp::create(
                   nb, nloc, type,
                   arith::IndexCastOp::create(nb, nloc, nb.getI64Type(),
                                              divisor));
               Value mean = arith::DivFOp::create(nb, nloc, args[0], f);
               linalg::YieldOp::create(nb, nloc, mean);
             })
      .getResult(0);
}

/// The average pool of `input` over windows `w`.
Value buildAvgPool(OpBuilder &b, Location loc, Value input, const Windows &w,
                   bool countIncludePad, std::optional<int64_t> override) {
  Type elem = elementTypeOf(input);
  Type accType = computeTypeFor(elem);
  int64_t n = w.rank(), lead = rankOf(input) - n;
  SmallVector<int64_t> outShape(shapeOf(input).drop_back(n));
  outShape.append(w.out);
  Value init = filledTensor(b, loc, outShape, accType, 0.0);
  auto generic = buildWindowGeneric(
      b, loc, outShape, w.kernel, {init}, [&](IndexMath &m, ValueRange acc) {
        SmallVector<Value> pos;
        Value valid;
        Value x = convertScalar(
            m.b, m.loc, readWindow(m, input, w, lead, pos, valid), accType);
        Value zero = scalarConstant(m.b, m.loc, accType, 0.0);
        Value term = arith::SelectOp::create(m.b, m.loc, valid, x, zero);
        return SmallVector<Value>{
            arith::AddFOp::create(m.b, m.loc, acc[0], term)};
      });
  Value mean = divideByWindow(b, loc, generic.getResult(0), w, countIncludePad,
                              override);
  return convertTensor(b, loc, mean, elem);
}

/// The input gradient of a pool: for each input position, the sum over
/// the windows that hold it of `share(window's gradient index)`. `g` is
/// read at the window (clamped; masked where no window is there).
Value buildPoolBackward(
    OpBuilder &b, Location loc, ArrayRef<int64_t> inputShape, Type resultType,
    const Windows &w,
    function_ref<Value(IndexMath &, ArrayRef<Value> window, Value flatInput)>
        share) {
  Type accType = computeTypeFor(resultType);
  int64_t n = w.rank(), lead = inputShape.size() - n;
  SmallVector<int64_t> counts;
  for (int64_t d = 0; d < n; ++d)
    counts.push_back(w.windowsPerPosition(d));
  Value init = filledTensor(b, loc, inputShape, accType, 0.0);
  auto generic = buildWindowGeneric(
      b, loc, inputShape, counts, {init}, [&](IndexMath &m, ValueRange acc) {
        SmallVector<Value> window, inputPos;
        for (int64_t d = 0; d < lead; ++d)
          window.push_back(m.index(d));
        Value valid;
        for (int64_t d = 0; d < n; ++d) {
          Value p = m.index(lead + d), j = m.index(lead + n + d);
          inputPos.push_back(p);
          Value o;
          if (w.adaptive) {
            // Windows floor(p * out / in) .. ceil((p + 1) * out / in) - 1.
            Value first = m.div(m.mul(p, w.out[d]), w.in[d]);
            Value last = m.div(
                m.add(m.mul(m.add(p, m.c(1)), w.out[d]), m.c(w.in[d] - 1)),
                w.in[d]);
            o = m.add(first, j);
            valid = m.both(valid, m.cmp(arith::CmpIPredicate::slt, o, last));
          } else {
            // Window o holds p when p + pad - o * s is a kernel offset
            // k * dil (k < K): the candidates count down from the last
            // window starting at or before p.
            Value t = m.add(p, m.c(w.padding[d]));
            o = m.sub(m.div(t, w.stride[d]), j);
            Value k = m.sub(t, m.mul(o, w.stride[d]));
            valid = m.both(valid, m.cmp(arith::CmpIPredicate::sge, o, m.c(0)));
            valid = m.both(valid,
                           m.cmp(arith::CmpIPredicate::slt, o, m.c(w.out[d])));
            valid =
                m.both(valid, m.cmp(arith::CmpIPredicate::sle, k,
                                    m.c((w.kernel[d] - 1) * w.dilation[d])));
            if (w.dilation[d] != 1)
              valid = m.both(valid, m.cmp(arith::CmpIPredicate::eq,
                                          m.rem(k, w.dilation[d]), m.c(0)));
          }
          window.push_back(m.clampInto(o, w.out[d]));
        }
        Value term = share(m, window, flatIndex(m, inputPos, w.in));
        Value zero = scalarConstant(m.b, m.loc, accType, 0.0);
        term = arith::SelectOp::create(m.b, m.loc, valid, term, zero);
        return SmallVector<Value>{
            arith::AddFOp::create(m.b, m.loc, acc[0], term)};
      });
  return convertTensor(b, loc, generic.getResult(0), resultType);
}

/// The gradient of an average pool's input.
Value buildAvgPoolBackward(OpBuilder &b, Location loc, Value grad,
                           ArrayRef<int64_t> inputShape, const Windows &w,
                           bool countIncludePad,
                           std::optional<int64_t> override) {
  Type elem = elementTypeOf(grad);
  Value divided =
      divideByWindow(b, loc, convertTensor(b, loc, grad, computeTypeFor(elem)),
                     w, countIncludePad, override);
  return buildPoolBackward(
      b, loc, inputShape, elem, w,
      [&](IndexMath &m, ArrayRef<Value> window, Value) -> Value {
        return tensor::ExtractOp::create(m.b, m.loc, divided, window);
      });
}

/// The gradient of a max pool's input from the forward's indices: aten's
/// scatter, one update per output element (in output order, as aten adds),
/// along the flattened spatial plane of each (leading) plane. An index
/// outside the plane (not one a pool produced) is clamped into it.
Value buildMaxPoolBackward(OpBuilder &b, Location loc, Value grad,
                           Value indices, ArrayRef<int64_t> inputShape,
                           int64_t n) {
  int64_t planes = numElements(inputShape.drop_back(n));
  int64_t inPlane = numElements(inputShape.take_back(n));
  int64_t outPlane = numElements(shapeOf(grad).take_back(n));
  Value zeros =
      filledTensor(b, loc, {planes, inPlane}, elementTypeOf(grad), 0.0);
  Value sum = buildScatterAdd(b, loc, zeros, /*dim=*/1,
                              reshapeTo(b, loc, indices, {planes, outPlane}),
                              reshapeTo(b, loc, grad, {planes, outPlane}));
  return reshapeTo(b, loc, sum, inputShape);
}

/// Refuses what the pool lowerings do not take: complex inputs, and
/// integers for average pools (tensorplay divides them with truncation).
LogicalResult checkPoolInput(Operation *op, Value input, bool average) {
  Type elem = elementTypeOf(input);
  if (isa<ComplexType>(elem) || elem.isInteger(1))
    return emitUnsupported(op, "has no CPU lowering for ")
           << elem << " tensors";
  if (average && !isa<FloatType>(elem))
    return emitUnsupported(op, "has no CPU lowering for integer tensors "
                               "(cast the input to a floating type first)");
  return success();
}

ArrayRef<int64_t> spatial(Value v, int64_t n) {
  return shapeOf(v).take_back(n);
}

/// The pools: max pools (with or without indices, regular or adaptive)
/// and average pools (regular or adaptive).
template <typename OpTy, int N>
struct PoolLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  static constexpr bool isMax = std::is_same_v<OpTy, MaxPool2dOp> ||
                                std::is_same_v<OpTy, MaxPool3dOp> ||
                                std::is_same_v<OpTy, MaxPool2dWithIndicesOp> ||
                                std::is_same_v<OpTy, MaxPool3dWithIndicesOp> ||
                                std::is_same_v<OpTy, AdaptiveMaxPool3dOp>;
  static constexpr bool isAdaptive =
      std::is_same_v<OpTy, AdaptiveAvgPool2dOp> ||
      std::is_same_v<OpTy, AdaptiveAvgPool3dOp> ||
      std::is_same_v<OpTy, AdaptiveMaxPool3dOp>;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    if (failed(checkPoolInput(op, input, /*average=*/!isMax)))
      return failure();
    Windows w;
    ArrayRef<int64_t> in = spatial(input, N),
                      out = spatial(op->getResult(0), N);
    if constexpr (isAdaptive)
      w = Windows::adaptiveOf(in, out);
    else if constexpr (isMax)
      w = Windows::regular(in, out, op.getKernelSize(), op.getStride(),
                           op.getPadding(), op.getDilation());
    else
      w = Windows::regular(in, out, op.getKernelSize(), op.getStride(),
                           op.getPadding(), std::nullopt);
    if constexpr (isMax) {
      bool withIndices = op->getNumResults() == 2;
      auto [values, indices] =
          buildMaxPool(rewriter, op.getLoc(), input, w, withIndices);
      if (withIndices)
        rewriter.replaceOp(op, {values, indices});
      else
        rewriter.replaceOp(op, values);
    } else if constexpr (isAdaptive) {
      rewriter.replaceOp(op,
                         buildAvgPool(rewriter, op.getLoc(), input, w,
                                      /*countIncludePad=*/true, std::nullopt));
    } else {
      rewriter.replaceOp(op, buildAvgPool(rewriter, op.getLoc(), input, w,
                                          op.getCountIncludePad(),
                                          op.getDivisorOverride()));
    }
    return success();
  }
};

/// Refuses a backward op whose gradient is not floating.
LogicalResult checkPoolGrad(Operation *op, Value grad) {
  if (!isa<FloatType>(elementTypeOf(grad)))
    return emitUnsupported(op, "needs a floating grad_output, got ")
           << elementTypeOf(grad);
  return success();
}

/// The pools' backward ops: max pools scatter at the indices, average
/// pools gather over their (regular or adaptive) windows.
template <typename OpTy, int N>
struct PoolBackwardLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  static constexpr bool isMax =
      std::is_same_v<OpTy, MaxPool2dWithIndicesBackwardOp> ||
      std::is_same_v<OpTy, MaxPool3dWithIndicesBackwardOp> ||
      std::is_same_v<OpTy, AdaptiveMaxPool3dBackwardOp>;
  static constexpr bool isAdaptive =
      std::is_same_v<OpTy, AdaptiveAvgPool2dBackwardOp> ||
      std::is_same_v<OpTy, AdaptiveAvgPool3dBackwardOp>;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    Value grad = operands[0], input = operands[1];
    if (failed(checkPoolGrad(op, grad)))
      return failure();
    Location loc = op.getLoc();
    Value result;
    if constexpr (isMax) {
      result = buildMaxPoolBackward(rewriter, loc, grad, operands[2],
                                    shapeOf(input), N);
    } else if constexpr (isAdaptive) {
      result = buildAvgPoolBackward(
          rewriter, loc, grad, shapeOf(input),
          Windows::adaptiveOf(spatial(input, N), spatial(grad, N)),
          /*countIncludePad=*/true, std::nullopt);
    } else {
      Windows w = Windows::regular(spatial(input, N), spatial(grad, N),
                                   op.getKernelSize(), op.getStride(),
                                   op.getPadding(), std::nullopt);
      result = buildAvgPoolBackward(rewriter, loc, grad, shapeOf(input), w,
                                    op.getCountIncludePad(),
                                    op.getDivisorOverride());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tp::populatePoolingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<PoolLowering<MaxPool2dOp, 2>, PoolLowering<MaxPool3dOp, 3>,
               PoolLowering<MaxPool2dWithIndicesOp, 2>,
               PoolLowering<MaxPool3dWithIndicesOp, 3>,
               PoolLowering<AvgPool2dOp, 2>, PoolLowering<AvgPool3dOp, 3>,
               PoolLowering<AdaptiveAvgPool2dOp, 2>,
               PoolLowering<AdaptiveAvgPool3dOp, 3>,
               PoolLowering<AdaptiveMaxPool3dOp, 3>,
               PoolBackwardLowering<AvgPool2dBackwardOp, 2>,
               PoolBackwardLowering<AvgPool3dBackwardOp, 3>,
               PoolBackwardLowering<MaxPool2dWithIndicesBackwardOp, 2>,
               PoolBackwardLowering<MaxPool3dWithIndicesBackwardOp, 3>,
               PoolBackwardLowering<AdaptiveAvgPool2dBackwardOp, 2>,
               PoolBackwardLowering<AdaptiveAvgPool3dBackwardOp, 3>,
               PoolBackwardLowering<AdaptiveMaxPool3dBackwardOp, 3>>(
      patterns.getContext());
}
