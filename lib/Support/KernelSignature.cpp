//===- KernelSignature.cpp - what a compiled kernel expects ---------------===//
#include "tile/Support/KernelSignature.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace tile;

static constexpr llvm::StringLiteral kPrefix = "// tile.kernel ";

bool tile::setParamType(ParamInfo &param, std::string_view typeText) {
  llvm::StringRef type = typeText;
  param.type = type.str();
  param.elementType = param.type;
  if (type.starts_with("ptr<") && type.ends_with(">")) {
    param.elementType = type.drop_front(4).drop_back().str();
    param.kind = ParamInfo::Kind::Pointer;
    param.bits = 64;
    return true;
  }
  static const struct {
    const char *name;
    ParamInfo::Kind kind;
    unsigned bits;
  } scalars[] = {
      {"i1", ParamInfo::Kind::Int, 8},      {"i8", ParamInfo::Kind::Int, 8},
      {"i16", ParamInfo::Kind::Int, 16},    {"i32", ParamInfo::Kind::Int, 32},
      {"i64", ParamInfo::Kind::Int, 64},    {"u8", ParamInfo::Kind::Int, 8},
      {"u16", ParamInfo::Kind::Int, 16},    {"u32", ParamInfo::Kind::Int, 32},
      {"u64", ParamInfo::Kind::Int, 64},    {"f16", ParamInfo::Kind::Float, 16},
      {"bf16", ParamInfo::Kind::Float, 16}, {"f32", ParamInfo::Kind::Float, 32},
      {"f64", ParamInfo::Kind::Float, 64}};
  for (const auto &s : scalars)
    if (type == s.name) {
      param.kind = s.kind;
      param.bits = s.bits;
      param.isUnsigned = type.starts_with("u");
      return true;
    }
  return false;
}

std::string tile::formatTensorMap(const TensorMapInfo &map) {
  return "tmap=" + map.pointer + ":" + map.elementType + ":" + map.sizes[0] +
         "," + map.sizes[1] + ":" + map.pitch + ":" +
         std::to_string(map.box[0]) + "x" + std::to_string(map.box[1]) + ":" +
         std::to_string(map.swizzleBytes) + (map.slices ? ":slices" : "");
}

std::optional<TensorMapInfo> tile::parseTensorMap(std::string_view text) {
  llvm::StringRef field = text;
  if (!field.consume_front("tmap="))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> parts;
  field.split(parts, ':');
  TensorMapInfo map;
  if (parts.size() == 7 && parts[6] == "slices") {
    map.slices = true;
    parts.pop_back();
  }
  if (parts.size() != 6)
    return std::nullopt;
  map.pointer = parts[0].str();
  map.elementType = parts[1].str();
  auto [size0, size1] = parts[2].split(',');
  auto [box0, box1] = parts[4].split('x');
  map.sizes[0] = size0.str();
  map.sizes[1] = size1.str();
  map.pitch = parts[3].str();
  if (map.pointer.empty() || size0.empty() || size1.empty() ||
      map.pitch.empty() || box0.getAsInteger(10, map.box[0]) ||
      box1.getAsInteger(10, map.box[1]) ||
      parts[5].getAsInteger(10, map.swizzleBytes) ||
      (parts[1] != "f16" && parts[1] != "bf16" && parts[1] != "f32" &&
       parts[1] != "i8"))
    return std::nullopt;
  return map;
}

std::string tile::formatSignature(const KernelInfo &kernel) {
  std::string line = kPrefix.str() + kernel.name +
                     " warps=" + std::to_string(kernel.numWarps) +
                     " shared=" + std::to_string(kernel.sharedBytes);
  for (const ParamInfo &p : kernel.params)
    line +=
        " " + p.name + ":" + p.type + ":" +
        (p.equalToOne ? std::string("eq1") : std::to_string(p.divisibility));
  for (const TensorMapInfo &map : kernel.tensorMaps)
    line += " " + formatTensorMap(map);
  return line + "\n";
}

std::optional<std::vector<KernelInfo>>
tile::parseSignatures(std::string_view ptxText, std::string &error) {
  llvm::StringRef ptx = ptxText;
  std::vector<KernelInfo> kernels;
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (!line.consume_front(kPrefix))
      continue;
    llvm::SmallVector<llvm::StringRef> fields;
    line.trim().split(fields, ' ', -1, /*KeepEmpty=*/false);
    KernelInfo kernel;
    auto bad = [&](llvm::StringRef why) {
      error = ("malformed tile.kernel line (" + why + "): " + line).str();
      return std::nullopt;
    };
    if (fields.size() < 3 || !fields[1].consume_front("warps=") ||
        !fields[2].consume_front("shared="))
      return bad("expected a name, warps= and shared=");
    kernel.name = fields[0].str();
    if (fields[1].getAsInteger(10, kernel.numWarps) ||
        fields[2].getAsInteger(10, kernel.sharedBytes))
      return bad("bad number");
    for (llvm::StringRef field : llvm::ArrayRef(fields).drop_front(3)) {
      if (field.starts_with("tmap=")) {
        std::optional<TensorMapInfo> map = parseTensorMap(field);
        if (!map)
          return bad("bad tensor map '" + field.str() + "'");
        kernel.tensorMaps.push_back(std::move(*map));
        continue;
      }
      auto [name, rest] = field.split(':');
      auto [type, div] = rest.rsplit(':');
      ParamInfo param;
      param.name = name.str();
      param.equalToOne = div == "eq1";
      if (name.empty() || !setParamType(param, type) ||
          (!param.equalToOne && div.getAsInteger(10, param.divisibility)))
        return bad("bad parameter '" + field.str() + "'");
      kernel.params.push_back(param);
    }
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}
