// Uses the installed C++ runtime API: compiles nothing without a GPU, but
// links, asks for one and, if there is one, launches vector_add.
#include "tile/Runtime/Runtime.h"

#include <cstdio>
#include <string>

int main() {
  std::string why;
  if (!tile::Runtime::isAvailable(&why)) {
    std::printf("consumer_cpp: no GPU (%s)\n", why.c_str());
    return 0;
  }
  tile::Runtime rt;
  tile::Module m = rt.compileSource(
      "kernel fill(out: ptr<f32>, v: f32) {\n"
      "  store(out + range(0, 128), full([128], 0.0, f32) + v);\n"
      "}\n",
      "fill.tile");
  tile::Buffer out = rt.alloc(128 * sizeof(float));
  m.kernel("fill").launch({1}, out, 2.5f);
  float host[128];
  out.download(host, sizeof(host));
  for (float v : host)
    if (v != 2.5f)
      return 1;
  std::printf("consumer_cpp: %s ok\n", rt.deviceName().c_str());
  return 0;
}
