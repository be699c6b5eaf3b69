//===- GpuCodegenBench.cpp - tp-gpu-bench: the GPU path's figures ---------===//
//
// Prints the figures of docs/benchmarks.md "GPU code generation" (on a
// machine with a CUDA GPU; without one it says why and exits 1):
//
//  1. f16 / bf16 GEMM TFLOP/s of the compiled path (a tp.mm through
//     tp-lower-to-nvvm, timed per call of the compiled function, which ends
//     with a stream synchronization) against cuBLASLt's own figure: the
//     runtime's cuBLASLt wrapper called directly on the same device
//     buffers (the heuristic's first algorithm, f32 accumulation);
//  2. the examples' forward (MLP with its loss, encoder block) and the MLP
//     train step (SGD with momentum; GradScaler under cuda:fp16) compiled
//     f32, --autocast=cuda:fp16 and --autocast=cuda:bf16, on device
//     buffers, interleaved rounds, medians;
//  3. the GradScaler's unscale + inf/NaN check on 64 Mi f32 gradients in
//     GB/s (bytes read and written), against a device-to-device copy of the
//     same bytes.
//
// Usage: tp-gpu-bench [--rounds N] [--examples DIR]
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"

#include "tensorplay/Runtime/CAPI.h"
#include "tensorplay/Runtime/Gpu.h"
#include "tensorplay/Transforms/Passes.h"

#include <cuda_runtime_api.h>

#include <cstring>

using namespace mlir;
using namespace mlir::tp;
using namespace tensorplay::bench;

namespace {

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "tp-gpu-bench: %s\n", message.c_str());
  std::exit(1);
}

void check(tp_rt_status status, const char *what) {
  if (status != TP_RT_SUCCESS)
    die(std::string(what) + ": " + tp_rt_status_string(status) + " " +
        tp_rt_codegen_error());
}

/// Device copies of host tensors, freed at the end.
struct DeviceTensors {
  std::vector<TensorRef> refs;
  std::vector<void *> owned;
  ~DeviceTensors() {
    for (void *p : owned)
      (void)tp_rt_gpu_free(p);
  }
  void add(const HostTensor &t, bool copy) {
    void *p = nullptr;
    check(tp_rt_gpu_alloc(t.byteSize(), &p), "tp_rt_gpu_alloc");
    if (copy)
      check(tp_rt_gpu_copy(p, t.data(), t.byteSize(), 1), "tp_rt_gpu_copy");
    owned.push_back(p);
    refs.push_back({t.kind(), t.shape(), p});
  }
};

/// The arguments and results of `sig` on the device (arguments generated
/// as tp-run --init=fan-in; 0-d tensors, a train step's scale, tracker and
/// step, set to 1 and 0).
struct DeviceCall {
  std::vector<HostTensor> hostArgs, hostResults;
  DeviceTensors args, results;
  DeviceCall(const FunctionSignature &sig, std::mt19937_64 &rng) {
    hostArgs = makeInputs(sig, rng);
    for (HostTensor &t : hostArgs)
      if (t.shape().empty())
        t.set(0, t.kind() == ElementKind::F32 ? 1.0 : 0.0);
    for (const TensorSpec &spec : sig.results)
      hostResults.emplace_back(spec.kind, spec.shape);
    for (const HostTensor &t : hostArgs)
      args.add(t, true);
    for (const HostTensor &t : hostResults)
      results.add(t, false);
  }
  void run(Executable &exe, const std::string &name) {
    if (llvm::Error e = exe.run(name, args.refs, results.refs))
      die(llvm::toString(std::move(e)));
  }
};

CompileOptions cudaOptions(const std::string &autocast) {
  CompileOptions options;
  options.target = ExecutionTarget::CUDA;
  options.autocast = autocast;
  return options;
}

/// Descriptor words of a dense 2-D device matrix (tp_rt_memref layout).
std::vector<int64_t> descriptor2d(void *data, int64_t rows, int64_t cols) {
  return {
      (int64_t)(intptr_t)data, (int64_t)(intptr_t)data, 0, rows, cols, cols, 1};
}

void benchGemm(int64_t m, int64_t k, int64_t n, bool bf16, int rounds) {
  const char *t = bf16 ? "bf16" : "f16";
  auto tensor = [&](int64_t rows, int64_t cols) {
    return "tensor<" + std::to_string(rows) + "x" + std::to_string(cols) + "x" +
           t + ">";
  };
  std::string source = "func.func @mm(%a: " + tensor(m, k) +
                       ", %b: " + tensor(k, n) + ") -> " + tensor(m, n) +
                       " {\n  %c = tp.mm %a, %b : (" + tensor(m, k) + ", " +
                       tensor(k, n) + ") -> " + tensor(m, n) +
                       "\n  return %c : " + tensor(m, n) + "\n}\n";
  auto compiled = compile(source, false, cudaOptions(""));
  std::mt19937_64 rng(11);
  DeviceCall call(*compiled->exe->lookup("mm"), rng);
  std::vector<int64_t> a = descriptor2d(call.args.refs[0].data, m, k),
                       b = descriptor2d(call.args.refs[1].data, k, n),
                       c = descriptor2d(call.results.refs[0].data, m, n),
                       bias = {0, 0, 0, 0, 1};
  auto library = [&] {
    auto *fn =
        bf16 ? tp_rt_cublaslt_matmul_bf16_bf16 : tp_rt_cublaslt_matmul_f16_f16;
    check(fn(2, reinterpret_cast<tp_rt_memref *>(a.data()), 2,
             reinterpret_cast<tp_rt_memref *>(b.data()), 1,
             reinterpret_cast<tp_rt_memref *>(bias.data()), 2,
             reinterpret_cast<tp_rt_memref *>(c.data()), TP_RT_EPILOGUE_NONE),
          "tp_rt_cublaslt_matmul");
    check(tp_rt_gpu_synchronize(), "tp_rt_gpu_synchronize");
  };
  auto ms = interleaved({[&] { call.run(*compiled->exe, "mm"); }, library},
                        rounds, 3);
  double flops = 2.0 * m * n * k;
  std::printf("| %lldx%lldx%lld | %s | %.1f | %.1f | %.0f%% |\n", (long long)m,
              (long long)k, (long long)n, t, flops / ms[0] / 1e9,
              flops / ms[1] / 1e9, 100 * ms[1] / ms[0]);
}

/// f32, cuda:fp16 and cuda:bf16 variants of `fn` in `path`, after
/// `prepare` (e.g. adding a train step), timed interleaved.
void benchVariants(const std::string &label, const std::string &path,
                   const std::string &fn,
                   std::function<void(ModuleOp, bool fp16)> prepare,
                   int rounds) {
  std::vector<std::unique_ptr<Compiled>> compiled;
  std::vector<std::unique_ptr<DeviceCall>> calls;
  for (const char *autocast : {"", "cuda:fp16", "cuda:bf16"}) {
    auto c = std::make_unique<Compiled>();
    OwningOpRef<ModuleOp> module = parseModuleFile(c->context, path);
    if (!module)
      die("cannot parse " + path);
    if (*autocast && failed(autocastModule(*module, autocast)))
      die("autocast failed");
    if (prepare)
      prepare(*module, std::strcmp(autocast, "cuda:fp16") == 0);
    auto exe = Executable::compile(std::move(module), cudaOptions(""));
    if (!exe)
      die(llvm::toString(exe.takeError()));
    c->exe = std::move(*exe);
    std::mt19937_64 rng(7);
    calls.push_back(std::make_unique<DeviceCall>(*c->exe->lookup(fn), rng));
    compiled.push_back(std::move(c));
  }
  std::vector<std::function<void()>> variants;
  for (size_t i = 0; i < calls.size(); ++i)
    variants.push_back([&, i] { calls[i]->run(*compiled[i]->exe, fn); });
  auto ms = interleaved(variants, rounds, 3);
  std::printf("| %s | %.3f | %.3f | %.3f | %.2fx | %.2fx |\n", label.c_str(),
              ms[0], ms[1], ms[2], ms[0] / ms[1], ms[0] / ms[2]);
}

void benchUnscale(int rounds) {
  const int64_t n = int64_t(64) << 20;
  void *grads = nullptr, *copy = nullptr, *scalars = nullptr;
  check(tp_rt_gpu_alloc(n * 4, &grads), "tp_rt_gpu_alloc");
  check(tp_rt_gpu_alloc(n * 4, &copy), "tp_rt_gpu_alloc");
  check(tp_rt_gpu_alloc(8, &scalars), "tp_rt_gpu_alloc");
  if (cudaMemset(grads, 0, n * 4) != cudaSuccess)
    die("cudaMemset failed");
  float hostScalars[2] = {1.0f, 0.0f}; // scale, found_inf
  check(tp_rt_gpu_copy(scalars, hostScalars, 8, 1), "tp_rt_gpu_copy");
  check(tp_rt_cuda_set_stream(tp_rt_gpu_stream()), "tp_rt_cuda_set_stream");
  tp_rt_buffer buffer = {grads, n, TP_RT_F32, TP_RT_CUDA};
  float *scale = static_cast<float *>(scalars), *foundInf = scale + 1;
  auto ms = interleaved(
      {[&] {
         check(tp_rt_unscale_and_check(&buffer, 1, scale, foundInf),
               "tp_rt_unscale_and_check");
         check(tp_rt_gpu_synchronize(), "tp_rt_gpu_synchronize");
       },
       [&] {
         if (cudaMemcpyAsync(copy, grads, n * 4, cudaMemcpyDeviceToDevice,
                             static_cast<cudaStream_t>(tp_rt_gpu_stream())) !=
             cudaSuccess)
           die("cudaMemcpyAsync failed");
         check(tp_rt_gpu_synchronize(), "tp_rt_gpu_synchronize");
       }},
      rounds, 3);
  double bytes = 2.0 * n * 4; // read and write
  std::printf("| unscale + check, 64 Mi f32 | %.0f | %.0f | %.0f%% |\n",
              bytes / ms[0] / 1e6, bytes / ms[1] / 1e6, 100 * ms[1] / ms[0]);
  (void)tp_rt_gpu_free(grads);
  (void)tp_rt_gpu_free(copy);
  (void)tp_rt_gpu_free(scalars);
}

} // namespace

int main(int argc, char **argv) {
  BenchArgs args;
  args.examples = TENSORPLAY_EXAMPLES_DIR;
  if (!parseBenchArgs(argc, argv, "tp-gpu-bench", false, args))
    return 2;
  int rounds = args.rounds;
  const std::string &examples = args.examples;
  if (llvm::Error e = requireCudaDevice())
    die(llvm::toString(std::move(e)));
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    std::printf("device: %s (sm_%d%d), %d rounds, medians\n\n", prop.name,
                prop.major, prop.minor, rounds);

  std::printf("## GEMM: compiled tp.mm vs cuBLASLt's own figure\n\n"
              "| MxKxN | dtype | compiled TFLOP/s | cuBLASLt TFLOP/s | "
              "compiled of cuBLASLt |\n|---|---|---:|---:|---:|\n");
  for (bool bf16 : {false, true}) {
    benchGemm(4096, 4096, 4096, bf16, rounds);
    benchGemm(8192, 8192, 8192, bf16, rounds);
    benchGemm(256, 1024, 1024, bf16, rounds);
    benchGemm(1024, 1024, 4096, bf16, rounds);
  }

  std::printf("\n## Examples: f32 vs --autocast=cuda:fp16 vs cuda:bf16 "
              "(ms per call)\n\n| program | f32 | fp16 | bf16 | fp16 "
              "speed-up | bf16 speed-up |\n|---|---:|---:|---:|---:|---:|\n");
  benchVariants("MLP forward + loss (batch 256)", examples + "/mlp.mlir",
                "mlp_loss", nullptr, rounds);
  benchVariants("encoder block forward (8 x 128 x 512)",
                examples + "/encoder_block.mlir", "encoder_block", nullptr,
                rounds);
  benchVariants(
      "MLP train step (SGD momentum; fp16 with GradScaler)",
      examples + "/mlp.mlir", "mlp_loss_train_step",
      [](ModuleOp module, bool fp16) {
        TrainStepPassOptions options;
        options.numInputs = 2;
        options.optimizer = "sgd";
        options.lr = 0.01;
        options.momentum = 0.9;
        options.gradScaler = fp16;
        if (failed(trainStepModule(module, options)))
          die("tp-train-step failed");
      },
      rounds);

  std::printf("\n## GradScaler kernels vs a device-to-device copy (GB/s)\n\n"
              "| kernel | GB/s | copy GB/s | of the copy |\n"
              "|---|---:|---:|---:|\n");
  benchUnscale(rounds);
  return 0;
}
