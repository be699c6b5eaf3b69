//===- Tensor.cpp - Buffer descriptors ------------------------------------===//

#include "tensorplay/Runtime/Tensor.h"

#include <cstdint>
#include <string>

namespace tensorplay::amp {

size_t elementSize(DType dtype) {
  switch (dtype) {
#define TP_RUNTIME_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY, CODE)           \
  case DType::KIND:                                                            \
    return BYTES;
#include "tensorplay/Runtime/ElementTypes.def"
  }
  return 0;
}

Status byteSize(DType dtype, int64_t numel, const char *what, size_t &bytes) {
  if (numel < 0)
    return Status(StatusCode::InvalidArgument,
                  std::string(what) + " has a negative element count (" +
                      std::to_string(numel) + ")");
  size_t product = 0;
  if (__builtin_mul_overflow(static_cast<size_t>(numel), elementSize(dtype),
                             &product) ||
      product > static_cast<size_t>(PTRDIFF_MAX))
    return Status(StatusCode::InvalidArgument,
                  std::string(what) + " has " + std::to_string(numel) +
                      " elements of " + dtypeName(dtype) +
                      ": the byte size overflows (the limit is " +
                      std::to_string(PTRDIFF_MAX) + " bytes)");
  bytes = product;
  return Status::success();
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
#define TP_RUNTIME_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY, CODE)           \
  case DType::KIND:                                                            \
    return NAME;
#include "tensorplay/Runtime/ElementTypes.def"
  }
  return "unknown dtype";
}

const char *deviceName(Device device) {
  switch (device) {
  case Device::CPU:
    return "cpu";
  case Device::CUDA:
    return "cuda";
  }
  return "unknown device";
}

bool isValidDType(int32_t value) {
  switch (value) {
#define TP_RUNTIME_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY, CODE)           \
  case TP_RT_##KIND:
#include "tensorplay/Runtime/ElementTypes.def"
    return true;
  }
  return false;
}

bool isValidDevice(int32_t value) {
  return value == TP_RT_CPU || value == TP_RT_CUDA;
}

Status verifyTensor(const Tensor &tensor, const char *what) {
  if (!isValidDType(static_cast<int32_t>(tensor.dtype)))
    return Status(StatusCode::UnsupportedDType,
                  std::string(what) + " has an unknown dtype (" +
                      std::to_string(static_cast<int32_t>(tensor.dtype)) + ")");
  if (!isValidDevice(static_cast<int32_t>(tensor.device)))
    return Status(StatusCode::InvalidArgument,
                  std::string(what) + " has an unknown device (" +
                      std::to_string(static_cast<int32_t>(tensor.device)) +
                      ")");
  size_t bytes = 0;
  TP_RT_RETURN_IF_ERROR(byteSize(tensor.dtype, tensor.numel, what, bytes));
  if (tensor.numel > 0 && !tensor.data)
    return Status(StatusCode::NullPointer,
                  std::string(what) + " has null data and " +
                      std::to_string(tensor.numel) + " elements");
  return Status::success();
}

} // namespace tensorplay::amp
