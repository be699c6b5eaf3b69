//===- Distributed.h - tp-train's MPI ranks and their watchdog --*- C++ -*-===//
//
// tp-train --distributed runs one process per MPI rank (mpirun -np N). The
// compiled step does the collectives itself (tp.all_reduce -> MPI_Allreduce);
// this file holds what the tool does around it: MPI's start and end, a
// barrier, and a watchdog that ends the job with a clear error when a step
// (or a barrier) waits for the other ranks longer than a timeout, which is
// what a rank that died or hung looks like from the others. Built without
// MPI, --distributed is refused with a message saying how to get it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TOOLS_TP_TRAIN_DISTRIBUTED_H
#define TENSORPLAY_TOOLS_TP_TRAIN_DISTRIBUTED_H

#include "llvm/Support/Error.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace tp_train {

/// This process's place in the job: rank 0 of 1 when not distributed.
struct World {
  int rank = 0;
  int size = 1;
  bool distributed = false;
};

/// Starts MPI (MPI_Init_thread, the main thread making the MPI calls) when
/// `distributed`; an error when the tool was built without MPI. With
/// `overlap`, also the communication thread that runs the all-reduces the
/// compiled step starts (tp_mpi_allreduce_start_* / _wait_*).
llvm::Expected<World> startWorld(bool distributed, bool overlap);
/// What the communication thread did: the all-reduces it ran, their time
/// on the thread, and the time the compiled steps spent waiting for them.
struct OverlapStats {
  int64_t reductions = 0;
  double runMs = 0;
  double waitMs = 0;
};
OverlapStats overlapStats();

/// MPI_Finalize when distributed.
void finishWorld(const World &world);
/// MPI_Barrier when distributed.
void barrier(const World &world);
/// The median milliseconds of `calls` MPI_Allreduce (sum) of `floats` f32
/// values over all ranks (0 when not distributed): what one step's
/// collective costs, timed outside the step.
double timeAllReduce(const World &world, int64_t floats, int calls);
/// The MPI library's version string, or "" without MPI.
std::string mpiLibraryVersion();

/// Ends the process (exit status 1) with `message` when the main thread
/// stays in one phase (a step, a barrier) longer than the timeout. mpirun
/// then ends the other ranks.
class Watchdog {
public:
  Watchdog(const World &world, double timeoutSeconds);
  ~Watchdog();
  /// The main thread enters a phase that waits for the other ranks.
  void enter(const char *what, int64_t step);
  void leave();

private:
  void run();

  World world;
  double timeout;
  std::mutex mutex;
  std::condition_variable changed;
  bool stopping = false;
  bool inside = false;
  const char *phase = "";
  int64_t step = 0;
  uint64_t generation = 0;
  std::thread thread;
};

} // namespace tp_train

#endif // TENSORPLAY_TOOLS_TP_TRAIN_DISTRIBUTED_H
