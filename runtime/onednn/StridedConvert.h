//===- StridedConvert.h - copies between strided layouts --------*- C++ -*-===//
//
// The copies the oneDNN entry points make where a primitive cannot read the
// caller's buffer as it is: bf16 operands widened to f32 for CPUs without
// bf16 kernels, f32 weights rounded to bf16 (or rounded and kept in f32),
// f32 results rounded into bf16. One strided loop, parallel over rows on the
// runtime's threads, and the conversions, which are tp.cast's
// (tensorplay/Runtime/FloatRounding.h).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_ONEDNN_STRIDEDCONVERT_H
#define TENSORPLAY_RUNTIME_ONEDNN_STRIDEDCONVERT_H

#include "tensorplay/Runtime/Codegen.h"
#include "tensorplay/Runtime/FloatRounding.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tensorplay::codegen {

using Dims = std::vector<int64_t>;

/// Row-major strides of `sizes`.
inline Dims denseStrides(const Dims &sizes) {
  Dims strides(sizes.size());
  int64_t dense = 1;
  for (int64_t i = (int64_t)sizes.size() - 1; i >= 0; --i) {
    strides[i] = dense;
    dense *= sizes[i];
  }
  return strides;
}

/// The dimensions in the order `strides` nests them, outermost first (the
/// largest stride first; ties keep their order).
inline Dims nestingOrder(const Dims &strides) {
  Dims order(strides.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    return strides[x] > strides[y];
  });
  return order;
}

/// Dense strides for `sizes` with the dimensions nested as `strides` nest
/// them: a transposed view gets a transposed dense layout.
inline Dims permutedDenseStrides(const Dims &sizes, const Dims &strides) {
  int64_t r = sizes.size();
  Dims order = nestingOrder(strides);
  Dims dense(r);
  int64_t step = 1;
  for (int64_t i = r - 1; i >= 0; --i) {
    dense[order[i]] = step;
    step *= sizes[order[i]];
  }
  return dense;
}

/// Converts every element of a tensor of `sizes` from `src` (element
/// strides `srcStrides`) into `dst` (element strides `dstStrides`, no two
/// elements at one place) by `convert`, on the runtime's threads: rows
/// along dst's innermost dimension, in dst's order, so that the writes
/// stream (and a copy between equal dense layouts is one linear pass).
template <typename In, typename Out, typename Convert>
void convertStrided(const In *src, const Dims &sizes, const Dims &srcStrides,
                    Out *dst, const Dims &dstStrides, Convert convert) {
  struct Job {
    const In *src;
    Out *dst;
    Dims sizes, srcStrides, dstStrides; // in dst's order, outermost first
    Convert convert;
    void run(int64_t begin, int64_t end) const {
      int64_t r = sizes.size(), inner = sizes[r - 1];
      int64_t srcInner = srcStrides[r - 1], dstInner = dstStrides[r - 1];
      for (int64_t row = begin; row < end; ++row) {
        int64_t srcOffset = 0, dstOffset = 0, rest = row;
        for (int64_t d = r - 2; d >= 0; --d) {
          int64_t i = rest % sizes[d];
          rest /= sizes[d];
          srcOffset += i * srcStrides[d];
          dstOffset += i * dstStrides[d];
        }
        const In *in = src + srcOffset;
        Out *out = dst + dstOffset;
        if (srcInner == 1 && dstInner == 1)
          for (int64_t i = 0; i < inner; ++i)
            out[i] = convert(in[i]);
        else
          for (int64_t i = 0; i < inner; ++i)
            out[i * dstInner] = convert(in[i * srcInner]);
      }
    }
  };
  int64_t r = sizes.size(), total = 1;
  for (int64_t n : sizes)
    total *= n;
  if (total == 0)
    return;
  if (r == 0) {
    *dst = convert(*src);
    return;
  }
  Job job{src, dst, {}, {}, {}, convert};
  for (int64_t d : nestingOrder(dstStrides)) {
    job.sizes.push_back(sizes[d]);
    job.srcStrides.push_back(srcStrides[d]);
    job.dstStrides.push_back(dstStrides[d]);
  }
  tp_rt_parallel_for(
      [](void *context, int64_t begin, int64_t end) {
        static_cast<const Job *>(context)->run(begin, end);
      },
      &job, 0, total / job.sizes.back());
}

/// The conversions of the bf16 paths: what compiled tp.cast computes.
struct RoundToBf16 {
  uint16_t operator()(float x) const { return tp_rt_f32_to_bf16(x); }
};
struct WidenBf16 {
  float operator()(uint16_t x) const { return tp_rt_bf16_to_f32(x); }
};
/// x rounded to bf16, kept in f32 (exactly representable there).
struct RoundToBf16InF32 {
  float operator()(float x) const {
    return tp_rt_bf16_to_f32(tp_rt_f32_to_bf16(x));
  }
};

} // namespace tensorplay::codegen

#endif // TENSORPLAY_RUNTIME_ONEDNN_STRIDEDCONVERT_H
