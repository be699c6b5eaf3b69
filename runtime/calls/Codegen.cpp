//===- Codegen.cpp - Parallel loops and errors for compiled code ----------===//
//
// tp_rt_parallel_for, the thread count and the codegen error status of
// Codegen.h (one per calling thread; a parallel loop's workers record into
// their launcher's). With oneDNN (built on GNU OpenMP here) parallel loops run
// on the same OpenMP team as oneDNN's primitives, so the two never compete for
// the cores, and so do the runtime's CPU kernels (the optimizers of a train
// step; cpu::setParallelRunner); without it they run on the runtime's own
// CPU thread pool.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "calls/CodegenError.h"

#include <algorithm>
#include <mutex>
#include <string>

#if TENSORPLAY_PARALLEL_GOMP
extern "C" {
void GOMP_parallel(void (*fn)(void *), void *data, unsigned numThreads,
                   unsigned flags);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_in_parallel(void);
void omp_set_num_threads(int n);
}
#endif
#include "cpu/Parallel.h"
#include "cpu/ThreadPool.h"
#include "tensorplay/Runtime/Kernels.h"

namespace {

/// The error status of the compiled-code calls one thread makes: each
/// thread calling compiled code has its own, so concurrent calls from
/// several threads report each error to its caller. The workers of a
/// parallel loop record into the status of the thread that launched it
/// (`launcher`, set for the loop's duration).
struct Status {
  std::mutex mutex;
  std::string message;
  /// The recorded error when its message could not be copied (no memory).
  const char *staticError = nullptr;
};

thread_local Status ownStatus;
thread_local Status *launcher = nullptr;

Status &active() { return launcher ? *launcher : ownStatus; }

/// Makes `status` this (worker) thread's active one for a scope.
class Borrow {
public:
  explicit Borrow(Status *status) : saved(launcher) { launcher = status; }
  ~Borrow() { launcher = saved; }
  Borrow(const Borrow &) = delete;
  Borrow &operator=(const Borrow &) = delete;

private:
  Status *saved;
};

/// tp_rt_set_num_threads accepts at most this many threads.
constexpr int32_t kMaxThreads = 1024;

struct Loop {
  tp_rt_parallel_body body;
  void *context;
  int64_t begin, end;
  int64_t pieces;
  Status *status; // the launching thread's
};

/// Piece `i` of `pieces` of [begin, end).
void runPiece(const Loop &loop, int64_t i) {
  int64_t n = loop.end - loop.begin;
  int64_t lo = loop.begin + n * i / loop.pieces;
  int64_t hi = loop.begin + n * (i + 1) / loop.pieces;
  if (lo < hi)
    loop.body(loop.context, lo, hi);
}

#if TENSORPLAY_PARALLEL_GOMP
void gompTrampoline(void *data) {
  const Loop &loop = *static_cast<const Loop *>(data);
  Borrow borrow(loop.status);
  int64_t threads = omp_get_num_threads();
  for (int64_t i = omp_get_thread_num(); i < loop.pieces; i += threads)
    runPiece(loop, i);
}

/// The runtime kernels' pieces on the OpenMP team (cpu::setParallelRunner).
struct RunnerTask {
  const std::function<void(unsigned)> *fn;
  unsigned tasks;
  Status *status; // the launching thread's
};

void runnerTrampoline(void *data) {
  const RunnerTask &task = *static_cast<const RunnerTask *>(data);
  Borrow borrow(task.status);
  unsigned threads = static_cast<unsigned>(omp_get_num_threads());
  for (unsigned i = static_cast<unsigned>(omp_get_thread_num()); i < task.tasks;
       i += threads)
    (*task.fn)(i);
}

void gompRunner(unsigned tasks, const std::function<void(unsigned)> &fn) {
  if (omp_in_parallel()) {
    for (unsigned i = 0; i < tasks; ++i)
      fn(i);
    return;
  }
  RunnerTask task{&fn, tasks, &active()};
  GOMP_parallel(runnerTrampoline, &task, tasks, 0);
}

/// Installed when the library loads.
const bool gompRunnerInstalled =
    (tensorplay::amp::cpu::setParallelRunner(gompRunner), true);
#else
thread_local bool insideLoop = false;
#endif

} // namespace

/// Records the status's name as the error (no allocation).
static tp_rt_status failStatic(tp_rt_status status) noexcept {
  Status &slot = active();
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (slot.message.empty() && !slot.staticError)
    slot.staticError = tp_rt_status_string(status);
  return status;
}

tp_rt_status tensorplay::codegen::fail(tp_rt_status status,
                                       const std::string &message) noexcept {
  {
    Status &slot = active();
    std::lock_guard<std::mutex> lock(slot.mutex);
    if (!slot.message.empty() || slot.staticError)
      return status;
    try {
      slot.message = message;
      return status;
    } catch (...) {
    }
  }
  return failStatic(status);
}

tp_rt_status tensorplay::codegen::fail(tp_rt_status status, const char *what,
                                       const char *detail,
                                       const char *more) noexcept {
  try {
    return fail(status, std::string(what) + ": " + detail + more);
  } catch (...) {
    return failStatic(status);
  }
}

extern "C" {

const char *tp_rt_codegen_error(void) {
  Status &slot = active();
  std::lock_guard<std::mutex> lock(slot.mutex);
  return slot.staticError ? slot.staticError : slot.message.c_str();
}

void tp_rt_codegen_clear_error(void) {
  Status &slot = active();
  std::lock_guard<std::mutex> lock(slot.mutex);
  slot.message.clear();
  slot.staticError = nullptr;
}

tp_rt_status tp_rt_set_num_threads(int32_t n) {
  if (n < 0 || n > kMaxThreads)
    return TP_RT_ERROR_INVALID_ARGUMENT;
#if TENSORPLAY_PARALLEL_GOMP
  // What OpenMP read from OMP_NUM_THREADS (or the cores) when it loaded:
  // n = 0 restores it.
  static const int openmpDefault = omp_get_max_threads();
  omp_set_num_threads(n == 0 ? openmpDefault : n);
#endif
  tensorplay::amp::setCpuThreadCount(static_cast<unsigned>(n));
  return TP_RT_SUCCESS;
}

int32_t tp_rt_num_threads(void) {
#if TENSORPLAY_PARALLEL_GOMP
  return omp_get_max_threads();
#else
  return static_cast<int32_t>(tensorplay::amp::cpuThreadCount());
#endif
}

void tp_rt_parallel_for(tp_rt_parallel_body body, void *context, int64_t begin,
                        int64_t end) {
  int64_t n = end - begin;
  if (n <= 0)
    return;
#if TENSORPLAY_PARALLEL_GOMP
  int64_t threads = omp_in_parallel() ? 1 : omp_get_max_threads();
#else
  int64_t threads = insideLoop ? 1 : tensorplay::amp::cpuThreadCount();
#endif
  threads = std::min(threads, n);
  if (threads <= 1) {
    body(context, begin, end);
    return;
  }
  Loop loop{body, context, begin, end, threads, &active()};
#if TENSORPLAY_PARALLEL_GOMP
  GOMP_parallel(gompTrampoline, &loop, (unsigned)threads, 0);
#else
  tensorplay::amp::cpu::ThreadPool::global().run((unsigned)threads,
                                                 [&](unsigned i) {
                                                   Borrow borrow(loop.status);
                                                   insideLoop = true;
                                                   runPiece(loop, i);
                                                   insideLoop = false;
                                                 });
#endif
}

} // extern "C"
