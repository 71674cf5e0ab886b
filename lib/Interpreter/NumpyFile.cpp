//===- NumpyFile.cpp - host buffers from and to .npy and raw files --------===//
//
// The .npy format (numpy.lib.format): the magic "\x93NUMPY", a version, the
// header's length (2 bytes in 1.0, 4 in 2.0 and 3.0) and a Python dict
// literal {'descr': '<f4', 'fortran_order': False, 'shape': (N,), } padded
// with spaces to a multiple of 64 bytes; then the elements.
//
//===----------------------------------------------------------------------===//
#include "tile/Interpreter/NumpyFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace tile;
using namespace tile::interp;

const char *interp::numpyDescr(ScalarKind kind, bool isUnsigned) {
  if (isUnsigned)
    switch (kind) {
    case ScalarKind::I8:
      return "|u1";
    case ScalarKind::I16:
      return "<u2";
    case ScalarKind::I32:
      return "<u4";
    case ScalarKind::I64:
      return "<u8";
    default:
      break;
    }
  switch (kind) {
  case ScalarKind::I1:
    return "|b1";
  case ScalarKind::I8:
    return "|i1";
  case ScalarKind::I16:
    return "<i2";
  case ScalarKind::I32:
    return "<i4";
  case ScalarKind::I64:
    return "<i8";
  case ScalarKind::F16:
    return "<f2";
  case ScalarKind::BF16:
    return nullptr;
  case ScalarKind::F32:
    return "<f4";
  case ScalarKind::F64:
    return "<f8";
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return nullptr;
  }
  return nullptr;
}

/// The value of `'key': ...` in a header dict, up to the next ',' at depth 0
/// (or the closing brace); empty when absent.
static StringRef headerField(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return {};
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return {};
  rest = rest.ltrim();
  int depth = 0;
  size_t end = 0;
  for (; end < rest.size(); ++end) {
    char c = rest[end];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  return rest.take_front(end).trim();
}

std::unique_ptr<HostBuffer> interp::readBufferFile(StringRef path,
                                                   ScalarKind kind,
                                                   std::string &error,
                                                   bool isUnsigned) {
  auto file = MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
  if (!file) {
    error = "cannot read '" + path.str() + "': " + file.getError().message();
    return nullptr;
  }
  StringRef bytes = (*file)->getBuffer();
  size_t elemBytes = scalarKindBytes(kind);
  StringRef data = bytes;
  if (path.ends_with(".npy")) {
    auto bad = [&](const Twine &why) {
      error =
          ("'" + path + "' is not a .npy file of this kernel's type: " + why)
              .str();
      return nullptr;
    };
    if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
      return bad("no NumPy magic");
    unsigned major = static_cast<uint8_t>(bytes[6]);
    size_t lengthBytes = major == 1 ? 2 : 4;
    if (major < 1 || major > 3 || bytes.size() < 8 + lengthBytes)
      return bad("format version " + Twine(major));
    size_t headerLength = 0;
    for (size_t i = 0; i < lengthBytes; ++i)
      headerLength |= size_t(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    size_t start = 8 + lengthBytes + headerLength;
    if (start > bytes.size())
      return bad("truncated header");
    StringRef header = bytes.slice(8 + lengthBytes, start);
    StringRef descr = headerField(header, "descr").trim("'\"");
    const char *want = numpyDescr(kind, isUnsigned);
    if (!want)
      return bad(std::string(scalarKindName(kind)) +
                 " has no NumPy dtype (give a raw .bin file)");
    // NumPy writes '<' or '|' for one-byte types; accept either.
    if (descr.drop_front() != StringRef(want).drop_front() ||
        (descr[0] != '<' && descr[0] != '|'))
      return bad("dtype " + descr + ", the parameter needs " + want);
    if (headerField(header, "fortran_order") == "True")
      return bad("Fortran order (save it with np.ascontiguousarray)");
    data = bytes.drop_front(start);
    StringRef shape = headerField(header, "shape").trim("()");
    size_t count = 1;
    SmallVector<StringRef> dims;
    shape.split(dims, ',', -1, /*KeepEmpty=*/false);
    for (StringRef dim : dims) {
      size_t d;
      if (dim.trim().getAsInteger(10, d))
        return bad("shape (" + shape + ")");
      count *= d;
    }
    if (data.size() != count * elemBytes)
      return bad("shape (" + shape + ") needs " + Twine(count * elemBytes) +
                 " bytes of data, the file has " + Twine(data.size()));
  } else if (data.size() % elemBytes != 0) {
    error = "'" + path.str() + "' has " + std::to_string(data.size()) +
            " bytes, not a whole number of " + std::to_string(elemBytes) +
            "-byte elements";
    return nullptr;
  }
  if (data.empty()) {
    error = "'" + path.str() + "' holds no elements";
    return nullptr;
  }
  auto buffer = std::make_unique<HostBuffer>(kind, data.size() / elemBytes);
  buffer->setUnsigned(isUnsigned);
  std::memcpy(buffer->data(), data.data(), data.size());
  if (kind == ScalarKind::I1) // Any nonzero byte is true.
    for (size_t i = 0; i < buffer->size(); ++i)
      buffer->data()[i] = buffer->data()[i] != 0;
  return buffer;
}

bool interp::writeBufferFile(StringRef path, const HostBuffer &buffer, bool npy,
                             std::string &error) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return false;
  }
  if (npy) {
    std::string header =
        "{'descr': '" +
        std::string(numpyDescr(buffer.kind(), buffer.isUnsigned())) +
        "', 'fortran_order': False, 'shape': (" +
        std::to_string(buffer.size()) + ",), }";
    // Magic, version and length take 10 bytes; pad to a multiple of 64.
    size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
    header.append(total - 10 - header.size() - 1, ' ');
    header += '\n';
    os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xFF)
       << char(header.size() >> 8) << header;
  }
  os.write(reinterpret_cast<const char *>(buffer.data()), buffer.byteSize());
  os.close();
  if (os.has_error()) {
    error = "cannot write '" + path.str() + "': " + os.error().message();
    os.clear_error();
    return false;
  }
  return true;
}
