//===- TileAndVectorize.cpp - The tp-tile-and-vectorize pass --------------===//
//
// The CPU codegen strategy for linalg on tensors, with upstream tiling
// (scf::tileUsingSCF) and vectorization (linalg::vectorize):
//
// * every op big enough to pay for a thread launch gets its outer parallel
//   dimensions tiled into an scf.forall of about `parallel-tiles`
//   iterations (tp-outline-parallel-loops later runs them on the runtime's
//   threads);
// * elementwise ops and reductions are then tiled to one static innermost
//   tile (a few vector registers along the innermost dimension, a whole
//   row for an innermost reduction) and vectorized;
// * linalg.matmul / batch_matmul get a cache tiling (an MxN block per
//   forall iteration, a K panel per scf.for step) and a register tiling
//   (8 x 2 vectors of C per k), vectorized into vector.contract, which
//   tp-lower-vectors turns into broadcast FMAs (outer products) with the C
//   block in registers.
//
// An op whose tiles cannot be made static keeps scalar loops.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"
#include "tensorplay/Codegen/CPU/VectorPatterns.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPTILEANDVECTORIZEPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

constexpr StringLiteral kVectorizeAttr = "tp.vectorize";
/// Below this many loop iterations an op runs on one thread.
constexpr int64_t kMinParallelWork = 1 << 15;
/// Largest vector (in elements) an innermost tile may become.
constexpr int64_t kMaxVectorElements = 2048;

/// The largest divisor of `n` that is at most `limit` (1 when none).
int64_t largestDivisorAtMost(int64_t n, int64_t limit) {
  for (int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// `mask` (an i1 tensor) as an i8 tensor of 0 and 1: a constant folded, a
/// value widened by an elementwise op.
Value widenMask(RewriterBase &rewriter, Location loc, Value mask) {
  Type i8 = rewriter.getI8Type();
  DenseElementsAttr values;
  if (matchPattern(mask, m_Constant(&values)))
    return arith::ConstantOp::create(
        rewriter, loc, cast<RankedTensorType>(mask.getType()).clone(i8),
        values.mapValues(i8, [](const APInt &bit) { return bit.zext(8); }));
  return tp::lowering::convertTensor(rewriter, loc, mask, i8);
}

/// Makes the i1 inputs of `generic` i8, truncated back to i1 in its body:
/// vector loads of i1 memory are bit-packed in LLVM, so an op reading i1
/// stays scalar, while i8 vectors load and truncate. Constants (a causal
/// attention mask) are folded; a computed mask is widened by its own
/// (scalar) loop when it is broadcast, at most a quarter of the op's
/// iterations (a padding mask over attention scores), which the vectorized
/// op then repays. The values are 0 and 1 either way.
void widenMasks(RewriterBase &rewriter, linalg::GenericOp generic) {
  int64_t iterations = 1;
  for (int64_t r : generic.getStaticLoopRanges())
    iterations =
        ShapedType::isDynamic(r) ? ShapedType::kDynamic : iterations * r;
  Block *body = generic.getBody();
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !type.getElementType().isInteger(1) || !type.hasStaticShape())
      continue;
    bool broadcast = !ShapedType::isDynamic(iterations) &&
                     type.getNumElements() * 4 <= iterations;
    if (!matchPattern(input->get(), m_Constant()) && !broadcast)
      continue;
    rewriter.setInsertionPoint(generic);
    Value wide = widenMask(rewriter, generic.getLoc(), input->get());
    BlockArgument arg = generic.getMatchingBlockArgument(input);
    rewriter.modifyOpInPlace(generic, [&] {
      input->set(wide);
      arg.setType(rewriter.getI8Type());
    });
    rewriter.setInsertionPointToStart(body);
    Value bit = arith::TruncIOp::create(rewriter, generic.getLoc(),
                                        rewriter.getI1Type(), arg);
    rewriter.replaceAllUsesExcept(arg, bit, bit.getDefiningOp());
  }
}

/// Tiles `op` with `sizes` using loops of `type`; returns the tiled op (or
/// null when tiling failed or was a no-op) and replaces `op`.
Operation *tile(RewriterBase &rewriter, TilingInterface op,
                ArrayRef<int64_t> sizes, scf::SCFTilingOptions::LoopType type) {
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return op;
  scf::SCFTilingOptions options;
  options.setLoopType(type);
  SmallVector<OpFoldResult> tileSizes;
  for (int64_t s : sizes)
    tileSizes.push_back(rewriter.getIndexAttr(s));
  options.setTileSizes(tileSizes);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(result))
    return nullptr;
  rewriter.replaceOp(op, result->replacements);
  return result->tiledOps.back();
}

struct TileAndVectorizePass
    : public tp::impl::TPTileAndVectorizePassBase<TileAndVectorizePass> {
  using Base::Base;

  /// Forall tile sizes over the outer parallel dims giving about
  /// parallelTiles iterations (all zero when not worth it).
  SmallVector<int64_t> parallelSizes(ArrayRef<int64_t> ranges,
                                     ArrayRef<utils::IteratorType> iters,
                                     ArrayRef<int64_t> limit) {
    SmallVector<int64_t> sizes(ranges.size(), 0);
    int64_t work = 1;
    for (int64_t r : ranges)
      work *= r;
    if (parallelTiles <= 0 || work < kMinParallelWork)
      return sizes;
    int64_t count = 1;
    for (size_t d = 0; d < ranges.size() && count < parallelTiles; ++d) {
      if (iters[d] != utils::IteratorType::parallel || ranges[d] == 1)
        continue;
      int64_t want = (parallelTiles + count - 1) / count;
      if (ranges[d] <= want) {
        // Tile this dim by 1 only if deeper dims can still be tiled;
        // otherwise stop here.
        sizes[d] = 1;
        count *= ranges[d];
        continue;
      }
      // The largest tile (a divisor of the range, a multiple of the inner
      // tile `limit[d]`) that still gives `want` tiles.
      // (A bounded search: a huge range with no divisor nearby keeps tiles
      // of 1, what the full search finds for a prime.)
      int64_t t = 1;
      int64_t lowest = std::max<int64_t>(1, ranges[d] / want - 4096);
      for (int64_t c = ranges[d] / want; c >= lowest; --c)
        if (ranges[d] % c == 0 && c % std::max<int64_t>(limit[d], 1) == 0) {
          t = c;
          break;
        }
      if (t == 1 && limit[d] > 1)
        t = limit[d] <= ranges[d] && ranges[d] % limit[d] == 0 ? limit[d]
                                                               : ranges[d];
      sizes[d] = t;
      count *= ranges[d] / t;
    }
    if (count < 2)
      return SmallVector<int64_t>(ranges.size(), 0);
    return sizes;
  }

  /// Tiles an elementwise op or a reduction: forall, then the innermost
  /// vector tile.
  void tileGeneric(IRRewriter &rewriter, linalg::LinalgOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic) || ranges.empty()) {
      if (ranges.empty())
        op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
      return;
    }
    SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
    int64_t n = ranges.size();
    // The innermost tile: innermost dim in vector chunks (a whole row when
    // it is a reduction), every other dim 1.
    SmallVector<int64_t> inner(n, 1);
    int64_t last = ranges[n - 1];
    bool innerReduction = iters[n - 1] == utils::IteratorType::reduction;
    int64_t limit = innerReduction ? kMaxVectorElements : 4 * vectorWidth;
    int64_t innerLast =
        last <= limit ? last : largestDivisorAtMost(last, limit);
    bool staticTiles = innerLast >= std::min<int64_t>(last, vectorWidth);
    inner[n - 1] = innerLast;
    // A short innermost dim: widen the tile over the next parallel dims.
    for (int64_t d = n - 2, size = innerLast; d >= 0; --d) {
      if (iters[d] != utils::IteratorType::parallel ||
          size * ranges[d] > 4 * vectorWidth || innerReduction)
        break;
      inner[d] = ranges[d];
      size *= ranges[d];
    }
    SmallVector<int64_t> forallSizes = parallelSizes(ranges, iters, inner);
    Operation *current = op;
    if (llvm::any_of(forallSizes, [](int64_t s) { return s != 0; })) {
      current = tile(rewriter, cast<TilingInterface>(current), forallSizes,
                     scf::SCFTilingOptions::LoopType::ForallOp);
      if (!current)
        return;
    }
    if (!staticTiles)
      return;
    // Inner loops: dims already at their inner size are not tiled.
    SmallVector<int64_t> tileRanges =
        cast<linalg::LinalgOp>(current).getStaticLoopRanges();
    SmallVector<int64_t> sizes(n, 0);
    for (int64_t d = 0; d < n; ++d)
      if (!ShapedType::isDynamic(tileRanges[d]) && tileRanges[d] > inner[d])
        sizes[d] = inner[d];
    current = tile(rewriter, cast<TilingInterface>(current), sizes,
                   scf::SCFTilingOptions::LoopType::ForOp);
    if (current)
      current->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  }

  /// matmul / batch_matmul: forall over C blocks, K panels, register tiles.
  void tileContraction(IRRewriter &rewriter, linalg::LinalgOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return;
    bool batched = isa<linalg::BatchMatmulOp>(op);
    size_t b = batched ? 1 : 0;
    int64_t m = ranges[b], n = ranges[b + 1], k = ranges[b + 2];
    int64_t mr = largestDivisorAtMost(m, 8);
    int64_t nr = n % (2 * vectorWidth) == 0 ? 2 * vectorWidth
                 : n % vectorWidth == 0     ? vectorWidth
                 : n <= 2 * vectorWidth
                     ? n
                     : largestDivisorAtMost(n, 2 * vectorWidth);
    int64_t mc = m % 64 == 0 ? 64 : m;
    int64_t nc = n % 256 == 0 ? 256 : n;
    int64_t kc = k % 256 == 0 ? 256 : k;
    // Enough forall iterations for the threads: shrink the C block.
    int64_t batchCount = batched ? ranges[0] : 1;
    while (parallelTiles > 0 && batchCount * (m / mc) * (n / nc) < 8 &&
           mc > mr && mc % 2 == 0 && (mc / 2) % mr == 0)
      mc /= 2;
    SmallVector<int64_t> forallSizes(ranges.size(), 0);
    if (batched)
      forallSizes[0] = 1;
    forallSizes[b] = mc;
    forallSizes[b + 1] = nc;
    Operation *current = op;
    int64_t work = batchCount * m * n * k;
    if (parallelTiles > 0 && work >= kMinParallelWork &&
        batchCount * (m / mc) * (n / nc) > 1)
      current = tile(rewriter, cast<TilingInterface>(current), forallSizes,
                     scf::SCFTilingOptions::LoopType::ForallOp);
    if (!current)
      return;
    if (kc < k) {
      SmallVector<int64_t> kSizes(ranges.size(), 0);
      kSizes[b + 2] = kc;
      current = tile(rewriter, cast<TilingInterface>(current), kSizes,
                     scf::SCFTilingOptions::LoopType::ForOp);
      if (!current)
        return;
    }
    SmallVector<int64_t> reg(ranges.size(), 0);
    if (batched)
      reg[0] = 1;
    reg[b] = mr;
    reg[b + 1] = nr;
    reg[b + 2] = 1;
    current = tile(rewriter, cast<TilingInterface>(current), reg,
                   scf::SCFTilingOptions::LoopType::ForOp);
    if (current)
      current->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  }

  /// Rejects option values the tiling cannot use (a zero width would
  /// divide by zero), once for the whole pass manager run.
  LogicalResult initialize(MLIRContext *ctx) override {
    if (tp::isValidVectorWidth(vectorWidth))
      return success();
    return emitError(UnknownLoc::get(ctx))
           << "tp-tile-and-vectorize: vector-width must be a power of two "
              "from 1 to "
           << tp::kMaxVectorWidth << ", got " << vectorWidth.getValue();
  }

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    MLIRContext *ctx = &getContext();
    IRRewriter rewriter(ctx);

    SmallVector<linalg::GenericOp> generics;
    fn.walk([&](linalg::GenericOp generic) {
      if (generic.hasPureTensorSemantics())
        generics.push_back(generic);
    });
    for (linalg::GenericOp generic : generics)
      widenMasks(rewriter, generic);

    SmallVector<linalg::LinalgOp> ops;
    fn.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op->getParentOfType<scf::ForallOp>())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      // An empty iteration space (a 0-size dimension) runs no iteration:
      // there is nothing to tile, and tile sizes cannot be derived from it.
      if (llvm::is_contained(op.getStaticLoopRanges(), 0))
        continue;
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        tileContraction(rewriter, op);
      else
        tileGeneric(rewriter, op);
    }

    // Vectorize the marked tiles whose shapes became static.
    SmallVector<linalg::LinalgOp> toVectorize;
    fn.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kVectorizeAttr))
        toVectorize.push_back(op);
    });
    for (linalg::LinalgOp op : toVectorize) {
      op->removeAttr(kVectorizeAttr);
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      int64_t elements = 1;
      bool dynamic = false;
      for (int64_t r : ranges) {
        dynamic |= ShapedType::isDynamic(r);
        elements *= ShapedType::isDynamic(r) ? 1 : r;
      }
      if (dynamic || elements > kMaxVectorElements)
        continue;
      // i1 memory is one byte per element, while a vector<Nxi1> load or
      // store is bit-packed in LLVM: ops touching i1 tensors stay scalar.
      if (llvm::any_of(op->getOperandTypes(), [](Type t) {
            auto shaped = dyn_cast<ShapedType>(t);
            return shaped && shaped.getElementType().isInteger(1);
          }))
        continue;
      bool hasGather = false;
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
        generic.getBody()->walk([&](tensor::ExtractOp) { hasGather = true; });
      if (hasGather)
        continue;
      rewriter.setInsertionPoint(op);
      // Contractions (also with bf16 operands widened in their body) become
      // vector.contract directly.
      bool contraction = isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
      FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
          rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/contraction);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }

    // Reductions over unit dimensions (the row tiles of a reduction over
    // several dimensions) go first: folded into contractions, they would
    // become invalid ones (see VectorPatterns.h).
    RewritePatternSet unitDims(ctx);
    tp::populateDropUnitReductionDimsPatterns(unitDims);
    if (failed(applyPatternsGreedily(fn, std::move(unitDims))))
      return signalPassFailure();

    // Clean up: fold slices into transfers, hoist loop-invariant
    // read/write pairs (the matmul accumulators) out of the K loops.
    RewritePatternSet patterns(ctx);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
    scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(fn, std::move(patterns))))
      return signalPassFailure();
    SmallVector<scf::ForOp> loops;
    fn.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      (void)hoistLoopInvariantSubsets(rewriter, loop);
  }
};

} // namespace
