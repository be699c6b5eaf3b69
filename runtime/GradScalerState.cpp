//===- GradScalerState.cpp - The versioned state file ---------------------===//

#include "tensorplay/Runtime/GradScalerState.h"

#include "Crc32.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace tensorplay::amp {
namespace {

constexpr char kMagic[8] = {'T', 'P', 'G', 'S', 'C', 'A', 'L', 'E'};
constexpr size_t kHeaderBytes = 12; // magic, version
constexpr size_t kPayloadBytes = 56;
constexpr size_t kFileBytes = kPayloadBytes + 4;
/// No version's file is larger.
constexpr size_t kMaxFileBytes = 4096;
constexpr uint32_t kHasState = 1;

using detail::crc32;

void putU32(unsigned char *at, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    at[i] = static_cast<unsigned char>(value >> (8 * i));
}

void putU64(unsigned char *at, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    at[i] = static_cast<unsigned char>(value >> (8 * i));
}

uint32_t getU32(const unsigned char *at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i)
    value |= static_cast<uint32_t>(at[i]) << (8 * i);
  return value;
}

uint64_t getU64(const unsigned char *at) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i)
    value |= static_cast<uint64_t>(at[i]) << (8 * i);
  return value;
}

void putF64(unsigned char *at, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  putU64(at, bits);
}

double getF64(const unsigned char *at) {
  uint64_t bits = getU64(at);
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

struct FileCloser {
  void operator()(std::FILE *file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Status corrupt(const std::string &path, const std::string &why) {
  return Status(StatusCode::CorruptFile,
                "'" + path + "' is not a valid GradScaler state file: " + why);
}

} // namespace

bool GradScalerState::operator==(const GradScalerState &other) const {
  if (empty || other.empty)
    return empty == other.empty;
  return scale == other.scale && growthFactor == other.growthFactor &&
         backoffFactor == other.backoffFactor &&
         growthInterval == other.growthInterval &&
         growthTracker == other.growthTracker;
}

Status writeGradScalerState(const std::string &path,
                            const GradScalerState &state) {
  unsigned char bytes[kFileBytes] = {};
  std::memcpy(bytes, kMagic, sizeof(kMagic));
  putU32(bytes + 8, kGradScalerStateVersion);
  putU32(bytes + 12, state.empty ? 0 : kHasState);
  if (!state.empty) {
    putF64(bytes + 16, state.scale);
    putF64(bytes + 24, state.growthFactor);
    putF64(bytes + 32, state.backoffFactor);
    putU64(bytes + 40, static_cast<uint64_t>(state.growthInterval));
    putU64(bytes + 48, static_cast<uint64_t>(state.growthTracker));
  }
  putU32(bytes + kPayloadBytes, crc32(bytes, kPayloadBytes));

  File file(std::fopen(path.c_str(), "wb"));
  if (!file)
    return Status(StatusCode::IOError,
                  "cannot open '" + path +
                      "' for writing: " + std::strerror(errno));
  if (std::fwrite(bytes, 1, kFileBytes, file.get()) != kFileBytes ||
      std::fflush(file.get()) != 0)
    return Status(StatusCode::IOError, "cannot write '" + path + "'");
  std::FILE *raw = file.release();
  if (std::fclose(raw) != 0)
    return Status(StatusCode::IOError, "cannot close '" + path + "'");
  return Status::success();
}

Expected<GradScalerState> readGradScalerState(const std::string &path) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file)
    return Status(StatusCode::IOError,
                  "cannot open '" + path +
                      "' for reading: " + std::strerror(errno));
  // One byte more than any state file, to notice trailing bytes.
  unsigned char bytes[kMaxFileBytes + 1];
  size_t size = std::fread(bytes, 1, sizeof(bytes), file.get());
  if (std::ferror(file.get()))
    return Status(StatusCode::IOError, "cannot read '" + path + "'");
  if (std::memcmp(bytes, kMagic, std::min(size, sizeof(kMagic))) != 0)
    return corrupt(path, "bad magic (expected \"TPGSCALE\")");
  // Every version ends with the CRC-32 of the bytes before it, so the
  // checksum is checked first: a damaged version field is corruption, not
  // another version.
  bool intact = size >= kHeaderBytes + 4 && size <= kMaxFileBytes &&
                getU32(bytes + size - 4) == crc32(bytes, size - 4);
  if (!intact) {
    if (size != kFileBytes)
      return corrupt(path, size < kFileBytes ? "truncated" : "trailing bytes");
    return corrupt(path, "checksum mismatch");
  }
  uint32_t version = getU32(bytes + 8);
  if (version != kGradScalerStateVersion)
    return Status(StatusCode::VersionMismatch,
                  "'" + path + "' has GradScaler state format version " +
                      std::to_string(version) +
                      "; this runtime reads version " +
                      std::to_string(kGradScalerStateVersion));
  if (size != kFileBytes)
    return corrupt(path, std::to_string(size) + " bytes for version " +
                             std::to_string(version) + " (expected " +
                             std::to_string(kFileBytes) + ")");
  uint32_t flags = getU32(bytes + 12);
  if (flags & ~kHasState)
    return corrupt(path, "unknown flags");

  GradScalerState state;
  state.empty = (flags & kHasState) == 0;
  if (!state.empty) {
    state.scale = getF64(bytes + 16);
    state.growthFactor = getF64(bytes + 24);
    state.backoffFactor = getF64(bytes + 32);
    state.growthInterval = static_cast<int64_t>(getU64(bytes + 40));
    state.growthTracker = static_cast<int64_t>(getU64(bytes + 48));
  }
  return state;
}

} // namespace tensorplay::amp
