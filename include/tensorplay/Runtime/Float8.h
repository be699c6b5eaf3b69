/*===- tensorplay/Runtime/Float8.h - The OCP 8-bit floats on the host -*- C -*-=*\
|*                                                                            *|
|* f32 <-> f8E4M3FN / f8E5M2 for host code (HostTensor, tp-run's inputs and   *|
|* outputs), bit-exact with what compiled tp.cast computes                    *|
|* (lib/Codegen/CPU/ExpandFloat8.cpp) and tensorplay's .to(float8_*): round  *|
|* to nearest even; NaN becomes S.1111.111; beyond the largest finite (448,  *|
|* 57344) the largest finite in E4M3FN, infinity in E5M2 or, with           *|
|* `saturate`, its largest finite. Valid C99.                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TENSORPLAY_RUNTIME_FLOAT8_H
#define TENSORPLAY_RUNTIME_FLOAT8_H

#include "tensorplay/Runtime/FloatRounding.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The layout of an f8 format: mantissa bits, exponent bias, the largest
/// finite code, the code of an overflow without `saturate`, the NaN code
/// (sign clear), and whether an all-ones exponent means inf / NaN (E5M2)
/// or only S.1111.111 is NaN (E4M3FN).
typedef struct tp_rt_f8_format {
  unsigned mantissa_bits;
  int bias;
  uint32_t max_finite, overflow, nan;
  int has_infinity;
} tp_rt_f8_format;

static const tp_rt_f8_format TP_RT_F8E4M3FN = {3, 7, 0x7e, 0x7e, 0x7f, 0};
static const tp_rt_f8_format TP_RT_F8E5M2 = {2, 15, 0x7b, 0x7c, 0x7f, 1};

static inline uint8_t tp_rt_f32_to_f8(float x, const tp_rt_f8_format *f,
                                      int saturate) {
  uint32_t bits = tp_rt_float_bits(x);
  uint32_t sign = (bits >> 24) & 0x80u;
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u)
    return (uint8_t)(f->nan | sign);
  uint32_t limit = saturate ? f->max_finite : f->overflow;
  uint32_t code;
  if (magnitude < ((uint32_t)(127 + 1 - f->bias) << 23)) {
    /* Subnormal: adding 2^e, whose ulp is the f8 subnormal step, rounds to
     * that step (to nearest even). */
    uint32_t magic_bits = (uint32_t)(127 - f->bias + 23 - f->mantissa_bits + 1)
                          << 23;
    code = tp_rt_float_bits(tp_rt_bits_float(magnitude) +
                            tp_rt_bits_float(magic_bits)) -
           magic_bits;
  } else {
    unsigned shift = 23 - f->mantissa_bits;
    uint32_t rebased = magnitude - ((uint32_t)(127 - f->bias) << 23);
    code = (rebased + (1u << (shift - 1)) - 1 + ((rebased >> shift) & 1u)) >>
           shift;
  }
  return (uint8_t)((code < limit ? code : limit) | sign);
}

/// The f8 code of the f64 `x`: rounded to f32 by round-to-odd first, which
/// makes the rounding to f8 exact (as compiled tp.cast from f64 does).
static inline uint8_t tp_rt_f64_to_f8(double x, const tp_rt_f8_format *f,
                                      int saturate) {
  float nearest = (float)x;
  double back = (double)nearest;
  if (back != x && back == back && x == x) {
    uint32_t bits = tp_rt_float_bits(nearest);
    if ((back < 0 ? -back : back) > (x < 0 ? -x : x))
      bits -= 1; /* one step toward zero */
    nearest = tp_rt_bits_float(bits | 1u);
  }
  return tp_rt_f32_to_f8(nearest, f, saturate);
}

static inline float tp_rt_f8_to_f32(uint8_t code, const tp_rt_f8_format *f) {
  unsigned exponent_bits = 7 - f->mantissa_bits;
  uint32_t sign = (uint32_t)(code & 0x80u) << 24;
  uint32_t exponent = (code >> f->mantissa_bits) & ((1u << exponent_bits) - 1);
  uint32_t mantissa = code & ((1u << f->mantissa_bits) - 1);
  uint32_t bits;
  if (f->has_infinity && exponent == (1u << exponent_bits) - 1) {
    bits = 0x7f800000u | (mantissa << (23 - f->mantissa_bits)) |
           (mantissa ? 0x00400000u : 0u);
  } else if (!f->has_infinity && (code & 0x7fu) == 0x7fu) {
    bits = 0x7ff00000u;
  } else if (exponent == 0) {
    /* mantissa * 2^(1 - bias - mantissa_bits), exact. */
    float value = (float)mantissa;
    for (int e = 1 - f->bias - (int)f->mantissa_bits; e < 0; ++e)
      value *= 0.5f;
    bits = tp_rt_float_bits(value);
  } else {
    bits = ((exponent + 127 - (uint32_t)f->bias) << 23) |
           (mantissa << (23 - f->mantissa_bits));
  }
  return tp_rt_bits_float(bits | sign);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORPLAY_RUNTIME_FLOAT8_H */
