//===- CacheTest.cpp - the on-disk kernel cache ---------------------------===//
#include "tile/Runtime/Cache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <thread>
#include <vector>

using namespace tile;

namespace {

/// A fresh temporary directory, removed afterwards.
struct TempDir {
  TempDir() {
    llvm::SmallString<128> p;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tile-cache-test", p));
    path = std::string(p);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string path;
};

void writeFile(const std::string &path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << contents;
}

std::string entryPath(const DiskCache &cache, llvm::StringRef key) {
  llvm::SmallString<256> p(cache.directory());
  llvm::sys::path::append(p, key + ".ptx");
  return std::string(p);
}

/// Sets the modification time of `path` to `secondsAgo` before now.
void age(const std::string &path, int secondsAgo) {
  int fd;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
      path, fd, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append));
  llvm::sys::fs::file_t file = llvm::sys::fs::convertFDToNativeFile(fd);
  EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      file, std::chrono::system_clock::now() - std::chrono::seconds(secondsAgo)));
  llvm::sys::fs::closeFile(file);
}

TEST(DiskCache, PrunesLeastRecentlyUsedFirst) {
  TempDir dir;
  DiskCache cache(dir.path);
  std::vector<std::string> keys;
  for (int i = 0; i < 3; ++i) {
    keys.push_back(DiskCache::makeKey({"entry", std::to_string(i)}));
    ASSERT_TRUE(cache.put(keys.back(), std::string(1000, 'a' + i)));
  }
  // Entry 0 is the oldest, but a hit renews it: entry 1 is then the least
  // recently used and goes first.
  age(entryPath(cache, keys[0]), 300);
  age(entryPath(cache, keys[1]), 200);
  age(entryPath(cache, keys[2]), 100);
  ASSERT_TRUE(cache.get(keys[0]).has_value());
  uint64_t entryBytes;
  ASSERT_FALSE(llvm::sys::fs::file_size(entryPath(cache, keys[2]), entryBytes));
  EXPECT_EQ(cache.prune(2 * entryBytes), 1u);
  EXPECT_TRUE(cache.get(keys[0]).has_value());
  EXPECT_FALSE(cache.get(keys[1]).has_value());
  EXPECT_TRUE(cache.get(keys[2]).has_value());
  // A stale temporary file goes too; clear() removes everything.
  writeFile(dir.path + "/x.tmp-12345678", "partial");
  age(dir.path + "/x.tmp-12345678", 7200);
  EXPECT_EQ(cache.prune(UINT64_MAX), 1u);
  EXPECT_EQ(cache.clear(), 2u);
  EXPECT_FALSE(cache.get(keys[0]).has_value());
  EXPECT_FALSE(cache.get(keys[2]).has_value());
}

TEST(DiskCache, PutKeepsTheCacheUnderItsCap) {
  TempDir dir;
  setenv("TILE_CACHE_MAX_MB", "1", 1);
  DiskCache cache(dir.path);
  std::string payload(300 << 10, 'p'); // 300 KiB: three fit in 1 MiB
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(cache.put(DiskCache::makeKey({std::to_string(i)}), payload));
  unsetenv("TILE_CACHE_MAX_MB");
  int present = 0;
  for (int i = 0; i < 5; ++i)
    present += cache.get(DiskCache::makeKey({std::to_string(i)})).has_value();
  EXPECT_EQ(present, 3);
}

TEST(DiskCache, KeysAreStableAndSensitive) {
  std::string k = DiskCache::makeKey({"source", "BLOCK=1024", "sm_90", "v1"});
  EXPECT_EQ(k.size(), 64u);
  EXPECT_EQ(k, DiskCache::makeKey({"source", "BLOCK=1024", "sm_90", "v1"}));
  EXPECT_NE(k, DiskCache::makeKey({"source", "BLOCK=512", "sm_90", "v1"}));
  EXPECT_NE(k, DiskCache::makeKey({"source", "BLOCK=1024", "sm_80", "v1"}));
  // Parts are delimited: moving a character between parts changes the key.
  EXPECT_NE(DiskCache::makeKey({"ab", "c"}), DiskCache::makeKey({"a", "bc"}));
}

TEST(DiskCache, RoundTripAndMiss) {
  TempDir dir;
  DiskCache cache(dir.path + "/nested/cache");
  std::string key = DiskCache::makeKey({"k"});
  EXPECT_FALSE(cache.get(key).has_value());
  std::string payload = "//\n// Generated PTX\n.version 8.0\n";
  payload += std::string(1, '\0') + "binary-safe";
  ASSERT_TRUE(cache.put(key, payload));
  EXPECT_EQ(cache.get(key), payload);
  // A second cache object (another process) sees the entry.
  EXPECT_EQ(DiskCache(cache.directory()).get(key), payload);
}

TEST(DiskCache, TruncatedAndGarbageEntriesAreDetectedAndRemoved) {
  TempDir dir;
  DiskCache cache(dir.path);
  std::string key = DiskCache::makeKey({"k"});
  ASSERT_TRUE(cache.put(key, "a payload of some length"));
  std::string path = entryPath(cache, key);
  auto full = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(full));
  std::string contents = (*full)->getBuffer().str();

  // Every truncation is rejected.
  for (size_t cut = 0; cut < contents.size(); ++cut) {
    writeFile(path, llvm::StringRef(contents).take_front(cut));
    EXPECT_FALSE(cache.get(key).has_value()) << "cut at " << cut;
    EXPECT_FALSE(llvm::sys::fs::exists(path)) << "corrupt entry kept";
  }
  // A flipped payload byte (same size) fails the checksum.
  std::string flipped = contents;
  flipped.back() ^= 1;
  writeFile(path, flipped);
  EXPECT_FALSE(cache.get(key).has_value());
  // Garbage.
  writeFile(path, "\x7f" "ELF garbage\n\n");
  EXPECT_FALSE(cache.get(key).has_value());
  // After detection the entry is rebuilt normally.
  ASSERT_TRUE(cache.put(key, "rebuilt"));
  EXPECT_EQ(cache.get(key), "rebuilt");
}

TEST(DiskCache, UnwritableDirectoryDegradesToNoCache) {
  TempDir dir;
  // A regular file where the directory should be: not writable even as root.
  std::string blocker = dir.path + "/file";
  writeFile(blocker, "not a directory");
  DiskCache cache(blocker + "/cache");
  testing::internal::CaptureStderr();
  EXPECT_FALSE(cache.put("k1", "x"));
  EXPECT_FALSE(cache.put("k2", "y"));
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("tile: warning: cannot write the kernel cache in"),
            std::string::npos)
      << err;
  // Warned once, not per entry.
  EXPECT_EQ(err.find("warning", err.find("warning") + 1), std::string::npos);
  EXPECT_FALSE(cache.get("k1").has_value());
}

TEST(DiskCache, ConcurrentWritersNeverExposePartialEntries) {
  TempDir dir;
  std::string key = DiskCache::makeKey({"shared"});
  // Payloads of different sizes, each identifiable.
  auto payloadFor = [](int writer, int round) {
    return std::string(1000 + 97 * writer + round, char('a' + writer));
  };
  std::atomic<bool> done{false};
  std::atomic<int> badReads{0}, goodReads{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 4; ++w)
    threads.emplace_back([&, w] {
      DiskCache cache(dir.path);
      for (int r = 0; r < 100; ++r)
        EXPECT_TRUE(cache.put(key, payloadFor(w, r)));
    });
  std::thread reader([&] {
    DiskCache cache(dir.path);
    // At least one read after the writers finished, when an entry exists.
    bool last = false;
    while (!last) {
      last = done;
      std::optional<std::string> v = cache.get(key);
      if (!v)
        continue;
      // Whole payload of one writer: one repeated character, right length.
      char c = (*v)[0];
      int w = c - 'a';
      bool ok = w >= 0 && w < 4 &&
                v->find_first_not_of(c) == std::string::npos &&
                v->size() >= size_t(1000 + 97 * w) &&
                v->size() < size_t(1000 + 97 * w + 100);
      (ok ? goodReads : badReads)++;
    }
  });
  for (auto &t : threads)
    t.join();
  done = true;
  reader.join();
  EXPECT_EQ(badReads.load(), 0);
  EXPECT_GT(goodReads.load(), 0);
  // No temporary files are left behind.
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(dir.path, ec), end; it != end && !ec;
       it.increment(ec))
    ++files;
  EXPECT_EQ(files, 1);
}

TEST(DiskCache, DefaultDirectoryHonoursEnvironment) {
  // Restore the environment for the tests that run after this one.
  struct Saved {
    explicit Saved(const char *name) : name(name) {
      if (const char *v = std::getenv(name))
        value = v;
    }
    ~Saved() {
      if (value)
        setenv(name, value->c_str(), 1);
      else
        unsetenv(name);
    }
    const char *name;
    std::optional<std::string> value;
  } savedCacheDir("TILE_CACHE_DIR"), savedHome("HOME");
  setenv("TILE_CACHE_DIR", "/some/where", 1);
  EXPECT_EQ(DiskCache::defaultDirectory(), "/some/where");
  unsetenv("TILE_CACHE_DIR");
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(DiskCache::defaultDirectory(), "/home/u/.cache/tile");
}

} // namespace
