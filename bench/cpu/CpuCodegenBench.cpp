//===- CpuCodegenBench.cpp - tp-cpu-bench: compiled f32 vs bf16 -----------===//
//
// Prints the figures of docs/benchmarks.md "CPU code generation":
//
//  1. the shipped examples (MLP with its loss, encoder block forward),
//     compiled f32 and compiled --autocast=cpu:bf16, side by side: rounds
//     of (f32, bf16) runs interleaved, median per variant, ratio; once with
//     single alternating calls, once with blocks of calls per variant;
//  2. matmul GFLOP/s of the compiled path (a tp.mm through tp-lower-to-cpu,
//     oneDNN and linalg backends) against oneDNN's own figure for the same
//     shape (a dnnl::matmul primitive timed directly).
//
// Usage: tp-cpu-bench [--rounds N] [--examples DIR] [--examples-only]
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"
#include "tensorplay/HostIO/Generate.h"

#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"
#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Pipelines/CPUPipeline.h"

#include "mlir/IR/MLIRContext.h"

#if TENSORPLAY_BENCH_ONEDNN
#include <dnnl.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::tp;
using namespace tensorplay::bench;

namespace {

void benchExample(const std::string &dir, const std::string &file,
                  const std::string &fn, const char *label, int rounds) {
  std::string path = dir + "/" + file;
  CompileOptions f32Options, bf16Options;
  bf16Options.autocast = "cpu:bf16";
  auto f32 = compile(path, true, f32Options);
  auto bf16 = compile(path, true, bf16Options);
  std::mt19937_64 rng(7);
  std::vector<HostTensor> inputs = makeInputs(*f32->exe->lookup(fn), rng);
  std::vector<HostTensor> r1, r2;
  std::vector<std::function<void()>> variants = {
      [&] { runOrDie(*f32->exe, fn, inputs, r1); },
      [&] { runOrDie(*bf16->exe, fn, inputs, r2); }};
  // Strictly alternating calls (each call finds the caches as the other
  // variant left them), then blocks of 4 calls per variant (the timed call
  // finds them as its own previous call left them).
  auto cold = interleaved(variants, rounds, 3);
  auto warm = interleaved(variants, rounds, 3, 4);
  std::printf("| %s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx |\n", label,
              cold[0], cold[1], cold[0] / cold[1], warm[0], warm[1],
              warm[0] / warm[1]);
}

#if TENSORPLAY_BENCH_ONEDNN
/// oneDNN's own figure: a matmul primitive with the same plain layouts,
/// created once, executed `rounds` times; median ms.
double dnnlMatmulMs(int64_t m, int64_t k, int64_t n, bool bf16, int rounds) {
  using dt = dnnl::memory::data_type;
  dt type = bf16 ? dt::bf16 : dt::f32;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  dnnl::memory::desc a({m, k}, type, dnnl::memory::format_tag::ab);
  dnnl::memory::desc b({k, n}, type, dnnl::memory::format_tag::ab);
  dnnl::memory::desc c({m, n}, type, dnnl::memory::format_tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), engine);
  dnnl::matmul mm(pd);
  dnnl::memory ma(a, engine), mb(b, engine), mc(c, engine);
  std::memset(ma.get_data_handle(), 0, a.get_size());
  std::memset(mb.get_data_handle(), 0, b.get_size());
  std::vector<double> t;
  for (int r = 0; r < rounds + 3; ++r) {
    double t0 = now();
    mm.execute(
        stream,
        {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    stream.wait();
    if (r >= 3)
      t.push_back(now() - t0);
  }
  return median(t);
}
#endif

void benchMatmul(int64_t m, int64_t k, int64_t n, int rounds) {
  char src[1024];
  const char *types[] = {"f32", "bf16"};
  for (int b = 0; b < 2; ++b) {
    const char *ty = types[b];
    std::snprintf(src, sizeof(src),
                  "func.func @mm(%%a: tensor<%ldx%ldx%s>, %%b: "
                  "tensor<%ldx%ldx%s>) -> tensor<%ldx%ldx%s> {\n"
                  "  %%r = tp.mm %%a, %%b : (tensor<%ldx%ldx%s>, "
                  "tensor<%ldx%ldx%s>) -> tensor<%ldx%ldx%s>\n"
                  "  return %%r : tensor<%ldx%ldx%s>\n}\n",
                  (long)m, (long)k, ty, (long)k, (long)n, ty, (long)m, (long)n,
                  ty, (long)m, (long)k, ty, (long)k, (long)n, ty, (long)m,
                  (long)n, ty, (long)m, (long)n, ty);
    double flops = 2.0 * m * n * k;
    std::vector<std::unique_ptr<Compiled>> exes;
    std::vector<const char *> names;
    if (cpuLoweringHasOneDNN()) {
      exes.push_back(compile(src, false, {}));
      names.push_back("compiled (oneDNN call)");
    }
    CompileOptions linalgOptions;
    linalgOptions.pipelineOptions = "use-onednn=0";
    exes.push_back(compile(src, false, linalgOptions));
    names.push_back("compiled (tiled linalg)");
    std::mt19937_64 rng(3);
    std::vector<HostTensor> inputs =
        makeInputs(*exes[0]->exe->lookup("mm"), rng);
    std::vector<std::vector<HostTensor>> results(exes.size());
    std::vector<std::function<void()>> variants;
    for (size_t i = 0; i < exes.size(); ++i)
      variants.push_back(
          [&, i] { runOrDie(*exes[i]->exe, "mm", inputs, results[i]); });
    std::vector<double> ms = interleaved(variants, rounds, 3);
    double reference = 0;
#if TENSORPLAY_BENCH_ONEDNN
    reference = dnnlMatmulMs(m, k, n, b == 1, rounds);
#endif
    for (size_t i = 0; i < exes.size(); ++i)
      std::printf(
          "| %ldx%ldx%ld | %s | %s | %.1f | %s |\n", (long)m, (long)k, (long)n,
          ty, names[i], flops / ms[i] / 1e6,
          reference > 0
              ? (std::to_string((int)std::lround(100.0 * reference / ms[i])) +
                 "%")
                    .c_str()
              : "-");
    if (reference > 0)
      std::printf("| %ldx%ldx%ld | %s | oneDNN primitive | %.1f | 100%% |\n",
                  (long)m, (long)k, (long)n, ty, flops / reference / 1e6);
  }
}

} // namespace

int main(int argc, char **argv) {
  BenchArgs args;
  args.examples = TENSORPLAY_EXAMPLES_DIR;
  if (!parseBenchArgs(argc, argv, "tp-cpu-bench", true, args))
    return 2;
  int rounds = args.rounds;
  bool examplesOnly = args.examplesOnly;
  const std::string &examples = args.examples;
  std::printf("## Examples: compiled f32 vs compiled --autocast=cpu:bf16 "
              "(median of %d interleaved rounds)\n\n",
              rounds);
  std::printf("alternating: f32 and bf16 calls take turns; repeated: each "
              "timed call follows 3 calls of the same variant\n\n");
  std::printf("| example | alternating f32 ms | bf16 ms | speed-up | "
              "repeated f32 ms | bf16 ms | speed-up |\n"
              "|---|---:|---:|---:|---:|---:|---:|\n");
  benchExample(
      examples, "mlp.mlir", "mlp_loss",
      "MLP (4 x Linear 1024 + GELU, Linear 10, cross entropy; batch 256)",
      rounds);
  benchExample(examples, "encoder_block.mlir", "encoder_block",
               "encoder block forward (8 x 128 x 512, 8 heads, FFN 2048)",
               rounds);
  if (examplesOnly)
    return 0;
  std::printf("\n## Matmul GFLOP/s: compiled path vs oneDNN's own figure\n\n");
  std::printf("| MxKxN | dtype | path | GFLOP/s | of oneDNN |\n"
              "|---|---|---|---:|---:|\n");
  benchMatmul(1024, 1024, 1024, rounds);
  benchMatmul(256, 1024, 1024, rounds);
  benchMatmul(1024, 512, 2048, rounds);
  return 0;
}
