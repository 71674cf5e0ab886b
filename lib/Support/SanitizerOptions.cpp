//===- SanitizerOptions.cpp - defaults of the sanitizer runtime -----------===//
//
// Linked into every executable of a -DTILE_ENABLE_SANITIZERS=ON build.
//
// LLVM's BumpPtrAllocator poisons and unpoisons its slabs (ASan "user
// poisoning") in code compiled with ASan. Our instrumented code and Debian's
// uninstrumented libMLIR.so share those allocators, so memory poisoned by the
// one and handed out by the other is reported as use-after-poison although
// it is live (seen with the IR fuzzer). Real overflows and uses after free
// are still caught.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
