//===- TestPasses.h - passes that exist for lit tests -----------*- C++ -*-===//
#ifndef TILE_TEST_LIB_TESTPASSES_H
#define TILE_TEST_LIB_TESTPASSES_H

namespace tile::test {
/// Registers the test-only passes (tile-opt links them; no other tool does).
void registerTestPasses();
} // namespace tile::test

#endif // TILE_TEST_LIB_TESTPASSES_H
