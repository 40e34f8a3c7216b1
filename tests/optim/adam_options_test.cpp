// AdamOptions: libtorch's names, defaults and chaining; torch's validation and wording.

#include "tide/optim/adam_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <tuple>

#include "support/error_of.h"

using namespace tide;
using ::testing::HasSubstr;
using test::error_of;

TEST(AdamOptions, DefaultsAreLibtorchs) {
  const optim::AdamOptions o;
  EXPECT_EQ(o.lr(), 1e-3);
  EXPECT_EQ(o.betas(), std::make_tuple(0.9, 0.999));
  EXPECT_EQ(o.eps(), 1e-8);
  EXPECT_EQ(o.weight_decay(), 0);
  EXPECT_FALSE(o.amsgrad());
  EXPECT_FALSE(o.maximize());
  EXPECT_NO_THROW(o.validate());
  EXPECT_EQ(optim::AdamOptions(0.01).lr(), 0.01);
}

TEST(AdamOptions, SettersChainAndGettersReadBack) {
  const optim::AdamOptions o = optim::AdamOptions(0.01)
                                   .betas(std::make_tuple(0.8, 0.99))
                                   .eps(1e-6)
                                   .weight_decay(0.1)
                                   .amsgrad(true)
                                   .maximize(true);
  EXPECT_EQ(o.lr(), 0.01);
  EXPECT_EQ(std::get<0>(o.betas()), 0.8);
  EXPECT_EQ(std::get<1>(o.betas()), 0.99);
  EXPECT_EQ(o.eps(), 1e-6);
  EXPECT_EQ(o.weight_decay(), 0.1);
  EXPECT_TRUE(o.amsgrad());
  EXPECT_TRUE(o.maximize());
  EXPECT_EQ(o, optim::AdamOptions(0.01).betas({0.8, 0.99}).eps(1e-6).weight_decay(0.1).amsgrad(true).maximize(true));
  EXPECT_NE(o, optim::AdamOptions(0.01));
}

TEST(AdamOptions, ValidateRejectsWhatTorchRejectsInTorchsWords) {
  EXPECT_THAT(error_of([] { optim::AdamOptions(-1e-3).validate(); }),
              HasSubstr("[optim::Adam] Invalid learning rate: -0.001"));
  EXPECT_THAT(error_of([] { optim::AdamOptions().eps(-1e-8).validate(); }),
              HasSubstr("[optim::Adam] Invalid epsilon value: -1e-08"));
  EXPECT_THAT(error_of([] { optim::AdamOptions().betas({1.0, 0.999}).validate(); }),
              HasSubstr("[optim::Adam] Invalid beta parameter at index 0: 1"));
  EXPECT_THAT(error_of([] { optim::AdamOptions().betas({-0.1, 0.999}).validate(); }),
              HasSubstr("Invalid beta parameter at index 0: -0.1"));
  EXPECT_THAT(error_of([] { optim::AdamOptions().betas({0.9, 1.5}).validate(); }),
              HasSubstr("[optim::Adam] Invalid beta parameter at index 1: 1.5"));
  EXPECT_THAT(error_of([] { optim::AdamOptions().weight_decay(-0.5).validate(); }),
              HasSubstr("[optim::Adam] Invalid weight_decay value: -0.5"));
}

TEST(AdamOptions, ValidateAcceptsTheEdgesTorchAccepts) {
  EXPECT_NO_THROW(optim::AdamOptions(0).betas({0.0, 0.0}).eps(0).validate());
  EXPECT_NO_THROW(optim::AdamOptions().betas({0.999999, 0.999999}).validate());
}
