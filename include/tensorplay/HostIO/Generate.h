//===- Generate.h - Arguments tp-run makes up from a seed -------*- C++ -*-===//
//
// The arguments tp-run generates when no .npy file gives them: floats
// uniform in [-1, 1) (or scaled by the fan-in, below), integers uniform in
// [0, int-max), booleans 0/1. One generator draws every argument in order,
// one value per element, whatever the init: the same seed gives the same
// draws, and a fan-in argument is the uniform one scaled.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_HOSTIO_GENERATE_H
#define TENSORPLAY_HOSTIO_GENERATE_H

#include "tensorplay/Compiler/Executable.h"

#include <cstdint>
#include <random>

namespace mlir {
namespace tp {

/// How generated floating-point arguments are scaled.
enum class InitKind {
  /// Uniform in [-1, 1).
  Uniform,
  /// Arguments of rank >= 2 uniform in [-1/sqrt(k), 1/sqrt(k)) with k their
  /// last dimension: PyTorch's nn.Linear bound for an [out, in] weight, so
  /// products of generated operands keep their scale through a network.
  /// Lower ranks as Uniform.
  FanIn,
};

/// A tensor of `spec` filled from `rng`; integers lie in [0, intMax)
/// (intMax > 0).
HostTensor generateArgument(const TensorSpec &spec, InitKind init,
                            int64_t intMax, std::mt19937_64 &rng);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_HOSTIO_GENERATE_H
