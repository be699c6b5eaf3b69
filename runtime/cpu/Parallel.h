//===- Parallel.h - Splitting tensor lists over threads ---------*- C++ -*-===//
//
// The CPU kernels see a list of tensors as one flat range of elements, cut
// into one contiguous piece per thread; a piece may span several tensors.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CPU_PARALLEL_H
#define TENSORPLAY_RUNTIME_CPU_PARALLEL_H

#include "tensorplay/Runtime/Tensor.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace tensorplay::amp::cpu {

/// The part of tensor `tensor` in elements [begin, end) given to thread
/// `worker`.
struct Range {
  unsigned worker;
  size_t tensor;
  int64_t begin;
  int64_t end;
};

/// Runs fn(0) .. fn(workers - 1), each once, in parallel, and waits.
using ParallelRunner = void (*)(unsigned workers,
                                const std::function<void(unsigned)> &fn);

/// Makes forEachRange run its pieces with `runner` (null: the runtime's
/// ThreadPool, the default). The codegen runtime installs its OpenMP team
/// when it is built with oneDNN's GNU OpenMP, so that the kernels of a
/// compiled train step (the optimizers) run on the threads its products and
/// loops use instead of waking a second set that competes for the cores.
void setParallelRunner(ParallelRunner runner);

/// The number of workers forEachRange splits `tensors` over:
/// cpuThreadsFor(total elements).
unsigned workersFor(TensorList tensors);

/// Calls `fn` on every non-empty range of the concatenation of `tensors`,
/// split over `workers` threads (piece boundaries are multiples of 64
/// elements). Ranges of one worker are visited in order, on one thread.
void forEachRange(TensorList tensors, unsigned workers,
                  const std::function<void(const Range &)> &fn);

/// forEachRange over workersFor(tensors) threads.
inline void forEachRange(TensorList tensors,
                         const std::function<void(const Range &)> &fn) {
  forEachRange(tensors, workersFor(tensors), fn);
}

} // namespace tensorplay::amp::cpu

#endif // TENSORPLAY_RUNTIME_CPU_PARALLEL_H
