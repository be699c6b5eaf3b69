//===- GradScalerBench.cpp - Unscale + check and optimizer throughput -----===//
//
// Prints, in one run:
//  - the CPU unscale + inf/NaN check over 64 MiB of f32 gradients split into
//    1, 10 and 1000 tensors, per kernel path and thread count, next to a
//    plain copy of the same bytes over the same threads (the bandwidth roof)
//    and their ratio;
//  - a fused optimizer step (check pass + step that unscales) against the
//    unfused unscale-then-step, for AdamW and SGD with momentum.
// Figures are medians of repeated runs; compare ratios within one run.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Kernels.h"
#include "tensorplay/Runtime/Optimizers.h"

#include "cpu/Parallel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace tensorplay::amp;

namespace {

constexpr int64_t kTotalBytes = int64_t(64) << 20;
constexpr int64_t kTotalFloats = kTotalBytes / 4;

/// Median wall time of `fn` in seconds, after warm-up runs.
double medianSeconds(const std::function<void()> &fn, int runs = 21) {
  for (int i = 0; i < 3; ++i)
    fn();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    auto end = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double>(end - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// `count` tensors over one allocation of kTotalFloats floats.
struct TensorSet {
  std::vector<float> storage;
  std::vector<Tensor> tensors;
  TensorSet(int count, float fill) : storage(kTotalFloats, fill) {
    int64_t offset = 0;
    for (int t = 0; t < count; ++t) {
      int64_t numel = kTotalFloats / count + (t < kTotalFloats % count);
      tensors.push_back(
          Tensor{storage.data() + offset, numel, DType::F32, Device::CPU});
      offset += numel;
    }
  }
};

std::string cpuName() {
  std::ifstream info("/proc/cpuinfo");
  std::string line;
  while (std::getline(info, line))
    if (line.rfind("model name", 0) == 0)
      return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

void check(const Status &status) {
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\n", status.toString().c_str());
    std::exit(1);
  }
}

void benchUnscale() {
  std::printf("## Unscale + inf/NaN check, 64 MiB of f32 gradients\n\n");
  std::printf("GB/s count bytes read + written (2 x 64 MiB) for all. copy: "
              "memcpy of the same bytes between two buffers over the same "
              "threads (the roof asked for); in-place: a plain x *= c loop "
              "over the same buffers, i.e. the unscale without the check "
              "(a stricter roof).\n\n");
  std::printf("| tensors | path | threads | unscale GB/s | copy GB/s | "
              "unscale / copy | in-place GB/s | unscale / in-place |\n");
  std::printf("|---:|---|---:|---:|---:|---:|---:|---:|\n");
  std::vector<CpuKernelPath> paths = {CpuKernelPath::Portable};
  if (cpuSupportsAvx512())
    paths.push_back(CpuKernelPath::AVX512);
  const unsigned maxThreads = cpuThreadCount();
  for (int count : {1, 10, 1000}) {
    TensorSet grads(count, 1.5f), source(count, 2.5f), target(count, 0.0f);
    for (unsigned threads = 1; threads <= maxThreads; threads *= 2) {
      setCpuThreadCount(threads);
      // The roof: a copy of the same tensors, split over the same threads.
      double copy = medianSeconds([&] {
        cpu::forEachRange(source.tensors, [&](const cpu::Range &r) {
          std::memcpy(target.tensors[r.tensor].as<float>() + r.begin,
                      source.tensors[r.tensor].as<float>() + r.begin,
                      static_cast<size_t>(r.end - r.begin) * 4);
        });
      });
      // The same traffic as the unscale, without the check.
      const float factors[2] = {65536.0f, 1.0f / 65536.0f};
      int flip = 0;
      double inPlace = medianSeconds([&] {
        const float factor = factors[flip];
        cpu::forEachRange(grads.tensors, [&](const cpu::Range &r) {
          float *data = grads.tensors[r.tensor].as<float>();
          for (int64_t i = r.begin; i < r.end; ++i)
            data[i] *= factor;
        });
        flip ^= 1;
      });
      for (CpuKernelPath path : paths) {
        check(setCpuKernelPath(path));
        // Alternate 2^16 and 2^-16 so that the values stay put.
        const float scales[2] = {65536.0f, 1.0f / 65536.0f};
        int parity = 0;
        float foundInf = 0.0f;
        double unscale = medianSeconds([&] {
          check(unscaleAndCheck(grads.tensors, &scales[parity], &foundInf));
          parity ^= 1;
        });
        if (foundInf != 0.0f)
          std::fprintf(stderr, "unexpected inf\n");
        double bytes = 2.0 * kTotalBytes;
        std::printf("| %d | %s | %u | %.1f | %.1f | %.0f%% | %.1f | %.0f%% |\n",
                    count, cpuKernelPathName(path), threads,
                    bytes / unscale / 1e9, bytes / copy / 1e9,
                    100.0 * copy / unscale, bytes / inPlace / 1e9,
                    100.0 * inPlace / unscale);
      }
    }
  }
  setCpuThreadCount(maxThreads);
  check(setCpuKernelPath(CpuKernelPath::Auto));
  std::printf("\n");
}

void benchOptimizers() {
  std::printf("## Optimizer step with loss scaling, 64 MiB of f32 parameters "
              "in 10 tensors, %u threads\n\n",
              cpuThreadCount());
  std::printf("unfused: unscale pass (read + write gradients), then the step; "
              "fused: check pass (read gradients), then a step that "
              "unscales.\n\n");
  std::printf("| optimizer | unfused ms | fused ms | speed-up |\n");
  std::printf("|---|---:|---:|---:|\n");
  for (bool adam : {true, false}) {
    TensorSet params(10, 0.5f), grads(10, 0.25f);
    std::unique_ptr<Optimizer> optimizer;
    if (adam) {
      AdamWOptions options;
      Expected<std::unique_ptr<AdamW>> created =
          AdamW::create(params.tensors, grads.tensors, options);
      check(created.status());
      optimizer = created.take();
    } else {
      SgdOptions options;
      options.lr = 1e-6;
      options.momentum = 0.9;
      Expected<std::unique_ptr<SGD>> created =
          SGD::create(params.tensors, grads.tensors, options);
      check(created.status());
      optimizer = created.take();
    }
    const float scales[2] = {65536.0f, 1.0f / 65536.0f};
    int parity = 0;
    double unfused = medianSeconds(
        [&] {
          float foundInf = 0.0f;
          check(unscaleAndCheck(grads.tensors, &scales[parity], &foundInf));
          check(optimizer->step({nullptr, &foundInf}));
          parity ^= 1;
        },
        9);
    double fused = medianSeconds(
        [&] {
          float foundInf = 0.0f;
          check(checkFinite(grads.tensors, &foundInf));
          check(optimizer->step({&scales[parity], &foundInf}));
          parity ^= 1;
        },
        9);
    std::printf("| %s | %.2f | %.2f | %.2fx |\n",
                adam ? "AdamW" : "SGD (momentum 0.9)", unfused * 1e3,
                fused * 1e3, unfused / fused);
  }
  std::printf("\n");
}

} // namespace

int main() {
  std::printf("# tp-rt-bench: GradScaler runtime\n\n");
  std::printf("CPU: %s; %u threads; AVX-512 %s; default path %s\n\n",
              cpuName().c_str(), cpuThreadCount(),
              cpuSupportsAvx512() ? "yes" : "no",
              cpuKernelPathName(cpuKernelPath()));
  benchUnscale();
  benchOptimizers();
  return 0;
}
