//===- MemrefView.h - An MLIR memref descriptor seen by the runtime -*- C++
//-*-===//
//
// The ranked descriptor a compiled function passes for an unranked memref
// argument (Codegen.h), with its rank: sizes, strides and data. The oneDNN
// wrappers and the train-step calls read their arguments through it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CODEGEN_MEMREFVIEW_H
#define TENSORPLAY_RUNTIME_CODEGEN_MEMREFVIEW_H

#include "tensorplay/Runtime/Codegen.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tensorplay::codegen {

struct MemrefView {
  int64_t rank;
  tp_rt_memref *desc;

  int64_t size(int64_t i) const { return desc->sizes_and_strides[i]; }
  int64_t stride(int64_t i) const { return desc->sizes_and_strides[rank + i]; }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t i = 0; i < rank; ++i)
      n *= size(i);
    return n;
  }
  /// The first element, for elements of `elementSize` bytes.
  void *data(size_t elementSize) const {
    return static_cast<char *>(desc->aligned) + desc->offset * elementSize;
  }
  template <typename T>
  T *data() const {
    return static_cast<T *>(desc->aligned) + desc->offset;
  }
  std::vector<int64_t> sizes() const {
    std::vector<int64_t> d;
    for (int64_t i = 0; i < rank; ++i)
      d.push_back(size(i));
    return d;
  }
  /// The strides, 0 for dimensions of size 1 (whose stride is arbitrary).
  std::vector<int64_t> strides() const {
    std::vector<int64_t> d;
    for (int64_t i = 0; i < rank; ++i)
      d.push_back(size(i) == 1 ? 0 : stride(i));
    return d;
  }
  /// Row-major without gaps.
  bool dense() const {
    int64_t expected = 1;
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (size(i) != 1 && stride(i) != expected)
        return false;
      expected *= size(i);
    }
    return true;
  }
};

} // namespace tensorplay::codegen

#endif // TENSORPLAY_RUNTIME_CODEGEN_MEMREFVIEW_H
