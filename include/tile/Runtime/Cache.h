//===- Cache.h - on-disk cache of compiled kernels --------------*- C++ -*-===//
//
// Compiled PTX is cached on disk, keyed by everything that determines it
// (source, constants, specialization, arch, compiler version). Entries are
// written atomically (a temporary file, then rename), so concurrent
// processes never read a partial entry; each entry carries its size and a
// SHA-256 of its payload, so a truncated or garbage file is detected, removed
// and rebuilt. An unwritable directory degrades to no caching with one
// warning.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_RUNTIME_CACHE_H
#define TILE_RUNTIME_CACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <optional>
#include <string>

namespace tile {

class DiskCache {
public:
  /// A cache in `directory`; empty means `defaultDirectory()`.
  explicit DiskCache(std::string directory = "");

  /// `$TILE_CACHE_DIR`, else `$HOME/.cache/tile`, else `/tmp/tile-cache`.
  static std::string defaultDirectory();

  /// A key (64 hex digits) for the parts that determine an artifact. Parts
  /// are length-prefixed, so ("ab", "c") and ("a", "bc") differ.
  static std::string makeKey(llvm::ArrayRef<llvm::StringRef> parts);

  /// The payload stored under `key`, or nullopt if there is none. A corrupt
  /// entry (bad header, wrong size or checksum) is removed and reported as
  /// absent.
  std::optional<std::string> get(llvm::StringRef key) const;

  /// Stores `payload` under `key` atomically; false if the cache directory
  /// cannot be written (a warning is printed the first time). Then prunes
  /// the directory to `maxBytes()`.
  bool put(llvm::StringRef key, llvm::StringRef payload);

  /// The size cap: `$TILE_CACHE_MAX_MB` megabytes if set, else 1024.
  static uint64_t maxBytes();
  /// Removes the least recently used entries (by modification time, which
  /// a hit renews) until the entries take at most `limit` bytes; returns
  /// how many were removed. Leftover temporary files go too.
  unsigned prune(uint64_t limit) const;
  /// Removes every entry (prune to 0); returns how many.
  unsigned clear() const { return prune(0); }

  const std::string &directory() const { return dir; }

private:
  std::string pathFor(llvm::StringRef key) const;

  std::string dir;
  /// The one warning was printed (puts may run on several threads).
  std::atomic<bool> warned = false;
};

} // namespace tile

#endif // TILE_RUNTIME_CACHE_H
