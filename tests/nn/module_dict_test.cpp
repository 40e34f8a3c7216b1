// nn::ModuleDict: children by key in insertion order, their parameters named "key.name" as
// torch's, moved and cloned with the dict, and the errors for a repeated or missing key.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ModuleDict, KeepsInsertionOrderAndRegistersTheChildren) {
  nn::ModuleDict heads({{"cls", std::make_shared<nn::Linear>(4, 3)},
                        {"act", std::make_shared<nn::ReLU>()}});
  heads.insert("box", std::make_shared<nn::Linear>(4, 2, false));
  EXPECT_EQ(heads.size(), 3u);
  EXPECT_THAT(heads.keys(), ElementsAre("cls", "act", "box"));
  EXPECT_TRUE(heads.contains("act"));
  EXPECT_FALSE(heads.contains("nope"));
  std::vector<std::string> names;
  for (const auto& [name, p] : heads.named_parameters()) names.push_back(name);
  EXPECT_THAT(names, ElementsAre("cls.weight", "cls.bias", "box.weight"));
  EXPECT_EQ(heads.at<nn::Linear>("box").out_features, 2);
  const Tensor y = heads["cls"](ones({2, 4}));
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(heads.values().size(), 3u);
  heads.eval();
  EXPECT_FALSE(heads["cls"].is_training());
}

TEST(ModuleDict, RepeatedAndMissingKeysThrow) {
  nn::ModuleDict dict;
  dict.insert("a", std::make_shared<nn::ReLU>());
  EXPECT_THAT(error_of([&] { dict.insert("a", std::make_shared<nn::ReLU>()); }),
              HasSubstr("\"a\""));
  EXPECT_THAT(error_of([&] { (void)dict["b"]; }), HasSubstr("expected a key of the dict"));
  EXPECT_THAT(error_of([&] { (void)dict.at<nn::Linear>("a"); }),
              HasSubstr("not the type asked for"));
  EXPECT_THAT(error_of([&] { dict(ones({1})); }), HasSubstr("forward"));
}

TEST(ModuleDict, ClonesItsChildrenUnderTheSameKeys) {
  nn::ModuleDict dict({{"fc", std::make_shared<nn::Linear>(2, 2)}});
  auto copy = std::dynamic_pointer_cast<nn::ModuleDict>(dict.clone());
  ASSERT_TRUE(copy);
  EXPECT_THAT(copy->keys(), ElementsAre("fc"));
  const nn::Linear& a = dict.at<nn::Linear>("fc");
  const nn::Linear& b = copy->at<nn::Linear>("fc");
  EXPECT_EQ(a.weight.tolist<float>(), b.weight.tolist<float>());
  EXPECT_NE(a.weight.raw_data(), b.weight.raw_data());
  nn::Sequential outer(std::make_shared<nn::ModuleDict>(dict));
  EXPECT_NO_THROW((void)outer.clone());
}

}  // namespace
}  // namespace tide
