//===- ExplainLayout.cpp - the thread holding each element ----------------===//
//
// The frontend names the operation that computes each `let` and `var` after
// its variable (a NameLoc). The layout passes keep those locations, so the
// operations named NAME after them are the tile in each layout it takes: a
// load's coalesced layout, a dot operand's fragments, the accumulator. Each
// distinct layout is drawn from getHeldElements, the lowering's own
// arithmetic, so the picture says what the generated code does.
//
//===----------------------------------------------------------------------===//
#include "tile/Driver/ExplainLayout.h"

#include "tile/Conversion/TileToGPU/LayoutMath.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <map>
#include <set>

using namespace mlir;
using namespace tile;

namespace {

/// One layout of the named tile, and the operations that produce it.
struct NamedTile {
  RankedTensorType type;
  /// "line 12 (tile.dot)" for each producing operation.
  SmallVector<std::string> producers;
};

/// The elements of one layout as a grid: who holds each element.
struct OwnerGrid {
  int64_t rows = 0, cols = 0;
  /// Per element (row-major): its holders, lowest thread first.
  std::vector<SmallVector<HeldElement, 1>> holders;
  bool fragments = false;
  unsigned numWarps = 0;
  /// "T12:3" (slot 3) or "T12:3.1" (fragment register 3, half 1).
  std::string label(const HeldElement &e) const {
    std::string s =
        "T" + std::to_string(e.thread) + ":" + std::to_string(e.reg);
    if (fragments)
      s += "." + std::to_string(e.half);
    return s;
  }
};

} // namespace

/// The variable names in `loc` (an operation merged by CSE has several).
static void collectNames(Location loc, SmallVectorImpl<StringRef> &names) {
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner))
      names.push_back(name.getName().getValue());
    return WalkResult::advance();
  });
}

/// The names of the tile `op` computes. A convert_layout is its source in
/// another layout, whatever location the pass that made it gave it.
static void namesOf(Operation *op, SmallVectorImpl<StringRef> &names) {
  while (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    op = convert.getSrc().getDefiningOp();
    if (!op)
      return;
  }
  collectNames(op->getLoc(), names);
}

static std::string describeProducer(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  unsigned line = 0;
  op->getLoc()->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      line = file.getLine();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (line)
    os << "line " << line << " ";
  os << "(" << op->getName().getStringRef() << ")";
  return s;
}

/// Lays out 1-D tiles in rows of this many elements.
static constexpr int64_t kRowLength1D = 32;

static OwnerGrid buildGrid(RankedTensorType type,
                           ArrayRef<HeldElement> elements, unsigned numWarps) {
  OwnerGrid grid;
  grid.numWarps = numWarps;
  grid.fragments = isa<DotOperandEncodingAttr>(type.getEncoding());
  int64_t size = type.getNumElements();
  if (type.getRank() == 1) {
    grid.cols = std::min(size, kRowLength1D);
    grid.rows = (size + grid.cols - 1) / grid.cols;
  } else {
    grid.rows = type.getDimSize(0);
    grid.cols = type.getDimSize(1);
  }
  grid.holders.resize(grid.rows * grid.cols);
  for (const HeldElement &e : elements) {
    int64_t index = type.getRank() == 1 ? e.coords[0]
                                        : e.coords[0] * grid.cols + e.coords[1];
    grid.holders[index].push_back(e);
  }
  return grid;
}

/// "each element is held by 1 thread" or the range of copies.
static std::string describeCopies(const OwnerGrid &grid) {
  size_t least = SIZE_MAX, most = 0;
  for (const auto &h : grid.holders) {
    least = std::min(least, h.size());
    most = std::max(most, h.size());
  }
  std::string s = "each element is held by ";
  if (least == most)
    return s + std::to_string(most) + (most == 1 ? " thread" : " threads");
  return s + std::to_string(least) + " to " + std::to_string(most) + " threads";
}

/// The printed form of a type or attribute.
template <typename T> static std::string typeString(T printable) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printable.print(os);
  return s;
}

/// The tensor shape and element type without the encoding.
static std::string plainType(RankedTensorType type) {
  return typeString(
      RankedTensorType::get(type.getShape(), type.getElementType()));
}

static std::string describeLayout(RankedTensorType type) {
  std::string s = typeString(type.getEncoding());
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(type.getEncoding()))
    if (blocked.isMmaAccumulator())
      s += blocked.getWarpReps(0) == 2
               ? "  (the warpgroup MMA accumulator: warp w holds rows 16w + "
                 "[0, 16) of each 16 * warps)"
               : "  (the mma.sync accumulator)";
  if (auto operand = dyn_cast<DotOperandEncodingAttr>(type.getEncoding()))
    s += operand.getOpIdx() == 0 ? "  (mma.sync A fragments)"
                                 : "  (mma.sync B fragments)";
  return s;
}

/// Register (slot) count per thread: the largest a thread holds.
static unsigned registersPerThread(ArrayRef<HeldElement> elements) {
  std::map<unsigned, unsigned> perThread;
  for (const HeldElement &e : elements)
    ++perThread[e.thread];
  unsigned most = 0;
  for (auto [thread, count] : perThread)
    most = std::max(most, count);
  return most;
}

static void printText(const NamedTile &tile, StringRef name,
                      ArrayRef<HeldElement> elements, const OwnerGrid &grid,
                      raw_ostream &os) {
  os << name << ": " << plainType(tile.type) << ", from "
     << llvm::join(tile.producers, ", ") << "\n";
  os << "  layout " << describeLayout(tile.type) << "\n";
  os << "  " << grid.numWarps << " warps x 32 threads; each thread holds "
     << registersPerThread(elements) << " elements; " << describeCopies(grid)
     << "\n";
  const SmallVector<HeldElement, 1> &first = grid.holders.front();
  if (first.size() > 1) {
    os << "  element 0 is held by";
    for (const HeldElement &e : first)
      os << " " << grid.label(e);
    os << " (cells show the lowest thread)\n";
  }
  os << (grid.fragments
             ? "  cell: T<thread>:<register>.<half>, thread = 32 * warp + "
               "lane, register = the 32-bit mma fragment register\n"
             : "  cell: T<thread>:<slot>, thread = 32 * warp + lane, slot = "
               "the thread's value index\n");
  size_t width = 0;
  for (const auto &h : grid.holders)
    width = std::max(width, grid.label(h.front()).size());
  width += 1;
  int64_t lastRowStart =
      tile.type.getRank() == 1 ? (grid.rows - 1) * grid.cols : grid.rows - 1;
  size_t rowLabel = std::to_string(lastRowStart).size() + 1;
  os.indent(rowLabel + 1);
  for (int64_t c = 0; c < grid.cols; ++c)
    os << llvm::right_justify(std::to_string(c), width);
  os << "\n";
  int64_t size = tile.type.getNumElements();
  for (int64_t r = 0; r < grid.rows; ++r) {
    int64_t rowStart = tile.type.getRank() == 1 ? r * grid.cols : r;
    os << llvm::right_justify(std::to_string(rowStart), rowLabel) << " ";
    for (int64_t c = 0; c < grid.cols; ++c) {
      if (r * grid.cols + c >= size)
        break;
      os << llvm::right_justify(
          grid.label(grid.holders[r * grid.cols + c].front()), width);
    }
    os << "\n";
  }
}

/// A fill colour per warp (hue) and lane (lightness).
static std::string cellColour(const HeldElement &e) {
  static const unsigned hues[] = {210, 30, 120, 280, 0, 170, 60, 330};
  unsigned warp = e.thread / 32, lane = e.thread % 32;
  unsigned hue = hues[warp % 8];
  unsigned lightness = 88 - (lane * 30) / 31;
  return "hsl(" + std::to_string(hue) + ",70%," + std::to_string(lightness) +
         "%)";
}

static std::string escapeXml(StringRef text) {
  std::string s;
  for (char c : text) {
    if (c == '<')
      s += "&lt;";
    else if (c == '>')
      s += "&gt;";
    else if (c == '&')
      s += "&amp;";
    else if (c == '"')
      s += "&quot;";
    else
      s += c;
  }
  return s;
}

static void printSVG(const NamedTile &tile, StringRef name,
                     ArrayRef<HeldElement> elements, const OwnerGrid &grid,
                     int64_t top, raw_ostream &os) {
  size_t longest = 0;
  for (const auto &h : grid.holders)
    longest = std::max(longest, grid.label(h.front()).size());
  int64_t cellW = 7 * longest + 10, cellH = 22, left = 60;
  os << "<g transform=\"translate(0," << top << ")\">\n";
  os << "<text x=\"4\" y=\"16\" font-weight=\"bold\">"
     << escapeXml(name.str() + ": " + plainType(tile.type) + ", from " +
                  llvm::join(tile.producers, ", "))
     << "</text>\n";
  os << "<text x=\"4\" y=\"34\">" << escapeXml(describeLayout(tile.type))
     << "</text>\n";
  os << "<text x=\"4\" y=\"52\">"
     << escapeXml(std::to_string(registersPerThread(elements)) +
                  " elements per thread; " + describeCopies(grid) +
                  (grid.fragments ? "; cell: T<thread>:<register>.<half>"
                                  : "; cell: T<thread>:<slot>") +
                  "; colour: warp, shade: lane")
     << "</text>\n";
  int64_t gridTop = 80;
  for (int64_t c = 0; c < grid.cols; ++c)
    os << "<text x=\"" << left + c * cellW + cellW / 2 << "\" y=\""
       << gridTop - 6 << "\" text-anchor=\"middle\">" << c << "</text>\n";
  int64_t size = tile.type.getNumElements();
  for (int64_t r = 0; r < grid.rows; ++r) {
    int64_t y = gridTop + r * cellH;
    int64_t rowStart = tile.type.getRank() == 1 ? r * grid.cols : r;
    os << "<text x=\"" << left - 6 << "\" y=\"" << y + 15
       << "\" text-anchor=\"end\">" << rowStart << "</text>\n";
    for (int64_t c = 0; c < grid.cols && r * grid.cols + c < size; ++c) {
      const auto &h = grid.holders[r * grid.cols + c];
      int64_t x = left + c * cellW;
      os << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cellW
         << "\" height=\"" << cellH << "\" fill=\"" << cellColour(h.front())
         << "\" stroke=\"white\"><title>";
      for (const HeldElement &e : h)
        os << grid.label(e) << " ";
      os << "</title></rect>\n<text x=\"" << x + cellW / 2 << "\" y=\""
         << y + 15 << "\" text-anchor=\"middle\">" << grid.label(h.front())
         << "</text>\n";
    }
  }
  os << "</g>\n";
}

/// Height and width in pixels printSVG uses for `grid`.
static std::pair<int64_t, int64_t> svgSize(const OwnerGrid &grid) {
  size_t longest = 0;
  for (const auto &h : grid.holders)
    longest = std::max(longest, grid.label(h.front()).size());
  int64_t cellW = 7 * longest + 10;
  return {80 + grid.rows * 22 + 30,
          std::max<int64_t>(60 + grid.cols * cellW + 20, 900)};
}

std::string tile::explainLayout(ModuleOp module, StringRef kernelName,
                                StringRef name, LayoutPicture picture,
                                raw_ostream &os) {
  SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
  KernelOp kernel;
  if (kernelName.empty()) {
    if (kernels.size() != 1) {
      std::string names;
      for (KernelOp k : kernels)
        names += (names.empty() ? "" : ", ") + k.getSymName().str();
      return "the input has " + std::to_string(kernels.size()) +
             " kernels; choose one with --kernel (" + names + ")";
    }
    kernel = kernels.front();
  } else {
    for (KernelOp k : kernels)
      if (k.getSymName() == kernelName)
        kernel = k;
    if (!kernel)
      return "no kernel named '" + kernelName.str() + "'";
  }
  auto warpsAttr = kernel->getAttrOfType<IntegerAttr>(
      TileDialect::NumWarpsAttrHelper::getNameStr());
  unsigned numWarps = warpsAttr ? warpsAttr.getInt() : 4;

  SmallVector<NamedTile> tiles;
  std::set<std::string> tileNames;
  SmallVector<std::string> sharedEncodings;
  bool scalar = false;
  kernel.walk([&](Operation *op) {
    SmallVector<StringRef> names;
    namesOf(op, names);
    for (StringRef n : names)
      if (llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
        tileNames.insert(n.str());
    if (!llvm::is_contained(names, name))
      return;
    for (Value operand : op->getOperands())
      if (auto alloc = operand.getDefiningOp<SharedAllocOp>())
        if (!llvm::is_contained(sharedEncodings,
                                typeString(Attribute(alloc.getEncoding()))))
          sharedEncodings.push_back(typeString(Attribute(alloc.getEncoding())));
    // A load staged in shared memory is a copy in the layout of its
    // addresses, then a shared_load into the layout its users need.
    SmallVector<Type> types(op->getResultTypes());
    if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      auto ptrs = cast<RankedTensorType>(copy.getPtr().getType());
      types.push_back(ptrs.clone(
          cast<PointerType>(ptrs.getElementType()).getPointeeType()));
    }
    for (Type type : types) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor) {
        scalar = true;
        continue;
      }
      auto *it = llvm::find_if(
          tiles, [&](const NamedTile &t) { return t.type == tensor; });
      if (it == tiles.end())
        it = &tiles.emplace_back(NamedTile{tensor, {}});
      std::string producer = describeProducer(op);
      if (!llvm::is_contained(it->producers, producer))
        it->producers.push_back(producer);
    }
  });
  if (tiles.empty()) {
    if (scalar)
      return "'" + name.str() +
             "' is a scalar, which every thread holds; --explain-layout "
             "draws tiles";
    return "no tile named '" + name.str() + "' in kernel '" +
           kernel.getSymName().str() +
           "' (named tiles: " + llvm::join(tileNames, ", ") + ")";
  }

  SmallVector<SmallVector<HeldElement>> allElements;
  SmallVector<OwnerGrid> grids;
  for (const NamedTile &tile : tiles) {
    if (tile.type.getRank() > 2)
      return "'" + name.str() + "' has rank " +
             std::to_string(tile.type.getRank()) +
             "; --explain-layout draws 1-D and 2-D tiles";
    FailureOr<SmallVector<HeldElement>> elements =
        getHeldElements(tile.type, numWarps);
    if (failed(elements))
      return "'" + name.str() +
             "' has a layout --explain-layout cannot draw: " +
             describeLayout(tile.type);
    grids.push_back(buildGrid(tile.type, *elements, numWarps));
    allElements.push_back(std::move(*elements));
  }

  std::string staged;
  if (!sharedEncodings.empty())
    staged = name.str() + " is staged in shared memory as " +
             llvm::join(sharedEncodings, " and ");
  if (picture == LayoutPicture::Text) {
    if (!staged.empty())
      os << staged << "\n\n";
    for (auto [i, tile] : llvm::enumerate(tiles)) {
      if (i)
        os << "\n";
      printText(tile, name, allElements[i], grids[i], os);
    }
    return "";
  }
  int64_t height = staged.empty() ? 0 : 24, width = 0;
  for (const OwnerGrid &grid : grids) {
    auto [h, w] = svgSize(grid);
    height += h;
    width = std::max(width, w);
  }
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height
     << "\" font-family=\"monospace\" font-size=\"11\">\n";
  int64_t top = 0;
  if (!staged.empty()) {
    os << "<text x=\"4\" y=\"16\">" << escapeXml(staged) << "</text>\n";
    top = 24;
  }
  for (auto [i, tile] : llvm::enumerate(tiles)) {
    printSVG(tile, name, allElements[i], grids[i], top, os);
    top += svgSize(grids[i]).first;
  }
  os << "</svg>\n";
  return "";
}
