//===- Cache.cpp - on-disk cache of compiled kernels ----------------------===//
#include "tile/Runtime/Cache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <vector>

using namespace tile;

/// First line of every entry: magic, payload size, payload SHA-256.
static constexpr llvm::StringLiteral kMagic = "TILECACHE1";

static std::string sha256Hex(llvm::StringRef data) {
  llvm::SHA256 hash;
  hash.update(data);
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

DiskCache::DiskCache(std::string directory)
    : dir(directory.empty() ? defaultDirectory() : std::move(directory)) {}

std::string DiskCache::defaultDirectory() {
  if (const char *env = std::getenv("TILE_CACHE_DIR"); env && *env)
    return env;
  if (const char *home = std::getenv("HOME"); home && *home) {
    llvm::SmallString<256> path(home);
    llvm::sys::path::append(path, ".cache", "tile");
    return std::string(path);
  }
  return "/tmp/tile-cache";
}

std::string DiskCache::makeKey(llvm::ArrayRef<llvm::StringRef> parts) {
  llvm::SHA256 hash;
  for (llvm::StringRef part : parts) {
    std::string length = std::to_string(part.size()) + ":";
    hash.update(length);
    hash.update(part);
  }
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string DiskCache::pathFor(llvm::StringRef key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ".ptx");
  return std::string(path);
}

std::optional<std::string> DiskCache::get(llvm::StringRef key) const {
  std::string path = pathFor(key);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  llvm::StringRef contents = (*buffer)->getBuffer();
  auto [header, payload] = contents.split('\n');
  llvm::SmallVector<llvm::StringRef, 3> fields;
  header.split(fields, ' ');
  size_t size = 0;
  bool valid = contents.contains('\n') && fields.size() == 3 &&
               fields[0] == kMagic && !fields[1].getAsInteger(10, size) &&
               size == payload.size() && fields[2] == sha256Hex(payload);
  if (!valid) {
    // Corrupt (truncated, garbage, another version): drop it so it is rebuilt.
    llvm::sys::fs::remove(path);
    return std::nullopt;
  }
  // A hit renews the entry for the least-recently-used pruning.
  if (int fd; !llvm::sys::fs::openFileForWrite(path, fd,
                                               llvm::sys::fs::CD_OpenExisting,
                                               llvm::sys::fs::OF_Append)) {
    llvm::sys::fs::file_t file = llvm::sys::fs::convertFDToNativeFile(fd);
    (void)llvm::sys::fs::setLastAccessAndModificationTime(
        file, std::chrono::system_clock::now());
    llvm::sys::fs::closeFile(file);
  }
  return payload.str();
}

uint64_t DiskCache::maxBytes() {
  uint64_t mb = 1024;
  if (const char *env = std::getenv("TILE_CACHE_MAX_MB"); env && *env)
    llvm::StringRef(env).getAsInteger(10, mb);
  return mb << 20;
}

unsigned DiskCache::prune(uint64_t limit) const {
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> modified;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  unsigned removed = 0;
  auto now = std::chrono::system_clock::now();
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
    if (!status)
      continue;
    // Temporary files of writers that died (an hour old; a live writer
    // renames its file within seconds).
    if (name.contains(".tmp-")) {
      if ((limit == 0 || now - status->getLastModificationTime() >
                             std::chrono::hours(1)) &&
          !llvm::sys::fs::remove(it->path()))
        ++removed;
      continue;
    }
    if (!name.ends_with(".ptx"))
      continue;
    entries.push_back(
        {it->path(), status->getSize(), status->getLastModificationTime()});
    total += status->getSize();
  }
  llvm::sort(entries, [](const Entry &a, const Entry &b) {
    return a.modified < b.modified;
  });
  for (const Entry &e : entries) {
    if (total <= limit)
      break;
    if (!llvm::sys::fs::remove(e.path))
      ++removed;
    total -= e.size;
  }
  return removed;
}

bool DiskCache::put(llvm::StringRef key, llvm::StringRef payload) {
  auto warn = [&](const llvm::Twine &why) {
    if (!warned.exchange(true))
      llvm::errs() << "tile: warning: cannot write the kernel cache in '" << dir
                   << "' (" << why << "); continuing without it\n";
    return false;
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return warn(ec.message());
  // Write a private temporary file, then rename it over the entry: readers
  // see the old entry, no entry, or the whole new one.
  int fd;
  llvm::SmallString<256> temp;
  llvm::SmallString<256> model(dir);
  llvm::sys::path::append(model, key + ".tmp-%%%%%%%%");
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
    return warn(ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kMagic << " " << payload.size() << " " << sha256Hex(payload) << "\n"
       << payload;
    os.flush();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return warn("write failed");
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, pathFor(key))) {
    llvm::sys::fs::remove(temp);
    return warn(ec.message());
  }
  prune(maxBytes());
  return true;
}
