//===- RunCommand.cpp - `tilec --run`: a kernel on generated inputs -------===//
#include "tile/Interpreter/RunCommand.h"

#include "tile/Interpreter/Interpreter.h"

#include "tile/Interpreter/NumpyFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <memory>
#include <random>

using namespace mlir;
using namespace tile;
using namespace tile::interp;

/// A parameter type as the language writes it: `ptr<f32>`, `i32`.
static std::string describeType(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto ptr = dyn_cast<PointerType>(type))
    return "ptr<" + describeType(ptr.getPointeeType()) + ">";
  if (type.isUnsignedInteger())
    os << "u" << type.getIntOrFloatBitWidth();
  else
    os << type;
  return s;
}

/// Parses "X[,Y[,Z]]".
static FailureOr<std::array<int64_t, 3>> parseGrid(StringRef spec) {
  std::array<int64_t, 3> grid = {1, 1, 1};
  SmallVector<StringRef> parts;
  spec.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return failure();
  for (auto [i, part] : llvm::enumerate(parts))
    if (part.trim().getAsInteger(10, grid[i]) || grid[i] < 1)
      return failure();
  return grid;
}

/// Makes the buffer described by `spec` (rand:N, zeros:N, iota:N, fill:V:N,
/// file:PATH). Null for a malformed spec; null with `fileError` set for a
/// file that cannot be used.
static std::unique_ptr<HostBuffer> makeBuffer(StringRef spec, ScalarKind kind,
                                              bool isUnsigned,
                                              std::mt19937_64 &rng,
                                              std::string &fileError) {
  if (spec.consume_front("file:"))
    return readBufferFile(spec, kind, fileError, isUnsigned);
  SmallVector<StringRef> parts;
  spec.split(parts, ':');
  size_t size;
  if (parts.size() < 2 || parts.back().getAsInteger(10, size) || size == 0 ||
      size > (size_t(1) << 30))
    return nullptr;
  auto buffer = std::make_unique<HostBuffer>(kind, size);
  buffer->setUnsigned(isUnsigned);
  StringRef what = parts[0];
  if (what == "zeros" && parts.size() == 2)
    return buffer;
  if (what == "iota" && parts.size() == 2) {
    for (size_t i = 0; i < size; ++i)
      buffer->setInt(i, static_cast<int64_t>(i));
    return buffer;
  }
  if (what == "fill" && parts.size() == 3) {
    double v;
    if (parts[1].getAsDouble(v))
      return nullptr;
    buffer->fill(v);
    return buffer;
  }
  if (what == "rand" && parts.size() == 2) {
    std::uniform_real_distribution<double> real(-1.0, 1.0);
    std::uniform_int_distribution<int64_t> integer(isUnsigned ? 0 : -100,
                                                   isUnsigned ? 200 : 100);
    for (size_t i = 0; i < size; ++i) {
      if (buffer->isFloat())
        buffer->setFloat(i, real(rng));
      else
        buffer->setInt(i, kind == ScalarKind::I1 ? integer(rng) & 1
                                                 : integer(rng));
    }
    return buffer;
  }
  return nullptr;
}

static void printBuffer(llvm::raw_ostream &os, StringRef name,
                        const HostBuffer &buffer, bool all) {
  std::string kindName = scalarKindName(buffer.kind());
  if (buffer.isUnsigned()) // i32 -> u32
    kindName[0] = 'u';
  os << name << ": " << kindName << "[" << buffer.size() << "]";
  auto element = [&](size_t i) {
    if (buffer.isFloat())
      os << llvm::format("%g", buffer.getFloat(i));
    else if (buffer.isUnsigned())
      os << buffer.getUnsigned(i);
    else
      os << buffer.getInt(i);
  };
  if (all) {
    os << " =";
    for (size_t i = 0; i < buffer.size(); ++i) {
      os << " ";
      element(i);
    }
    os << "\n";
    return;
  }
  double sum = 0, lo = INFINITY, hi = -INFINITY;
  size_t nans = 0;
  for (size_t i = 0; i < buffer.size(); ++i) {
    double v = buffer.isUnsigned() ? double(buffer.getUnsigned(i))
                                   : buffer.getFloat(i);
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    sum += v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  os << llvm::format(" sum=%.6g min=%g max=%g", sum, lo, hi);
  if (nans)
    os << " nan=" << nans;
  os << " first:";
  for (size_t i = 0; i < std::min<size_t>(8, buffer.size()); ++i) {
    os << " ";
    element(i);
  }
  os << "\n";
}

LogicalResult interp::runCommand(ModuleOp module, const RunOptions &options,
                                 llvm::raw_ostream &os) {
  SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
  KernelOp kernel;
  for (KernelOp k : kernels)
    if (options.kernel.empty() ? kernels.size() == 1
                               : k.getSymName() == options.kernel)
      kernel = k;
  if (!kernel) {
    std::string names;
    for (KernelOp k : kernels)
      names += (names.empty() ? "" : ", ") + k.getSymName().str();
    Location at = kernels.empty() ? module.getLoc() : kernels.front().getLoc();
    if (options.kernel.empty())
      return emitError(at) << "the file has " << kernels.size()
                           << " kernels (" << names
                           << "); choose one with --kernel=NAME";
    return emitError(at) << "no kernel named '" << options.kernel
                         << "' (the file has: " << names << ")";
  }
  FailureOr<std::array<int64_t, 3>> grid = parseGrid(options.grid);
  if (failed(grid))
    return kernel.emitError() << "--grid expects X[,Y[,Z]] of positive "
                                 "integers, got '"
                              << options.grid << "'";

  // Match NAME=VALUE specs to parameters.
  unsigned numParams = kernel.getNumArguments();
  SmallVector<std::string> specs(numParams);
  for (const std::string &arg : options.args) {
    auto [name, value] = StringRef(arg).split('=');
    unsigned i = 0;
    while (i < numParams && kernelParamName(kernel, i) != name)
      ++i;
    if (i == numParams) {
      auto constants = kernel.getConstantsAttr();
      if (constants && constants.get(name))
        return kernel.emitError()
               << "--arg " << arg << ": '" << name
               << "' is a const parameter, set at compile time with -D "
               << name << "=VALUE";
      return kernel.emitError() << "--arg " << arg << ": kernel '"
                                << kernel.getSymName()
                                << "' has no parameter '" << name << "'";
    }
    specs[i] = value.str();
  }

  std::mt19937_64 rng(options.seed);
  SmallVector<std::unique_ptr<HostBuffer>> buffers;
  SmallVector<KernelArg> args;
  // Every missing argument is reported, not only the first.
  bool missing = false;
  for (unsigned i = 0; i < numParams; ++i)
    if (specs[i].empty()) {
      std::string name = kernelParamName(kernel, i);
      kernel.emitError() << "missing --arg " << name << "=... for parameter '"
                         << name << "' ("
                         << describeType(getParamSourceType(
                                kernel.getBody().getArgument(i)))
                         << ")";
      missing = true;
    }
  if (missing)
    return failure();
  for (unsigned i = 0; i < numParams; ++i) {
    std::string name = kernelParamName(kernel, i);
    Type type = getParamSourceType(kernel.getBody().getArgument(i));
    StringRef spec = specs[i];
    if (auto ptr = dyn_cast<PointerType>(type)) {
      std::string fileError;
      auto buffer =
          makeBuffer(spec, *scalarKindOf(ptr.getPointeeType()),
                     ptr.getPointeeType().isUnsignedInteger(), rng, fileError);
      if (!buffer && !fileError.empty())
        return kernel.emitError()
               << "--arg " << name << "=" << spec << ": " << fileError;
      if (!buffer)
        return kernel.emitError()
               << "--arg " << name << "=" << spec
               << ": a pointer needs a buffer: rand:N, zeros:N, iota:N, "
                  "fill:V:N (N > 0) or file:PATH (.npy or raw .bin)";
      args.push_back(KernelArg::ofBuffer(*buffer));
      buffers.push_back(std::move(buffer));
      continue;
    }
    if (isa<FloatType>(type)) {
      double v;
      if (spec.getAsDouble(v))
        return kernel.emitError() << "--arg " << name << "=" << spec
                                  << ": expected a number";
      args.push_back(KernelArg::ofFloat(v));
    } else {
      unsigned width = type.getIntOrFloatBitWidth();
      if (type.isUnsignedInteger()) {
        uint64_t u;
        if (spec.getAsInteger(10, u) || !llvm::isUIntN(width, u))
          return kernel.emitError()
                 << "--arg " << name << "=" << spec << ": out of range for "
                 << describeType(type) << " [0, " << llvm::maxUIntN(width)
                 << "]";
        // The IR's signless integer holds the same bits.
        args.push_back(KernelArg::ofInt(static_cast<int64_t>(u)));
        continue;
      }
      int64_t v;
      if (spec.getAsInteger(10, v))
        return kernel.emitError()
               << "--arg " << name << "=" << spec << ": expected an integer";
      if (width < 64 && !llvm::isIntN(width, v) &&
          !(width == 1 && (v == 0 || v == 1)))
        return kernel.emitError()
               << "--arg " << name << "=" << spec << ": out of range for "
               << describeType(type) << " [" << llvm::minIntN(width) << ", "
               << llvm::maxIntN(width) << "]";
      args.push_back(KernelArg::ofInt(v));
    }
  }

  // Buffers to print, by name; checked before the (maybe long) run.
  SmallVector<std::string> bufferNames;
  for (unsigned i = 0; i < numParams; ++i)
    if (isa<PointerType>(kernel.getArgumentTypes()[i]))
      bufferNames.push_back(kernelParamName(kernel, i));
  for (const std::string &name : options.show)
    if (!llvm::is_contained(bufferNames, name))
      return kernel.emitError()
             << "--show=" << name << ": kernel '" << kernel.getSymName()
             << "' has no pointer parameter '" << name << "'";
  if (!options.dumpDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(options.dumpDir))
      return kernel.emitError() << "--dump=" << options.dumpDir
                                << ": cannot create the directory: "
                                << ec.message();

  if (failed(runKernel(kernel, *grid, args)))
    return failure();
  for (auto [name, buffer] : llvm::zip(bufferNames, buffers)) {
    if (options.show.empty() || llvm::is_contained(options.show, name))
      printBuffer(os, name, *buffer, options.printAll);
    if (options.dumpDir.empty())
      continue;
    bool npy = numpyDescr(buffer->kind(), buffer->isUnsigned()) != nullptr;
    SmallString<128> path(options.dumpDir);
    llvm::sys::path::append(path, name + (npy ? ".npy" : ".bin"));
    std::string error;
    if (!writeBufferFile(path, *buffer, npy, error))
      return kernel.emitError() << "--dump: " << error;
  }
  return success();
}
