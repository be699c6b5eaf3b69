//===- WeightPacking.h - f32 weights into oneDNN's bf16 layout --*- C++ -*-===//
//
// One pass from f32 matmul weights to bf16 in the blocked (VNNI) layout
// oneDNN's bf16 matmul prefers on AVX-512 BF16 CPUs, rounding exactly as
// compiled `tp.cast` f32 -> bf16 and the host conversions do
// (tensorplay/Runtime/FloatRounding.h: to nearest even, subnormals rounded
// like any other value, a NaN kept with its sign and top payload, made
// quiet). Replaces a cast into a plain bf16 tensor followed by oneDNN's own
// repacking of it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_ONEDNN_WEIGHTPACKING_H
#define TENSORPLAY_RUNTIME_ONEDNN_WEIGHTPACKING_H

#include <cstdint>

namespace tensorplay::codegen {

/// The layout oneDNN 2.x names BA16a64b2a for B[K, N]: N in blocks of 64,
/// K in blocks of 32 (16 pairs), pairs of consecutive k innermost. Element
/// (k, n) lives at
///   (n / 64) * nBlockStride + (k / 32) * kBlockStride
///     + ((k % 32) / 2) * 128 + (n % 64) * 2 + k % 2
/// and the padding up to multiples of 32 (K) and 64 (N) holds zeros.
struct Bf16VnniLayout {
  int64_t k, n;
  int64_t kBlockStride, nBlockStride;
  int64_t paddedK() const { return (k + 31) / 32 * 32; }
  int64_t paddedN() const { return (n + 63) / 64 * 64; }
};

/// True when the AVX-512 packing kernel can run on this CPU (and the
/// runtime's CPU kernel path is not forced to portable).
bool canPackBf16Vnni();

/// Writes B = W^T in `layout`, where W is the f32 matrix [N, K] with rows
/// `ldw` elements apart (B's stride along K is 1): every element rounded to
/// bf16, the padding zero. `out` is 64-byte aligned. Runs on the calling
/// thread over the groups [rowGroupBegin, rowGroupEnd) of 16 consecutive n
/// (every k of them); callers split the groups across threads. Only after
/// canPackBf16Vnni().
void packTransposedBf16Vnni(const float *w, int64_t ldw,
                            const Bf16VnniLayout &layout, uint16_t *out,
                            int64_t rowGroupBegin, int64_t rowGroupEnd);

/// The number of 16-row groups packTransposedBf16Vnni splits into.
inline int64_t vnniRowGroups(const Bf16VnniLayout &layout) {
  return layout.paddedN() / 16;
}

} // namespace tensorplay::codegen

#endif // TENSORPLAY_RUNTIME_ONEDNN_WEIGHTPACKING_H
