//===- Limits.h - hardware limits shared by passes and tools ----*- C++ -*-===//
#ifndef TILE_SUPPORT_LIMITS_H
#define TILE_SUPPORT_LIMITS_H

#include <cstdint>

namespace tile {

/// Shared memory one block may use on sm_90 when it opts in (227 KiB): the
/// default of the passes' `max-shared-bytes` options and of PipelineOptions
/// (tilec and the runtime pass the arch's limit, maxSharedBytesPerBlock).
inline constexpr int64_t kSm90MaxSharedBytes = 227 * 1024;
/// The same on sm_80 (163 KiB).
inline constexpr int64_t kSm80MaxSharedBytes = 163 * 1024;

} // namespace tile

#endif // TILE_SUPPORT_LIMITS_H
