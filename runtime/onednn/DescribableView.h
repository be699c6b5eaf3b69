//===- DescribableView.h - Views oneDNN can describe ------------*- C++ -*-===//
//
// oneDNN describes memory by strides only when, ordered by stride, each
// dimension's extent stays within the next stride. Compiled code can pass
// views that interleave: a gradient that bufferization writes straight into
// the stride-2 window of a transposed convolution's upsampled buffer
// (strides 784, 49, 14, 2 for sizes 2x16x4x4) is then read by the weight
// gradient's primitive. Such a view goes through a dense copy: copied in
// before the primitive, and for results copied back after.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_ONEDNN_DESCRIBABLEVIEW_H
#define TENSORPLAY_RUNTIME_ONEDNN_DESCRIBABLEVIEW_H

#include "calls/MemrefView.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace tensorplay::codegen {

/// Whether oneDNN can describe `v` with its own strides.
inline bool describable(const MemrefView &v) {
  std::vector<std::pair<int64_t, int64_t>> dims; // (stride, size)
  for (int64_t i = 0; i < v.rank; ++i)
    if (v.size(i) > 1)
      dims.push_back({v.stride(i), v.size(i)});
  std::sort(dims.begin(), dims.end());
  for (size_t k = 1; k < dims.size(); ++k)
    if (dims[k].first < dims[k - 1].first * dims[k - 1].second)
      return false;
  return true;
}

/// `v` itself when oneDNN can describe it, else a dense row-major copy.
/// `after` writes the copy into `v` (for results).
class DescribableView {
public:
  DescribableView(MemrefView v, size_t elementSize)
      : original(v), width(elementSize) {
    if (describable(v))
      return;
    storage.resize(3 + 2 * v.rank);
    data.resize(v.numel() * width);
    auto *desc = reinterpret_cast<tp_rt_memref *>(storage.data());
    desc->allocated = desc->aligned = data.data();
    desc->offset = 0;
    int64_t dense = 1;
    for (int64_t i = v.rank - 1; i >= 0; --i) {
      desc->sizes_and_strides[i] = v.size(i);
      desc->sizes_and_strides[v.rank + i] = dense;
      dense *= v.size(i);
    }
    copied = MemrefView{v.rank, desc};
    copy(original, *copied, 0, 0, 0);
  }

  MemrefView view() const { return copied ? *copied : original; }

  /// `status`, after copying a result's copy back into the view on
  /// success.
  tp_rt_status after(tp_rt_status status) const {
    if (copied && status == TP_RT_SUCCESS)
      copy(*copied, original, 0, 0, 0);
    return status;
  }

private:
  /// Copies dimension `dim` onwards from `from` to `to`, starting at the
  /// element offsets `fromAt` and `toAt`.
  void copy(const MemrefView &from, const MemrefView &to, int64_t dim,
            int64_t fromAt, int64_t toAt) const {
    if (dim == from.rank) {
      std::memcpy(static_cast<char *>(to.data(width)) + toAt * width,
                  static_cast<const char *>(from.data(width)) + fromAt * width,
                  width);
      return;
    }
    for (int64_t i = 0; i < from.size(dim); ++i)
      copy(from, to, dim + 1, fromAt + i * from.stride(dim),
           toAt + i * to.stride(dim));
  }

  MemrefView original;
  size_t width;
  std::vector<int64_t> storage; // the copy's descriptor
  std::vector<char> data;       // the copy's elements
  std::optional<MemrefView> copied;
};

} // namespace tensorplay::codegen

#endif // TENSORPLAY_RUNTIME_ONEDNN_DESCRIBABLEVIEW_H
