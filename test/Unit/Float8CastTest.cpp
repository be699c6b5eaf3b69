//===- Float8CastTest.cpp - tp.cast to and from f8, exhaustively ----------===//
//
// Compiled tp.cast between f32 (and f64, f16, bf16, i32) and the OCP 8-bit
// floats f8E4M3FN and f8E5M2, with and without `saturate`, against a
// reference written from the formats' definitions: the value of every code
// decoded from its fields, and rounding as the search for the nearest value
// (ties to the even code) with tensorplay's overflow rules (E4M3FN
// saturates, E5M2 overflows to infinity unless `saturate`), which
// python/tests/test_float8.py checks against tensorplay itself. Every f32
// bit pattern goes through the compiled casts to both formats; the host
// conversions of Float8.h are checked against the same reference.
//
//===----------------------------------------------------------------------===//

#include "CompiledCast.h"

#include "tensorplay/Runtime/Float8.h"

#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

using namespace mlir;
using namespace mlir::tp;
using tensorplay_test::castModule;

namespace {

/// A format by its definition: exponent and mantissa bits, bias, and
/// whether an all-ones exponent is inf / NaN (E5M2, IEEE-like) or only
/// S.1111.111 is NaN (E4M3FN, no infinities).
struct Format {
  int exponentBits, mantissaBits, bias;
  bool ieeeSpecials;
  const char *name;
  /// The value of each positive code 0..0x7f (NaN for a NaN code, inf for
  /// E5M2's infinity).
  std::vector<double> values;
  uint8_t maxFinite;

  Format(int e, int m, int b, bool ieee, const char *name)
      : exponentBits(e), mantissaBits(m), bias(b), ieeeSpecials(ieee),
        name(name) {
    for (int code = 0; code < 0x80; ++code)
      values.push_back(decode(code));
    maxFinite = ieee ? 0x7b : 0x7e;
  }

  double decode(int code) const {
    int sign = code >> 7;
    int exponent = (code >> mantissaBits) & ((1 << exponentBits) - 1);
    int mantissa = code & ((1 << mantissaBits) - 1);
    double v;
    if (ieeeSpecials && exponent == (1 << exponentBits) - 1)
      v = mantissa ? std::numeric_limits<double>::quiet_NaN()
                   : std::numeric_limits<double>::infinity();
    else if (!ieeeSpecials && (code & 0x7f) == 0x7f)
      v = std::numeric_limits<double>::quiet_NaN();
    else if (exponent == 0)
      v = std::ldexp(mantissa, 1 - bias - mantissaBits);
    else
      v = std::ldexp(mantissa + (1 << mantissaBits),
                     exponent - bias - mantissaBits);
    return sign ? -v : v;
  }

  /// The value the code after the largest finite would have, if it were a
  /// number: where rounding overflows.
  double beyondMax() const {
    int exponent = (maxFinite + 1) >> mantissaBits;
    int mantissa = (maxFinite + 1) & ((1 << mantissaBits) - 1);
    return std::ldexp(mantissa + (1 << mantissaBits),
                      exponent - bias - mantissaBits);
  }

  /// tensorplay's NaN: S.1111.111 in both formats.
  uint8_t nanCode() const { return 0x7f; }
  /// tensorplay's overflow: E4M3FN (no infinity) saturates, E5M2 gives
  /// infinity unless saturating (OCP's two conversions).
  uint8_t overflowCode(bool saturate) const {
    return saturate || !ieeeSpecials ? maxFinite : 0x7c;
  }

  /// The rounding of the magnitude `a` given `below`, the largest code
  /// whose value is at most `a`: the nearer of it and the next code (the
  /// overflow past the largest finite), ties to the even code.
  uint8_t pick(int below, double a, bool saturate) const {
    double lo = values[below];
    double hi = below < maxFinite ? values[below + 1] : beyondMax();
    int code;
    if (a == lo || a - lo < hi - a)
      code = below;
    else if (a - lo > hi - a)
      code = below + 1;
    else
      code = below % 2 == 0 ? below : below + 1;
    return code > maxFinite ? overflowCode(saturate)
                            : static_cast<uint8_t>(code);
  }

  /// The reference rounding of `x`: the nearest value, ties to the even
  /// code, an overflow (infinities included) as overflowCode says.
  uint8_t round(double x, bool saturate) const {
    uint8_t sign = std::signbit(x) ? 0x80 : 0;
    if (std::isnan(x))
      return nanCode() | sign;
    double a = std::fabs(x);
    int below = 0;
    while (below < maxFinite && values[below + 1] <= a)
      ++below;
    return pick(below, a, saturate) | sign;
  }
};

const Format kE4M3FN(4, 3, 7, false, "f8E4M3FN");
const Format kE5M2(5, 2, 15, true, "f8E5M2");

/// Rounds magnitudes given in increasing order in O(1) each: the reference
/// of Format::round, walked along.
class MonotoneRounder {
public:
  MonotoneRounder(const Format &f, bool saturate) : f(f), saturate(saturate) {}
  uint8_t next(double a) {
    if (std::isnan(a))
      return f.nanCode();
    while (below < f.maxFinite && f.values[below + 1] <= a)
      ++below;
    return f.pick(below, a, saturate);
  }

private:
  const Format &f;
  bool saturate;
  int below = 0;
};

class Float8Cast : public tensorplay_test::CompiledCastTest {};

const tp_rt_f8_format *hostFormat(const Format &f) {
  return &f == &kE4M3FN ? &TP_RT_F8E4M3FN : &TP_RT_F8E5M2;
}

/// Every `stride`-th f32 bit pattern (every one for stride 1), in chunks,
/// through the compiled cast; the reference walks the magnitudes of each
/// sign in increasing order.
void checkEveryF32(Float8Cast &test, const Format &f, bool saturate,
                   uint32_t stride) {
  constexpr int64_t kChunk = int64_t(1) << 24;
  auto exe = test.compile(castModule("f32", f.name, kChunk, saturate));
  ASSERT_TRUE(exe);
  HostTensor input(ElementKind::F32, {kChunk});
  int64_t mismatches = 0;
  for (int half = 0; half < 2; ++half) {
    MonotoneRounder rounder(f, saturate);
    uint8_t sign = half ? 0x80 : 0;
    for (uint64_t start = 0; start < (uint64_t(1) << 31);
         start += uint64_t(kChunk) * stride) {
      uint32_t *bits = input.as<uint32_t>();
      for (int64_t i = 0; i < kChunk; ++i)
        bits[i] = (uint32_t(half) << 31) |
                  uint32_t(std::min<uint64_t>(start + i * stride,
                                              (uint64_t(1) << 31) - 1));
      HostTensor out = test.run(*exe, input);
      ASSERT_EQ(out.kind(), &f == &kE4M3FN ? ElementKind::F8E4M3FN
                                           : ElementKind::F8E5M2);
      const uint8_t *codes = out.as<uint8_t>();
      const float *x = input.as<float>();
      for (int64_t i = 0; i < kChunk; ++i) {
        uint8_t expected = rounder.next(std::fabs(double(x[i]))) | sign;
        if (codes[i] != expected && mismatches++ < 8)
          ADD_FAILURE() << f.name << (saturate ? " saturating" : "")
                        << ": f32 bits 0x" << std::hex << bits[i]
                        << " gave 0x" << int(codes[i]) << ", expected 0x"
                        << int(expected);
        // The host conversion, on a sample.
        if (i % 61 == 0 &&
            tp_rt_f32_to_f8(x[i], hostFormat(f), saturate) != expected &&
            mismatches++ < 8)
          ADD_FAILURE() << "Float8.h " << f.name << ": f32 bits 0x"
                        << std::hex << bits[i];
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// tensorplay's conversions on all 2^32 patterns (25 s each here); the
// saturating ones, which differ only beyond the largest finite, on every
// 13th.
TEST_F(Float8Cast, EveryF32ToE4M3FN) {
  checkEveryF32(*this, kE4M3FN, false, 1);
}
TEST_F(Float8Cast, EveryF32ToE5M2) { checkEveryF32(*this, kE5M2, false, 1); }
TEST_F(Float8Cast, F32ToE4M3FNSaturating) {
  checkEveryF32(*this, kE4M3FN, true, 13);
}
TEST_F(Float8Cast, F32ToE5M2Saturating) {
  checkEveryF32(*this, kE5M2, true, 13);
}

/// Every code of both formats widened to f32, f64, f16 and bf16, and
/// converted to the other f8 format and to i32.
TEST_F(Float8Cast, EveryCodeWidensExactly) {
  for (const Format *f : {&kE4M3FN, &kE5M2}) {
    HostTensor codes(f == &kE4M3FN ? ElementKind::F8E4M3FN
                                   : ElementKind::F8E5M2,
                     {256});
    for (int c = 0; c < 256; ++c)
      codes.as<uint8_t>()[c] = static_cast<uint8_t>(c);
    for (const char *to : {"f32", "f64", "f16", "bf16"}) {
      auto exe = compile(castModule(f->name, to, 256, false));
      ASSERT_TRUE(exe);
      HostTensor out = run(*exe, codes);
      for (int c = 0; c < 256; ++c) {
        double expected = f->decode(c), got = out.get(c);
        if (std::isnan(expected))
          EXPECT_TRUE(std::isnan(got)) << f->name << " code " << c << " " << to;
        else
          EXPECT_EQ(got, expected) << f->name << " code " << c << " " << to;
        if (!std::isnan(expected))
          EXPECT_EQ(std::signbit(got), std::signbit(expected));
      }
    }
    // The host decoding.
    for (int c = 0; c < 256; ++c) {
      double expected = f->decode(c);
      float got = tp_rt_f8_to_f32(static_cast<uint8_t>(c), hostFormat(*f));
      if (std::isnan(expected))
        EXPECT_TRUE(std::isnan(got)) << f->name << " code " << c;
      else
        EXPECT_EQ(double(got), expected) << f->name << " code " << c;
    }
    // To the other format: rounded from the exact value.
    const Format &other = f == &kE4M3FN ? kE5M2 : kE4M3FN;
    for (bool saturate : {false, true}) {
      auto exe = compile(castModule(f->name, other.name, 256, saturate));
      ASSERT_TRUE(exe);
      HostTensor out = run(*exe, codes);
      for (int c = 0; c < 256; ++c)
        EXPECT_EQ(out.as<uint8_t>()[c], other.round(f->decode(c), saturate))
            << f->name << " code " << c << " to " << other.name;
    }
    // To i32: toward zero (every finite f8 value fits).
    auto exe = compile(castModule(f->name, "i32", 256, false));
    ASSERT_TRUE(exe);
    HostTensor out = run(*exe, codes);
    for (int c = 0; c < 256; ++c) {
      double v = f->decode(c);
      if (std::isfinite(v))
        EXPECT_EQ(out.as<int32_t>()[c], static_cast<int32_t>(v))
            << f->name << " code " << c;
    }
  }
}

/// f16 and bf16 sources, every bit pattern; f64 sources at and beside
/// every rounding boundary (where a rounding to f32 first would round
/// twice); i32 sources.
TEST_F(Float8Cast, OtherSources) {
  for (const Format *f : {&kE4M3FN, &kE5M2}) {
    for (bool saturate : {false, true}) {
      for (const char *from : {"f16", "bf16"}) {
        auto exe = compile(castModule(from, f->name, 65536, saturate));
        ASSERT_TRUE(exe);
        HostTensor in(std::strcmp(from, "f16") == 0 ? ElementKind::F16
                                                      : ElementKind::BF16,
                      {65536});
        for (int i = 0; i < 65536; ++i)
          in.as<uint16_t>()[i] = static_cast<uint16_t>(i);
        HostTensor out = run(*exe, in);
        for (int i = 0; i < 65536; ++i)
          EXPECT_EQ(out.as<uint8_t>()[i], f->round(in.get(i), saturate))
              << from << " bits " << i << " to " << f->name;
      }
      // f64: each midpoint between neighbouring values, and the doubles
      // just beside it, of both signs, plus values beyond the range.
      std::vector<double> xs = {0.0, 1e-300, 1e300,
                                std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN()};
      for (int c = 0; c < f->maxFinite; ++c) {
        double mid = (f->values[c] + f->values[c + 1]) / 2;
        xs.push_back(mid);
        xs.push_back(std::nextafter(mid, 0.0));
        xs.push_back(std::nextafter(mid, 1e308));
        xs.push_back(f->values[c]);
      }
      double top = (f->values[f->maxFinite] + f->beyondMax()) / 2;
      for (double x : {top, std::nextafter(top, 0.0), std::nextafter(top, 1e308),
                       f->beyondMax()})
        xs.push_back(x);
      size_t n = xs.size();
      for (size_t i = 0; i < n; ++i)
        xs.push_back(-xs[i]);
      auto exe = compile(castModule("f64", f->name, xs.size(), saturate));
      ASSERT_TRUE(exe);
      HostTensor in(ElementKind::F64, {int64_t(xs.size())});
      std::memcpy(in.data(), xs.data(), xs.size() * sizeof(double));
      HostTensor out = run(*exe, in);
      for (size_t i = 0; i < xs.size(); ++i)
        EXPECT_EQ(out.as<uint8_t>()[i], f->round(xs[i], saturate))
            << "f64 " << xs[i] << " to " << f->name;
      // i32, through the exact f64 value.
      std::vector<int32_t> ints = {0, 1, -1, 17, 19, 300, 449, 465, 481,
                                   -465, 57344, 61439, 61440, 1 << 30,
                                   std::numeric_limits<int32_t>::min(),
                                   std::numeric_limits<int32_t>::max()};
      auto intExe = compile(castModule("i32", f->name, ints.size(), saturate));
      ASSERT_TRUE(intExe);
      HostTensor intIn(ElementKind::I32, {int64_t(ints.size())});
      std::memcpy(intIn.data(), ints.data(), ints.size() * sizeof(int32_t));
      HostTensor intOut = run(*intExe, intIn);
      for (size_t i = 0; i < ints.size(); ++i)
        EXPECT_EQ(intOut.as<uint8_t>()[i], f->round(ints[i], saturate))
            << "i32 " << ints[i] << " to " << f->name;
    }
  }
}

/// HostTensor reads and writes f8 elements through Float8.h.
TEST_F(Float8Cast, HostTensorElements) {
  HostTensor t(ElementKind::F8E4M3FN, {4});
  t.set(0, 1.0);
  t.set(1, 464.0); // a tie: to the even code, 448
  t.set(2, 1000.0); // beyond: the largest finite
  t.set(3, -0x1p-9); // the smallest subnormal
  EXPECT_EQ(t.get(0), 1.0);
  EXPECT_EQ(t.get(1), 448.0);
  EXPECT_EQ(t.get(2), 448.0);
  EXPECT_EQ(t.get(3), -0x1p-9);
  EXPECT_EQ(elementSize(ElementKind::F8E5M2), 1u);
  EXPECT_STREQ(elementKindName(ElementKind::F8E5M2), "f8E5M2");
}

} // namespace
