//===- CpuConfig.cpp - Choice of CPU implementation and threads -----------===//
//
// The AVX-512 path is used only when the running CPU reports AVX-512F, BW and
// VL (__builtin_cpu_supports, which also checks that the OS saves the ZMM
// state); otherwise the portable path runs. Threads come from the global
// pool, sized on first use from TP_RT_NUM_THREADS or the hardware.
//
//===----------------------------------------------------------------------===//

#include "cpu/ThreadPool.h"
#include "cpu/UnscaleKernels.h"

#include "tensorplay/Runtime/Kernels.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace tensorplay::amp {
namespace {

CpuKernelPath resolveAuto() {
  if (const char *env = std::getenv("TP_RT_CPU_KERNEL")) {
    if (std::strcmp(env, "portable") == 0)
      return CpuKernelPath::Portable;
    if (std::strcmp(env, "avx512") == 0 && cpuSupportsAvx512())
      return CpuKernelPath::AVX512;
  }
  return cpuSupportsAvx512() ? CpuKernelPath::AVX512 : CpuKernelPath::Portable;
}

/// The resolved path; Auto until the first query.
std::atomic<CpuKernelPath> selectedPath{CpuKernelPath::Auto};
std::atomic<int64_t> parallelThreshold{int64_t(1) << 18};
std::once_flag poolSized;

unsigned defaultThreadCount() {
  if (const char *env = std::getenv("TP_RT_NUM_THREADS")) {
    long value = std::strtol(env, nullptr, 10);
    if (value > 0 && value < 1024)
      return static_cast<unsigned>(value);
  }
  unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : hardware;
}

cpu::ThreadPool &sizedPool() {
  std::call_once(poolSized, [] {
    cpu::ThreadPool::global().resize(defaultThreadCount());
  });
  return cpu::ThreadPool::global();
}

} // namespace

bool cpuSupportsAvx512() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool supported = cpu::avx512UnscaleKernels() != nullptr &&
                                __builtin_cpu_supports("avx512f") &&
                                __builtin_cpu_supports("avx512bw") &&
                                __builtin_cpu_supports("avx512vl");
  return supported;
#else
  return false;
#endif
}

Status setCpuKernelPath(CpuKernelPath path) {
  if (path == CpuKernelPath::AVX512 && !cpuSupportsAvx512())
    return Status(StatusCode::Unsupported,
                  "the AVX-512 kernels need a CPU with AVX-512F, BW and VL");
  selectedPath = path == CpuKernelPath::Auto ? resolveAuto() : path;
  return Status::success();
}

CpuKernelPath cpuKernelPath() {
  CpuKernelPath path = selectedPath.load();
  if (path == CpuKernelPath::Auto) {
    path = resolveAuto();
    selectedPath = path;
  }
  return path;
}

const char *cpuKernelPathName(CpuKernelPath path) {
  switch (path) {
  case CpuKernelPath::Auto:
    return "auto";
  case CpuKernelPath::Portable:
    return "portable";
  case CpuKernelPath::AVX512:
    return "avx512";
  }
  return "unknown";
}

void setCpuThreadCount(unsigned threads) {
  sizedPool().resize(threads == 0 ? defaultThreadCount() : threads);
}

unsigned cpuThreadCount() { return sizedPool().size(); }

void setCpuParallelThreshold(int64_t elements) {
  parallelThreshold = elements < 1 ? 1 : elements;
}

int64_t cpuParallelThreshold() { return parallelThreshold.load(); }

unsigned cpuThreadsFor(int64_t totalElements) {
  if (totalElements < parallelThreshold.load())
    return 1;
  return cpuThreadCount();
}

namespace cpu {

const UnscaleKernels &activeUnscaleKernels() {
  if (cpuKernelPath() == CpuKernelPath::AVX512)
    return *avx512UnscaleKernels();
  return portableUnscaleKernels();
}

} // namespace cpu
} // namespace tensorplay::amp
