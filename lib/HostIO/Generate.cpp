//===- Generate.cpp - Arguments tp-run makes up from a seed ---------------===//

#include "tensorplay/HostIO/Generate.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;

/// The bound of generated floats of `spec` under `init`.
static double floatBound(const TensorSpec &spec, InitKind init) {
  if (init != InitKind::FanIn || spec.shape.size() < 2 ||
      spec.shape.back() <= 0)
    return 1.0;
  return 1.0 / std::sqrt(static_cast<double>(spec.shape.back()));
}

HostTensor tp::generateArgument(const TensorSpec &spec, InitKind init,
                                int64_t intMax, std::mt19937_64 &rng) {
  HostTensor t(spec.kind, spec.shape);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> integer(0, intMax - 1);
  bool isFloat =
      spec.kind == ElementKind::F32 || spec.kind == ElementKind::F64 ||
      spec.kind == ElementKind::F16 || spec.kind == ElementKind::BF16;
  double bound = floatBound(spec, init);
  for (int64_t i = 0; i < t.numElements(); ++i) {
    if (isComplexKind(spec.kind)) {
      double re = bound * real(rng);
      t.set(i, re, bound * real(rng));
    } else if (isFloat)
      t.set(i, bound * real(rng));
    else if (spec.kind == ElementKind::Bool)
      t.set(i, integer(rng) % 2);
    else
      t.set(i, (double)integer(rng));
  }
  return t;
}
