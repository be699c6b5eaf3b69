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
// the system. Compiled code does not check what these return, so a request
// that cannot be met (a size or alignment that overflows, memory exhausted)
// ends the process with a message naming the size instead of handing out a
// null pointer to be written through.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <utility>
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
  /// Freed blocks by (size, alignment).
  std::map<std::pair<size_t, size_t>, std::vector<void *>> blocks;
  size_t cachedBytes = 0;
};

Cache &cache() {
  static Cache *c = new Cache(); // never destroyed: frees may run late
  return *c;
}

[[noreturn]] void allocationFailed(uint64_t size, uint64_t alignment) {
  std::fprintf(stderr,
               "tensorplay runtime: cannot allocate a buffer of %llu bytes "
               "(alignment %llu) for compiled code\n",
               (unsigned long long)size, (unsigned long long)alignment);
  std::abort();
}

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size) {
  if (alignment < kHeader)
    alignment = kHeader;
  // Powers of two up to 1 MiB; sizes whose rounding or header would wrap
  // are refused.
  if ((alignment & (alignment - 1)) != 0 || alignment > (uint64_t(1) << 20) ||
      size > SIZE_MAX / 2)
    allocationFailed(size, alignment);
  // At least 64 bytes: a zero-byte payload would start one past the end of
  // its block, and the cache would then hold no pointer into the block
  // (LeakSanitizer reported every cached empty buffer as leaked).
  size_t rounded = size == 0 ? 64 : (size + 63) / 64 * 64;
  {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.blocks.find({rounded, alignment});
    if (it != c.blocks.end() && !it->second.empty()) {
      void *p = it->second.back();
      it->second.pop_back();
      c.cachedBytes -= rounded;
      return p;
    }
  }
  // The block: [padding][header][payload], payload aligned to `alignment`;
  // aligned_alloc wants a multiple of the alignment.
  size_t total = (alignment + rounded + alignment - 1) / alignment * alignment;
  void *base = std::aligned_alloc(alignment, total);
  if (!base)
    allocationFailed(size, alignment);
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
      try {
        c.blocks[{h->size, h->alignment}].push_back(ptr);
        c.cachedBytes += h->size;
        return;
      } catch (const std::bad_alloc &) {
        // No room to remember the block: give it back instead.
      }
    }
  }
  std::free(h->base);
}

} // extern "C"
