//===- PolicyTablesTest.cpp - The policy tables against the seed ----------===//
//
// Parses the seed document (docs/tensorplay-amp.md, a copy of the
// tensorplay.amp documentation) independently of the C++ tables and checks
// that each of the nine transcribed lists has the seed's count and names,
// in order, and that the derived per-device policies answer accordingly.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Policy/AutocastPolicy.h"

#include "gtest/gtest.h"

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace mlir::tp;

namespace {

/// The op-name lists of the seed, by "####" heading.
std::map<std::string, std::vector<std::string>> parseSeed() {
  std::ifstream in(TENSORPLAY_SEED_DOC);
  EXPECT_TRUE(in.good()) << "cannot open " << TENSORPLAY_SEED_DOC;
  std::map<std::string, std::vector<std::string>> lists;
  std::string line, heading;
  const std::regex name(R"(^([A-Za-z_][A-Za-z_0-9]*),?$)");
  while (std::getline(in, line)) {
    if (line.rfind("#### ", 0) == 0) {
      heading = line.substr(5);
      continue;
    }
    if (line.rfind("#", 0) == 0) {
      heading.clear();
      continue;
    }
    std::smatch m;
    if (!heading.empty() && std::regex_match(line, m, name))
      lists[heading].push_back(m[1]);
  }
  return lists;
}

TEST(PolicyTables, NineListsMatchTheSeed) {
  auto seed = parseSeed();
  // The tables of the seed that hold op lists (the BCE note holds none).
  seed.erase("Prefer binary_cross_entropy_with_logits over "
             "binary_cross_entropy");
  ASSERT_EQ(seed.size(), 9u);
  ASSERT_EQ(getSeedTables().size(), 9u);
  for (const SeedTable &table : getSeedTables()) {
    auto it = seed.find(table.title.str());
    ASSERT_NE(it, seed.end()) << "no seed table titled " << table.title.str();
    const std::vector<std::string> &expected = it->second;
    ASSERT_EQ(table.names.size(), expected.size()) << table.title.str();
    for (size_t i = 0; i < expected.size(); ++i)
      EXPECT_EQ(table.names[i], expected[i])
          << table.title.str() << " entry " << i;
  }
}

TEST(PolicyTables, CountsOfEachList) {
  // Counts read off the seed by hand (the CPU fp32 list names inverse twice).
  std::map<std::pair<Device, PolicyList>, size_t> counts = {
      {{Device::Cuda, PolicyList::LowerPrecision}, 23},
      {{Device::Cuda, PolicyList::Fp32}, 51},
      {{Device::Cuda, PolicyList::Promote}, 10},
      {{Device::Xpu, PolicyList::LowerPrecision}, 21},
      {{Device::Xpu, PolicyList::Fp32}, 29},
      {{Device::Xpu, PolicyList::Promote}, 6},
      {{Device::Cpu, PolicyList::LowerPrecision}, 20},
      {{Device::Cpu, PolicyList::Fp32}, 89},
      {{Device::Cpu, PolicyList::Promote}, 3},
  };
  for (const SeedTable &table : getSeedTables())
    EXPECT_EQ(table.names.size(), (counts[{table.device, table.list}]))
        << table.title.str();
}

TEST(PolicyTables, EveryDistinctNameIs164Ops) {
  std::set<std::string> ops;
  for (const SeedTable &table : getSeedTables())
    for (const char *name : table.names)
      ops.insert(seedNameToOpName(name));
  ops.insert("binary_cross_entropy");
  EXPECT_EQ(ops.size(), 164u);
}

TEST(PolicyTables, SpellingRules) {
  EXPECT_EQ(seedNameToOpName("__matmul__"), "matmul");
  EXPECT_EQ(seedNameToOpName("__pow__"), "pow");
  EXPECT_EQ(seedNameToOpName("__rdiv__"), "rdiv");
  EXPECT_EQ(seedNameToOpName("__rpow__"), "rpow");
  EXPECT_EQ(seedNameToOpName("__rtruediv__"), "rtruediv");
  EXPECT_EQ(seedNameToOpName("_convolution"), "convolution");
  EXPECT_EQ(seedNameToOpName("_native_multi_head_attention"),
            "native_multi_head_attention");
  EXPECT_EQ(seedNameToOpName("_lu_with_info"), "lu_with_info");
  EXPECT_EQ(seedNameToOpName("_grid_sampler_2d_cpu_fallback"),
            "grid_sampler_2d_cpu_fallback");
  EXPECT_EQ(seedNameToOpName("GRUCell"), "gru_cell");
  EXPECT_EQ(seedNameToOpName("LSTMCell"), "lstm_cell");
  EXPECT_EQ(seedNameToOpName("RNNCell"), "rnn_cell");
  EXPECT_EQ(seedNameToOpName("linalg_vecdot"), "linalg_vecdot");
}

TEST(PolicyTables, PerDeviceLookups) {
  AutocastPolicy cuda = AutocastPolicy::getDefault(Device::Cuda);
  AutocastPolicy xpu = AutocastPolicy::getDefault(Device::Xpu);
  AutocastPolicy cpu = AutocastPolicy::getDefault(Device::Cpu);
  EXPECT_EQ(cuda.lookup("mm"), PolicyList::LowerPrecision);
  EXPECT_EQ(cuda.lookup("matmul"), PolicyList::LowerPrecision);
  EXPECT_EQ(cuda.lookup("prelu"), PolicyList::LowerPrecision);
  EXPECT_EQ(xpu.lookup("prelu"), PolicyList::Unlisted);
  EXPECT_EQ(cpu.lookup("prelu"), PolicyList::LowerPrecision);
  EXPECT_EQ(cuda.lookup("softmax"), PolicyList::Fp32);
  EXPECT_TRUE(cuda.isSetDtype("softmax"));
  EXPECT_TRUE(cuda.isSetDtype("sum"));
  EXPECT_FALSE(cuda.isSetDtype("exp"));
  EXPECT_EQ(cpu.lookup("softmax"), PolicyList::Unlisted);
  EXPECT_TRUE(cpu.isSetDtype("prod"));
  EXPECT_EQ(cuda.lookup("pow"), PolicyList::Fp32);
  EXPECT_EQ(cuda.lookup("dot"), PolicyList::Promote);
  EXPECT_EQ(xpu.lookup("dot"), PolicyList::Unlisted);
  EXPECT_EQ(cpu.lookup("cat"), PolicyList::Promote);
  EXPECT_EQ(cuda.lookup("cat"), PolicyList::Unlisted);
  EXPECT_EQ(cuda.lookup("binary_cross_entropy"), PolicyList::Banned);
  EXPECT_EQ(xpu.lookup("binary_cross_entropy"), PolicyList::Banned);
  EXPECT_EQ(cpu.lookup("binary_cross_entropy"), PolicyList::Fp32);
  EXPECT_EQ(cpu.lookup("inverse"), PolicyList::Fp32);
  EXPECT_EQ(cuda.lookup("add"), PolicyList::Unlisted);
  // cross_entropy is implemented by cross_entropy_loss: one op, two names.
  EXPECT_EQ(cpu.lookup("cross_entropy"), PolicyList::Fp32);
  EXPECT_EQ(cpu.lookup("cross_entropy_loss"), PolicyList::Fp32);
  EXPECT_EQ(cuda.lookup("cross_entropy_loss"), PolicyList::Fp32);
  EXPECT_EQ(xpu.lookup("cross_entropy_loss"), PolicyList::Unlisted);
  // Every name of a device's tables is on that device's list.
  for (const SeedTable &table : getSeedTables()) {
    AutocastPolicy policy = AutocastPolicy::getDefault(table.device);
    for (const char *name : table.names)
      EXPECT_EQ(policy.lookup(seedNameToOpName(name)), table.list)
          << stringifyDeviceType(table.device).str() << " " << name;
  }
}

TEST(PolicyTables, PolicyFileEdits) {
  std::vector<AutocastPolicy> policies = {
      AutocastPolicy::getDefault(Device::Cuda),
      AutocastPolicy::getDefault(Device::Xpu),
      AutocastPolicy::getDefault(Device::Cpu)};
  auto known = [](llvm::StringRef name) {
    return name == "add" || name == "mm" || name == "exp";
  };
  llvm::Error err =
      applyPolicyFile("p.json",
                      R"({"cuda": {"lower": {"add": ["add"], "remove": ["mm"]},
                   "fp32": {"remove": ["exp"]}}})",
                      policies, known);
  ASSERT_FALSE(err) << llvm::toString(std::move(err));
  EXPECT_EQ(policies[0].lookup("add"), PolicyList::LowerPrecision);
  EXPECT_EQ(policies[0].lookup("mm"), PolicyList::Unlisted);
  EXPECT_EQ(policies[0].lookup("exp"), PolicyList::Unlisted);
  EXPECT_EQ(policies[2].lookup("mm"), PolicyList::LowerPrecision);

  auto message = [&](llvm::StringRef json) {
    llvm::Error e = applyPolicyFile("p.json", json, policies, known);
    return e ? llvm::toString(std::move(e)) : std::string("no error");
  };
  EXPECT_EQ(message(R"({"cuda": {"lower": {"add": ["nosuchop"]}}})"),
            "p.json: unknown op 'nosuchop' in 'cuda.lower.add'");
  EXPECT_EQ(message(R"({"cuda": {"fast": {"add": ["mm"]}}})"),
            "p.json: unknown list 'cuda.fast' (expected lower, fp32, promote "
            "or banned)");
  EXPECT_EQ(message(R"({"tpu": {}})"),
            "p.json: unknown device 'tpu' (expected cuda, xpu or cpu)");
  EXPECT_NE(message("{not json").find("p.json: invalid JSON"),
            std::string::npos);
}

} // namespace
