// The accounting table (tests/fixtures/memory/accounting_table.json): each row's figures follow
// from torch's rules (the row's "rule" cites which); torch_accounting_table.py checks the
// same rows against torch on a GPU.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fake_upstream.h"
#include "memory/caching_allocator.h"

namespace tide::memory {
namespace {

nlohmann::json load_table() {
  std::ifstream in(std::string(TIDE_TEST_DATA_DIR) + "/memory/accounting_table.json");
  EXPECT_TRUE(in.good());
  return nlohmann::json::parse(in);
}

void run_steps(testing::FakeDevice& dev, const nlohmann::json& steps) {
  std::vector<Block*> blocks;
  for (const auto& step : steps) {
    std::istringstream is(step.get<std::string>());
    char op = 0;
    is >> op;
    if (op == 'a') {
      size_t size = 0;
      std::string stream;
      is >> size >> stream;
      uint64_t s = stream.empty() ? 0 : std::stoull(stream.substr(1));
      blocks.push_back(dev.alloc->malloc(size, s));
    } else if (op == 'f') {
      size_t i = 0;
      is >> i;
      dev.alloc->free(blocks.at(i));
    } else if (op == 'e') {
      dev.alloc->empty_cache();
    } else {
      FAIL() << "bad step " << step;
    }
    dev.alloc->check_invariants();
  }
}

TEST(AccountingTable, EveryRowMatchesTorchsFigures) {
  auto table = load_table();
  ASSERT_GE(table["rows"].size(), 20u);
  for (const auto& row : table["rows"]) {
    SCOPED_TRACE(row["name"].get<std::string>() + " — " + row["rule"].get<std::string>());
    testing::FakeDevice dev;
    run_steps(dev, row["steps"]);
    auto stats = dev.alloc->stats();
    for (const auto& [key, value] : row["expect"].items()) {
      ASSERT_TRUE(stats.count(key)) << key;
      EXPECT_EQ(stats[key], value.get<int64_t>()) << key;
    }
  }
}

}  // namespace
}  // namespace tide::memory
