//===- Parallel.cpp - Splitting tensor lists over threads -----------------===//

#include "cpu/Parallel.h"
#include "cpu/ThreadPool.h"

#include "tensorplay/Runtime/Kernels.h"

#include <algorithm>
#include <atomic>

namespace tensorplay::amp::cpu {

namespace {
std::atomic<ParallelRunner> parallelRunner{nullptr};
} // namespace

void setParallelRunner(ParallelRunner runner) { parallelRunner = runner; }

unsigned workersFor(TensorList tensors) {
  int64_t total = 0;
  for (const Tensor &tensor : tensors)
    total += tensor.numel;
  return cpuThreadsFor(total);
}

void forEachRange(TensorList tensors, unsigned workers,
                  const std::function<void(const Range &)> &fn) {
  std::vector<int64_t> prefix(tensors.size() + 1, 0);
  for (size_t i = 0; i < tensors.size(); ++i)
    prefix[i + 1] = prefix[i] + tensors[i].numel;
  const int64_t total = prefix.back();
  if (total == 0)
    return;
  if (workers < 1)
    workers = 1;
  // Piece w covers flat elements [cut(w), cut(w + 1)).
  auto cut = [&](unsigned w) -> int64_t {
    if (w >= workers)
      return total;
    int64_t at =
        static_cast<int64_t>(static_cast<long double>(total) * w / workers);
    return std::min(total, at & ~int64_t(63));
  };
  auto runPiece = [&](unsigned w) {
    int64_t begin = cut(w), end = cut(w + 1);
    if (begin >= end)
      return;
    size_t t = static_cast<size_t>(
        std::upper_bound(prefix.begin(), prefix.end(), begin) - prefix.begin() -
        1);
    for (; t < tensors.size() && prefix[t] < end; ++t) {
      int64_t lo = std::max(begin, prefix[t]) - prefix[t];
      int64_t hi = std::min(end, prefix[t + 1]) - prefix[t];
      if (lo < hi)
        fn(Range{w, t, lo, hi});
    }
  };
  if (workers == 1)
    runPiece(0);
  else if (ParallelRunner runner = parallelRunner.load())
    runner(workers, runPiece);
  else
    ThreadPool::global().run(workers, runPiece);
}

} // namespace tensorplay::amp::cpu
