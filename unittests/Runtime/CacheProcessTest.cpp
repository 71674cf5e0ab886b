//===- CacheProcessTest.cpp - many processes compiling into one cache -----===//
//
// Processes (fork) compile the same and different kernels into one cache
// directory at once, reading each other's entries; every read must be a
// complete entry equal to what the reader compiled itself.
//
//===----------------------------------------------------------------------===//
#include "tile/Driver/Driver.h"
#include "tile/Runtime/Cache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

using namespace tile;

namespace {

struct Variant {
  std::string file, constant, value;
};

std::string compileVariant(const Variant &v) {
  auto source = llvm::MemoryBuffer::getFile(std::string(TILE_EXAMPLES_DIR) +
                                            "/" + v.file);
  if (!source)
    return "";
  CompileOptions options;
  options.constants[v.constant] = v.value;
  CompiledModule compiled;
  std::string errors;
  if (!compileToPTX((*source)->getBuffer(), v.file, options, compiled, errors))
    return "";
  return compiled.ptx;
}

/// A child's work: compile every variant, then `rounds` times per variant
/// read the shared entry (it must equal our own compile) or write it.
/// Returns the process exit status.
int child(const std::string &dir, const std::vector<Variant> &variants,
          int index, int rounds) {
  DiskCache cache(dir);
  std::vector<std::string> ptx;
  for (const Variant &v : variants) {
    ptx.push_back(compileVariant(v));
    if (ptx.back().empty())
      return 2;
  }
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < variants.size(); ++i) {
      size_t k = (i + index) % variants.size();
      std::string key = DiskCache::makeKey(
          {variants[k].file, variants[k].constant, variants[k].value});
      if (std::optional<std::string> hit = cache.get(key)) {
        if (*hit != ptx[k])
          return 3;
      } else if (!cache.put(key, ptx[k])) {
        return 4;
      }
    }
  return 0;
}

TEST(CacheProcessTest, ManyProcessesCompileIntoOneDirectory) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tile-cache-procs", dir));
  std::vector<Variant> variants = {{"vector_add.tile", "BLOCK", "256"},
                                   {"vector_add.tile", "BLOCK", "1024"},
                                   {"softmax.tile", "BLOCK", "512"},
                                   {"softmax.tile", "BLOCK", "2048"}};
  const int processes = 6, rounds = 25;
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
      _exit(child(dir.str().str(), variants, p, rounds));
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    // 2: compile failed, 3: a read differed from the reader's own compile,
    // 4: a write failed.
    EXPECT_EQ(WEXITSTATUS(status), 0) << "child " << pid;
  }
  // Every entry left behind is complete and right.
  DiskCache cache(dir.str().str());
  for (const Variant &v : variants) {
    std::optional<std::string> entry =
        cache.get(DiskCache::makeKey({v.file, v.constant, v.value}));
    ASSERT_TRUE(entry) << v.file << " " << v.value;
    EXPECT_EQ(*entry, compileVariant(v));
  }
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
