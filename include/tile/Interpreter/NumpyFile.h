//===- NumpyFile.h - host buffers from and to .npy and raw files -*- C++
//-*-===//
#ifndef TILE_INTERPRETER_NUMPYFILE_H
#define TILE_INTERPRETER_NUMPYFILE_H

#include "tile/Interpreter/Interpreter.h"

#include <memory>
#include <string>

namespace tile::interp {

/// NumPy's dtype string for a kind ("<f4"); null for bf16, which has none.
/// With `isUnsigned`, the unsigned integer dtype of the kind's width ("<u4").
const char *numpyDescr(ScalarKind kind, bool isUnsigned = false);

/// Reads a buffer of `kind` from `path`: a .npy file (format 1.0 to 3.0,
/// C order, whose dtype must be the kind's) or, for any other name, raw
/// little-endian elements (the size a multiple of the element's). Null with
/// `error` set when the file cannot be read or does not fit. With
/// `isUnsigned` a .npy file must hold the unsigned dtype of the kind's width
/// and the buffer is marked unsigned.
std::unique_ptr<HostBuffer> readBufferFile(llvm::StringRef path,
                                           ScalarKind kind, std::string &error,
                                           bool isUnsigned = false);

/// Writes `buffer` to `path`, as .npy (1-D, format 1.0) when `npy`, else as
/// raw bytes. False with `error` set on failure.
bool writeBufferFile(llvm::StringRef path, const HostBuffer &buffer, bool npy,
                     std::string &error);

} // namespace tile::interp

#endif // TILE_INTERPRETER_NUMPYFILE_H
