//===- Distributed.cpp - tp-train's MPI ranks and their watchdog ----------===//
//
// See Distributed.h.
//
//===----------------------------------------------------------------------===//

#include "Distributed.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <vector>

#ifdef TP_HAVE_MPI
#include <mpi.h>
#endif

using namespace tp_train;

static llvm::Error error(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

#ifdef TP_HAVE_MPI
namespace {

/// Runs the all-reduces the compiled step starts, one at a time in the
/// order started (every rank starts the same ones in the same order, as
/// MPI requires of collectives), on a thread of its own: the step's thread
/// goes on with the backward meanwhile. The main thread makes MPI calls
/// only while no reduction is in flight (MPI_THREAD_SERIALIZED).
class CommThread {
public:
  CommThread() : thread([this] { run(); }) {}
  ~CommThread() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    thread.join();
  }

  int64_t start(const void *send, void *recv, int64_t count, MPI_Datatype type,
                MPI_Op op) {
    std::lock_guard<std::mutex> lock(mutex);
    queue.push_back({send, recv, count, type, op, ++started});
    changed.notify_all();
    return started;
  }

  void wait(int64_t ticket) {
    auto begin = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return finished >= ticket; });
    stats.waitMs += std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - begin)
                        .count();
  }

  OverlapStats snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return stats;
  }

private:
  struct Job {
    const void *send;
    void *recv;
    int64_t count;
    MPI_Datatype type;
    MPI_Op op;
    int64_t ticket;
  };

  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty())
        return;
      Job job = queue.front();
      queue.pop_front();
      lock.unlock();
      auto begin = std::chrono::steady_clock::now();
      MPI_Allreduce(job.send, job.recv, (int)job.count, job.type, job.op,
                    MPI_COMM_WORLD);
      double ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - begin)
                      .count();
      lock.lock();
      stats.runMs += ms;
      ++stats.reductions;
      finished = job.ticket;
      changed.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Job> queue;
  int64_t started = 0;
  int64_t finished = 0;
  bool stopping = false;
  OverlapStats stats;
  std::thread thread;
};

std::unique_ptr<CommThread> commThread;

} // namespace
#endif

llvm::Expected<World> tp_train::startWorld(bool distributed, bool overlap) {
  World world;
  if (!distributed)
    return world;
#ifdef TP_HAVE_MPI
  int provided = 0;
  int wanted = overlap ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED;
  if (MPI_Init_thread(nullptr, nullptr, wanted, &provided) != MPI_SUCCESS)
    return error("--distributed: MPI_Init_thread failed");
  if (provided < wanted)
    return error("--overlap: this MPI does not allow calls from a second "
                 "thread (MPI_THREAD_SERIALIZED)");
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  world.distributed = true;
  if (overlap)
    commThread = std::make_unique<CommThread>();
  return world;
#else
  return error("--distributed: this tp-train was built without MPI; install "
               "an MPI (Debian: apt-get install libopenmpi-dev openmpi-bin, "
               "which tools/scripts/setup.sh does) and rebuild");
#endif
}

OverlapStats tp_train::overlapStats() {
#ifdef TP_HAVE_MPI
  if (commThread)
    return commThread->snapshot();
#endif
  return {};
}

void tp_train::finishWorld(const World &world) {
#ifdef TP_HAVE_MPI
  commThread.reset();
  if (world.distributed)
    MPI_Finalize();
#else
  (void)world;
#endif
}

void tp_train::barrier(const World &world) {
#ifdef TP_HAVE_MPI
  if (world.distributed)
    MPI_Barrier(MPI_COMM_WORLD);
#else
  (void)world;
#endif
}

double tp_train::timeAllReduce(const World &world, int64_t floats, int calls) {
#ifdef TP_HAVE_MPI
  if (!world.distributed || floats <= 0 || calls <= 0)
    return 0.0;
  std::vector<float> send(floats, 1.0f), recv(floats);
  std::vector<double> times;
  for (int i = 0; i < calls; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    auto start = std::chrono::steady_clock::now();
    MPI_Allreduce(send.data(), recv.data(), (int)floats, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
#else
  (void)world;
  (void)floats;
  (void)calls;
  return 0.0;
#endif
}

std::string tp_train::mpiLibraryVersion() {
#ifdef TP_HAVE_MPI
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string s(version, length);
  return s.substr(0, s.find_first_of(",\n"));
#else
  return "";
#endif
}

Watchdog::Watchdog(const World &world, double timeoutSeconds)
    : world(world), timeout(timeoutSeconds) {
  if (world.distributed && timeout > 0)
    thread = std::thread([this] { run(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  changed.notify_all();
  if (thread.joinable())
    thread.join();
}

void Watchdog::enter(const char *what, int64_t s) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    inside = true;
    phase = what;
    step = s;
    ++generation;
  }
  changed.notify_all();
}

void Watchdog::leave() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    inside = false;
    ++generation;
  }
  changed.notify_all();
}

void Watchdog::run() {
  std::unique_lock<std::mutex> lock(mutex);
  auto limit = std::chrono::duration<double>(timeout);
  while (!stopping) {
    if (!inside) {
      changed.wait(lock);
      continue;
    }
    uint64_t seen = generation;
    if (changed.wait_for(lock, limit,
                         [&] { return stopping || generation != seen; }))
      continue;
    // Still in the same phase after the timeout: a peer rank died or hung.
    std::fprintf(stderr,
                 "tp-train: rank %d of %d: %s %lld waited %.0f s for the "
                 "other ranks (--timeout): one of them died or hangs; "
                 "ending the job\n",
                 world.rank, world.size, phase, (long long)step, timeout);
    std::fflush(stderr);
    std::fflush(stdout);
    std::_Exit(1);
  }
}

//===----------------------------------------------------------------------===//
// The functions an all-reduce with `overlap` calls (CollectiveToMPI.cpp),
// found by the JIT among this executable's exported symbols. A memref<?xT>
// argument arrives as (allocated, aligned, offset, size, stride).
//===----------------------------------------------------------------------===//

#ifdef TP_HAVE_MPI
#define TP_MPI_START_WAIT(SUFFIX, CTYPE, MPITYPE)                              \
  extern "C" int64_t tp_mpi_allreduce_start_##SUFFIX(                          \
      CTYPE *, CTYPE *send, int64_t sendOffset, int64_t size, int64_t,         \
      CTYPE *, CTYPE *recv, int64_t recvOffset, int64_t, int64_t,              \
      int32_t kind) {                                                          \
    if (!commThread) {                                                         \
      std::fprintf(stderr, "tp-train: an overlapped all-reduce ran without "   \
                           "--distributed --overlap\n");                       \
      std::_Exit(1);                                                           \
    }                                                                          \
    return commThread->start(send + sendOffset, recv + recvOffset, size,       \
                             MPITYPE, kind == 1 ? MPI_MAX : MPI_SUM);          \
  }                                                                            \
  extern "C" void tp_mpi_allreduce_wait_##SUFFIX(                              \
      int64_t ticket, CTYPE *, CTYPE *, int64_t, int64_t, int64_t, CTYPE *,    \
      CTYPE *, int64_t, int64_t, int64_t) {                                    \
    commThread->wait(ticket);                                                  \
  }
TP_MPI_START_WAIT(f32, float, MPI_FLOAT)
TP_MPI_START_WAIT(f64, double, MPI_DOUBLE)
TP_MPI_START_WAIT(i32, int32_t, MPI_INT32_T)
TP_MPI_START_WAIT(i64, int64_t, MPI_INT64_T)
#undef TP_MPI_START_WAIT
#endif
