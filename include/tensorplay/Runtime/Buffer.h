//===- tensorplay/Runtime/Buffer.h - Owning device memory -------*- C++ -*-===//
//
// Buffer owns zero-initialised memory on the CPU (64-byte aligned) or on the
// current CUDA device. The runtime keeps its own state (scale, growth
// tracker, found_inf, optimizer state) in Buffers; callers may use them for
// parameters and gradients too.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_BUFFER_H
#define TENSORPLAY_RUNTIME_BUFFER_H

#include "tensorplay/Runtime/Status.h"
#include "tensorplay/Runtime/Tensor.h"

#include <cstddef>

namespace tensorplay::amp {

/// Owning, movable, zero-initialised memory on one device.
class Buffer {
public:
  /// `bytes` bytes of zeros on `device`.
  static Expected<Buffer> allocate(Device device, size_t bytes);
  /// `numel` zero elements of `dtype` on `device`.
  static Expected<Buffer> allocate(Device device, DType dtype, int64_t numel);

  Buffer() = default;
  Buffer(Buffer &&other) noexcept;
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();

  void *data() const { return ptr; }
  size_t bytes() const { return size; }
  Device device() const { return dev; }
  /// This memory seen as `numel` elements of `dtype` (all of it by default).
  Tensor tensor(DType dtype = DType::F32, int64_t numel = -1) const;

  /// Copies `bytes` bytes from host memory to the start of this buffer.
  Status copyFromHost(const void *src, size_t bytes);
  /// Copies bytes [offset, offset + bytes) of this buffer to host memory
  /// (waits for the device on CUDA).
  Status copyToHost(void *dst, size_t bytes, size_t offset = 0) const;
  /// Copies the first `bytes` bytes of `other` (on the same device) to the
  /// start of this buffer (asynchronously on CUDA).
  Status copyFrom(const Buffer &other, size_t bytes);
  /// Sets bytes [offset, offset + bytes) to zero (asynchronously on CUDA).
  Status zero(size_t offset, size_t bytes);

private:
  void release();

  void *ptr = nullptr;
  size_t size = 0;
  Device dev = Device::CPU;
};

} // namespace tensorplay::amp

#endif // TENSORPLAY_RUNTIME_BUFFER_H
