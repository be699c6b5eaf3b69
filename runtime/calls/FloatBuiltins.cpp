//===- FloatBuiltins.cpp - bf16 conversions LLVM's backends call ----------===//
//
// tp_rt_truncsfbf2 / tp_rt_truncdfbf2 of Codegen.h: compiler-rt's
// __truncsfbf2 / __truncdfbf2, which x86 code generation calls to narrow to
// bf16 where the CPU has no bf16 instructions (AVX2 CPUs) and which the
// libgcc of Debian 12 (GCC 12) does not have. The JIT binds those names to
// these functions. The bf16 result travels in the low 16 bits of a float
// register, where the x86-64 and AArch64 ABIs pass a __bf16.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"
#include "tensorplay/Runtime/FloatRounding.h"

#include <cmath>
#include <cstdint>
#include <cstring>

static float returnBf16(uint16_t bits) {
  uint32_t word = bits;
  float f;
  std::memcpy(&f, &word, sizeof(f));
  return f;
}

float tp_rt_truncsfbf2(float x) { return returnBf16(tp_rt_f32_to_bf16(x)); }

float tp_rt_truncdfbf2(double x) {
  // Round to odd into f32 (toward zero, then set the last bit if inexact),
  // then to nearest even into bf16: no double rounding, as f32 keeps more
  // than two bits beyond bf16's 8.
  // A NaN: narrowed to f32 (sign and top payload kept, made quiet, as
  // x86's cvtsd2ss and AArch64's fcvt do), then as an f32 NaN.
  float f = static_cast<float>(x);
  if (std::isnan(x))
    return tp_rt_truncsfbf2(f);
  if (static_cast<double>(f) != x) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(x))
      f = std::nextafter(f, 0.0f);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    bits |= 1u;
    std::memcpy(&f, &bits, sizeof(bits));
  }
  return tp_rt_truncsfbf2(f);
}
