//===- Codegen.cpp - Parallel loops and errors for compiled code ----------===//
//
// tp_rt_parallel_for and the codegen error slot of Codegen.h. With oneDNN
// (built on GNU OpenMP here) parallel loops run on the same OpenMP team as
// oneDNN's primitives, so the two never compete for the cores; without it
// they run on the runtime's own CPU thread pool.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "codegen/CodegenError.h"

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
}
#else
#include "cpu/ThreadPool.h"
#include "tensorplay/Runtime/Kernels.h"
#endif

namespace {

std::mutex errorMutex;
std::string errorMessage;

struct Loop {
  tp_rt_parallel_body body;
  void *context;
  int64_t begin, end;
  int64_t pieces;
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
  int64_t threads = omp_get_num_threads();
  for (int64_t i = omp_get_thread_num(); i < loop.pieces; i += threads)
    runPiece(loop, i);
}
#else
thread_local bool insideLoop = false;
#endif

} // namespace

tp_rt_status tensorplay::codegen::fail(tp_rt_status status,
                                       const std::string &message) {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (errorMessage.empty())
    errorMessage = message;
  return status;
}

extern "C" {

const char *tp_rt_codegen_error(void) {
  std::lock_guard<std::mutex> lock(errorMutex);
  return errorMessage.c_str();
}

void tp_rt_codegen_clear_error(void) {
  std::lock_guard<std::mutex> lock(errorMutex);
  errorMessage.clear();
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
  Loop loop{body, context, begin, end, threads};
#if TENSORPLAY_PARALLEL_GOMP
  GOMP_parallel(gompTrampoline, &loop, (unsigned)threads, 0);
#else
  tensorplay::amp::cpu::ThreadPool::global().run((unsigned)threads,
                                                 [&](unsigned i) {
                                                   insideLoop = true;
                                                   runPiece(loop, i);
                                                   insideLoop = false;
                                                 });
#endif
}

} // extern "C"
