//===- FloatRoundingTest.cpp - f32 <-> f16 / bf16, every pattern ----------===//
//
// tensorplay/Runtime/FloatRounding.h, the one host implementation of the
// f16 and bf16 conversions, on every f32 bit pattern: f16 against the CPU's
// own vcvtps2ph (F16C, where the CPU has it), bf16 against a reference that
// picks the nearer of the two bf16 neighbours in double arithmetic (ties to
// the even one). AVX-512's vcvtneps2bf16 cannot serve: it flushes
// subnormals. NaN: sign and top payload kept, made quiet. The widenings on
// every 16-bit pattern.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/FloatRounding.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cpuid.h>
#include <cstdint>
#include <immintrin.h>

namespace {

/// CPUID leaf 1, ECX bit 29.
bool cpuHasF16C() {
  unsigned a, b, c, d;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
}

__attribute__((target("f16c"))) uint16_t hardwareF16(float x) {
  return _cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT);
}

__attribute__((target("f16c"))) float hardwareF16ToF32(uint16_t h) {
  return _cvtsh_ss(h);
}

/// The bf16 rounding of the f32 bit pattern `bits` by its definition.
uint16_t referenceBf16(uint32_t bits) {
  uint32_t sign = bits & 0x80000000u, magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // NaN: quiet, sign and top payload kept
    return static_cast<uint16_t>((bits | 0x00400000u) >> 16);
  uint32_t lo = magnitude & 0xffff0000u;
  if (lo == magnitude)
    return static_cast<uint16_t>((sign | lo) >> 16);
  uint32_t hi = lo + 0x10000u; // 0x7f800000 (inf) past the largest finite
  double x = tp_rt_bits_float(magnitude);
  double below = tp_rt_bits_float(lo);
  double above = hi == 0x7f800000u ? std::ldexp(1.0, 128)
                                   : double(tp_rt_bits_float(hi));
  uint32_t pick;
  if (x - below < above - x)
    pick = lo;
  else if (x - below > above - x)
    pick = hi;
  else
    pick = (lo >> 16) % 2 == 0 ? lo : hi;
  return static_cast<uint16_t>((sign | pick) >> 16);
}

TEST(FloatRounding, EveryF32ToBf16) {
  int64_t mismatches = 0;
  for (uint64_t b = 0; b <= 0xffffffffu; ++b) {
    uint32_t bits = static_cast<uint32_t>(b);
    uint16_t got = tp_rt_f32_to_bf16(tp_rt_bits_float(bits));
    uint16_t want = referenceBf16(bits);
    if (got != want && mismatches++ < 8)
      ADD_FAILURE() << std::hex << "f32 0x" << bits << ": 0x" << got
                    << ", expected 0x" << want;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(FloatRounding, EveryF32ToF16MatchesTheCpu) {
  if (!cpuHasF16C())
    GTEST_SKIP() << "this CPU has no F16C";
  int64_t mismatches = 0;
  for (uint64_t b = 0; b <= 0xffffffffu; ++b) {
    float x = tp_rt_bits_float(static_cast<uint32_t>(b));
    uint16_t got = tp_rt_f32_to_f16(x), want = hardwareF16(x);
    if (got != want && mismatches++ < 8)
      ADD_FAILURE() << std::hex << "f32 0x" << b << ": 0x" << got
                    << ", expected 0x" << want;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(FloatRounding, EverySixteenBitPatternWidens) {
  bool f16c = cpuHasF16C();
  for (uint32_t h = 0; h < 65536; ++h) {
    uint16_t v = static_cast<uint16_t>(h);
    EXPECT_EQ(tp_rt_float_bits(tp_rt_bf16_to_f32(v)), h << 16);
    if (f16c)
      EXPECT_EQ(tp_rt_float_bits(tp_rt_f16_to_f32(v)),
                tp_rt_float_bits(hardwareF16ToF32(v)))
          << std::hex << "f16 0x" << h;
    // Narrowing a widened value gives it back (NaNs made quiet).
    bool nanF16 = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
    EXPECT_EQ(tp_rt_f32_to_f16(tp_rt_f16_to_f32(v)),
              nanF16 ? (h | 0x200u) : h);
    bool nanBf16 = (h & 0x7f80u) == 0x7f80u && (h & 0x7fu);
    EXPECT_EQ(tp_rt_f32_to_bf16(tp_rt_bf16_to_f32(v)),
              nanBf16 ? (h | 0x40u) : h);
  }
}

} // namespace
