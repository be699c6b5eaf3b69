//===- WeightPacking.cpp - f32 weights into oneDNN's bf16 layout ----------===//
//
// See WeightPacking.h. For 16 rows of W (16 consecutive n) and 32
// consecutive k: 32 f32 per row are rounded and narrowed to one vector of
// 16 bf16 pairs (k even, k odd), the 16 vectors are transposed as a 16 x 16
// matrix of pairs, and each result vector is one full 64-byte line of the
// blocked layout (pair p, 16 consecutive n). Reads 4 bytes and writes 2
// bytes per element, in one pass. Only these functions carry the AVX-512
// target attribute, as in runtime/cpu/UnscaleKernelsAVX512.cpp.
//
//===----------------------------------------------------------------------===//

#include "onednn/WeightPacking.h"

#include "tensorplay/Runtime/Kernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TP_RT_HAVE_AVX512_PACKING 1
#include <immintrin.h>
#endif

namespace tensorplay::codegen {

#ifdef TP_RT_HAVE_AVX512_PACKING
namespace {

#define TP_RT_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

/// 16 f32 bit patterns rounded to bf16 (in the high half of each lane) as
/// tp_rt_f32_to_bf16 rounds them: NaN lanes keep their sign and payload,
/// with the quiet bit set.
TP_RT_AVX512 inline __m512i roundLanes(__m512i bits) {
  const __m512i bias = _mm512_set1_epi32(0x7fff);
  const __m512i one = _mm512_set1_epi32(1);
  __m512i odd = _mm512_and_si512(_mm512_srli_epi32(bits, 16), one);
  __m512i rounded = _mm512_add_epi32(bits, _mm512_add_epi32(bias, odd));
  __m512 value = _mm512_castsi512_ps(bits);
  __mmask16 nan = _mm512_cmp_ps_mask(value, value, _CMP_UNORD_Q);
  return _mm512_mask_or_epi32(rounded, nan, bits,
                              _mm512_set1_epi32(0x00400000));
}

/// 32 consecutive f32 at `p` (lanes outside `valid` read as 0) as one
/// vector of 32 bf16 in order, i.e. 16 pairs (k even, k odd).
TP_RT_AVX512 inline __m512i roundRow(const float *p, int64_t valid) {
  __m512i lo, hi;
  if (valid >= 32) {
    lo = _mm512_castps_si512(_mm512_loadu_ps(p));
    hi = _mm512_castps_si512(_mm512_loadu_ps(p + 16));
  } else {
    __mmask16 mlo = valid >= 16 ? 0xffff : (__mmask16)((1u << valid) - 1);
    __mmask16 mhi = valid <= 16 ? 0 : (__mmask16)((1u << (valid - 16)) - 1);
    lo = _mm512_castps_si512(_mm512_maskz_loadu_ps(mlo, p));
    hi = _mm512_castps_si512(_mm512_maskz_loadu_ps(mhi, p + 16));
  }
  const __m512i highHalves = _mm512_set_epi16(
      63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29,
      27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  return _mm512_permutex2var_epi16(roundLanes(lo), highHalves, roundLanes(hi));
}

/// Transposes the 16 x 16 matrix of 32-bit lanes r[row][lane] in place.
TP_RT_AVX512 inline void transpose16x16(__m512i r[16]) {
  __m512i t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
    r[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
    r[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
    r[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  // Rows 0-3, 4-7, 8-11, 12-15 now hold 4x4 blocks of 128-bit lanes.
  for (int i = 0; i < 8; ++i) {
    int a = (i / 4) * 8 + (i % 4);
    t[a] = _mm512_shuffle_i32x4(r[a], r[a + 4], 0x88);
    t[a + 4] = _mm512_shuffle_i32x4(r[a], r[a + 4], 0xdd);
  }
  for (int i = 0; i < 4; ++i) {
    r[i] = _mm512_shuffle_i32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_i32x4(t[i], t[i + 8], 0xdd);
    r[i + 4] = _mm512_shuffle_i32x4(t[i + 4], t[i + 12], 0x88);
    r[i + 12] = _mm512_shuffle_i32x4(t[i + 4], t[i + 12], 0xdd);
  }
}

TP_RT_AVX512 void packGroups(const float *w, int64_t ldw,
                             const Bf16VnniLayout &layout, uint16_t *out,
                             int64_t groupBegin, int64_t groupEnd) {
  int64_t kBlocks = layout.paddedK() / 32;
  for (int64_t g = groupBegin; g < groupEnd; ++g) {
    int64_t n0 = g * 16;
    int64_t rows = layout.n - n0; // valid rows of this group
    uint16_t *groupOut = out + (n0 / 64) * layout.nBlockStride + (n0 % 64) * 2;
    for (int64_t kb = 0; kb < kBlocks; ++kb) {
      int64_t k0 = kb * 32;
      __m512i r[16];
      for (int j = 0; j < 16; ++j)
        r[j] = j < rows ? roundRow(w + (n0 + j) * ldw + k0, layout.k - k0)
                        : _mm512_setzero_si512();
      transpose16x16(r);
      uint16_t *blockOut = groupOut + kb * layout.kBlockStride;
      for (int p = 0; p < 16; ++p)
        _mm512_storeu_si512(static_cast<void *>(blockOut + p * 128), r[p]);
    }
  }
}

} // namespace
#endif

bool canPackBf16Vnni() {
#ifdef TP_RT_HAVE_AVX512_PACKING
  return amp::cpuKernelPath() == amp::CpuKernelPath::AVX512;
#else
  return false;
#endif
}

void packTransposedBf16Vnni(const float *w, int64_t ldw,
                            const Bf16VnniLayout &layout, uint16_t *out,
                            int64_t rowGroupBegin, int64_t rowGroupEnd) {
#ifdef TP_RT_HAVE_AVX512_PACKING
  packGroups(w, ldw, layout, out, rowGroupBegin, rowGroupEnd);
#else
  (void)w, (void)ldw, (void)layout, (void)out, (void)rowGroupBegin,
      (void)rowGroupEnd;
#endif
}

} // namespace tensorplay::codegen
