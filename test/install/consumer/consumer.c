/* Runs a kernel on the interpreter through an installed libtile. */
#include "tile-c/tile.h"

#include <stdio.h>

int main(void) {
  const char *source = "kernel iota(out: ptr<i32>, n: i32) {\n"
                       "  let r = range(0, 32);\n"
                       "  store(out + r, r * 3, r < n);\n"
                       "}\n";
  int out[20];
  for (int i = 0; i < 20; ++i)
    out[i] = -1;
  tile_cpu_arg args[2] = {{tile_i32(0), out, TILE_I32, 20},
                          {tile_i32(20), NULL, TILE_I32, 0}};
  if (tile_run_cpu(source, "iota.tile", "iota", NULL, tile_grid1(1), args, 2) !=
      TILE_SUCCESS) {
    fprintf(stderr, "%s\n", tile_last_error());
    return 1;
  }
  for (int i = 0; i < 20; ++i)
    if (out[i] != 3 * i) {
      fprintf(stderr, "out[%d] = %d, expected %d\n", i, out[i], 3 * i);
      return 1;
    }
  printf("consumer_c: %s ok\n", tile_version());
  return 0;
}
