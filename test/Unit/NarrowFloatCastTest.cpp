//===- NarrowFloatCastTest.cpp - compiled f16 / bf16 casts, exhaustively --===//
//
// Compiled tp.cast to and from f16 and bf16 against the one host
// implementation of those conversions (tensorplay/Runtime/FloatRounding.h,
// itself checked on every f32 pattern against the CPU's vcvtps2ph and a
// reference from the definition by test/Runtime/FloatRoundingTest.cpp):
// every f32 bit pattern narrowed, every 16-bit pattern widened, f64 sources
// beside every rounding boundary (where rounding through f32 would round
// twice) against the formats' definitions. One NaN rule everywhere: the sign
// and the top of the payload kept, the quiet bit set. The AVX-512 kernel that
// rounds f32 weights while packing them for oneDNN's bf16 matmul is held to the
// same rule on every f32 pattern.
//
//===----------------------------------------------------------------------===//

#include "CompiledCast.h"

#include "tensorplay/Runtime/Codegen.h"
#include "tensorplay/Runtime/FloatRounding.h"

#ifdef TENSORPLAY_TEST_WEIGHT_PACKING
#include "onednn/WeightPacking.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace mlir::tp;
using tensorplay_test::castModule;

namespace {

class NarrowFloatCast : public tensorplay_test::CompiledCastTest {};

constexpr int64_t kChunk = int64_t(1) << 24;

/// Every f32 bit pattern through the compiled cast to `to`, in chunks,
/// against `host`.
template <typename HostFn>
void checkEveryF32(NarrowFloatCast &test, const char *to, ElementKind kind,
                   HostFn host) {
  auto exe = test.compile(castModule("f32", to, kChunk));
  ASSERT_TRUE(exe);
  HostTensor input(ElementKind::F32, {kChunk});
  int64_t mismatches = 0;
  for (uint64_t start = 0; start < (uint64_t(1) << 32); start += kChunk) {
    uint32_t *bits = input.as<uint32_t>();
    for (int64_t i = 0; i < kChunk; ++i)
      bits[i] = static_cast<uint32_t>(start + i);
    HostTensor out = test.run(*exe, input);
    ASSERT_EQ(out.kind(), kind);
    const uint16_t *got = out.as<uint16_t>();
    for (int64_t i = 0; i < kChunk; ++i) {
      uint16_t want = host(tp_rt_bits_float(bits[i]));
      if (got[i] != want && mismatches++ < 8)
        ADD_FAILURE() << to << ": f32 bits 0x" << std::hex << bits[i]
                      << " gave 0x" << got[i] << ", expected 0x" << want;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST_F(NarrowFloatCast, EveryF32ToBf16) {
  checkEveryF32(*this, "bf16", ElementKind::BF16, tp_rt_f32_to_bf16);
}

TEST_F(NarrowFloatCast, EveryF32ToF16) {
  checkEveryF32(*this, "f16", ElementKind::F16, tp_rt_f32_to_f16);
}

/// Every f16 and bf16 pattern widened to f32 and f64, exactly (a NaN keeps
/// its sign and payload).
TEST_F(NarrowFloatCast, EverySixteenBitPatternWidens) {
  for (ElementKind kind : {ElementKind::F16, ElementKind::BF16}) {
    const char *from = kind == ElementKind::F16 ? "f16" : "bf16";
    HostTensor in(kind, {65536});
    for (int i = 0; i < 65536; ++i)
      in.as<uint16_t>()[i] = static_cast<uint16_t>(i);
    auto toF32 = compile(castModule(from, "f32", 65536));
    auto toF64 = compile(castModule(from, "f64", 65536));
    ASSERT_TRUE(toF32 && toF64);
    HostTensor f32 = run(*toF32, in), f64 = run(*toF64, in);
    for (int i = 0; i < 65536; ++i) {
      uint16_t h = static_cast<uint16_t>(i);
      float want =
          kind == ElementKind::F16 ? tp_rt_f16_to_f32(h) : tp_rt_bf16_to_f32(h);
      EXPECT_EQ(f32.as<uint32_t>()[i], tp_rt_float_bits(want))
          << from << " 0x" << std::hex << i;
      double wide = f64.as<double>()[i];
      if (std::isnan(want)) {
        // To f64: the sign and payload kept, made quiet (bf16 -> f32 is a
        // shift that keeps a signalling NaN signalling; widening to f64
        // quiets it, as the CPU's cvtss2sd does).
        uint64_t bits, narrow = tp_rt_float_bits(want);
        std::memcpy(&bits, &wide, 8);
        EXPECT_EQ(bits, (narrow & 0x80000000u) << 32 | 0x7ff8000000000000ull |
                            (narrow & 0x7fffffu) << 29)
            << from << " 0x" << std::hex << i << " to f64";
      } else {
        EXPECT_EQ(wide, double(want)) << from << " 0x" << std::hex << i;
        EXPECT_EQ(std::signbit(wide), std::signbit(want));
      }
    }
  }
}

/// A 16-bit format by its values: the positive finite codes' values in
/// increasing order, and the value one code past the largest finite (where
/// rounding overflows to infinity, the next code).
struct SixteenBitFormat {
  std::vector<double> values;
  double beyond;

  /// The rounding of the non-NaN `x` by the definition: the nearer of the
  /// two neighbouring codes, ties to the even code.
  uint16_t round(double x) const {
    uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    double a = std::fabs(x);
    // The largest code whose value is at most a.
    size_t below =
        std::upper_bound(values.begin(), values.end(), a) - values.begin() - 1;
    double lo = values[below];
    double hi = below + 1 < values.size() ? values[below + 1] : beyond;
    size_t code;
    if (a - lo < hi - a)
      code = below;
    else if (a - lo > hi - a)
      code = below + 1;
    else
      code = below % 2 == 0 ? below : below + 1;
    return static_cast<uint16_t>(code) | sign; // past the end: infinity
  }
};

SixteenBitFormat formatOf(float (*widen)(uint16_t), uint16_t infinity,
                          double beyond) {
  SixteenBitFormat f{{}, beyond};
  for (uint32_t h = 0; h < infinity; ++h)
    f.values.push_back(widen(static_cast<uint16_t>(h)));
  return f;
}

/// f64 sources: every (every 7th for bf16) value's midpoint to the next
/// and the doubles beside it (exact ties go to even, one ulp of f64 off a
/// tie must not: rounding through f32 would round twice there), NaNs with
/// payloads, infinities, overflow, underflow, random values; against the
/// definition. A NaN gives what the f32 NaN it narrows to (sign and top
/// payload, made quiet) gives: the one NaN rule.
TEST_F(NarrowFloatCast, F64SourcesRoundOnce) {
  const SixteenBitFormat bf16Format =
      formatOf(tp_rt_bf16_to_f32, 0x7f80, std::ldexp(1.0, 128));
  const SixteenBitFormat f16Format = formatOf(tp_rt_f16_to_f32, 0x7c00, 65536);
  std::vector<double> xs = {0.0,
                            1e-300,
                            1e300,
                            std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::signaling_NaN(),
                            std::numeric_limits<double>::denorm_min()};
  for (uint64_t payload : {1ull, 0x1234ull, 0x0004000000000ull,
                           0x0007ffffffffffffull, 0x000fedcba9876543ull}) {
    uint64_t bits = 0x7ff0000000000000ull | payload;
    double nan;
    std::memcpy(&nan, &bits, 8);
    xs.push_back(nan);
  }
  for (const SixteenBitFormat *f : {&bf16Format, &f16Format}) {
    size_t step = f == &bf16Format ? 7 : 1;
    for (size_t c = 0; c < f->values.size(); c += step) {
      double lo = f->values[c];
      double hi = c + 1 < f->values.size() ? f->values[c + 1] : f->beyond;
      double mid = (lo + hi) / 2;
      for (double x :
           {lo, mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e308)})
        xs.push_back(x);
    }
  }
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> wide(-70000.0, 70000.0);
  for (int i = 0; i < 20000; ++i)
    xs.push_back(wide(rng));
  size_t n = xs.size();
  for (size_t i = 0; i < n; ++i)
    xs.push_back(-xs[i]);

  HostTensor in(ElementKind::F64, {int64_t(xs.size())});
  std::memcpy(in.data(), xs.data(), xs.size() * sizeof(double));
  auto toBf16 = compile(castModule("f64", "bf16", xs.size()));
  auto toF16 = compile(castModule("f64", "f16", xs.size()));
  ASSERT_TRUE(toBf16 && toF16);
  HostTensor bf16 = run(*toBf16, in), f16 = run(*toF16, in);
  int64_t mismatches = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    double x = xs[i];
    float viaF32 = static_cast<float>(x);
    uint16_t wantBf16 =
        std::isnan(x) ? tp_rt_f32_to_bf16(viaF32) : bf16Format.round(x);
    uint16_t wantF16 =
        std::isnan(x) ? tp_rt_f32_to_f16(viaF32) : f16Format.round(x);
    uint16_t gotBf16 = bf16.as<uint16_t>()[i], gotF16 = f16.as<uint16_t>()[i];
    if ((gotBf16 != wantBf16 || gotF16 != wantF16) && mismatches++ < 8)
      ADD_FAILURE() << "f64 " << x << std::hex << ": bf16 0x" << gotBf16
                    << " (expected 0x" << wantBf16 << "), f16 0x" << gotF16
                    << " (expected 0x" << wantF16 << ")";
    // The runtime's __truncdfbf2 (a fallback LLVM may call) agrees.
    uint16_t builtin = tp_rt_float_bits(tp_rt_truncdfbf2(x)) & 0xffffu;
    if (builtin != wantBf16 && mismatches++ < 8)
      ADD_FAILURE() << "tp_rt_truncdfbf2(" << x << ") = 0x" << std::hex
                    << builtin << ", expected 0x" << wantBf16;
  }
  EXPECT_EQ(mismatches, 0);
}

#ifdef TENSORPLAY_TEST_WEIGHT_PACKING
/// The AVX-512 kernel that rounds f32 weights to bf16 while packing them
/// into oneDNN's VNNI layout, on every f32 bit pattern: W is 64 rows (n) of
/// 2^18 (k) patterns per chunk, each element read back from its place in
/// the layout.
TEST(Bf16WeightPacking, EveryF32RoundsAsTheHost) {
  using namespace tensorplay::codegen;
  if (!canPackBf16Vnni())
    GTEST_SKIP() << "no AVX-512 packing kernel on this CPU (the portable "
                    "path calls tp_rt_f32_to_bf16 itself)";
  const int64_t n = 64, k = kChunk / n;
  Bf16VnniLayout layout{k, n, 2048, (k / 32) * 2048};
  std::vector<uint32_t> w(kChunk);
  std::vector<uint16_t> out(layout.paddedK() * layout.paddedN());
  int64_t mismatches = 0;
  for (uint64_t start = 0; start < (uint64_t(1) << 32); start += kChunk) {
    for (int64_t i = 0; i < kChunk; ++i)
      w[i] = static_cast<uint32_t>(start + i);
    packTransposedBf16Vnni(reinterpret_cast<const float *>(w.data()), k, layout,
                           out.data(), 0, vnniRowGroups(layout));
    for (int64_t o = 0; o < int64_t(out.size()); ++o) {
      int64_t within = o % 2048, pair = within / 128;
      int64_t col = (within % 128) / 2;
      int64_t row = (o / 2048) * 32 + pair * 2 + within % 2;
      uint32_t bits = w[col * k + row];
      uint16_t want = tp_rt_f32_to_bf16(tp_rt_bits_float(bits));
      if (out[o] != want && mismatches++ < 8)
        ADD_FAILURE() << "f32 bits 0x" << std::hex << bits << " packed as 0x"
                      << out[o] << ", expected 0x" << want;
    }
  }
  EXPECT_EQ(mismatches, 0);
}
#endif

} // namespace
