//===- Allocator.cpp - The buffer allocator of compiled code --------------===//
//
// Compiled code allocates its intermediate buffers through MLIR's generic
// allocation functions (finalize-memref-to-llvm use-generic-functions and
// use-aligned-alloc): `_mlir_memref_to_llvm_aligned_alloc(alignment, size)`
// and `_mlir_memref_to_llvm_free(ptr)`. A compiled model allocates the same
// sizes on every call, so freed blocks are kept per (size, alignment) and
// handed out again: no page faults and no zeroing by the kernel on every
// call, which malloc's mmap-backed large blocks would cost (about 1 ms per
// 4 MiB here). At most kMaxCachedBytes stay cached; the rest is returned to
// the system.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace {

constexpr size_t kHeader = 64;
constexpr size_t kMaxCachedBytes = size_t(1) << 31;

/// Stored in the kHeader bytes before every block handed out.
struct Header {
  void *base;
  size_t size;
  size_t alignment;
};

struct Cache {
  std::mutex mutex;
  std::unordered_map<uint64_t, std::vector<void *>> blocks;
  size_t cachedBytes = 0;
};

Cache &cache() {
  static Cache *c = new Cache(); // never destroyed: frees may run late
  return *c;
}

uint64_t keyOf(size_t size, size_t alignment) {
  return (uint64_t)size * 131 + alignment;
}

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size) {
  if (alignment < kHeader)
    alignment = kHeader;
  size_t rounded = (size + 63) / 64 * 64;
  {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.blocks.find(keyOf(rounded, alignment));
    if (it != c.blocks.end() && !it->second.empty()) {
      void *p = it->second.back();
      it->second.pop_back();
      c.cachedBytes -= rounded;
      return p;
    }
  }
  // The block: [padding][header][payload], payload aligned to `alignment`.
  size_t total = alignment + rounded;
  void *base = std::aligned_alloc(alignment, total);
  if (!base)
    return nullptr;
  char *payload = static_cast<char *>(base) + alignment;
  Header *h = reinterpret_cast<Header *>(payload - kHeader);
  h->base = base;
  h->size = rounded;
  h->alignment = alignment;
  return payload;
}

void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  return _mlir_memref_to_llvm_aligned_alloc(kHeader, size);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  Header *h = reinterpret_cast<Header *>(static_cast<char *>(ptr) - kHeader);
  Cache &c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.cachedBytes + h->size <= kMaxCachedBytes) {
      c.blocks[keyOf(h->size, h->alignment)].push_back(ptr);
      c.cachedBytes += h->size;
      return;
    }
  }
  std::free(h->base);
}

} // extern "C"
