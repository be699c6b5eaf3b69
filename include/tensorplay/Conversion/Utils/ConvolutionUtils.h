//===- ConvolutionUtils.h - Convolution geometry for the lowerings -*- C++
//-*-===//
//
// What the oneDNN and linalg lowerings of the tp convolutions share: the
// geometry of a convolution op with its per-dimension parameters expanded,
// and the parts of tp.convolution_backward that both compute as tp ops
// (the input gradient as a convolution, the bias gradient as a sum).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CONVERSION_UTILS_CONVOLUTIONUTILS_H
#define TENSORPLAY_CONVERSION_UTILS_CONVOLUTIONUTILS_H

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace tp {
namespace lowering {

/// The geometry of a tp convolution op (conv1d/2d/3d, conv_transpose*,
/// convolution, convolution_backward) with per-dimension parameters
/// expanded.
struct ConvParams {
  int64_t spatialRank = 0;
  bool transposed = false;
  bool batched = true;
  int64_t groups = 1;
  SmallVector<int64_t> stride, padding, dilation, outputPadding;
};
/// Reads the parameters of a tp convolution op; failure for other ops.
FailureOr<ConvParams> getConvParams(Operation *op);

/// The input gradient of `op` as the tp.convolution that computes it from
/// `operands` (op's grad_output, input and weight, or what a conversion
/// replaced them with): for a convolution, the transposed convolution of
/// grad_output with the weight (its output_padding gives back the input's
/// size); for a transposed one, the convolution. Null when it cannot be
/// built.
Value buildConvolutionInputGradient(OpBuilder &b, ConvolutionBackwardOp op,
                                    ValueRange operands);
/// The bias gradient of `op` as a tp.sum of grad_output (operands[0]) over
/// all but dim 1.
Value buildConvolutionBiasGradient(OpBuilder &b, ConvolutionBackwardOp op,
                                   ValueRange operands);

} // namespace lowering
} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CONVERSION_UTILS_CONVOLUTIONUTILS_H
