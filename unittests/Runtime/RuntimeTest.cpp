//===- RuntimeTest.cpp - the runtime's GPU-independent parts --------------===//
#include "tile/Runtime/Runtime.h"
#include "CudaDriver.h"
#include "tile/Support/KernelSignature.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tile;

TEST(KernelSignatureTest, RoundTrips) {
  KernelInfo k;
  k.name = "softmax";
  k.numWarps = 8;
  k.sharedBytes = 64;
  for (auto [name, type, div] :
       {std::tuple{"out", "ptr<f32>", 16u}, {"stride", "i32", 16u},
        {"scale", "f16", 1u}}) {
    ParamInfo p;
    p.name = name;
    ASSERT_TRUE(setParamType(p, type));
    p.divisibility = div;
    k.params.push_back(p);
  }
  std::string line = formatSignature(k);
  EXPECT_EQ(line, "// tile.kernel softmax warps=8 shared=64 out:ptr<f32>:16 "
                  "stride:i32:16 scale:f16:1\n");
  std::string error;
  auto parsed = parseSignatures(".version 8.0\n" + line + "// other\n", error);
  ASSERT_TRUE(parsed) << error;
  ASSERT_EQ(parsed->size(), 1u);
  const KernelInfo &back = (*parsed)[0];
  EXPECT_EQ(back.name, "softmax");
  EXPECT_EQ(back.numWarps, 8u);
  EXPECT_EQ(back.sharedBytes, 64);
  ASSERT_EQ(back.params.size(), 3u);
  EXPECT_EQ(back.params[0].kind, ParamInfo::Kind::Pointer);
  EXPECT_EQ(back.params[0].bits, 64u);
  EXPECT_EQ(back.params[1].divisibility, 16u);
  EXPECT_EQ(back.params[2].kind, ParamInfo::Kind::Float);
  EXPECT_EQ(back.params[2].bits, 16u);
}

TEST(KernelSignatureTest, EqualToOneRoundTrips) {
  std::string error;
  auto parsed = parseSignatures(
      "// tile.kernel column warps=4 shared=0 x:ptr<f32>:16 stride:i32:eq1\n",
      error);
  ASSERT_TRUE(parsed) << error;
  ASSERT_EQ((*parsed)[0].params.size(), 2u);
  EXPECT_FALSE((*parsed)[0].params[0].equalToOne);
  EXPECT_TRUE((*parsed)[0].params[1].equalToOne);
  EXPECT_EQ(formatSignature((*parsed)[0]),
            "// tile.kernel column warps=4 shared=0 x:ptr<f32>:16 "
            "stride:i32:eq1\n");
}

TEST(KernelSignatureTest, TensorMapsRoundTrip) {
  std::string line = "// tile.kernel mm warps=8 shared=196640 a:ptr<f16>:16 "
                     "K:i32:16 lda:i32:16 tmap=a:f16:K,77:lda:64x8:128 "
                     "tmap=a:bf16:K,K:64:32x256:64 "
                     "tmap=a:f16:128,K:128:64x64:128:slices\n";
  std::string error;
  auto parsed = parseSignatures(line, error);
  ASSERT_TRUE(parsed) << error;
  const KernelInfo &k = (*parsed)[0];
  ASSERT_EQ(k.params.size(), 3u);
  ASSERT_EQ(k.tensorMaps.size(), 3u);
  const TensorMapInfo &a = k.tensorMaps[0];
  EXPECT_EQ(a.pointer, "a");
  EXPECT_EQ(a.elementType, "f16");
  EXPECT_EQ(a.sizes[0], "K");
  EXPECT_EQ(a.sizes[1], "77");
  EXPECT_EQ(a.pitch, "lda");
  EXPECT_EQ(a.box[0], 64u);
  EXPECT_EQ(a.box[1], 8u);
  EXPECT_EQ(a.swizzleBytes, 128u);
  EXPECT_EQ(k.tensorMaps[1].elementType, "bf16");
  EXPECT_EQ(k.tensorMaps[1].pitch, "64");
  EXPECT_EQ(k.tensorMaps[1].box[1], 256u);
  EXPECT_FALSE(a.slices);
  EXPECT_FALSE(k.tensorMaps[1].slices);
  // Slices of a 3-D tensor: the same fields, a third dimension.
  EXPECT_TRUE(k.tensorMaps[2].slices);
  EXPECT_EQ(k.tensorMaps[2].sizes[0], "128");
  EXPECT_EQ(k.tensorMaps[2].box[1], 64u);
  EXPECT_EQ(formatSignature(k), line);
  // Malformed maps are errors, not parameters.
  for (const char *bad :
       {"tmap=a:f16:K:lda:64x8:128", "tmap=a:f8:K,M:lda:64x8:128",
        "tmap=a:f16:K,M:lda:64:128", "tmap=:f16:K,M:lda:64x8:128",
        "tmap=a:f16:K,M:lda:64x8:128:slice",
        "tmap=a:f16:K,M:lda:64x8:128:slices:slices"}) {
    EXPECT_FALSE(parseSignatures(
        std::string("// tile.kernel k warps=4 shared=0 ") + bad + "\n", error))
        << bad;
    EXPECT_NE(error.find("bad tensor map"), std::string::npos) << bad;
  }
}

TEST(KernelSignatureTest, MalformedLinesAreErrors) {
  std::string error;
  EXPECT_FALSE(parseSignatures("// tile.kernel k warps=4\n", error));
  EXPECT_NE(error.find("expected a name, warps= and shared="), std::string::npos);
  EXPECT_FALSE(parseSignatures("// tile.kernel k warps=4 shared=0 x:vec<f32>:1\n",
                               error));
  EXPECT_NE(error.find("bad parameter 'x:vec<f32>:1'"), std::string::npos);
  EXPECT_FALSE(parseSignatures("// tile.kernel k warps=four shared=0\n", error));
}

TEST(RuntimeTest, NoDriverIsAClearError) {
  // The driver library is opened once per process: name one that is absent.
  setenv("TILE_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  std::string why;
  EXPECT_FALSE(Runtime::isAvailable(&why));
  EXPECT_NE(why.find("cannot open the CUDA driver"), std::string::npos) << why;
  try {
    Runtime rt;
    FAIL() << "a Runtime without a driver";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("no GPU available: cannot open the "
                                         "CUDA driver"),
              std::string::npos)
        << e.what();
  }
}

TEST(RuntimeTest, TensorMapL2PromotionFollowsRowAlignment) {
  using namespace tile::cuda;
  // Rows on 128-byte lines (f16 rows of 4096 or 3008 elements): 256-byte
  // promotion; rows only 16-byte aligned (3000 f16, 6000 bytes; 1000 f32):
  // 128-byte.
  EXPECT_EQ(tensorMapL2Promotion(4096 * 2), CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(tensorMapL2Promotion(3008 * 2), CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(tensorMapL2Promotion(3000 * 2), CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  EXPECT_EQ(tensorMapL2Promotion(1000 * 4), CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
}
