//===- CompileCache.cpp - Compiled objects kept between processes ---------===//
//
// Part of tensorplay-autocast. See CompileCache.h.
//
// An entry is `<key>.tpo`: the magic "TPOBJ001", the key, the object's
// length (8 bytes, little endian), its xxh3 checksum (8 bytes) and the
// object.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Compiler/CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <random>
#include <sys/stat.h>
#include <utime.h>
#include <vector>

using namespace mlir::tp;

static constexpr llvm::StringLiteral kMagic = "TPOBJ001";
static constexpr llvm::StringLiteral kSuffix = ".tpo";
static constexpr size_t kKeyLength = 64;
static constexpr size_t kHeaderLength = 8 + kKeyLength + 8 + 8;

namespace {
struct Counters {
  std::atomic<uint64_t> hits{0}, misses{0}, stores{0}, evictions{0},
      damaged{0};
};
Counters &counters() {
  static Counters c;
  return c;
}
} // namespace

bool CompileCacheConfig::disabledByEnvironment() {
  const char *v = std::getenv("TENSORPLAY_MLIR_CACHE");
  return v && (llvm::StringRef(v) == "0" || llvm::StringRef(v) == "off");
}

CompileCacheConfig CompileCacheConfig::fromEnvironment(std::string *error) {
  CompileCacheConfig config;
  if (const char *mb = std::getenv("TENSORPLAY_MLIR_CACHE_MAX_MB"); mb && *mb) {
    uint64_t value;
    if (llvm::StringRef(mb).getAsInteger(10, value)) {
      if (error)
        *error = "TENSORPLAY_MLIR_CACHE_MAX_MB must be a number of megabytes, "
                 "got '" +
                 std::string(mb) + "'";
    } else {
      config.maxBytes = value << 20;
    }
  }
  if (disabledByEnvironment())
    return config;
  if (const char *dir = std::getenv("TENSORPLAY_MLIR_CACHE_DIR"); dir && *dir) {
    config.directory = dir;
    return config;
  }
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    path = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(path, home, ".cache");
  else
    return config;
  llvm::sys::path::append(path, "tensorplay-mlir");
  config.directory = std::string(path);
  return config;
}

const std::string &CompileCache::compilerIdentity() {
  static const std::string identity = [] () -> std::string {
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(&CompileCache::compilerIdentity),
                &info) ||
        !info.dli_fname)
      return "";
    struct stat st;
    if (stat(info.dli_fname, &st) != 0)
      return "";
    return (llvm::Twine(info.dli_fname) + " " + llvm::Twine(st.st_size) + " " +
            llvm::Twine(st.st_mtim.tv_sec) + "." +
            llvm::Twine(st.st_mtim.tv_nsec) + " LLVM " LLVM_VERSION_STRING)
        .str();
  }();
  return identity;
}

CompileCache::CompileCache(CompileCacheConfig config)
    : config(std::move(config)) {
  usable = !this->config.directory.empty() &&
           !CompileCacheConfig::disabledByEnvironment() &&
           !compilerIdentity().empty();
}

std::string CompileCache::key(llvm::ArrayRef<llvm::StringRef> parts) {
  llvm::SHA256 hash;
  for (llvm::StringRef part : parts) {
    uint8_t length[8];
    llvm::support::endian::write64le(length, part.size());
    hash.update(llvm::ArrayRef<uint8_t>(length));
    hash.update(part);
  }
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string CompileCache::entryPath(llvm::StringRef key) const {
  llvm::SmallString<256> path(config.directory);
  llvm::sys::path::append(path, key + kSuffix);
  return std::string(path);
}

CompileCacheStats CompileCache::stats() {
  Counters &c = counters();
  return {c.hits.load(), c.misses.load(), c.stores.load(), c.evictions.load(),
          c.damaged.load()};
}

std::unique_ptr<llvm::MemoryBuffer> CompileCache::lookup(llvm::StringRef key) {
  if (!usable)
    return nullptr;
  std::string path = entryPath(key);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    ++counters().misses;
    return nullptr;
  }
  llvm::StringRef bytes = (*file)->getBuffer();
  auto damaged = [&]() -> std::unique_ptr<llvm::MemoryBuffer> {
    ++counters().damaged;
    ++counters().misses;
    llvm::sys::fs::remove(path);
    return nullptr;
  };
  if (bytes.size() < kHeaderLength || !bytes.starts_with(kMagic) ||
      bytes.substr(8, kKeyLength) != key)
    return damaged();
  uint64_t length =
      llvm::support::endian::read64le(bytes.data() + 8 + kKeyLength);
  uint64_t checksum =
      llvm::support::endian::read64le(bytes.data() + 16 + kKeyLength);
  llvm::StringRef object = bytes.drop_front(kHeaderLength);
  if (object.size() != length || llvm::xxh3_64bits(object) != checksum)
    return damaged();
  // The entry was used: it is the most recent for the eviction order.
  (void)::utime(path.c_str(), nullptr);
  ++counters().hits;
  return llvm::MemoryBuffer::getMemBufferCopy(object, "tp-jit-cached.o");
}

bool CompileCache::contains(llvm::StringRef key) const {
  return usable && llvm::sys::fs::exists(entryPath(key));
}

llvm::Error CompileCache::store(llvm::StringRef key,
                                llvm::MemoryBufferRef object) {
  if (!usable)
    return llvm::Error::success();
  if (object.getBufferSize() + kHeaderLength > config.maxBytes)
    return llvm::Error::success();
  if (std::error_code ec =
          llvm::sys::fs::create_directories(config.directory))
    return llvm::createStringError(ec, "cannot create the compile cache "
                                       "directory " +
                                           config.directory + ": " +
                                           ec.message());
  std::string path = entryPath(key);
  // A name no other writer uses: this process, a random number.
  std::random_device random;
  std::string temporary =
      path + ".tmp-" + std::to_string(llvm::sys::Process::getProcessId()) +
      "-" + std::to_string(random());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec, llvm::sys::fs::OF_None);
    if (ec)
      return llvm::createStringError(ec, "cannot write " + temporary + ": " +
                                             ec.message());
    uint8_t numbers[16];
    llvm::support::endian::write64le(numbers, object.getBufferSize());
    llvm::support::endian::write64le(numbers + 8,
                                     llvm::xxh3_64bits(object.getBuffer()));
    os << kMagic << key
       << llvm::StringRef(reinterpret_cast<char *>(numbers), 16)
       << object.getBuffer();
    os.close();
    if (os.has_error()) {
      llvm::sys::fs::remove(temporary);
      return llvm::createStringError(os.error(), "cannot write " + temporary +
                                                     ": " +
                                                     os.error().message());
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return llvm::createStringError(ec, "cannot rename " + temporary + ": " +
                                           ec.message());
  }
  ++counters().stores;
  evict();
  return llvm::Error::success();
}

void CompileCache::evict() {
  struct Entry {
    std::string path;
    uint64_t size;
    std::chrono::system_clock::time_point used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  auto now = std::chrono::system_clock::now();
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(config.directory, ec), end;
       !ec && it != end; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(it->path(), status))
      continue;
    // Temporary files of writers that died: removed after an hour.
    if (name.contains(".tpo.tmp-")) {
      if (now - status.getLastModificationTime() > std::chrono::hours(1))
        llvm::sys::fs::remove(it->path());
      continue;
    }
    if (!name.ends_with(kSuffix))
      continue;
    entries.push_back(
        {it->path(), status.getSize(), status.getLastModificationTime()});
    total += status.getSize();
  }
  if (total <= config.maxBytes)
    return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &entry : entries) {
    if (total <= config.maxBytes)
      break;
    if (!llvm::sys::fs::remove(entry.path)) {
      total -= entry.size;
      ++counters().evictions;
    }
  }
}
