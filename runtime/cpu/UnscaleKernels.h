//===- UnscaleKernels.h - CPU unscale / check implementations ---*- C++ -*-===//
//
// The inner loops of the CPU unscale + inf/NaN check, one table per ISA. The
// driver (threads, tensor walking) is shared; see CpuKernels.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CPU_UNSCALEKERNELS_H
#define TENSORPLAY_RUNTIME_CPU_UNSCALEKERNELS_H

#include "tensorplay/Runtime/Tensor.h"

#include <cstdint>

namespace tensorplay::amp::cpu {

/// Checks `n` elements at `data` for inf/NaN and, when `write`, multiplies
/// them by `invScale` in place. Returns true if any element was non-finite.
using UnscaleRangeFn = bool (*)(void *data, int64_t n, float invScale,
                                bool write);

/// One implementation per element type.
struct UnscaleKernels {
  UnscaleRangeFn f32;
  UnscaleRangeFn f16;
  UnscaleRangeFn bf16;

  UnscaleRangeFn forDType(DType dtype) const {
    switch (dtype) {
    case DType::F16:
      return f16;
    case DType::BF16:
      return bf16;
    case DType::F32:
      break;
    }
    return f32;
  }
};

/// Plain C++ loops, for every CPU.
const UnscaleKernels &portableUnscaleKernels();
/// AVX-512F/BW/VL intrinsics; null where the compiler cannot build them. Call
/// only when cpuSupportsAvx512().
const UnscaleKernels *avx512UnscaleKernels();
/// The table cpuKernelPath() selects.
const UnscaleKernels &activeUnscaleKernels();

} // namespace tensorplay::amp::cpu

#endif // TENSORPLAY_RUNTIME_CPU_UNSCALEKERNELS_H
