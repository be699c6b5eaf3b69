//===- FloatConversion.h - f16 / bf16 <-> f32 on the CPU --------*- C++ -*-===//
//
// The runtime kernels' names for the scalar conversions of
// tensorplay/Runtime/FloatRounding.h (round to nearest even, bit-exact with
// the AVX-512 conversions: vcvtph2ps / vcvtps2ph and the bf16 rounding of
// UnscaleKernelsAVX512.cpp), and the kernels' element traits.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CPU_FLOATCONVERSION_H
#define TENSORPLAY_RUNTIME_CPU_FLOATCONVERSION_H

#include "tensorplay/Runtime/FloatRounding.h"

#include <cstdint>

namespace tensorplay::amp::cpu {

inline uint32_t floatBits(float value) { return tp_rt_float_bits(value); }

inline float bitsToFloat(uint32_t bits) { return tp_rt_bits_float(bits); }

/// True when the f32 bit pattern is inf or NaN (exponent all ones).
inline bool isNonFiniteBits(uint32_t bits) {
  return (bits & 0x7f800000u) == 0x7f800000u;
}

// The conversions themselves: FloatRounding.h, the one implementation.
inline float bf16ToFloat(uint16_t value) { return tp_rt_bf16_to_f32(value); }
inline uint16_t floatToBf16(float value) { return tp_rt_f32_to_bf16(value); }
inline float f16ToFloat(uint16_t value) { return tp_rt_f16_to_f32(value); }
inline uint16_t floatToF16(float value) { return tp_rt_f32_to_f16(value); }

/// Element access by storage type: f32 as float, f16 and bf16 as uint16_t
/// tagged by these types.
struct F16Tag {};
struct BF16Tag {};

template <typename Tag>
struct ElementTraits;
template <>
struct ElementTraits<float> {
  using Storage = float;
  static float load(float v) { return v; }
  static float store(float v) { return v; }
};
template <>
struct ElementTraits<F16Tag> {
  using Storage = uint16_t;
  static float load(uint16_t v) { return f16ToFloat(v); }
  static uint16_t store(float v) { return floatToF16(v); }
};
template <>
struct ElementTraits<BF16Tag> {
  using Storage = uint16_t;
  static float load(uint16_t v) { return bf16ToFloat(v); }
  static uint16_t store(float v) { return floatToBf16(v); }
};

} // namespace tensorplay::amp::cpu

#endif // TENSORPLAY_RUNTIME_CPU_FLOATCONVERSION_H
