//===- tensorplay/Runtime/Tensor.h - Buffer descriptors ---------*- C++ -*-===//
//
// The runtime's tensor: a non-owning descriptor of a dense buffer (pointer,
// element count, element type, device), layout-compatible with tp_rt_buffer.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_TENSOR_H
#define TENSORPLAY_RUNTIME_TENSOR_H

#include "tensorplay/Runtime/CAPI.h"
#include "tensorplay/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tensorplay::amp {

/// Element types.
enum class DType : int32_t {
#define TP_RUNTIME_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY, CODE)           \
  KIND = TP_RT_##KIND,
#include "tensorplay/Runtime/ElementTypes.def"
};

/// Devices. CUDA is the current CUDA device.
enum class Device : int32_t { CPU = TP_RT_CPU, CUDA = TP_RT_CUDA };

/// Bytes per element of `dtype`.
size_t elementSize(DType dtype);
/// numel * elementSize(dtype) in `bytes`, or InvalidArgument naming `what`
/// when numel is negative or the size exceeds PTRDIFF_MAX (no buffer that
/// large can be addressed; the product is computed without wrapping).
Status byteSize(DType dtype, int64_t numel, const char *what, size_t &bytes);
/// "f32", "f16", "bf16".
const char *dtypeName(DType dtype);
/// "cpu", "cuda".
const char *deviceName(Device device);
/// Whether `value` is one of the DType enumerators.
bool isValidDType(int32_t value);
/// Whether `value` is one of the Device enumerators.
bool isValidDevice(int32_t value);

/// A dense buffer descriptor; it does not own the memory.
struct Tensor {
  void *data = nullptr;
  int64_t numel = 0;
  DType dtype = DType::F32;
  Device device = Device::CPU;

  /// numel * elementSize(dtype); meaningful once verifyTensor accepted the
  /// tensor (byteSize checks the product).
  size_t bytes() const {
    return static_cast<size_t>(numel) * elementSize(dtype);
  }
  template <typename T>
  T *as() const {
    return static_cast<T *>(data);
  }
};

static_assert(sizeof(Tensor) == sizeof(tp_rt_buffer),
              "Tensor must stay layout-compatible with tp_rt_buffer");

/// A non-owning view of a contiguous array of tensors.
class TensorList {
public:
  TensorList() = default;
  TensorList(const Tensor *data, size_t size) : ptr(data), count(size) {}
  TensorList(const std::vector<Tensor> &tensors)
      : ptr(tensors.data()), count(tensors.size()) {}

  const Tensor *data() const { return ptr; }
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const Tensor &operator[](size_t i) const { return ptr[i]; }
  const Tensor *begin() const { return ptr; }
  const Tensor *end() const { return ptr + count; }

private:
  const Tensor *ptr = nullptr;
  size_t count = 0;
};

/// Checks that `tensor` is well formed: known dtype and device, numel >= 0,
/// a byte size that fits in ptrdiff_t (byteSize), non-null data when
/// numel > 0. `what` names it in the message.
Status verifyTensor(const Tensor &tensor, const char *what);

} // namespace tensorplay::amp

#endif // TENSORPLAY_RUNTIME_TENSOR_H
