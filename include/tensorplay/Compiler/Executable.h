//===- Executable.h - Compile and run tp functions (CPU, CUDA) -*- C++ -*-===//
//
// Part of the compiler's C++ API (Compiler.h has the stages one by one):
// compile a tp module (optionally through autocast) with tp-lower-to-cpu,
// JIT it for the host CPU (LLVM -O3, host features; the machine
// code generated eagerly, and kept in a CompileCache when one is configured)
// and call its public functions on host tensors. Results are allocated by the
// caller's side (the compiled functions take them as out-parameters).
//
// With ExecutionTarget::CUDA the module is compiled with tp-lower-to-nvvm
// instead: the JIT-compiled host code launches the kernels embedded in it
// (and cuBLASLt) on the GPU runtime's stream; run() on host tensors copies
// them to device buffers and the results back, run() on TensorRefs takes
// device buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_COMPILER_EXECUTABLE_H
#define TENSORPLAY_COMPILER_EXECUTABLE_H

#include "tensorplay/Compiler/CompileCache.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace mlir {
namespace tp {
namespace detail {
class LoadedObject;
struct PendingCode;
} // namespace detail

/// Element types a compiled function can take or return: the rows of
/// ElementTypes.def (C64 and C128 are (real, imaginary) pairs).
enum class ElementKind {
#define TP_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY) KIND,
#include "tensorplay/Runtime/ElementTypes.def"
};

/// Bytes per element.
size_t elementSize(ElementKind kind);
/// MLIR's name of the type: "f32", "bf16", "i64", "i1", "f8E4M3FN", ...
const char *elementKindName(ElementKind kind);
/// Whether `kind` is C64 or C128.
bool isComplexKind(ElementKind kind);
/// The kind of an MLIR element type (std::nullopt for the others).
std::optional<ElementKind> elementKindOf(Type type);
/// The kind named `name` (elementKindName's spelling), if any.
std::optional<ElementKind> elementKindNamed(llvm::StringRef name);
/// tensorplay's dtype name of `kind` ("float32", "float8_e4m3fn", ...).
const char *elementKindDtypeName(ElementKind kind);
/// Every kind, in ElementTypes.def's order.
llvm::ArrayRef<ElementKind> allElementKinds();

/// A dense, row-major host tensor with 64-byte aligned, zeroed storage.
/// Copies share the storage.
class HostTensor {
public:
  HostTensor() = default;
  HostTensor(ElementKind kind, std::vector<int64_t> shape);

  ElementKind kind() const { return elementKind; }
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t numElements() const;
  size_t byteSize() const { return numElements() * elementSize(elementKind); }
  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }
  template <typename T>
  T *as() {
    return static_cast<T *>(data());
  }
  template <typename T>
  const T *as() const {
    return static_cast<const T *>(data());
  }
  /// Element `i` converted to double (bf16/f16 widened exactly); the real
  /// part of a complex element.
  double get(int64_t i) const;
  /// The imaginary part of element `i` (0 for real kinds).
  double getImag(int64_t i) const;
  /// Sets element `i` from a double (rounded to nearest even); a complex
  /// element gets imaginary part `imag`.
  void set(int64_t i, double value, double imag = 0.0);

private:
  ElementKind elementKind = ElementKind::F32;
  std::vector<int64_t> dims;
  std::shared_ptr<uint8_t> storage;
};

struct TensorSpec {
  ElementKind kind;
  std::vector<int64_t> shape;
};

/// A dense, row-major tensor in memory the caller owns (a NumPy array, a
/// tensorplay tensor): how the Python backend passes its inputs and outputs
/// without copies. No alignment is required.
struct TensorRef {
  ElementKind kind;
  llvm::ArrayRef<int64_t> shape;
  void *data;
};

/// The signature of a public function, as seen after autocast. Results
/// that a `tp.donate` attribute gives to an argument (Codegen/CPU/
/// Donation.h) are not results: run() writes them into that argument's
/// tensor, whose index `updatedArguments` lists.
struct FunctionSignature {
  std::string name;
  std::vector<TensorSpec> arguments;
  std::vector<TensorSpec> results;
  std::vector<unsigned> updatedArguments;
};

/// Where the compiled functions compute.
enum class ExecutionTarget {
  /// tp-lower-to-cpu: the host CPU.
  CPU,
  /// tp-lower-to-nvvm: CUDA kernels and cuBLASLt, driven by host code.
  CUDA,
};

struct CompileOptions {
  /// The pipeline and the device the code runs on.
  ExecutionTarget target = ExecutionTarget::CPU;
  /// Run tp-autocast with this target first ("cpu:bf16"); empty: no.
  std::string autocast;
  /// With autocast: cast results back to their original dtypes.
  bool autocastKeepIoTypes = false;
  /// The pipeline's options, e.g. "use-onednn=0 parallel=1" (CPU) or
  /// "chip=sm_80" (CUDA).
  std::string pipelineOptions;
  /// LLVM optimization level of the JIT.
  unsigned optLevel = 3;
  /// The persistent cache of generated code (CompileCache.h); none by
  /// default. CompileCacheConfig::fromEnvironment() gives the user's.
  CompileCacheConfig cache;
  /// Tiered code generation (CPU, optLevel > 0): a function's first call
  /// runs code generated at O0 (a fraction of the time), while a background
  /// thread generates it at optLevel and swaps it in when done. Both tiers
  /// compute the same bits (no fast-math: the optimizations do not change
  /// results); only the final tier is cached.
  bool tiered = false;
};

/// Where an executable's compile time went so far, in seconds (with
/// TP_COMPILE_TIMING=1 it is printed on stderr after the compile and after
/// each function's code is generated). The stages a cache hit skips add 0.
struct CompileTimes {
  /// The cache key: the module's bytecode and its hash.
  double cacheKey = 0;
  /// The tp-lower-to-cpu / tp-lower-to-nvvm pipeline and the translation to
  /// LLVM IR.
  double lower = 0;
  /// LLVM's optimization pipeline and its machine code generation.
  double optimize = 0, codegen = 0;
  /// Reading cached objects and linking objects into the process.
  double load = 0;
  double total() const { return cacheKey + lower + optimize + codegen + load; }
};

class Executable {
public:
  ~Executable();

  /// Lowers `module` (consumed) for the JIT. Diagnostics of the lowering
  /// (e.g. "'tp.fft_fft' op has no CPU lowering") go to the context's
  /// diagnostic handler; the error says which stage failed. The machine
  /// code of a CPU function is generated at its first call (or read from
  /// the compile cache); the module's context must outlive the executable.
  static llvm::Expected<std::unique_ptr<Executable>>
  compile(OwningOpRef<ModuleOp> module, const CompileOptions &options);

  /// The public functions, in module order.
  const std::vector<FunctionSignature> &functions() const { return sigs; }
  /// The signature of `name`, or null.
  const FunctionSignature *lookup(llvm::StringRef name) const;

  /// Calls `name` on `args` (checked against the signature); `results` are
  /// replaced by fresh tensors of the result specs. The arguments in the
  /// signature's `updatedArguments` are updated in place (the caller must
  /// not share their storage with tensors it expects unchanged). Errors
  /// reported by the runtime calls of the compiled code (tp_rt_codegen_error)
  /// are returned.
  llvm::Error run(llvm::StringRef name,
                  const std::vector<const HostTensor *> &args,
                  std::vector<HostTensor> &results);

  /// Calls `name` on caller-owned memory: `args` and `results` must match
  /// the signature's specs (checked) and must not overlap, except that the
  /// arguments in `updatedArguments` are updated in place. The compiled code
  /// writes the results into their buffers. For ExecutionTarget::CUDA
  /// the buffers are device memory, and the call returns once the GPU is
  /// done with them. Several threads may call run at once (each gets its
  /// own runtime errors); GPU calls, which share one stream, are run one
  /// at a time.
  llvm::Error run(llvm::StringRef name, llvm::ArrayRef<TensorRef> args,
                  llvm::ArrayRef<TensorRef> results);

  /// The target the module was compiled for.
  ExecutionTarget target() const { return compiledFor; }

  /// Whether the compile cache knew the module: its lowering was skipped
  /// (it runs later only for a function whose code the cache lacks).
  bool fromCache() const { return cached; }
  /// How many functions' code came from the compile cache so far.
  unsigned functionsCached() const { return functionsFromCache; }

  /// Generates the code of every function now instead of at its first
  /// call.
  llvm::Error generateAll();

  /// Where the compile's time went (background compiles included).
  CompileTimes compileTimes() const;
  /// How many functions' optimized code replaced their first tier so far.
  unsigned functionsOptimizedInBackground() const;
  /// Waits for the background compiles started so far (tiered).
  void waitForBackground();

private:
  using Entry = void (*)(void **);
  Executable();
  /// Lowers the pending module and translates it to LLVM IR.
  llvm::Error lower();
  /// Generates (or takes from the cache) and links the code of function
  /// `index` (of all functions for the GPU).
  llvm::Error generate(size_t index);
  /// Links `object` and publishes the entry of function `index` (of all
  /// functions when `whole`).
  llvm::Error link(std::unique_ptr<llvm::MemoryBuffer> object, size_t index,
                   bool whole);
  /// Starts the second tier of function `index` from its `bitcode`.
  void optimizeInBackground(size_t index, std::string bitcode, std::string key);
  void storeInCache(llvm::StringRef key, llvm::MemoryBufferRef object);
  /// Prints `times` on stderr when TP_COMPILE_TIMING is set.
  void reportTimes(const char *what) const;
  /// run() on host tensors for ExecutionTarget::CUDA: through device
  /// copies.
  llvm::Error runOnDevice(const FunctionSignature &sig,
                          const std::vector<const HostTensor *> &args,
                          std::vector<HostTensor> &results);
  std::unique_ptr<detail::PendingCode> pending;
  std::vector<std::unique_ptr<detail::LoadedObject>> objects;
  std::vector<FunctionSignature> sigs;
  /// The packed entry point of each of `sigs`, null until generated.
  std::unique_ptr<std::atomic<Entry>[]> entries;
  bool cached = false;
  unsigned functionsFromCache = 0;
  CompileTimes times;
  ExecutionTarget compiledFor = ExecutionTarget::CPU;
  unsigned optimizedInBackground = 0;
  /// Guards `objects`, `times`, `optimizedInBackground`, `background`.
  mutable std::mutex stateMutex;
  /// Serializes the background compiles.
  std::mutex backgroundMutex;
  std::vector<std::thread> background;
};

/// An error unless a CUDA device is present (the reason otherwise: no CUDA
/// in this build, no driver, no device).
llvm::Error requireCudaDevice();

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_COMPILER_EXECUTABLE_H
