//===- ConfigTest.cpp - autotuning configurations as text -----------------===//
#include "tile/Runtime/Autotune.h"

#include <gtest/gtest.h>

using namespace tile;

namespace {

std::string parseError(const std::string &text) {
  std::string error;
  EXPECT_FALSE(Config::parse(text, error)) << text;
  return error;
}

TEST(ConfigTest, RoundTripsAndDefaults) {
  std::string error;
  std::optional<Config> c =
      Config::parse(" BN=64, BM=128 ,num_stages=4,num_warps=8", error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(c->constants.at("BM"), "128");
  EXPECT_EQ(c->get("BN"), 64);
  EXPECT_EQ(c->numWarps, 8u);
  EXPECT_EQ(c->numStages, 4u);
  // Constants sorted by name, options last.
  EXPECT_EQ(c->str(), "BM=128,BN=64,num_warps=8,num_stages=4");
  std::optional<Config> back = Config::parse(c->str(), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, *c);
  std::optional<Config> plain = Config::parse("BLOCK=1024", error);
  ASSERT_TRUE(plain) << error;
  EXPECT_EQ(plain->numWarps, 4u);
  EXPECT_EQ(plain->numStages, 3u);
  EXPECT_FALSE(*plain == *c);
}

TEST(ConfigTest, MalformedTextIsDiagnosed) {
  EXPECT_EQ(parseError(""), "empty configuration");
  EXPECT_EQ(parseError("BM"), "'BM' is not NAME=VALUE");
  EXPECT_EQ(parseError("BM=,BN=2"), "'BM=' is not NAME=VALUE");
  EXPECT_EQ(parseError("=4"), "'=4' is not NAME=VALUE");
  EXPECT_EQ(parseError("BM=1,BM=2"), "const 'BM' given twice");
  EXPECT_EQ(parseError("num_warps=3"),
            "bad num_warps '3' (a power of two, 1 to 32)");
  EXPECT_EQ(parseError("num_warps=64"),
            "bad num_warps '64' (a power of two, 1 to 32)");
  EXPECT_EQ(parseError("num_stages=x"), "bad num_stages 'x' (a number)");
  EXPECT_EQ(parseError("num_stages=2,num_stages=3"),
            "num_stages given twice");
}

TEST(ConfigTest, ListsAndLookups) {
  std::vector<Config> list = Config::parseList("BM=64; BM=128,num_warps=8;");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].get("BM"), 128);
  EXPECT_EQ(list[1].numWarps, 8u);
  try {
    Config::parseList("BM=64;BM");
    ADD_FAILURE() << "malformed list accepted";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "bad configuration 'BM': 'BM' is not NAME=VALUE");
  }
  EXPECT_THROW(Config::parseList(" ; "), Error);
  try {
    list[0].get("BK");
    ADD_FAILURE() << "missing const returned a value";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "configuration 'BM=64,num_warps=4,num_stages=3' "
                           "has no integer const 'BK'");
  }
  Config text;
  text.constants["MODE"] = "fast";
  EXPECT_THROW(text.get("MODE"), Error);
}

} // namespace
