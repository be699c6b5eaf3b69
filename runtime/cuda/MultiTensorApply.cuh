//===- MultiTensorApply.cuh - One launch over many tensors ------*- C++ -*-===//
//
// The multi-tensor apply scheme of apex / torch: the tensors of Depth
// parallel lists are cut into chunks of kChunkSize elements, one thread block
// per chunk, and the addresses, sizes and block -> (tensor, chunk) map travel
// in the kernel's parameters (under 4 KiB), so a launch needs no host-to-
// device copy and many small tensors cost one launch.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CUDA_MULTITENSORAPPLY_CUH
#define TENSORPLAY_RUNTIME_CUDA_MULTITENSORAPPLY_CUH

#include "cuda/CudaUtils.h"

#include <climits>
#include <cstdint>
#include <string>

namespace tensorplay::amp::cuda {

constexpr int kChunkSize = 65536;
constexpr int kBlockSize = 512;
constexpr int kMaxBlocks = 320;

/// Tensors per launch by list depth, keeping the parameters under 4 KiB.
template <int Depth>
struct MaxTensors;
template <>
struct MaxTensors<1> {
  static constexpr int value = 110;
};
template <>
struct MaxTensors<2> {
  static constexpr int value = 64;
};
template <>
struct MaxTensors<3> {
  static constexpr int value = 48;
};
template <>
struct MaxTensors<4> {
  static constexpr int value = 36;
};
template <>
struct MaxTensors<5> {
  static constexpr int value = 30;
};

template <int Depth>
struct TensorListMeta {
  void *addresses[Depth][MaxTensors<Depth>::value];
  int64_t sizes[MaxTensors<Depth>::value];
  unsigned char blockToTensor[kMaxBlocks];
  int blockToChunk[kMaxBlocks];
};

/// The chunk of list `list` that block blockIdx.x works on.
template <typename T>
struct Chunk {
  T *data;
  int64_t size;
};

template <typename T, int Depth>
__device__ inline Chunk<T> chunkOf(const TensorListMeta<Depth> &meta,
                                   int list) {
  int tensor = meta.blockToTensor[blockIdx.x];
  int64_t start =
      static_cast<int64_t>(meta.blockToChunk[blockIdx.x]) * kChunkSize;
  int64_t left = meta.sizes[tensor] - start;
  return {static_cast<T *>(meta.addresses[list][tensor]) + start,
          left < kChunkSize ? left : kChunkSize};
}

template <int Depth, typename Functor, typename... Args>
__global__ void __launch_bounds__(kBlockSize)
    multiTensorKernel(TensorListMeta<Depth> meta, Functor functor,
                      Args... args) {
  functor(meta, args...);
}

/// Runs functor(meta, args...) in one block per chunk of the tensors of
/// `lists` (all of equal length, tensor i of every list of equal numel), in
/// as many launches as the parameter space requires, on the runtime stream.
template <int Depth, typename Functor, typename... Args>
Status multiTensorApply(const TensorList (&lists)[Depth], Functor functor,
                        Args... args) {
  // Chunk indices travel as ints: refuse (before launching anything) a
  // tensor with more chunks than that.
  constexpr int64_t maxNumel = static_cast<int64_t>(INT_MAX) * kChunkSize;
  for (size_t t = 0; t < lists[0].size(); ++t)
    if (lists[0][t].numel > maxNumel)
      return Status(StatusCode::InvalidArgument,
                    "tensor " + std::to_string(t) + " has " +
                        std::to_string(lists[0][t].numel) +
                        " elements; a CUDA launch takes at most " +
                        std::to_string(maxNumel));
  TensorListMeta<Depth> meta;
  constexpr int maxTensors = MaxTensors<Depth>::value;
  int tensors = 0;
  int blocks = 0;
  auto launch = [&]() -> Status {
    multiTensorKernel<Depth>
        <<<blocks, kBlockSize, 0, currentStream()>>>(meta, functor, args...);
    return checkLaunch("multiTensorKernel");
  };
  for (size_t t = 0; t < lists[0].size(); ++t) {
    int64_t numel = lists[0][t].numel;
    if (numel == 0)
      continue;
    for (int d = 0; d < Depth; ++d)
      meta.addresses[d][tensors] = lists[d][t].data;
    meta.sizes[tensors] = numel;
    ++tensors;
    int64_t chunks = (numel + kChunkSize - 1) / kChunkSize;
    for (int64_t c = 0; c < chunks; ++c) {
      meta.blockToTensor[blocks] = static_cast<unsigned char>(tensors - 1);
      meta.blockToChunk[blocks] = static_cast<int>(c);
      ++blocks;
      bool lastChunk = c == chunks - 1;
      if (blocks < kMaxBlocks && !(tensors == maxTensors && lastChunk))
        continue;
      TP_RT_RETURN_IF_ERROR(launch());
      blocks = 0;
      if (lastChunk) {
        tensors = 0;
      } else {
        // The current tensor continues in the next launch, in slot 0.
        for (int d = 0; d < Depth; ++d)
          meta.addresses[d][0] = meta.addresses[d][tensors - 1];
        meta.sizes[0] = meta.sizes[tensors - 1];
        tensors = 1;
      }
    }
  }
  if (blocks > 0)
    TP_RT_RETURN_IF_ERROR(launch());
  return Status::success();
}

} // namespace tensorplay::amp::cuda

#endif // TENSORPLAY_RUNTIME_CUDA_MULTITENSORAPPLY_CUH
