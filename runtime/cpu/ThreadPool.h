//===- ThreadPool.h - The CPU kernels' worker threads -----------*- C++ -*-===//
//
// A small persistent pool of std::threads. run() executes tasks 0..n-1 on the
// workers and on the calling thread, and returns when all are done.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CPU_THREADPOOL_H
#define TENSORPLAY_RUNTIME_CPU_THREADPOOL_H

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tensorplay::amp::cpu {

class ThreadPool {
public:
  /// The process-wide pool, sized by setCpuThreadCount.
  static ThreadPool &global();

  ThreadPool() = default;
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;
  ~ThreadPool();

  /// Threads that run tasks, the caller included (>= 1).
  unsigned size() const;
  /// Restarts the pool with `threads` threads in all (>= 1).
  void resize(unsigned threads);
  /// Runs fn(0) .. fn(numTasks - 1), each exactly once, and waits for them.
  /// Calls from several threads are serialised.
  void run(unsigned numTasks, const std::function<void(unsigned)> &fn);

private:
  struct Job;
  void workerLoop();
  static void drain(Job &job);
  void stopWorkers();

  mutable std::mutex mutex;
  std::condition_variable wake;
  std::vector<std::thread> workers;
  std::shared_ptr<Job> current;
  uint64_t generation = 0;
  bool stopping = false;
  /// Serialises run() and resize().
  std::mutex runMutex;
};

} // namespace tensorplay::amp::cpu

#endif // TENSORPLAY_RUNTIME_CPU_THREADPOOL_H
