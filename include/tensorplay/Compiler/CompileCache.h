//===- CompileCache.h - Compiled objects kept between processes -*- C++ -*-===//
//
// Part of tensorplay-autocast.
//
//===----------------------------------------------------------------------===//
//
// A persistent cache of the machine code Executable generates: the object
// file of a module is stored under a key that hashes everything the code
// depends on (the module after autocast, the pipeline and its options, the
// LLVM optimization level, the host's triple, CPU and features, and the
// identity of the compiler binary: its path, size and modification time, so
// a rebuilt compiler never reads its predecessor's code). A later compile of
// the same module, by any process, skips the lowering and LLVM's code
// generation and links the stored object.
//
// Safe under concurrent processes: entries are written to a temporary file
// and renamed into place, and each carries its length and a checksum, so a
// truncated or damaged entry is a miss (and is removed), never code. The
// directory is kept under a size bound by removing the least recently used
// entries after each store.
//
// The environment configures it (CompileCacheConfig::fromEnvironment):
//   TENSORPLAY_MLIR_CACHE=0          no cache at all, whatever a caller asks
//   TENSORPLAY_MLIR_CACHE_DIR=<dir>  the directory (default:
//                               $XDG_CACHE_HOME/tensorplay-mlir or
//                               ~/.cache/tensorplay-mlir)
//   TENSORPLAY_MLIR_CACHE_MAX_MB=<n> the size bound (default 1024)
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_COMPILER_COMPILECACHE_H
#define TENSORPLAY_COMPILER_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mlir {
namespace tp {

struct CompileCacheConfig {
  /// Where the entries live; empty: no cache.
  std::string directory;
  /// The bound on the entries' total size, in bytes.
  uint64_t maxBytes = uint64_t(1024) << 20;

  /// The configuration the environment asks for (see the file comment);
  /// an empty directory where TENSORPLAY_MLIR_CACHE=0 or no home is known.
  /// `error` is set for a malformed TENSORPLAY_MLIR_CACHE_MAX_MB.
  static CompileCacheConfig fromEnvironment(std::string *error = nullptr);
  /// Whether TENSORPLAY_MLIR_CACHE=0 turns every cache off.
  static bool disabledByEnvironment();
};

/// Counts of this process's cache traffic (all caches together).
struct CompileCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t stores = 0;
  /// Entries removed to keep the size bound.
  uint64_t evictions = 0;
  /// Entries found damaged (and removed).
  uint64_t damaged = 0;
};

class CompileCache {
public:
  explicit CompileCache(CompileCacheConfig config);

  /// Whether entries can be read and written: a directory is configured,
  /// TENSORPLAY_MLIR_CACHE is not 0, and the compiler binary has an identity.
  bool enabled() const { return usable; }

  /// The key of `parts` (each hashed with its length): 64 hex digits.
  static std::string key(llvm::ArrayRef<llvm::StringRef> parts);

  /// The object stored under `key`, or null (a miss). A damaged entry is
  /// removed and counts as a miss.
  std::unique_ptr<llvm::MemoryBuffer> lookup(llvm::StringRef key);

  /// Whether an entry `key` exists (a marker: nothing is read, nothing
  /// counted).
  bool contains(llvm::StringRef key) const;

  /// Stores `object` under `key`, then evicts the least recently used
  /// entries beyond the size bound. An object larger than the bound is not
  /// stored.
  llvm::Error store(llvm::StringRef key, llvm::MemoryBufferRef object);

  /// The file of the entry `key`.
  std::string entryPath(llvm::StringRef key) const;

  /// This process's counts.
  static CompileCacheStats stats();

  /// What identifies the compiler binary this code is part of (path, size,
  /// modification time, LLVM version); empty if it cannot be found.
  static const std::string &compilerIdentity();

private:
  void evict();

  CompileCacheConfig config;
  bool usable = false;
};

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_COMPILER_COMPILECACHE_H
