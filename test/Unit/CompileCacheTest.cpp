//===- CompileCacheTest.cpp - The persistent compile cache ----------------===//
//
// CompileCache on its own (keys, damaged entries, the size bound, writers
// racing in several processes) and through Executable (a second compile
// of a module takes its code from the cache and computes the same bits;
// each function's code is generated at its first call).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Compiler/CompileCache.h"
#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tp;

namespace {
/// A fresh directory, removed with its contents at the end.
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tp-cache-test", path));
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string sub(llvm::StringRef name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
};

CompileCache cacheIn(const std::string &dir, uint64_t maxBytes = 1 << 20) {
  CompileCacheConfig config;
  config.directory = dir;
  config.maxBytes = maxBytes;
  return CompileCache(config);
}

std::string bytesOf(size_t n, char seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i)
    s[i] = static_cast<char>(seed + i * 7);
  return s;
}

std::string fileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
} // namespace

TEST(CompileCache, KeysHashEveryPartAndItsLength) {
  std::string k = CompileCache::key({"ab", "c"});
  EXPECT_EQ(k.size(), 64u);
  EXPECT_EQ(k, CompileCache::key({"ab", "c"}));
  // The same bytes split differently are another key.
  EXPECT_NE(k, CompileCache::key({"a", "bc"}));
  EXPECT_NE(k, CompileCache::key({"abc"}));
  EXPECT_NE(k, CompileCache::key({"ab", "d"}));
  EXPECT_FALSE(CompileCache::compilerIdentity().empty());
}

TEST(CompileCache, StoresAndFindsObjects) {
  TempDir dir;
  CompileCache cache = cacheIn(dir.sub("c"));
  ASSERT_TRUE(cache.enabled());
  std::string key = CompileCache::key({"one"});
  CompileCacheStats before = CompileCache::stats();
  EXPECT_EQ(cache.lookup(key), nullptr);
  std::string object = bytesOf(5000, 3);
  ASSERT_FALSE(bool(cache.store(key, llvm::MemoryBufferRef(object, "o"))));
  auto found = cache.lookup(key);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->getBuffer(), object);
  EXPECT_TRUE(cache.contains(key));
  EXPECT_FALSE(cache.contains(CompileCache::key({"two"})));
  CompileCacheStats after = CompileCache::stats();
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.hits - before.hits, 1u);
  EXPECT_EQ(after.stores - before.stores, 1u);
}

TEST(CompileCache, DamagedEntriesAreMissesAndRemoved) {
  TempDir dir;
  CompileCache cache = cacheIn(dir.sub("c"));
  std::string object = bytesOf(4000, 9);
  auto damage = [&](const char *what, auto change) {
    std::string key = CompileCache::key({what});
    ASSERT_FALSE(bool(cache.store(key, llvm::MemoryBufferRef(object, "o"))));
    std::string path = cache.entryPath(key);
    std::string bytes = fileBytes(path);
    change(bytes);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    uint64_t damaged = CompileCache::stats().damaged;
    EXPECT_EQ(cache.lookup(key), nullptr) << what;
    EXPECT_EQ(CompileCache::stats().damaged, damaged + 1) << what;
    EXPECT_FALSE(llvm::sys::fs::exists(path)) << what;
  };
  damage("truncated", [](std::string &b) { b.resize(b.size() - 100); });
  damage("flipped", [](std::string &b) { b[b.size() / 2] ^= 0x10; });
  damage("header", [](std::string &b) { b[0] = 'X'; });
  damage("empty", [](std::string &b) { b.clear(); });
  // An entry renamed to another key is not that key's object.
  std::string a = CompileCache::key({"a"}), b = CompileCache::key({"b"});
  ASSERT_FALSE(bool(cache.store(a, llvm::MemoryBufferRef(object, "o"))));
  ASSERT_FALSE(llvm::sys::fs::rename(cache.entryPath(a), cache.entryPath(b)));
  EXPECT_EQ(cache.lookup(b), nullptr);
}

TEST(CompileCache, EvictsTheLeastRecentlyUsedBeyondTheBound) {
  TempDir dir;
  // Room for three entries of 10 kB, not four.
  CompileCache cache = cacheIn(dir.sub("c"), 35000);
  std::string object = bytesOf(10000, 1);
  std::vector<std::string> keys;
  for (int i = 0; i < 3; ++i) {
    keys.push_back(CompileCache::key({std::to_string(i)}));
    ASSERT_FALSE(
        bool(cache.store(keys.back(), llvm::MemoryBufferRef(object, "o"))));
    // Modification times one apart (some file systems keep seconds).
    auto when = std::chrono::system_clock::now() - std::chrono::hours(10 - i);
    int fd;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
        cache.entryPath(keys.back()), fd, llvm::sys::fs::CD_OpenExisting,
        llvm::sys::fs::OF_Append));
    ASSERT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(fd, when));
    ::close(fd);
  }
  // Reading entry 0 makes it the most recent: entry 1 goes first.
  ASSERT_NE(cache.lookup(keys[0]), nullptr);
  uint64_t evictions = CompileCache::stats().evictions;
  keys.push_back(CompileCache::key({"3"}));
  ASSERT_FALSE(bool(cache.store(keys[3], llvm::MemoryBufferRef(object, "o"))));
  EXPECT_EQ(CompileCache::stats().evictions, evictions + 1);
  EXPECT_TRUE(cache.contains(keys[0]));
  EXPECT_FALSE(cache.contains(keys[1]));
  EXPECT_TRUE(cache.contains(keys[2]));
  EXPECT_TRUE(cache.contains(keys[3]));
  // An object larger than the bound is not kept.
  std::string huge = bytesOf(40000, 2);
  std::string hugeKey = CompileCache::key({"huge"});
  ASSERT_FALSE(bool(cache.store(hugeKey, llvm::MemoryBufferRef(huge, "o"))));
  EXPECT_FALSE(cache.contains(hugeKey));
}

// Four processes store and read the same keys at once: every read finds
// nothing or the whole object, never a part of one.
TEST(CompileCache, ConcurrentProcessesNeverReadPartialEntries) {
  TempDir dir;
  std::string directory = dir.sub("c");
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      CompileCache cache = cacheIn(directory, 1 << 30);
      int bad = 0;
      for (int round = 0; round < 50; ++round) {
        for (int k = 0; k < 4; ++k) {
          std::string key = CompileCache::key({std::to_string(k)});
          std::string object = bytesOf(200000 + k * 1000, char(k));
          if (auto found = cache.lookup(key))
            bad += found->getBuffer() != object;
          if (cache.store(key, llvm::MemoryBufferRef(object, "o")))
            ++bad;
        }
      }
      _exit(bad == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  // No temporary file is left behind.
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       !ec && it != end; it.increment(ec)) {
    EXPECT_TRUE(llvm::StringRef(it->path()).ends_with(".tpo")) << it->path();
    ++entries;
  }
  EXPECT_EQ(entries, 4);
}

TEST(CompileCache, TheEnvironmentConfiguresIt) {
  ::setenv("TENSORPLAY_MLIR_CACHE_DIR", "/some/where", 1);
  ::setenv("TENSORPLAY_MLIR_CACHE_MAX_MB", "3", 1);
  ::unsetenv("TENSORPLAY_MLIR_CACHE");
  std::string error;
  CompileCacheConfig config = CompileCacheConfig::fromEnvironment(&error);
  EXPECT_EQ(config.directory, "/some/where");
  EXPECT_EQ(config.maxBytes, uint64_t(3) << 20);
  EXPECT_TRUE(error.empty());
  ::setenv("TENSORPLAY_MLIR_CACHE", "0", 1);
  config = CompileCacheConfig::fromEnvironment(&error);
  EXPECT_TRUE(config.directory.empty());
  // A cache configured in code is off too.
  EXPECT_FALSE(cacheIn("/tmp/x").enabled());
  ::unsetenv("TENSORPLAY_MLIR_CACHE");
  ::setenv("TENSORPLAY_MLIR_CACHE_MAX_MB", "many", 1);
  config = CompileCacheConfig::fromEnvironment(&error);
  EXPECT_NE(error.find("TENSORPLAY_MLIR_CACHE_MAX_MB"), std::string::npos);
  ::unsetenv("TENSORPLAY_MLIR_CACHE_DIR");
  ::unsetenv("TENSORPLAY_MLIR_CACHE_MAX_MB");
  EXPECT_TRUE(llvm::StringRef(CompileCacheConfig::fromEnvironment().directory)
                  .ends_with("tensorplay-mlir"));
}

namespace {
const char *kTwoFunctions = R"mlir(
  func.func @f(%x: tensor<3x4xf32>, %w: tensor<4x5xf32>) -> tensor<3x5xf32> {
    %m = tp.mm %x, %w : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
    %t = tp.tanh %m : (tensor<3x5xf32>) -> tensor<3x5xf32>
    return %t : tensor<3x5xf32>
  }
  func.func @g(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %e = tp.exp %x : (tensor<3x4xf32>) -> tensor<3x4xf32>
    return %e : tensor<3x4xf32>
  })mlir";

std::unique_ptr<Executable> compileWith(MLIRContext &ctx,
                                        const CompileOptions &options) {
  auto exe =
      Executable::compile(parseModuleString(ctx, kTwoFunctions), options);
  if (!exe) {
    ADD_FAILURE() << llvm::toString(exe.takeError());
    return nullptr;
  }
  return std::move(*exe);
}

/// @f's and @g's results on fixed inputs.
std::vector<HostTensor> resultsOf(Executable &exe) {
  HostTensor x(ElementKind::F32, {3, 4}), w(ElementKind::F32, {4, 5});
  for (int i = 0; i < 12; ++i)
    x.set(i, 0.37 * i - 2.1);
  for (int i = 0; i < 20; ++i)
    w.set(i, 0.11 * i - 1.0);
  std::vector<HostTensor> f, g;
  EXPECT_FALSE(bool(exe.run("f", {&x, &w}, f)));
  EXPECT_FALSE(bool(exe.run("g", {&x}, g)));
  return {f[0], g[0]};
}

bool sameBits(const HostTensor &a, const HostTensor &b) {
  return a.byteSize() == b.byteSize() &&
         std::memcmp(a.data(), b.data(), a.byteSize()) == 0;
}
} // namespace

TEST(CompileCache, ASecondCompileTakesTheCodeAndComputesTheSameBits) {
  TempDir dir;
  CompileOptions options;
  options.autocast = "cpu:bf16";
  options.cache.directory = dir.sub("c");
  MLIRContext ctx1, ctx2, ctx3;
  auto first = compileWith(ctx1, options);
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->fromCache());
  // Code is generated at a function's first call, not before.
  EXPECT_EQ(first->compileTimes().codegen, 0.0);
  std::vector<HostTensor> cold = resultsOf(*first);
  EXPECT_GT(first->compileTimes().codegen, 0.0);
  EXPECT_EQ(first->functionsCached(), 0u);

  auto second = compileWith(ctx2, options);
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->fromCache());
  EXPECT_EQ(second->compileTimes().lower, 0.0);
  std::vector<HostTensor> warm = resultsOf(*second);
  EXPECT_EQ(second->functionsCached(), 2u);
  EXPECT_EQ(second->compileTimes().codegen, 0.0);
  for (size_t i = 0; i < cold.size(); ++i)
    EXPECT_TRUE(sameBits(cold[i], warm[i])) << i;

  // Another optimization level is another key; its code computes the same.
  options.optLevel = 1;
  auto other = compileWith(ctx3, options);
  ASSERT_TRUE(other);
  EXPECT_FALSE(other->fromCache());
  std::vector<HostTensor> o1 = resultsOf(*other);
  EXPECT_EQ(other->functionsCached(), 0u);
  for (size_t i = 0; i < cold.size(); ++i)
    EXPECT_TRUE(sameBits(cold[i], o1[i])) << i;
}

// A module known to the cache whose function's code was evicted is lowered
// again at that function's first call.
TEST(CompileCache, AMissingFunctionIsGeneratedFromTheModule) {
  TempDir dir;
  CompileOptions options;
  options.cache.directory = dir.sub("c");
  MLIRContext ctx1, ctx2, ctx3;
  auto first = compileWith(ctx1, options);
  ASSERT_TRUE(first);
  std::vector<HostTensor> expected = resultsOf(*first);
  // Keep only the marker (the smallest entry) and @f's or @g's object.
  std::error_code ec;
  std::vector<std::pair<uint64_t, std::string>> entries;
  for (llvm::sys::fs::directory_iterator it(dir.sub("c"), ec), end;
       !ec && it != end; it.increment(ec)) {
    uint64_t size = 0;
    llvm::sys::fs::file_size(it->path(), size);
    entries.push_back({size, it->path()});
  }
  ASSERT_EQ(entries.size(), 3u);
  std::sort(entries.begin(), entries.end());
  llvm::sys::fs::remove(entries[2].second);
  auto second = compileWith(ctx2, options);
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->fromCache());
  std::vector<HostTensor> results = resultsOf(*second);
  EXPECT_EQ(second->functionsCached(), 1u);
  EXPECT_GT(second->compileTimes().lower, 0.0);
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_TRUE(sameBits(expected[i], results[i])) << i;
  // generateAll makes every function's code at once.
  auto third = compileWith(ctx3, options);
  ASSERT_TRUE(third);
  ASSERT_FALSE(bool(third->generateAll()));
  EXPECT_EQ(third->functionsCached(), 2u);
}

// Tiered code: the first call runs O0 code, a background thread swaps in
// the O3 code; both compute the same bits, and only the O3 code is cached.
TEST(CompileCache, TieredCodeComputesTheSameBitsAndCachesTheFinalTier) {
  TempDir dir;
  CompileOptions options;
  options.autocast = "cpu:bf16";
  MLIRContext ctx0, ctx1, ctx2;
  auto direct = compileWith(ctx0, options);
  ASSERT_TRUE(direct);
  std::vector<HostTensor> expected = resultsOf(*direct);

  options.tiered = true;
  options.cache.directory = dir.sub("c");
  auto tiered = compileWith(ctx1, options);
  ASSERT_TRUE(tiered);
  std::vector<HostTensor> first = resultsOf(*tiered);
  tiered->waitForBackground();
  EXPECT_EQ(tiered->functionsOptimizedInBackground(), 2u);
  std::vector<HostTensor> second = resultsOf(*tiered);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(sameBits(expected[i], first[i])) << i;
    EXPECT_TRUE(sameBits(expected[i], second[i])) << i;
  }
  // The cache has the optimized code (and the marker) only.
  int entries = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir.sub("c"), ec), end;
       !ec && it != end; it.increment(ec))
    ++entries;
  EXPECT_EQ(entries, 3);
  auto cached = compileWith(ctx2, options);
  ASSERT_TRUE(cached);
  std::vector<HostTensor> third = resultsOf(*cached);
  EXPECT_EQ(cached->functionsCached(), 2u);
  EXPECT_EQ(cached->functionsOptimizedInBackground(), 0u);
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_TRUE(sameBits(expected[i], third[i])) << i;
}

/// The test module compiled with tiered code, without a cache.
static std::unique_ptr<Executable> tieredExecutable(MLIRContext &ctx) {
  CompileOptions options;
  options.tiered = true;
  return compileWith(ctx, options);
}

// An executable destroyed while its background compile runs waits for it.
TEST(CompileCache, AnExecutableGoneDuringItsBackgroundCompileWaits) {
  MLIRContext ctx;
  auto exe = tieredExecutable(ctx);
  ASSERT_TRUE(exe);
  resultsOf(*exe);
  exe.reset();
  SUCCEED();
}

// A fork during a background compile waits for it: the child can compile
// (it would otherwise inherit LLVM's locks held by a thread it lacks).
TEST(CompileCache, AForkDuringABackgroundCompileLeavesAWorkingChild) {
  MLIRContext ctx;
  auto exe = tieredExecutable(ctx);
  ASSERT_TRUE(exe);
  HostTensor x(ElementKind::F32, {3, 4}), w(ElementKind::F32, {4, 5});
  std::vector<HostTensor> f, g;
  ASSERT_FALSE(bool(exe->run("f", {&x, &w}, f)));
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(60); // a hang fails the test instead of blocking it
    std::vector<HostTensor> out;
    _exit(exe->run("g", {&x}, out) ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
