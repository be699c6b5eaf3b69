//===- Crc32.h - The checksum of the state file -----------------*- C++ -*-===//

#ifndef TENSORPLAY_RUNTIME_CRC32_H
#define TENSORPLAY_RUNTIME_CRC32_H

#include <cstddef>
#include <cstdint>

namespace tensorplay::amp::detail {

/// CRC-32 (IEEE 802.3, reflected, as zlib's crc32).
inline uint32_t crc32(const unsigned char *data, size_t size) {
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

} // namespace tensorplay::amp::detail

#endif // TENSORPLAY_RUNTIME_CRC32_H
