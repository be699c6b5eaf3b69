//===- tensorplay/Runtime/Status.h - Runtime error values -------*- C++ -*-===//
//
// The runtime reports errors as values: every fallible call returns a
// Status, or an Expected<T> holding either a value or a Status. Its own code
// throws nothing, and a host allocation that fails inside a kernel or the
// GradScaler comes back as StatusCode::OutOfMemory, with the GradScaler's
// state consistent (nothing done, or what was done recorded). Only two
// exceptions can leave the C++ API: std::bad_alloc while the message of
// another error is being built, and whatever a custom Optimizer's step()
// throws. The C ABI lets none out.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_STATUS_H
#define TENSORPLAY_RUNTIME_STATUS_H

#include "tensorplay/Runtime/CAPI.h"

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace tensorplay::amp {

/// Error categories; the values are the C ABI's tp_rt_status codes.
enum class StatusCode : int32_t {
  Success = TP_RT_SUCCESS,
  NullPointer = TP_RT_ERROR_NULL_POINTER,
  InvalidArgument = TP_RT_ERROR_INVALID_ARGUMENT,
  UnsupportedDType = TP_RT_ERROR_UNSUPPORTED_DTYPE,
  DeviceMismatch = TP_RT_ERROR_DEVICE_MISMATCH,
  SizeMismatch = TP_RT_ERROR_SIZE_MISMATCH,
  InvalidState = TP_RT_ERROR_INVALID_STATE,
  Fp16Gradients = TP_RT_ERROR_FP16_GRADIENTS,
  IOError = TP_RT_ERROR_IO,
  CorruptFile = TP_RT_ERROR_CORRUPT_FILE,
  VersionMismatch = TP_RT_ERROR_VERSION_MISMATCH,
  CudaUnavailable = TP_RT_ERROR_CUDA_UNAVAILABLE,
  CudaError = TP_RT_ERROR_CUDA,
  OutOfMemory = TP_RT_ERROR_OUT_OF_MEMORY,
  Unsupported = TP_RT_ERROR_UNSUPPORTED,
  Internal = TP_RT_ERROR_INTERNAL,
};

/// The static name of a status code (tp_rt_status_string).
const char *statusCodeName(StatusCode code);

/// Success, or an error code with a message.
class [[nodiscard]] Status {
public:
  /// Success.
  Status() = default;
  Status(StatusCode code, std::string message)
      : errorCode(code), text(std::move(message)) {}

  static Status success() { return Status(); }

  bool ok() const { return errorCode == StatusCode::Success; }
  StatusCode code() const { return errorCode; }
  /// The detailed message; empty on success.
  const std::string &message() const { return text; }
  /// "<code name>: <message>".
  std::string toString() const;

private:
  StatusCode errorCode = StatusCode::Success;
  std::string text;
};

/// Either a value of type T or an error Status.
template <typename T>
class [[nodiscard]] Expected {
public:
  Expected(T value) : storage(std::move(value)) {}
  Expected(Status error) : errorStatus(std::move(error)) {
    assert(!errorStatus.ok() && "an Expected error must not be success");
  }

  bool ok() const { return storage.has_value(); }
  explicit operator bool() const { return ok(); }
  /// The error, or success when a value is held.
  const Status &status() const { return errorStatus; }

  T &operator*() {
    assert(ok());
    return *storage;
  }
  const T &operator*() const {
    assert(ok());
    return *storage;
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }
  /// Moves the value out.
  T take() { return std::move(**this); }

private:
  std::optional<T> storage;
  Status errorStatus;
};

} // namespace tensorplay::amp

/// Returns the Status of `expr` from the enclosing function if it failed.
#define TP_RT_RETURN_IF_ERROR(expr)                                            \
  do {                                                                         \
    ::tensorplay::amp::Status tpRtStatus_ = (expr);                            \
    if (!tpRtStatus_.ok())                                                     \
      return tpRtStatus_;                                                      \
  } while (false)

#endif // TENSORPLAY_RUNTIME_STATUS_H
