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
#include <vector>

#ifdef TP_HAVE_MPI
#include <mpi.h>
#endif

using namespace tp_train;

static llvm::Error error(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<World> tp_train::startWorld(bool distributed) {
  World world;
  if (!distributed)
    return world;
#ifdef TP_HAVE_MPI
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) !=
      MPI_SUCCESS)
    return error("--distributed: MPI_Init_thread failed");
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  world.distributed = true;
  return world;
#else
  return error("--distributed: this tp-train was built without MPI; install "
               "an MPI (Debian: apt-get install libopenmpi-dev openmpi-bin, "
               "which tools/scripts/setup.sh does) and rebuild");
#endif
}

void tp_train::finishWorld(const World &world) {
#ifdef TP_HAVE_MPI
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

double tp_train::timeAllReduce(const World &world, int64_t floats,
                               int calls) {
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
