//===- GradScalerBench.cpp - Unscale + check and optimizer throughput -----===//
//
// Prints, in one run:
//  - the CPU unscale + inf/NaN check over 64 MiB of f32 gradients split into
//    1, 10 and 1000 tensors, per kernel path and thread count, next to a
//    plain copy of the same bytes over the same threads (the bandwidth roof)
//    and their ratio;
//  - a fused optimizer step (check pass + step that unscales and writes the
//    gradients back) against the unfused unscale-then-step, for AdamW and
//    SGD with momentum.
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

/// Median wall times, in seconds, of each of `fns`, run interleaved (one
/// run of each per round, after warm-up rounds) so that a slow phase of a
/// shared machine affects them all alike.
std::vector<double>
interleavedMedians(const std::vector<std::function<void()>> &fns,
                   int rounds = 21) {
  for (int i = 0; i < 3; ++i)
    for (const auto &fn : fns)
      fn();
  std::vector<std::vector<double>> times(fns.size());
  for (int round = 0; round < rounds; ++round)
    for (size_t k = 0; k < fns.size(); ++k) {
      auto start = std::chrono::steady_clock::now();
      fns[k]();
      auto end = std::chrono::steady_clock::now();
      times[k].push_back(std::chrono::duration<double>(end - start).count());
    }
  std::vector<double> medians;
  for (std::vector<double> &t : times) {
    std::sort(t.begin(), t.end());
    medians.push_back(t[t.size() / 2]);
  }
  return medians;
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
      auto copy = [&] {
        cpu::forEachRange(source.tensors, [&](const cpu::Range &r) {
          std::memcpy(target.tensors[r.tensor].as<float>() + r.begin,
                      source.tensors[r.tensor].as<float>() + r.begin,
                      static_cast<size_t>(r.end - r.begin) * 4);
        });
      };
      // The same traffic as the unscale, without the check. Factors and
      // scales alternate between 2^16 and 2^-16 so that the values stay put.
      const float factors[2] = {65536.0f, 1.0f / 65536.0f};
      int flip = 0;
      auto inPlace = [&] {
        const float factor = factors[flip];
        cpu::forEachRange(grads.tensors, [&](const cpu::Range &r) {
          float *data = grads.tensors[r.tensor].as<float>();
          for (int64_t i = r.begin; i < r.end; ++i)
            data[i] *= factor;
        });
        flip ^= 1;
      };
      float foundInf = 0.0f;
      std::vector<int> parity(paths.size(), 0);
      std::vector<std::function<void()>> fns = {copy, inPlace};
      for (size_t k = 0; k < paths.size(); ++k)
        fns.push_back([&, k] {
          check(setCpuKernelPath(paths[k]));
          check(unscaleAndCheck(grads.tensors, &factors[parity[k]], &foundInf));
          parity[k] ^= 1;
        });
      std::vector<double> t = interleavedMedians(fns);
      if (foundInf != 0.0f)
        std::fprintf(stderr, "unexpected inf\n");
      const double bytes = 2.0 * kTotalBytes;
      for (size_t k = 0; k < paths.size(); ++k) {
        double unscale = t[2 + k];
        std::printf("| %d | %s | %u | %.1f | %.1f | %.0f%% | %.1f | %.0f%% |\n",
                    count, cpuKernelPathName(paths[k]), threads,
                    bytes / unscale / 1e9, bytes / t[0] / 1e9,
                    100.0 * t[0] / unscale, bytes / t[1] / 1e9,
                    100.0 * t[1] / unscale);
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
              "unscales and writes the unscaled gradients back.\n\n");
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
    std::vector<double> t = interleavedMedians(
        {[&] {
           float foundInf = 0.0f;
           check(unscaleAndCheck(grads.tensors, &scales[parity], &foundInf));
           check(optimizer->step({nullptr, &foundInf}));
           parity ^= 1;
         },
         [&] {
           float foundInf = 0.0f;
           check(checkFinite(grads.tensors, &foundInf));
           check(optimizer->step({&scales[parity], &foundInf}));
         }},
        15);
    double unfused = t[0], fused = t[1];
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
