//===- ThreadPool.cpp - The CPU kernels' worker threads -------------------===//

#include "cpu/ThreadPool.h"

#include <atomic>

namespace tensorplay::amp::cpu {

/// One run(): workers that wake late hold their own reference, so a finished
/// job never touches the next one.
struct ThreadPool::Job {
  const std::function<void(unsigned)> *fn = nullptr;
  unsigned total = 0;
  std::atomic<unsigned> next{0};
  std::atomic<unsigned> remaining{0};
  std::mutex doneMutex;
  std::condition_variable done;
};

ThreadPool &ThreadPool::global() {
  static ThreadPool pool;
  return pool;
}

ThreadPool::~ThreadPool() { stopWorkers(); }

unsigned ThreadPool::size() const {
  std::lock_guard<std::mutex> lock(mutex);
  return static_cast<unsigned>(workers.size()) + 1;
}

void ThreadPool::stopWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  for (std::thread &worker : workers)
    worker.join();
  std::lock_guard<std::mutex> lock(mutex);
  workers.clear();
  stopping = false;
}

void ThreadPool::resize(unsigned threads) {
  std::lock_guard<std::mutex> runLock(runMutex);
  if (threads < 1)
    threads = 1;
  if (size() == threads)
    return;
  stopWorkers();
  std::lock_guard<std::mutex> lock(mutex);
  for (unsigned i = 1; i < threads; ++i)
    workers.emplace_back([this] { workerLoop(); });
}

void ThreadPool::drain(Job &job) {
  for (;;) {
    unsigned task = job.next.fetch_add(1, std::memory_order_relaxed);
    if (task >= job.total)
      return;
    (*job.fn)(task);
    if (job.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(job.doneMutex);
      job.done.notify_all();
    }
  }
}

void ThreadPool::workerLoop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    wake.wait(lock, [&] { return stopping || generation != seen; });
    if (stopping)
      return;
    seen = generation;
    std::shared_ptr<Job> job = current;
    lock.unlock();
    drain(*job);
    lock.lock();
  }
}

void ThreadPool::run(unsigned numTasks,
                     const std::function<void(unsigned)> &fn) {
  std::lock_guard<std::mutex> runLock(runMutex);
  if (numTasks == 0)
    return;
  bool single;
  {
    std::lock_guard<std::mutex> lock(mutex);
    single = workers.empty() || numTasks == 1;
  }
  if (single) {
    for (unsigned task = 0; task < numTasks; ++task)
      fn(task);
    return;
  }
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->total = numTasks;
  job->remaining.store(numTasks, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mutex);
    current = job;
    ++generation;
  }
  wake.notify_all();
  drain(*job);
  std::unique_lock<std::mutex> doneLock(job->doneMutex);
  job->done.wait(doneLock, [&] {
    return job->remaining.load(std::memory_order_acquire) == 0;
  });
}

} // namespace tensorplay::amp::cpu
