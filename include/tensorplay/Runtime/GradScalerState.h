//===- tensorplay/Runtime/GradScalerState.h - state_dict --------*- C++ -*-===//
//
// GradScaler's state_dict and its versioned file format.
//
// File layout, little-endian, 60 bytes:
//   [0, 8)   magic "TPGSCALE"
//   [8, 12)  u32 format version (kGradScalerStateVersion)
//   [12, 16) u32 flags: bit 0 set when the state is not empty
//   [16, 24) f64 scale
//   [24, 32) f64 growth_factor
//   [32, 40) f64 backoff_factor
//   [40, 48) i64 growth_interval
//   [48, 56) i64 growth tracker
//   [56, 60) u32 CRC-32 of bytes [0, 56)
//
// Every version keeps the magic and the version at the start and ends with
// the CRC-32 of all bytes before it (at most 4096 bytes in all), so the
// reader checks the checksum before the version: a damaged version field
// reads as CorruptFile, an intact file of another version as VersionMismatch.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_GRADSCALERSTATE_H
#define TENSORPLAY_RUNTIME_GRADSCALERSTATE_H

#include "tensorplay/Runtime/Status.h"

#include <cstdint>
#include <string>

namespace tensorplay::amp {

/// The version written by writeGradScalerState; readGradScalerState accepts
/// only this one.
inline constexpr uint32_t kGradScalerStateVersion = 1;

/// torch.amp.GradScaler.state_dict(): empty for a disabled scaler.
struct GradScalerState {
  bool empty = true;
  double scale = 65536.0;
  double growthFactor = 2.0;
  double backoffFactor = 0.5;
  int64_t growthInterval = 2000;
  int64_t growthTracker = 0;

  bool operator==(const GradScalerState &other) const;
  bool operator!=(const GradScalerState &other) const {
    return !(*this == other);
  }
};

/// Writes `state` to `path` (IOError on failure).
Status writeGradScalerState(const std::string &path,
                            const GradScalerState &state);

/// Reads a state file: IOError when it cannot be read, CorruptFile when it is
/// not a well-formed state file (bad magic, truncated, trailing bytes,
/// checksum mismatch, unknown flags; checked in that order, before the
/// version), VersionMismatch when it is an intact file of another format
/// version.
Expected<GradScalerState> readGradScalerState(const std::string &path);

} // namespace tensorplay::amp

#endif // TENSORPLAY_RUNTIME_GRADSCALERSTATE_H
