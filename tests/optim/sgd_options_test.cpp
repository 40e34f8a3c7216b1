// SGDOptions: libtorch's names, defaults and chaining; torch's validation and wording.

#include "tide/optim/sgd_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "support/error_of.h"

using namespace tide;
using ::testing::HasSubstr;
using test::error_of;

TEST(SGDOptions, DefaultsAreLibtorchsWithTheGivenLearningRate) {
  const optim::SGDOptions o(0.1);
  EXPECT_EQ(o.lr(), 0.1);
  EXPECT_EQ(o.momentum(), 0);
  EXPECT_EQ(o.dampening(), 0);
  EXPECT_EQ(o.weight_decay(), 0);
  EXPECT_FALSE(o.nesterov());
  EXPECT_FALSE(o.maximize());
  EXPECT_NO_THROW(o.validate());
}

TEST(SGDOptions, SettersChainAndGettersReadBack) {
  const optim::SGDOptions o =
      optim::SGDOptions(0.1).momentum(0.9).dampening(0.25).weight_decay(1e-4).lr(0.2).maximize(true);
  EXPECT_EQ(o.lr(), 0.2);
  EXPECT_EQ(o.momentum(), 0.9);
  EXPECT_EQ(o.dampening(), 0.25);
  EXPECT_EQ(o.weight_decay(), 1e-4);
  EXPECT_TRUE(o.maximize());
  EXPECT_TRUE(optim::SGDOptions(0.1).momentum(0.9).nesterov(true).nesterov());
}

TEST(SGDOptions, CompareByValue) {
  EXPECT_EQ(optim::SGDOptions(0.1).momentum(0.9), optim::SGDOptions(0.1).momentum(0.9));
  EXPECT_NE(optim::SGDOptions(0.1).momentum(0.9), optim::SGDOptions(0.1).momentum(0.8));
  EXPECT_NE(optim::SGDOptions(0.1), optim::SGDOptions(0.1).nesterov(true));
}

TEST(SGDOptions, ValidateRejectsWhatTorchRejectsInTorchsWords) {
  EXPECT_THAT(error_of([] { optim::SGDOptions(-0.1).validate(); }),
              HasSubstr("[optim::SGD] Invalid learning rate: -0.1"));
  EXPECT_THAT(error_of([] { optim::SGDOptions(std::numeric_limits<double>::quiet_NaN()).validate(); }),
              HasSubstr("Invalid learning rate: nan"));
  EXPECT_THAT(error_of([] { optim::SGDOptions(0.1).momentum(-0.5).validate(); }),
              HasSubstr("[optim::SGD] Invalid momentum value: -0.5"));
  EXPECT_THAT(error_of([] { optim::SGDOptions(0.1).weight_decay(-1).validate(); }),
              HasSubstr("[optim::SGD] Invalid weight_decay value: -1"));
  EXPECT_THAT(error_of([] { optim::SGDOptions(0.1).nesterov(true).validate(); }),
              HasSubstr("Nesterov momentum requires a momentum and zero dampening"));
  EXPECT_THAT(error_of([] { optim::SGDOptions(0.1).momentum(0.9).dampening(0.1).nesterov(true).validate(); }),
              HasSubstr("found momentum 0.9 and dampening 0.1"));
}

TEST(SGDOptions, ValidateAcceptsTheEdgesTorchAccepts) {
  EXPECT_NO_THROW(optim::SGDOptions(0).validate());
  EXPECT_NO_THROW(optim::SGDOptions(0.1).momentum(0.9).nesterov(true).validate());
  // torch checks neither dampening's range nor momentum < 1.
  EXPECT_NO_THROW(optim::SGDOptions(0.1).momentum(1.5).dampening(-2).validate());
}
