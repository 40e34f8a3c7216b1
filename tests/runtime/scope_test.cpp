#include "tide/scope.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

using namespace tide;

TEST(Scope, IsEmptyOutsideEveryScope) {
  EXPECT_EQ(Scope::current(), nullptr);
  EXPECT_EQ(Scope::current_path(), "");
}

TEST(Scope, NestsAndRestoresTheEnclosingName) {
  {
    Scope outer("forward");
    EXPECT_STREQ(Scope::current(), "forward");
    {
      Scope inner("attention");
      EXPECT_STREQ(Scope::current(), "attention");
      EXPECT_EQ(Scope::current_path(), "forward/attention");
    }
    EXPECT_STREQ(Scope::current(), "forward");
  }
  EXPECT_EQ(Scope::current(), nullptr);
}

TEST(Scope, InternsStringNamesSoTheyOutliveTheScope) {
  const char* first;
  {
    std::string name = "layer" + std::to_string(3);
    Scope s(name);
    first = Scope::current();
    name = "changed";
    EXPECT_STREQ(Scope::current(), "layer3");
  }
  Scope again(std::string("layer3"));
  EXPECT_EQ(Scope::current(), first);  // one copy per distinct text
}

TEST(Scope, IsPerThread) {
  Scope main_scope("main");
  const char* seen = "unset";
  std::thread t([&] { seen = Scope::current(); });
  t.join();
  EXPECT_EQ(seen, nullptr);
  EXPECT_STREQ(Scope::current(), "main");
}
