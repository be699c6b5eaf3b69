//===- Buffer.cpp - Owning device memory ----------------------------------===//

#include "tensorplay/Runtime/Buffer.h"

#include "cuda/CudaBackend.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace tensorplay::amp {
namespace {

constexpr size_t kCpuAlignment = 64;

} // namespace

Expected<Buffer> Buffer::allocate(Device device, size_t bytes) {
  if (!isValidDevice(static_cast<int32_t>(device)))
    return Status(StatusCode::InvalidArgument, "unknown device");
  Buffer buffer;
  buffer.dev = device;
  buffer.size = bytes;
  if (bytes == 0)
    return buffer;
  if (device == Device::CPU) {
    // aligned_alloc wants a multiple of the alignment; rounding up must not
    // wrap around (a wrapped size would be allocated, then overrun).
    size_t padded = 0;
    if (__builtin_add_overflow(bytes, kCpuAlignment - 1, &padded))
      return Status(StatusCode::OutOfMemory,
                    "cannot allocate " + std::to_string(bytes) +
                        " bytes of host memory: the size overflows");
    size_t rounded = padded / kCpuAlignment * kCpuAlignment;
    buffer.ptr = std::aligned_alloc(kCpuAlignment, rounded);
    if (!buffer.ptr)
      return Status(StatusCode::OutOfMemory, "cannot allocate " +
                                                 std::to_string(bytes) +
                                                 " bytes of host memory");
    std::memset(buffer.ptr, 0, bytes);
    return buffer;
  }
  TP_RT_RETURN_IF_ERROR(cuda::deviceStatus());
  TP_RT_RETURN_IF_ERROR(cuda::allocate(bytes, &buffer.ptr));
  TP_RT_RETURN_IF_ERROR(cuda::memsetAsync(buffer.ptr, 0, bytes));
  return buffer;
}

Expected<Buffer> Buffer::allocate(Device device, DType dtype, int64_t numel) {
  if (!isValidDType(static_cast<int32_t>(dtype)))
    return Status(StatusCode::UnsupportedDType, "unknown dtype");
  size_t bytes = 0;
  TP_RT_RETURN_IF_ERROR(byteSize(dtype, numel, "the buffer", bytes));
  return allocate(device, bytes);
}

Buffer::Buffer(Buffer &&other) noexcept
    : ptr(other.ptr), size(other.size), dev(other.dev) {
  other.ptr = nullptr;
  other.size = 0;
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    release();
    ptr = other.ptr;
    size = other.size;
    dev = other.dev;
    other.ptr = nullptr;
    other.size = 0;
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
  if (!ptr)
    return;
  if (dev == Device::CPU)
    std::free(ptr);
  else
    cuda::release(ptr);
  ptr = nullptr;
  size = 0;
}

Tensor Buffer::tensor(DType dtype, int64_t numel) const {
  Tensor view;
  view.data = ptr;
  view.dtype = dtype;
  view.device = dev;
  view.numel =
      numel >= 0 ? numel : static_cast<int64_t>(size / elementSize(dtype));
  return view;
}

static Status checkCopy(size_t bytes, size_t size, const void *host) {
  if (bytes > size)
    return Status(StatusCode::SizeMismatch,
                  "copy of " + std::to_string(bytes) + " bytes into a " +
                      std::to_string(size) + "-byte buffer");
  if (bytes > 0 && !host)
    return Status(StatusCode::NullPointer, "host pointer is null");
  return Status::success();
}

Status Buffer::copyFromHost(const void *src, size_t bytes) {
  TP_RT_RETURN_IF_ERROR(checkCopy(bytes, size, src));
  if (bytes == 0)
    return Status::success();
  if (dev == Device::CPU) {
    std::memcpy(ptr, src, bytes);
    return Status::success();
  }
  return cuda::copyFromHost(ptr, src, bytes);
}

Status Buffer::copyToHost(void *dst, size_t bytes, size_t offset) const {
  if (offset > size)
    return Status(StatusCode::SizeMismatch,
                  "copy from offset " + std::to_string(offset) + " of a " +
                      std::to_string(size) + "-byte buffer");
  TP_RT_RETURN_IF_ERROR(checkCopy(bytes, size - offset, dst));
  if (bytes == 0)
    return Status::success();
  const char *src = static_cast<const char *>(ptr) + offset;
  if (dev == Device::CPU) {
    std::memcpy(dst, src, bytes);
    return Status::success();
  }
  return cuda::copyToHost(dst, src, bytes);
}

Status Buffer::copyFrom(const Buffer &other, size_t bytes) {
  if (other.dev != dev)
    return Status(StatusCode::DeviceMismatch,
                  "Buffer::copyFrom between different devices");
  if (bytes > size || bytes > other.size)
    return Status(StatusCode::SizeMismatch,
                  "copy of " + std::to_string(bytes) + " bytes between " +
                      std::to_string(other.size) + "- and " +
                      std::to_string(size) + "-byte buffers");
  if (bytes == 0)
    return Status::success();
  if (dev == Device::CPU) {
    std::memmove(ptr, other.ptr, bytes);
    return Status::success();
  }
  return cuda::copyDeviceToDevice(ptr, other.ptr, bytes);
}

Status Buffer::zero(size_t offset, size_t bytes) {
  if (offset > size || bytes > size - offset)
    return Status(StatusCode::SizeMismatch,
                  "zeroing bytes [" + std::to_string(offset) + ", " +
                      std::to_string(offset + bytes) + ") of a " +
                      std::to_string(size) + "-byte buffer");
  if (bytes == 0)
    return Status::success();
  char *start = static_cast<char *>(ptr) + offset;
  if (dev == Device::CPU) {
    std::memset(start, 0, bytes);
    return Status::success();
  }
  return cuda::memsetAsync(start, 0, bytes);
}

} // namespace tensorplay::amp
