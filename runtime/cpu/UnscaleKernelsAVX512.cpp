//===- UnscaleKernelsAVX512.cpp - AVX-512 unscale / check -----------------===//
//
// AVX-512F/BW/VL versions of the unscale + inf/NaN check. Only these
// functions carry the target attribute (no pragma, no -mavx512f): everything
// else in the library stays baseline code, so the library runs on any x86-64
// CPU and this table is used only after cpuSupportsAvx512().
//
// Sixteen lanes at a time, as f32; f16 and bf16 are widened on load and
// rounded to nearest even on store, bit-exact with FloatConversion.h. The
// tail is handled with masked loads and stores.
//
//===----------------------------------------------------------------------===//

#include "cpu/UnscaleKernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TP_RT_HAVE_AVX512_KERNELS 1
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's masked intrinsics use _mm512_undefined_*() and then warn about it
// (GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#endif

namespace tensorplay::amp::cpu {

#ifdef TP_RT_HAVE_AVX512_KERNELS
namespace {

#define TP_RT_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

/// f32 lanes.
struct F32Lanes {
  using Storage = float;
  template <bool Full>
  TP_RT_AVX512 static __m512 load(const float *p, __mmask16 mask) {
    return Full ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(mask, p);
  }
  template <bool Full>
  TP_RT_AVX512 static void store(float *p, __mmask16 mask, __m512 value) {
    if (Full)
      _mm512_storeu_ps(p, value);
    else
      _mm512_mask_storeu_ps(p, mask, value);
  }
};

/// 16-bit lanes: loads and stores of sixteen uint16_t.
template <bool Full>
TP_RT_AVX512 inline __m256i load16(const uint16_t *p, __mmask16 mask) {
  return Full ? _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p))
              : _mm256_maskz_loadu_epi16(mask, p);
}
template <bool Full>
TP_RT_AVX512 inline void store16(uint16_t *p, __mmask16 mask, __m256i value) {
  if (Full)
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), value);
  else
    _mm256_mask_storeu_epi16(p, mask, value);
}

/// bf16 lanes: widen by shifting, narrow with round-to-nearest-even.
struct BF16Lanes {
  using Storage = uint16_t;
  template <bool Full>
  TP_RT_AVX512 static __m512 load(const uint16_t *p, __mmask16 mask) {
    __m512i wide = _mm512_cvtepu16_epi32(load16<Full>(p, mask));
    return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
  }
  template <bool Full>
  TP_RT_AVX512 static void store(uint16_t *p, __mmask16 mask, __m512 value) {
    __m512i bits = _mm512_castps_si512(value);
    __m512i lsb =
        _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    __m512i rounded = _mm512_add_epi32(
        bits, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
    __mmask16 nan = _mm512_cmp_ps_mask(value, value, _CMP_UNORD_Q);
    rounded =
        _mm512_mask_or_epi32(rounded, nan, bits, _mm512_set1_epi32(0x00400000));
    store16<Full>(p, mask,
                  _mm512_cvtepi32_epi16(_mm512_srli_epi32(rounded, 16)));
  }
};

/// f16 lanes: vcvtph2ps / vcvtps2ph.
struct F16Lanes {
  using Storage = uint16_t;
  template <bool Full>
  TP_RT_AVX512 static __m512 load(const uint16_t *p, __mmask16 mask) {
    return _mm512_cvtph_ps(load16<Full>(p, mask));
  }
  template <bool Full>
  TP_RT_AVX512 static void store(uint16_t *p, __mmask16 mask, __m512 value) {
    store16<Full>(
        p, mask,
        _mm512_cvtps_ph(value, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
};

/// Sixteen (or, masked, fewer) elements: returns the lanes that were
/// non-finite.
template <typename Lanes, bool Write, bool Full>
TP_RT_AVX512 inline __mmask16 unscaleLanes(typename Lanes::Storage *p,
                                           __mmask16 mask, __m512 invScale) {
  const __m512i exponent = _mm512_set1_epi32(0x7f800000);
  __m512 value = Lanes::template load<Full>(p, mask);
  __m512i bits = _mm512_and_si512(_mm512_castps_si512(value), exponent);
  __mmask16 nonFinite = _mm512_mask_cmpeq_epi32_mask(mask, bits, exponent);
  if (Write)
    Lanes::template store<Full>(p, mask, _mm512_mul_ps(value, invScale));
  return nonFinite;
}

template <typename Lanes, bool Write>
TP_RT_AVX512 bool unscaleLoop(typename Lanes::Storage *data, int64_t n,
                              float invScale) {
  const __m512 scale = _mm512_set1_ps(invScale);
  __mmask16 nonFinite = 0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    nonFinite |= unscaleLanes<Lanes, Write, true>(data + i, 0xffff, scale);
    nonFinite |= unscaleLanes<Lanes, Write, true>(data + i + 16, 0xffff, scale);
  }
  for (; i < n; i += 16) {
    int64_t left = n - i;
    if (left >= 16) {
      nonFinite |= unscaleLanes<Lanes, Write, true>(data + i, 0xffff, scale);
    } else {
      auto mask = static_cast<__mmask16>((1u << left) - 1u);
      nonFinite |= unscaleLanes<Lanes, Write, false>(data + i, mask, scale);
    }
  }
  return nonFinite != 0;
}

template <typename Lanes>
TP_RT_AVX512 bool unscaleRange(void *data, int64_t n, float invScale,
                               bool write) {
  auto *typed = static_cast<typename Lanes::Storage *>(data);
  return write ? unscaleLoop<Lanes, true>(typed, n, invScale)
               : unscaleLoop<Lanes, false>(typed, n, invScale);
}

} // namespace

const UnscaleKernels *avx512UnscaleKernels() {
  static const UnscaleKernels kernels = {
      unscaleRange<F32Lanes>, unscaleRange<F16Lanes>, unscaleRange<BF16Lanes>};
  return &kernels;
}

#else

const UnscaleKernels *avx512UnscaleKernels() { return nullptr; }

#endif // TP_RT_HAVE_AVX512_KERNELS

} // namespace tensorplay::amp::cpu
