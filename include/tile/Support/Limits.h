//===- Limits.h - targets and hardware limits, one home ---------*- C++ -*-===//
#ifndef TILE_SUPPORT_LIMITS_H
#define TILE_SUPPORT_LIMITS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tile {

/// Shared memory one block may use on sm_90 when it opts in (227 KiB): the
/// default of the passes' `max-shared-bytes` options and of PipelineOptions
/// (tilec and the runtime pass the arch's limit, maxSharedBytesPerBlock).
inline constexpr int64_t kSm90MaxSharedBytes = 227 * 1024;
/// The same on sm_80 (163 KiB).
inline constexpr int64_t kSm80MaxSharedBytes = 163 * 1024;
/// Warps per program instance: a power of two, at most 1024 threads.
inline constexpr unsigned kMaxNumWarps = 32;
/// Elements of one tile a thread may hold: twice the 255 registers a thread
/// has, so a tile that spills a little still compiles, while the lowering
/// (one value per element) and LLVM do not run for minutes on tiles no
/// thread can hold.
inline constexpr int64_t kMaxElementsPerThread = 512;

/// GPU architectures tilec and the runtime compile for.
inline bool isSupportedArch(llvm::StringRef arch) {
  return arch == "sm_80" || arch == "sm_90" || arch == "sm_90a";
}
/// The supported architectures, for messages.
inline llvm::StringRef supportedArchList() { return "sm_80, sm_90, sm_90a"; }

/// The shared memory one block may use on `arch` when it opts in.
inline int64_t maxSharedBytesPerBlock(llvm::StringRef arch) {
  return arch.starts_with("sm_8") ? kSm80MaxSharedBytes : kSm90MaxSharedBytes;
}

} // namespace tile

#endif // TILE_SUPPORT_LIMITS_H
