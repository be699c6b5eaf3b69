//===- FloatConversion.h - f16 / bf16 <-> f32 on the CPU --------*- C++ -*-===//
//
// Portable scalar conversions with round-to-nearest-even, bit-exact with the
// AVX-512 conversions (vcvtph2ps / vcvtps2ph, and the bf16 rounding of
// UnscaleKernelsAVX512.cpp), quiet NaNs kept NaN.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CPU_FLOATCONVERSION_H
#define TENSORPLAY_RUNTIME_CPU_FLOATCONVERSION_H

#include <cstdint>
#include <cstring>

namespace tensorplay::amp::cpu {

inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// True when the f32 bit pattern is inf or NaN (exponent all ones).
inline bool isNonFiniteBits(uint32_t bits) {
  return (bits & 0x7f800000u) == 0x7f800000u;
}

inline float bf16ToFloat(uint16_t value) {
  return bitsToFloat(static_cast<uint32_t>(value) << 16);
}

/// Round to nearest even; a NaN becomes a quiet NaN with its sign and top
/// mantissa bits. Branch-free, so that loops over it vectorise.
inline uint16_t floatToBf16(float value) {
  uint32_t bits = floatBits(value);
  uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  uint32_t quietNaN = (bits | 0x00400000u) >> 16;
  return static_cast<uint16_t>((bits & 0x7fffffffu) > 0x7f800000u ? quietNaN
                                                                  : rounded);
}

inline float f16ToFloat(uint16_t value) {
  uint32_t sign = static_cast<uint32_t>(value & 0x8000u) << 16;
  uint32_t exponent = (value >> 10) & 0x1fu;
  uint32_t mantissa = value & 0x3ffu;
  if (exponent == 0x1f) // inf, or NaN made quiet as vcvtph2ps does.
    return bitsToFloat(sign | 0x7f800000u | (mantissa << 13) |
                       (mantissa ? 0x00400000u : 0u));
  if (exponent != 0) // normal
    return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
  // Zero or subnormal: mantissa * 2^-24 is exact in f32.
  return bitsToFloat(sign | floatBits(static_cast<float>(mantissa) * 0x1p-24f));
}

/// Round to nearest even, overflow to inf, NaN kept quiet NaN.
inline uint16_t floatToF16(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // NaN: quiet, payload truncated.
    return sign | 0x7e00u | static_cast<uint16_t>((magnitude >> 13) & 0x3ffu);
  if (magnitude >= 0x477ff000u) // >= 65520 rounds to inf (inf included).
    return sign | 0x7c00u;
  if (magnitude >= 0x38800000u) { // normal f16 (>= 2^-14)
    uint32_t rebased = magnitude - 0x38000000u;
    rebased += 0xfffu + ((rebased >> 13) & 1u);
    return sign | static_cast<uint16_t>(rebased >> 13);
  }
  if (magnitude < 0x33000000u) // <= 2^-25 rounds to zero.
    return sign;
  // Subnormal f16: round (24-bit mantissa) >> shift to nearest even.
  uint32_t exponent = magnitude >> 23;
  uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
  uint32_t shift = 126 - exponent;
  uint32_t result = mantissa >> shift;
  uint32_t rest = mantissa & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (result & 1u)))
    ++result;
  return sign | static_cast<uint16_t>(result);
}

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
