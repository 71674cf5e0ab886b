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
  auto replace = [&](const std::string &from, const std::string &to) {
    size_t at = text.find(from);
    if (at == std::string::npos)
      throw std::runtime_error("matmul_relu.tile changed: '" + from +
                               "' not found");
    text.replace(at, from.size(), to);
  };
  std::string type = variant == "bf16" ? "bf16" : "f32";
  replace("a: ptr<f16>, b: ptr<f16>, c: ptr<f16>",
          "a: ptr<" + type + ">, b: ptr<" + type + ">, c: ptr<" + type + ">");
  replace("cast(maximum(acc, 0.0), f16)",
          "cast(maximum(acc, 0.0), " + type + ")");
  if (variant == "tf32")
    replace("dot(av, bv, acc)", "dot(av, bv, acc, precision: tf32)");
  return text;
}

} // namespace tile

#endif // TILE_TOOLS_MATMULVARIANTS_H
