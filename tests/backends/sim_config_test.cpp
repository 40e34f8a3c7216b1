// Parsing of TIDE_SIM_DEVICES, CUDA_VISIBLE_DEVICES and TIDE_SIM_MEMORY for simulated GPUs.

#include "backends/sim/sim_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tide/error.h"

using namespace tide;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(SimVisibleDevices, UnsetShowsEveryPhysicalDevice) {
  EXPECT_THAT(sim::parse_visible_devices(nullptr, 3), ElementsAre(0, 1, 2));
}

TEST(SimVisibleDevices, SelectsAndReordersAsTheDriver) {
  EXPECT_THAT(sim::parse_visible_devices("0,2,3", 4), ElementsAre(0, 2, 3));
  EXPECT_THAT(sim::parse_visible_devices("3,1", 4), ElementsAre(3, 1));
  EXPECT_THAT(sim::parse_visible_devices(" 2 , 0 ", 4), ElementsAre(2, 0));
}

TEST(SimVisibleDevices, AnInvalidEntryEndsTheList) {
  EXPECT_THAT(sim::parse_visible_devices("1,x,0", 4), ElementsAre(1));
  EXPECT_THAT(sim::parse_visible_devices("1,-1,0", 4), ElementsAre(1));
  EXPECT_THAT(sim::parse_visible_devices("1,7,0", 4), ElementsAre(1));  // no physical 7
  EXPECT_THAT(sim::parse_visible_devices("1gpu,0", 4), ElementsAre(1, 0));  // read like strtoul
}

TEST(SimVisibleDevices, EmptyMeansNoDevices) {
  EXPECT_THAT(sim::parse_visible_devices("", 4), IsEmpty());
}

TEST(SimVisibleDevices, ARepeatedOrdinalMeansNoDevices) {
  EXPECT_THAT(sim::parse_visible_devices("0,1,0", 4), IsEmpty());
}

TEST(SimMemory, AcceptsBytesAndBinarySuffixes) {
  EXPECT_EQ(sim::parse_memory_size("4096"), 4096);
  EXPECT_EQ(sim::parse_memory_size("4KiB"), 4096);
  EXPECT_EQ(sim::parse_memory_size("512MiB"), int64_t{512} << 20);
  EXPECT_EQ(sim::parse_memory_size("16GiB"), int64_t{16} << 30);
}

TEST(SimMemory, RejectsOtherSpellingsNamingTheValueAndTheForms) {
  for (const char* bad : {"", "16GB", "16 G", "1.5GiB", "-1", "GiB", "0"}) {
    try {
      sim::parse_memory_size(bad);
      ADD_FAILURE() << "expected tide::Error for '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("[TIDE_SIM_MEMORY]"));
      EXPECT_THAT(e.what(), HasSubstr(std::string("'") + bad + "'"));
    }
  }
}

TEST(SimDevices, RejectsANonNumberNamingIt) {
  EXPECT_EQ(sim::parse_device_count("4"), 4);
  EXPECT_EQ(sim::parse_device_count("0"), 0);
  try {
    sim::parse_device_count("two");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[TIDE_SIM_DEVICES]"));
    EXPECT_THAT(e.what(), HasSubstr("'two'"));
  }
}
