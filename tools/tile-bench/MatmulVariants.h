//===- MatmulVariants.h - matmul_relu.tile in other precisions --*- C++ -*-===//
//
// tile-bench and the GPU tests run the matmul_relu example as written (f16)
// and with bf16 or f32 inputs (f32 on the FMA path or, "tf32", on tf32
// tensor cores). Both make the variants here, from the example's text.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_TOOLS_MATMULVARIANTS_H
#define TILE_TOOLS_MATMULVARIANTS_H

#include <stdexcept>
#include <string>

namespace tile {

/// Replaces the first `from` in `text` (matmul_relu.tile's) by `to`; throws
/// std::runtime_error when the example no longer has it.
inline void replaceInExample(std::string &text, const std::string &from,
                             const std::string &to) {
  size_t at = text.find(from);
  if (at == std::string::npos)
    throw std::runtime_error("matmul_relu.tile changed: '" + from +
                             "' not found");
  text.replace(at, from.size(), to);
}

/// matmul_relu.tile's `text` for `variant` ("f16": unchanged, "bf16",
/// "f32", "tf32"): pointer and output types replaced and, for tf32, the dot
/// asked for tf32 precision. Throws std::runtime_error if the example no
/// longer has the text replaced or the variant is unknown.
inline std::string matmulVariantSource(std::string text,
                                       const std::string &variant) {
  if (variant == "f16")
    return text;
  if (variant != "bf16" && variant != "f32" && variant != "tf32")
    throw std::runtime_error("unknown matmul variant '" + variant + "'");
  std::string type = variant == "bf16" ? "bf16" : "f32";
  replaceInExample(text, "a: ptr<f16>, b: ptr<f16>, c: ptr<f16>",
                   "a: ptr<" + type + ">, b: ptr<" + type + ">, c: ptr<" +
                       type + ">");
  replaceInExample(text, "cast(maximum(acc, 0.0), f16)",
                   "cast(maximum(acc, 0.0), " + type + ")");
  if (variant == "tf32")
    replaceInExample(text, "dot(av, bv, acc)",
                     "dot(av, bv, acc, precision: tf32)");
  return text;
}

/// How A and B are stored: N as in the example (A M x K, B K x N, row-major
/// with leading dimensions lda, ldb), T transposed (A K x M, B N x K).
/// "NT" is nn.Linear's x @ W.T.
enum class OperandOrder { NN, NT, TN, TT };

inline const char *orderName(OperandOrder order) {
  static const char *names[] = {"NN", "NT", "TN", "TT"};
  return names[static_cast<int>(order)];
}

/// True when A is stored transposed (K x M).
inline bool isTransposedA(OperandOrder order) {
  return order == OperandOrder::TN || order == OperandOrder::TT;
}
/// True when B is stored transposed (N x K).
inline bool isTransposedB(OperandOrder order) {
  return order == OperandOrder::NT || order == OperandOrder::TT;
}

/// `variant`'s source with A and B read in `order`: through strides (the
/// tiles loaded as the dot takes them) or, with `viaTrans`, loaded in
/// memory order and `trans()`'d, as Triton's tutorials write it.
inline std::string matmulOrderSource(std::string text,
                                     const std::string &variant,
                                     OperandOrder order, bool viaTrans) {
  text = matmulVariantSource(std::move(text), variant);
  if (isTransposedA(order))
    replaceInExample(text,
                     "load(a + rm[:, None] * lda + ka[None, :],\n"
                     "                  (rm[:, None] < M) & (ka[None, :] < K), "
                     "other: 0.0)",
                     viaTrans
                         ? "trans(load(a + ka[:, None] * lda + rm[None, :],\n"
                           "        (ka[:, None] < K) & (rm[None, :] < M), "
                           "other: 0.0))"
                         : "load(a + ka[None, :] * lda + rm[:, None],\n"
                           "        (rm[:, None] < M) & (ka[None, :] < K), "
                           "other: 0.0)");
  if (isTransposedB(order))
    replaceInExample(text,
                     "load(b + ka[:, None] * ldb + rn[None, :],\n"
                     "                  (ka[:, None] < K) & (rn[None, :] < N), "
                     "other: 0.0)",
                     viaTrans
                         ? "trans(load(b + rn[:, None] * ldb + ka[None, :],\n"
                           "        (rn[:, None] < N) & (ka[None, :] < K), "
                           "other: 0.0))"
                         : "load(b + rn[None, :] * ldb + ka[:, None],\n"
                           "        (ka[:, None] < K) & (rn[None, :] < N), "
                           "other: 0.0)");
  return text;
}

} // namespace tile

#endif // TILE_TOOLS_MATMULVARIANTS_H
