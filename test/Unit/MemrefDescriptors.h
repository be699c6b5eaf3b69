//===- MemrefDescriptors.h - Memref descriptors for runtime tests -*- C++
//-*-===//
//
// Ranked MLIR memref descriptors built by hand, for the gtests that call
// the runtime's codegen entry points directly (oneDNN and cuBLASLt
// products, the train-step calls).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TEST_UNIT_MEMREFDESCRIPTORS_H
#define TENSORPLAY_TEST_UNIT_MEMREFDESCRIPTORS_H

#include "tensorplay/Runtime/Codegen.h"

#include <cstdint>

namespace tensorplay::test {

/// A rank-2 descriptor with the given strides over `data`.
struct Desc2 {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};
/// A rank-1 descriptor (a bias; zero elements: none).
struct Desc1 {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};

/// `d` (a Desc1, Desc2, ...) as the runtime's descriptor type.
inline tp_rt_memref *memref(void *d) {
  return reinterpret_cast<tp_rt_memref *>(d);
}

} // namespace tensorplay::test

#endif // TENSORPLAY_TEST_UNIT_MEMREFDESCRIPTORS_H
