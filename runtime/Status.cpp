//===- Status.cpp - Runtime error values ----------------------------------===//

#include "tensorplay/Runtime/Status.h"

namespace tensorplay::amp {

const char *statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::Success:
    return "success";
  case StatusCode::NullPointer:
    return "null pointer";
  case StatusCode::InvalidArgument:
    return "invalid argument";
  case StatusCode::UnsupportedDType:
    return "unsupported dtype";
  case StatusCode::DeviceMismatch:
    return "device mismatch";
  case StatusCode::SizeMismatch:
    return "size mismatch";
  case StatusCode::InvalidState:
    return "invalid state";
  case StatusCode::Fp16Gradients:
    return "fp16 gradients";
  case StatusCode::IOError:
    return "I/O error";
  case StatusCode::CorruptFile:
    return "corrupt file";
  case StatusCode::VersionMismatch:
    return "version mismatch";
  case StatusCode::CudaUnavailable:
    return "CUDA unavailable";
  case StatusCode::CudaError:
    return "CUDA error";
  case StatusCode::OutOfMemory:
    return "out of memory";
  case StatusCode::Unsupported:
    return "unsupported";
  case StatusCode::Internal:
    return "internal error";
  }
  return "unknown status";
}

std::string Status::toString() const {
  if (ok())
    return statusCodeName(errorCode);
  return std::string(statusCodeName(errorCode)) + ": " + text;
}

} // namespace tensorplay::amp
