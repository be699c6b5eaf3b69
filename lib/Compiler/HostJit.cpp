//===- HostJit.cpp - LLVM-dialect modules to host objects and back --------===//
//
// Part of tensorplay-autocast. See HostJit.h.
//
//===----------------------------------------------------------------------===//

#include "HostJit.h"

#include "tensorplay/Runtime/Codegen.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tp::detail;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The ORC builder of host target machines, with the JIT's adjustments.
static llvm::Expected<llvm::orc::JITTargetMachineBuilder>
hostBuilder(unsigned optLevel) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  // LLVM 22's x86 type legalization aborts ("Do not know how to soft
  // promote this operator's operand") on loads and stores of bfloat vectors
  // of odd length (<9 x bfloat>) when AVX512-BF16 is on (Cooper Lake,
  // Sapphire Rapids, Zen 4). The generated code expands its bf16
  // conversions into integer arithmetic (tp-expand-bf16, arith-expand), so
  // it uses none of those instructions: turn the feature off.
  builder->getFeatures().AddFeature("avx512bf16", false);
  // TP_JIT_CPU=<LLVM CPU name> (znver3, haswell, ...) compiles for that CPU
  // and its features instead of the host's: benchmarks use it to measure,
  // on a newer machine, the code an older CPU would run (docs/benchmarks.md).
  if (const char *cpu = std::getenv("TP_JIT_CPU"); cpu && *cpu) {
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(builder->getTargetTriple(), error);
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target
            ? target->createMCSubtargetInfo(builder->getTargetTriple(), "", "")
            : nullptr);
    if (!info || !info->isCPUStringValid(cpu))
      return makeError(llvm::Twine("TP_JIT_CPU=") + cpu +
                       " is not a CPU LLVM knows for " +
                       builder->getTargetTriple().str());
    builder->setCPU(cpu);
    builder->getFeatures() = llvm::SubtargetFeatures();
  }
  builder->setCodeGenOptLevel(optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive
                              : optLevel == 0 ? llvm::CodeGenOptLevel::None
                                              : llvm::CodeGenOptLevel::Default);
  return std::move(*builder);
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::tp::detail::createHostTargetMachine(unsigned optLevel) {
  auto builder = hostBuilder(optLevel);
  if (!builder)
    return builder.takeError();
  return builder->createTargetMachine();
}

std::string mlir::tp::detail::describeTarget(const llvm::TargetMachine &tm) {
  return (tm.getTargetTriple().str() + " " + tm.getTargetCPU() + " " +
          tm.getTargetFeatureString())
      .str();
}

/// `tp.packed.<f>(ptr %args)` for each `_mlir_ciface_<f>`: calls it with
/// the arguments whose addresses %args holds (and stores a result through
/// the next address, as mlir::ExecutionEngine's wrappers do).
static void addPackedWrappers(llvm::Module &module) {
  constexpr llvm::StringLiteral ciface = "_mlir_ciface_";
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  std::vector<llvm::Function *> targets;
  for (llvm::Function &fn : module)
    if (!fn.isDeclaration() && fn.getName().starts_with(ciface))
      targets.push_back(&fn);
  for (llvm::Function *fn : targets) {
    auto *wrapper = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
        llvm::GlobalValue::ExternalLinkage,
        kPackedPrefix + fn->getName().drop_front(ciface.size()), module);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", wrapper));
    llvm::Value *args = wrapper->getArg(0);
    auto addressOf = [&](unsigned i) {
      return b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, args, i));
    };
    std::vector<llvm::Value *> operands;
    for (llvm::Argument &arg : fn->args())
      operands.push_back(b.CreateLoad(arg.getType(), addressOf(arg.getArgNo())));
    llvm::Value *result = b.CreateCall(fn, operands);
    if (!fn->getReturnType()->isVoidTy())
      b.CreateStore(result, addressOf(fn->arg_size()));
    b.CreateRetVoid();
  }
}

/// Replaces `llvm.global_<what>s` by a function `name` calling them in
/// priority order (reversed for destructors): an object added to the JIT
/// directly has no platform to run them.
static void gatherStructors(llvm::Module &module, llvm::StringRef what,
                            llvm::StringRef name, bool reversed) {
  llvm::LLVMContext &ctx = module.getContext();
  std::vector<std::pair<uint64_t, llvm::Function *>> calls;
  if (llvm::GlobalVariable *list =
          module.getGlobalVariable(("llvm.global_" + what).str())) {
    if (auto *entries = dyn_cast<llvm::ConstantArray>(list->getInitializer()))
      for (llvm::Value *entry : entries->operands()) {
        auto *fields = cast<llvm::ConstantStruct>(entry);
        auto *priority = cast<llvm::ConstantInt>(fields->getOperand(0));
        if (auto *fn = dyn_cast<llvm::Function>(fields->getOperand(1)))
          calls.push_back({priority->getZExtValue(), fn});
      }
    list->eraseFromParent();
  }
  std::stable_sort(calls.begin(), calls.end(), [](auto &a, auto &b) {
    return a.first < b.first;
  });
  if (reversed)
    std::reverse(calls.begin(), calls.end());
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
      llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  for (auto &[priority, callee] : calls)
    b.CreateCall(callee);
  b.CreateRetVoid();
}

llvm::Expected<std::unique_ptr<llvm::Module>>
mlir::tp::detail::translateForJit(ModuleOp module, llvm::LLVMContext &ctx,
                                  const llvm::TargetMachine &tm) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, ctx);
  if (!llvmModule)
    return makeError("translation to LLVM IR failed");
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());
  addPackedWrappers(*llvmModule);
  gatherStructors(*llvmModule, "ctors", "tp.init", /*reversed=*/false);
  gatherStructors(*llvmModule, "dtors", "tp.fini", /*reversed=*/true);
  return std::move(llvmModule);
}

/// Adds the globals `value` refers to (through constant expressions) to
/// `work`.
static void collectGlobals(const llvm::Value *value,
                           std::vector<const llvm::GlobalValue *> &work,
                           llvm::SmallPtrSetImpl<const llvm::Value *> &seen) {
  if (!seen.insert(value).second)
    return;
  if (auto *global = dyn_cast<llvm::GlobalValue>(value)) {
    work.push_back(global);
    return;
  }
  if (auto *constant = dyn_cast<llvm::Constant>(value))
    for (const llvm::Value *operand : constant->operands())
      collectGlobals(operand, work, seen);
}

std::unique_ptr<llvm::Module>
mlir::tp::detail::extractFunction(const llvm::Module &whole,
                                  llvm::StringRef function) {
  std::string packed = (kPackedPrefix + function).str();
  llvm::StringRef roots[] = {packed, "tp.init", "tp.fini"};
  // What the roots reach: functions they call, globals they read.
  llvm::SmallPtrSet<const llvm::GlobalValue *, 32> reached;
  llvm::SmallPtrSet<const llvm::Value *, 32> seen;
  std::vector<const llvm::GlobalValue *> work;
  for (llvm::StringRef root : roots)
    if (const llvm::GlobalValue *global = whole.getNamedValue(root))
      collectGlobals(global, work, seen);
  while (!work.empty()) {
    const llvm::GlobalValue *global = work.back();
    work.pop_back();
    if (!reached.insert(global).second)
      continue;
    if (auto *fn = dyn_cast<llvm::Function>(global)) {
      for (const llvm::Instruction &inst : llvm::instructions(*fn))
        for (const llvm::Value *operand : inst.operands())
          collectGlobals(operand, work, seen);
    } else if (auto *var = dyn_cast<llvm::GlobalVariable>(global)) {
      if (var->hasInitializer())
        collectGlobals(var->getInitializer(), work, seen);
    }
  }
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> part = llvm::CloneModule(
      whole, map, [&](const llvm::GlobalValue *global) {
        return reached.contains(global);
      });
  // Only the roots are entry points: the rest is this part's own, to be
  // inlined or removed, and never clashes with another part's copy.
  for (llvm::Function &fn : *part)
    if (!fn.isDeclaration() && !llvm::is_contained(roots, fn.getName()))
      fn.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &var : part->globals())
    if (!var.isDeclaration())
      var.setLinkage(llvm::GlobalValue::InternalLinkage);
  return part;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mlir::tp::detail::emitObject(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                             unsigned optLevel, ObjectCompileTimes *times) {
  ObjectCompileTimes local;
  if (!times)
    times = &local;
  auto clock = std::chrono::steady_clock::now();
  auto lap = [&](double &seconds) {
    auto now = std::chrono::steady_clock::now();
    seconds += std::chrono::duration<double>(now - clock).count();
    clock = now;
  };
  auto optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, &tm);
  if (llvm::Error e = optimize(&llvmModule))
    return std::move(e);
  lap(times->optimize);
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return makeError("the host target cannot emit object files");
  codegen.run(llvmModule);
  lap(times->codegen);
  return std::make_unique<llvm::SmallVectorMemoryBuffer>(
      std::move(bytes), "tp-jit.o", /*RequiresNullTerminator=*/false);
}

LoadedObject::~LoadedObject() {
  if (!initialized)
    return;
  if (auto fini = lookup("tp.fini"))
    reinterpret_cast<void (*)()>(*fini)();
  else
    llvm::consumeError(fini.takeError());
}

llvm::Expected<std::unique_ptr<LoadedObject>>
LoadedObject::load(std::unique_ptr<llvm::MemoryBuffer> object) {
  auto builder = hostBuilder(/*optLevel=*/0);
  if (!builder)
    return builder.takeError();
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*builder))
          .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession &es)
                                            -> llvm::Expected<std::unique_ptr<
                                                llvm::orc::ObjectLayer>> {
            return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                es, [](const llvm::MemoryBuffer &) {
                  return std::make_unique<llvm::SectionMemoryManager>();
                });
          })
          .create();
  if (!jit)
    return jit.takeError();
  std::unique_ptr<LoadedObject> loaded(new LoadedObject());
  loaded->jit = std::move(*jit);
  llvm::orc::JITDylib &main = loaded->jit->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      loaded->jit->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  // Conversions to bf16 that x86 code generation calls on CPUs without bf16
  // instructions and that the system's libgcc may lack.
  llvm::orc::SymbolMap symbols;
  symbols[loaded->jit->mangleAndIntern("__truncsfbf2")] =
      llvm::orc::ExecutorSymbolDef::fromPtr(&tp_rt_truncsfbf2);
  symbols[loaded->jit->mangleAndIntern("__truncdfbf2")] =
      llvm::orc::ExecutorSymbolDef::fromPtr(&tp_rt_truncdfbf2);
  if (llvm::Error e = main.define(llvm::orc::absoluteSymbols(symbols)))
    return std::move(e);
  if (llvm::Error e = loaded->jit->addObjectFile(std::move(object)))
    return std::move(e);
  auto init = loaded->lookup("tp.init");
  if (!init)
    return init.takeError();
  reinterpret_cast<void (*)()>(*init)();
  loaded->initialized = true;
  return std::move(loaded);
}

llvm::Expected<void *> LoadedObject::lookup(llvm::StringRef name) {
  auto address = jit->lookup(name);
  if (!address)
    return address.takeError();
  return address->toPtr<void *>();
}

llvm::Expected<void (*)(void **)>
LoadedObject::lookupPacked(llvm::StringRef function) {
  auto address = lookup((kPackedPrefix + function).str());
  if (!address)
    return address.takeError();
  return reinterpret_cast<void (*)(void **)>(*address);
}
