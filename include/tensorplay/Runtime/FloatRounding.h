/*===- tensorplay/Runtime/FloatRounding.h - f32 <-> f16 / bf16 --*- C -*-===*\
|*                                                                            *|
|* The one scalar implementation of f32 <-> f16 and f32 <-> bf16 for host     *|
|* code: the runtime's kernels (runtime/cpu/FloatConversion.h), the bf16      *|
|* builtins compiled code calls (__truncsfbf2), the compiler API's            *|
|* HostTensor. Round to nearest even, overflow to infinity, subnormals        *|
|* rounded like any other value; a NaN stays a NaN of its sign, made quiet,   *|
|* with the top of its payload: what x86's vcvtps2ph and vcvtneps2bf16 give   *|
|* (test/Runtime/FloatRoundingTest.cpp compares every f32 bit pattern with    *|
|* them) and tensorplay's vectorized conversions. Branch-free where it        *|
|* matters, so that loops over it vectorise. Valid C99.                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TENSORPLAY_RUNTIME_FLOATROUNDING_H
#define TENSORPLAY_RUNTIME_FLOATROUNDING_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline uint32_t tp_rt_float_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static inline float tp_rt_bits_float(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

static inline float tp_rt_bf16_to_f32(uint16_t value) {
  return tp_rt_bits_float((uint32_t)value << 16);
}

static inline uint16_t tp_rt_f32_to_bf16(float value) {
  uint32_t bits = tp_rt_float_bits(value);
  uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  uint32_t quiet_nan = (bits | 0x00400000u) >> 16;
  return (uint16_t)((bits & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded);
}

static inline float tp_rt_f16_to_f32(uint16_t value) {
  uint32_t sign = (uint32_t)(value & 0x8000u) << 16;
  uint32_t exponent = (value >> 10) & 0x1fu;
  uint32_t mantissa = value & 0x3ffu;
  if (exponent == 0x1f) /* inf, or NaN made quiet as vcvtph2ps does */
    return tp_rt_bits_float(sign | 0x7f800000u | (mantissa << 13) |
                            (mantissa ? 0x00400000u : 0u));
  if (exponent != 0) /* normal */
    return tp_rt_bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
  /* Zero or subnormal: mantissa * 2^-24 is exact in f32. */
  return tp_rt_bits_float(
      sign | tp_rt_float_bits((float)mantissa * 5.9604644775390625e-8f));
}

static inline uint16_t tp_rt_f32_to_f16(float value) {
  uint32_t bits = tp_rt_float_bits(value);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) /* NaN: quiet, payload truncated */
    return (uint16_t)(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
  if (magnitude >= 0x477ff000u) /* >= 65520 rounds to inf (inf included) */
    return (uint16_t)(sign | 0x7c00u);
  if (magnitude >= 0x38800000u) { /* normal f16 (>= 2^-14) */
    uint32_t rebased = magnitude - 0x38000000u;
    rebased += 0xfffu + ((rebased >> 13) & 1u);
    return (uint16_t)(sign | (rebased >> 13));
  }
  if (magnitude < 0x33000000u) /* <= 2^-25 rounds to zero */
    return sign;
  { /* Subnormal f16: round the 24-bit mantissa >> shift to nearest even. */
    uint32_t exponent = magnitude >> 23;
    uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - exponent;
    uint32_t result = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (result & 1u)))
      ++result;
    return (uint16_t)(sign | result);
  }
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORPLAY_RUNTIME_FLOATROUNDING_H */
