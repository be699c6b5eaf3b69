//===- GpuCodegenTest.cpp - The GPU runtime and ExecutionTarget::CUDA -----===//
//
// What can be checked without a GPU runs everywhere: the reason given for a
// missing device, the cuBLASLt wrapper's argument checks (made before any
// CUDA call), the error slot's stickiness after a failed launch, and that a
// module compiles and JIT-links for the GPU. With a CUDA device, compiled
// GPU code is compared with the CPU's on the same inputs; elsewhere those
// tests are skipped, with the reason.
//
//===----------------------------------------------------------------------===//

#include "MemrefDescriptors.h"

#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"
#include "tensorplay/Runtime/Gpu.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>

using namespace mlir;
using namespace mlir::tp;
using namespace tensorplay::test;

namespace {

/// Skips the test unless a CUDA device is present.
#define REQUIRE_CUDA_DEVICE()                                                  \
  do {                                                                         \
    const char *reason = "";                                                   \
    if (tp_rt_gpu_device_count(&reason) == 0)                                  \
      GTEST_SKIP() << "no CUDA device: " << reason;                            \
  } while (false)

const char *kModule = R"(
func.func @head(%x: tensor<16x32xf32>, %w: tensor<8x32xf32>,
                %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %h = tp.linear %x, %w bias(%b) : (tensor<16x32xf32>, tensor<8x32xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  %r = tp.relu %h : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = tp.softmax %r {dim = 1 : i64} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}
)";

std::unique_ptr<Executable> compileFor(MLIRContext &ctx, ExecutionTarget target,
                                       const std::string &autocast = "") {
  OwningOpRef<ModuleOp> module = parseModuleString(ctx, kModule);
  if (!module)
    return nullptr;
  CompileOptions options;
  options.target = target;
  options.autocast = autocast;
  auto exe = Executable::compile(std::move(module), options);
  if (!exe) {
    ADD_FAILURE() << llvm::toString(exe.takeError());
    return nullptr;
  }
  return std::move(*exe);
}

std::vector<HostTensor> inputs() {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<HostTensor> in = {HostTensor(ElementKind::F32, {16, 32}),
                                HostTensor(ElementKind::F32, {8, 32}),
                                HostTensor(ElementKind::F32, {8})};
  for (HostTensor &t : in)
    for (int64_t i = 0; i < t.numElements(); ++i)
      t.set(i, u(rng));
  return in;
}

} // namespace

TEST(GpuRuntime, SaysWhyThereIsNoDevice) {
  const char *reason = nullptr;
  int32_t count = tp_rt_gpu_device_count(&reason);
  ASSERT_NE(reason, nullptr);
  if (count == 0)
    EXPECT_GT(std::strlen(reason), 10u) << "no reason given";
  else
    EXPECT_STREQ(reason, "");
  // With no device, the compiler API refuses to run, with the reason.
  llvm::Error e = requireCudaDevice();
  if (count == 0) {
    std::string message = llvm::toString(std::move(e));
    EXPECT_NE(message.find("no CUDA device is available: "), std::string::npos)
        << message;
    EXPECT_NE(message.find(reason), std::string::npos) << message;
  } else {
    EXPECT_FALSE(bool(e));
    llvm::consumeError(std::move(e));
  }
}

#if TENSORPLAY_TEST_CUDA
TEST(GpuRuntime, CublasLtChecksItsArgumentsBeforeTheDevice) {
  float a[6], b[6], c[4];
  Desc2 da{a, a, 0, {2, 3}, {3, 1}}, db{b, b, 0, {2, 3}, {3, 1}},
      dc{c, c, 0, {2, 2}, {2, 1}};
  Desc1 none{a, a, 0, 0, 1};
  tp_rt_codegen_clear_error();
  // B is 2 x 3 where A (2 x 3) needs 3 x N.
  EXPECT_EQ(tp_rt_cublaslt_matmul_f32_f32(2, memref(&da), 2, memref(&db), 1,
                                          memref(&none), 2, memref(&dc),
                                          TP_RT_EPILOGUE_NONE),
            TP_RT_ERROR_SIZE_MISMATCH);
  EXPECT_NE(std::string(tp_rt_codegen_error()).find("operand shapes"),
            std::string::npos)
      << tp_rt_codegen_error();
  // While an error is recorded, calls do nothing (a later kernel never
  // runs on the garbage of a failed one).
  Desc2 ok{b, b, 0, {3, 2}, {2, 1}};
  EXPECT_EQ(tp_rt_cublaslt_matmul_f32_f32(2, memref(&da), 2, memref(&ok), 1,
                                          memref(&none), 2, memref(&dc),
                                          TP_RT_EPILOGUE_NONE),
            TP_RT_ERROR_INVALID_STATE);
  tp_rt_codegen_clear_error();
  // erf-GELU is no cuBLASLt epilogue.
  EXPECT_EQ(tp_rt_cublaslt_matmul_f32_f32(2, memref(&da), 2, memref(&ok), 1,
                                          memref(&none), 2, memref(&dc),
                                          TP_RT_EPILOGUE_GELU_ERF),
            TP_RT_ERROR_INVALID_ARGUMENT);
  tp_rt_codegen_clear_error();
  // A bias of the wrong length.
  Desc1 bias{a, a, 0, 3, 1};
  EXPECT_EQ(tp_rt_cublaslt_matmul_f32_f32(2, memref(&da), 2, memref(&ok), 1,
                                          memref(&bias), 2, memref(&dc),
                                          TP_RT_EPILOGUE_NONE),
            TP_RT_ERROR_SIZE_MISMATCH);
  tp_rt_codegen_clear_error();
}

TEST(GpuRuntime, AFailedLaunchIsRecordedOnceAndStopsLaterWork) {
  tp_rt_codegen_clear_error();
  mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  std::string first = tp_rt_codegen_error();
  EXPECT_NE(first.find("did not load"), std::string::npos) << first;
  EXPECT_EQ(mgpuMemAlloc(64, nullptr, false), nullptr);
  EXPECT_EQ(first, tp_rt_codegen_error());
  tp_rt_codegen_clear_error();
}
#endif // TENSORPLAY_TEST_CUDA

TEST(GpuExecutable, CompilesAndLinksWithoutRunningWhereThereIsNoDevice) {
  MLIRContext ctx;
  auto exe = compileFor(ctx, ExecutionTarget::CUDA, "cuda:fp16");
  ASSERT_TRUE(exe);
  EXPECT_EQ(exe->target(), ExecutionTarget::CUDA);
  ASSERT_NE(exe->lookup("head"), nullptr);
  if (tp_rt_gpu_device_count(nullptr) > 0)
    return;
  std::vector<HostTensor> in = inputs(), out;
  std::vector<const HostTensor *> args = {&in[0], &in[1], &in[2]};
  llvm::Error e = exe->run("head", args, out);
  std::string message = llvm::toString(std::move(e));
  EXPECT_NE(message.find("no CUDA device is available"), std::string::npos)
      << message;
}

TEST(GpuExecutable, MatchesTheCpuInF32AndUnderAutocast) {
  REQUIRE_CUDA_DEVICE();
  MLIRContext ctx;
  auto cpu = compileFor(ctx, ExecutionTarget::CPU);
  ASSERT_TRUE(cpu);
  std::vector<HostTensor> in = inputs(), expected;
  std::vector<const HostTensor *> args = {&in[0], &in[1], &in[2]};
  ASSERT_FALSE(bool(cpu->run("head", args, expected)));
  for (const char *autocast : {"", "cuda:fp16", "cuda:bf16"}) {
    auto gpu = compileFor(ctx, ExecutionTarget::CUDA, autocast);
    ASSERT_TRUE(gpu);
    std::vector<HostTensor> got;
    llvm::Error e = gpu->run("head", args, got);
    ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
    ASSERT_EQ(got.size(), 1u);
    // f32: accumulation order only; f16/bf16: the rounded product.
    double tol = *autocast == 0                  ? 1e-5
                 : std::strstr(autocast, "bf16") ? 3e-2
                                                 : 4e-3;
    for (int64_t i = 0; i < expected[0].numElements(); ++i)
      ASSERT_NEAR(got[0].get(i), expected[0].get(i), tol)
          << autocast << " element " << i;
  }
}
