//===- CubicConvolution.h - aten's bicubic interpolation weights -*- C++ -*-===//
//
// The cubic convolution coefficients (A = -0.75) aten's bicubic sampling
// weights its four taps with, written once for both places that build
// them: the CPU lowering of grid sampling (scalar arith ops) and its
// decomposition into tp ops for tp-autodiff (tensor ops), so that the two
// compute the same operations in the same order.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_CUBICCONVOLUTION_H
#define TENSORPLAY_DIALECT_TP_IR_CUBICCONVOLUTION_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace tp {

/// The weights of the taps at -1, 0, 1 and 2 for the fraction t in [0, 1),
/// built with `f`, which has add, sub and mul of two values and c(double)
/// for a constant.
template <typename Math>
SmallVector<Value, 4> cubicConvolutionCoefficients(Math &f, Value t) {
  const double a = -0.75;
  auto conv1 = [&](Value x) { // ((A + 2) x - (A + 3)) x x + 1
    return f.add(f.mul(f.mul(f.sub(f.mul(f.c(a + 2), x), f.c(a + 3)), x), x),
                 f.c(1));
  };
  auto conv2 = [&](Value x) { // ((A x - 5A) x + 8A) x - 4A
    return f.sub(
        f.mul(f.add(f.mul(f.sub(f.mul(f.c(a), x), f.c(5 * a)), x), f.c(8 * a)),
              x),
        f.c(4 * a));
  };
  return {conv2(f.add(t, f.c(1))), conv1(t), conv1(f.sub(f.c(1), t)),
          conv2(f.sub(f.c(2), t))};
}

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_IR_CUBICCONVOLUTION_H
