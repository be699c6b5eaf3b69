//===- UnscaleKernelsPortable.cpp - Portable unscale / check --------------===//
//
// Plain loops the compiler vectorises for the baseline ISA. The inf/NaN test
// looks at the exponent bits, so it needs no floating-point compare.
//
//===----------------------------------------------------------------------===//

#include "cpu/FloatConversion.h"
#include "cpu/UnscaleKernels.h"

namespace tensorplay::amp::cpu {
namespace {

template <typename Elem, bool Write>
bool unscaleLoop(typename ElementTraits<Elem>::Storage *data, int64_t n,
                 float invScale) {
  using Traits = ElementTraits<Elem>;
  uint32_t nonFinite = 0;
  for (int64_t i = 0; i < n; ++i) {
    float value = Traits::load(data[i]);
    nonFinite |= isNonFiniteBits(floatBits(value));
    if (Write)
      data[i] = Traits::store(value * invScale);
  }
  return nonFinite != 0;
}

template <typename Elem>
bool unscaleRange(void *data, int64_t n, float invScale, bool write) {
  auto *typed = static_cast<typename ElementTraits<Elem>::Storage *>(data);
  return write ? unscaleLoop<Elem, true>(typed, n, invScale)
               : unscaleLoop<Elem, false>(typed, n, invScale);
}

} // namespace

const UnscaleKernels &portableUnscaleKernels() {
  static const UnscaleKernels kernels = {
      unscaleRange<float>, unscaleRange<F16Tag>, unscaleRange<BF16Tag>};
  return kernels;
}

} // namespace tensorplay::amp::cpu
