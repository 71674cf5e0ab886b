//===- TileCImpl.h - shared pieces of the C interface -----------*- C++ -*-===//
#ifndef TILE_RUNTIME_CAPI_TILECIMPL_H
#define TILE_RUNTIME_CAPI_TILECIMPL_H

#include "tile-c/tile.h"

#include "tile/Driver/Driver.h"
#include "tile/Runtime/Runtime.h"

#include <string>
#include <vector>

namespace tile::capi {

/// Records `message` as the thread's last error and returns `status`.
tile_status fail(tile_status status, std::string message);

/// Reads C compile options into the runtime's (null: defaults).
tile_status readOptions(const tile_compile_options *options,
                        ConstValues &constants, ModuleOptions &module);

/// Reads C compile options into the driver's, for the calls that compile
/// without a runtime (describe, run_cpu).
tile_status readCompileOptions(const tile_compile_options *options,
                               CompileOptions &compile);

/// Converts C launch arguments to the runtime's, checked against `info`:
/// count, kinds, and integer ranges (an i64 value for an i32 parameter must
/// fit); floats are rounded to the parameter's width.
tile_status convertArgs(const KernelInfo &info, const tile_arg *args,
                        size_t numArgs, std::vector<Arg> &out);

} // namespace tile::capi

#endif // TILE_RUNTIME_CAPI_TILECIMPL_H
