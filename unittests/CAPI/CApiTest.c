/* Tests of the C interface (include/tile-c/tile.h), written in C99 so that
 * the header is checked from C. Without arguments: what needs no GPU (the
 * interpreter, compile errors, every misuse error). With --gpu: compiling,
 * signatures, device memory, launches and autotuning on device 0 (exit 77,
 * a skip, when there is no GPU). Inputs are fresh random numbers (the seed
 * is printed), sizes are not multiples of the block, outputs are poisoned
 * with NaN before each run, and references are computed in double. */
#include "tile-c/tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__,  \
              __LINE__, #cond, tile_last_error());                             \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* The call fails with `status` and a last error containing `text`. */
#define CHECK_ERROR(call, status, text)                                        \
  do {                                                                         \
    tile_status s_ = (call);                                                   \
    if (s_ != (status) || !strstr(tile_last_error(), (text))) {                \
      fprintf(stderr,                                                          \
              "%s:%d: expected %s containing \"%s\" from %s, got %s: %s\n",    \
              __FILE__, __LINE__, tile_status_name(status), text, #call,       \
              tile_status_name(s_), tile_last_error());                        \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static unsigned long long rngState;
static double uniform(void) {
  rngState = rngState * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rngState >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static const char *saxpySource =
    "kernel saxpy(x: ptr<f32>, out: ptr<f32>, alpha: f32, n: i32,\n"
    "             const BLOCK: i32 = 256) {\n"
    "  let offs = program_id(0) * BLOCK + range(0, BLOCK);\n"
    "  let mask = offs < n;\n"
    "  store(out + offs, alpha * load(x + offs, mask) + 1.0, mask);\n"
    "}\n"
    "kernel fill(out: ptr<i64>, v: i64, n: i32) {\n"
    "  let offs = range(0, 64);\n"
    "  store(out + offs, full([64], 0, i64) + v, offs < n);\n"
    "}\n";

/* saxpy's reference, rounded as the kernel's f32 arithmetic rounds. */
static float saxpyReference(float alpha, float x) {
  return (float)((double)(float)((double)alpha * x) + 1.0);
}

static void testInterpreter(void) {
  int n = 300 + (int)(uniform() * 100 + 100); /* 300..500: not a multiple */
  float *x = malloc(sizeof(float) * n), *out = malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)uniform();
    out[i] = NAN;
  }
  float alpha = (float)uniform();
  tile_cpu_arg args[4];
  memset(args, 0, sizeof(args));
  args[0].data = x, args[0].dtype = TILE_F32, args[0].count = n;
  args[1].data = out, args[1].dtype = TILE_F32, args[1].count = n;
  args[2].scalar = tile_f64(alpha);
  args[3].scalar = tile_i64(n);
  tile_grid grid = tile_grid1((n + 255) / 256);
  CHECK(tile_run_cpu(saxpySource, "saxpy.tile", "saxpy", NULL, grid, args, 4) ==
        TILE_SUCCESS);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != saxpyReference(alpha, x[i]);
  CHECK(wrong == 0);

  /* A const override: BLOCK=128 needs twice the programs; with the old
   * grid only the first half is written. */
  const char *names[] = {"BLOCK"}, *values[] = {"128"};
  tile_compile_options options;
  memset(&options, 0, sizeof(options));
  options.const_names = names, options.const_values = values;
  options.num_consts = 1;
  for (int i = 0; i < n; ++i)
    out[i] = NAN;
  CHECK(tile_run_cpu(saxpySource, "saxpy.tile", "saxpy", &options, grid, args,
                     4) == TILE_SUCCESS);
  CHECK(out[0] == saxpyReference(alpha, x[0]));
  CHECK(isnan(out[n - 1]));

  /* Misuse. */
  CHECK_ERROR(
      tile_run_cpu(saxpySource, "saxpy.tile", "saxpy", NULL, grid, args, 3),
      TILE_ERROR_INVALID_ARGUMENT, "takes 4 arguments, got 3");
  CHECK_ERROR(
      tile_run_cpu(saxpySource, "saxpy.tile", "nope", NULL, grid, args, 4),
      TILE_ERROR_NOT_FOUND, "no kernel 'nope' (the source has: saxpy, fill)");
  args[1].dtype = TILE_F64;
  CHECK_ERROR(
      tile_run_cpu(saxpySource, "saxpy.tile", "saxpy", NULL, grid, args, 4),
      TILE_ERROR_INVALID_ARGUMENT,
      "argument 2 'out': expected host memory of f32 elements, got f64");
  args[1].dtype = TILE_F32;
  args[3].scalar = tile_i64(4000000000LL);
  CHECK_ERROR(
      tile_run_cpu(saxpySource, "saxpy.tile", "saxpy", NULL, grid, args, 4),
      TILE_ERROR_INVALID_ARGUMENT, "4000000000 does not fit in i32");
  args[3].scalar = tile_f64(1.5);
  CHECK_ERROR(
      tile_run_cpu(saxpySource, "saxpy.tile", "saxpy", NULL, grid, args, 4),
      TILE_ERROR_INVALID_ARGUMENT, "argument 4 'n': expected an integer");
  args[3].scalar = tile_i64(n);
  /* A buffer given fewer elements than the kernel stores to. */
  args[1].count = 10;
  CHECK_ERROR(
      tile_run_cpu(saxpySource, "saxpy.tile", "saxpy", NULL, grid, args, 4),
      TILE_ERROR_INTERPRETER,
      "out-of-bounds store: element 10 of the 10-element buffer of "
      "parameter 'out'");
  args[1].count = n;
  tile_grid empty = {0, 1, 1};
  CHECK_ERROR(
      tile_run_cpu(saxpySource, "saxpy.tile", "saxpy", NULL, empty, args, 4),
      TILE_ERROR_INVALID_ARGUMENT, "grid dimension");
  CHECK_ERROR(tile_run_cpu("kernel k(x: ptr<f32>) { store(x, y); }", "bad.tile",
                           "k", NULL, grid, args, 1),
              TILE_ERROR_COMPILE, "bad.tile:1:");
  CHECK_ERROR(tile_run_cpu(NULL, "x", "k", NULL, grid, args, 1),
              TILE_ERROR_INVALID_ARGUMENT, "null");
  free(x);
  free(out);
}

static void testWithoutDevice(void) {
  CHECK(tile_api_version() == TILE_API_VERSION);
  CHECK(strncmp(tile_version(), "tile-", 5) == 0);
  CHECK(strcmp(tile_status_name(TILE_ERROR_COMPILE), "TILE_ERROR_COMPILE") ==
        0);
  CHECK_ERROR(tile_runtime_create(0, NULL), TILE_ERROR_INVALID_ARGUMENT,
              "`out` is null");
  if (!tile_runtime_available()) {
    tile_runtime *rt = (tile_runtime *)1;
    CHECK_ERROR(tile_runtime_create(0, &rt), TILE_ERROR_NO_DEVICE,
                "no GPU available");
    CHECK(rt == NULL);
  }
  tile_module *m = (tile_module *)1;
  CHECK_ERROR(tile_module_compile_source(NULL, saxpySource, "s", NULL, &m),
              TILE_ERROR_INVALID_ARGUMENT, "the runtime is null");
  CHECK(m == NULL);
  CHECK_ERROR(tile_kernel_launch(NULL, tile_grid1(1), NULL, NULL, 0),
              TILE_ERROR_INVALID_ARGUMENT, "the kernel is null");
  /* A described module: signatures without a GPU, no launches. */
  CHECK(tile_module_describe_source(saxpySource, "saxpy.tile", NULL, &m) ==
        TILE_SUCCESS);
  if (m) {
    tile_kernel *k = NULL;
    size_t count = 0;
    tile_param_info info;
    CHECK(tile_module_num_kernels(m, &count) == TILE_SUCCESS && count == 2);
    CHECK(tile_module_get_kernel(m, "fill", &k) == TILE_SUCCESS);
    CHECK(tile_kernel_param(k, 1, &info) == TILE_SUCCESS &&
          strcmp(info.name, "v") == 0 && info.kind == TILE_PARAM_INT &&
          info.bits == 64);
    tile_arg args[3] = {tile_ptr(0), tile_i64(1), tile_i32(1)};
    CHECK_ERROR(tile_kernel_launch(k, tile_grid1(1), NULL, args, 3),
                TILE_ERROR_NO_DEVICE, "described module");
    CHECK_ERROR(tile_kernel_launch(k, tile_grid1(1), NULL, args, 2),
                TILE_ERROR_INVALID_ARGUMENT,
                "takes 3 arguments (out: ptr<i64>, v: i64, n: i32), got 2");
    tile_kernel_destroy(k);
    const char *cname = NULL, *cvalue = NULL;
    CHECK(tile_module_get_kernel(m, "saxpy", &k) == TILE_SUCCESS);
    CHECK(tile_kernel_num_consts(k, &count) == TILE_SUCCESS && count == 1);
    CHECK(tile_kernel_const(k, 0, &cname, &cvalue) == TILE_SUCCESS &&
          strcmp(cname, "BLOCK") == 0 && strcmp(cvalue, "256") == 0);
    CHECK_ERROR(tile_kernel_const(k, 1, &cname, &cvalue),
                TILE_ERROR_INVALID_ARGUMENT, "has 1 const parameters");
    tile_kernel_destroy(k);
    tile_module_destroy(m);
  }
  CHECK_ERROR(tile_module_describe_source("kernel k() { let x = ; }",
                                          "bad.tile", NULL, &m),
              TILE_ERROR_COMPILE, "bad.tile:1:");
  /* Destroying null handles is allowed, as free(NULL) is. */
  tile_runtime_destroy(NULL);
  tile_module_destroy(NULL);
  tile_kernel_destroy(NULL);
  tile_tuned_kernel_destroy(NULL);
}

static int gridOfBlock(void *user, tile_tuned_kernel *kernel, size_t config,
                       tile_grid *grid) {
  int n = *(int *)user;
  int64_t block = 0;
  if (tile_tuned_kernel_config_value(kernel, config, "BLOCK", &block))
    return 1;
  *grid = tile_grid1((unsigned)((n + block - 1) / block));
  return 0;
}

static void testDevice(tile_runtime *rt) {
  const char *name = NULL, *arch = NULL;
  CHECK(tile_runtime_device(rt, &name, &arch) == TILE_SUCCESS);
  CHECK(name && strlen(name) > 0 && arch && strncmp(arch, "sm_", 3) == 0);

  tile_module *m = NULL;
  CHECK(tile_module_compile_source(rt, saxpySource, "saxpy.tile", NULL, &m) ==
        TILE_SUCCESS);
  if (!m)
    return;
  size_t count = 0;
  const char *kname = NULL;
  CHECK(tile_module_num_kernels(m, &count) == TILE_SUCCESS && count == 2);
  CHECK(tile_module_kernel_name(m, 1, &kname) == TILE_SUCCESS &&
        strcmp(kname, "fill") == 0);
  CHECK_ERROR(tile_module_kernel_name(m, 2, &kname),
              TILE_ERROR_INVALID_ARGUMENT, "out of range");
  tile_kernel *k = NULL;
  CHECK_ERROR(tile_module_get_kernel(m, "nope", &k), TILE_ERROR_NOT_FOUND,
              "it has: saxpy, fill");
  CHECK(tile_module_get_kernel(m, "saxpy", &k) == TILE_SUCCESS);
  /* The kernel keeps its module alive. */
  tile_module_destroy(m);
  if (!k)
    return;
  size_t params = 0;
  tile_param_info info;
  CHECK(tile_kernel_num_params(k, &params) == TILE_SUCCESS && params == 4);
  CHECK(tile_kernel_param(k, 0, &info) == TILE_SUCCESS &&
        strcmp(info.name, "x") == 0 && strcmp(info.type, "ptr<f32>") == 0 &&
        strcmp(info.element_type, "f32") == 0 &&
        info.kind == TILE_PARAM_POINTER && info.bits == 64);
  CHECK(tile_kernel_param(k, 2, &info) == TILE_SUCCESS &&
        info.kind == TILE_PARAM_FLOAT && info.bits == 32);
  CHECK(tile_kernel_param(k, 3, &info) == TILE_SUCCESS &&
        strcmp(info.name, "n") == 0 && info.kind == TILE_PARAM_INT);
  CHECK_ERROR(tile_kernel_param(k, 4, &info), TILE_ERROR_INVALID_ARGUMENT,
              "has 4 parameters");
  const char *cname = NULL, *cvalue = NULL;
  CHECK(tile_kernel_num_consts(k, &count) == TILE_SUCCESS && count == 1);
  CHECK(tile_kernel_const(k, 0, &cname, &cvalue) == TILE_SUCCESS &&
        strcmp(cname, "BLOCK") == 0 && strcmp(cvalue, "256") == 0);
  unsigned warps = 0;
  CHECK(tile_kernel_resources(k, &warps, NULL) == TILE_SUCCESS && warps == 4);

  int n = 5000 + (int)(uniform() * 2000 + 2000); /* not a multiple of 256 */
  size_t bytes = sizeof(float) * n;
  float *x = malloc(bytes), *out = malloc(bytes);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)uniform();
    out[i] = NAN;
  }
  float alpha = (float)uniform();
  uint64_t dx = 0, dout = 0;
  CHECK(tile_malloc(rt, bytes, &dx) == TILE_SUCCESS);
  CHECK(tile_malloc(rt, bytes, &dout) == TILE_SUCCESS);
  CHECK(tile_memcpy_to_device(rt, dx, x, bytes) == TILE_SUCCESS);
  CHECK(tile_memcpy_to_device(rt, dout, out, bytes) == TILE_SUCCESS);
  tile_arg args[4] = {tile_ptr(dx), tile_ptr(dout), tile_f64(alpha),
                      tile_i64(n)};
  CHECK(tile_kernel_launch(k, tile_grid1((n + 255) / 256), NULL, args, 4) ==
        TILE_SUCCESS);
  CHECK(tile_runtime_synchronize(rt) == TILE_SUCCESS);
  CHECK(tile_memcpy_to_host(rt, out, dout, bytes) == TILE_SUCCESS);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != saxpyReference(alpha, x[i]);
  CHECK(wrong == 0);

  /* Launch misuse. */
  CHECK_ERROR(tile_kernel_launch(k, tile_grid1(1), NULL, args, 3),
              TILE_ERROR_INVALID_ARGUMENT,
              "takes 4 arguments (x: ptr<f32>, out: ptr<f32>, alpha: f32, n: "
              "i32), got 3");
  args[0] = tile_i32(0);
  CHECK_ERROR(tile_kernel_launch(k, tile_grid1(1), NULL, args, 4),
              TILE_ERROR_INVALID_ARGUMENT,
              "argument 1 'x' (ptr<f32>): expected a pointer, got an i32");
  args[0] = tile_ptr(dx);
  args[3] = tile_i64(1LL << 40);
  CHECK_ERROR(tile_kernel_launch(k, tile_grid1(1), NULL, args, 4),
              TILE_ERROR_INVALID_ARGUMENT, "does not fit in i32");
  args[3] = tile_f32(2.0f);
  CHECK_ERROR(tile_kernel_launch(k, tile_grid1(1), NULL, args, 4),
              TILE_ERROR_INVALID_ARGUMENT, "expected an integer, got an f32");
  args[3] = tile_i32(n);
  tile_grid zero = {0, 1, 1};
  CHECK_ERROR(tile_kernel_launch(k, zero, NULL, args, 4), TILE_ERROR_CUDA,
              "outside the device's limits");
  CHECK_ERROR(tile_free(rt, dx + 4), TILE_ERROR_INVALID_ARGUMENT,
              "is not an address tile_malloc returned");
  tile_kernel_destroy(k);

  /* Autotuning over BLOCK, the grid from each configuration. */
  tile_tuned_kernel *tuned = NULL;
  const char *key[] = {"n"};
  CHECK(
      tile_tuned_kernel_create(
          rt, saxpySource, "saxpy.tile", "saxpy",
          "BLOCK=128,num_warps=4;BLOCK=512,num_warps=4;BLOCK=1024,num_warps=8",
          key, 1, &tuned) == TILE_SUCCESS);
  if (tuned) {
    size_t configs = 0, choice = 99;
    const char *text = NULL;
    CHECK(tile_tuned_kernel_num_configs(tuned, &configs) == TILE_SUCCESS &&
          configs == 3);
    CHECK(tile_tuned_kernel_config_text(tuned, 1, &text) == TILE_SUCCESS &&
          strstr(text, "BLOCK=512"));
    for (int i = 0; i < n; ++i)
      out[i] = NAN;
    CHECK(tile_memcpy_to_device(rt, dout, out, bytes) == TILE_SUCCESS);
    CHECK(tile_tuned_kernel_launch(tuned, gridOfBlock, &n, NULL, args, 4) ==
          TILE_SUCCESS);
    CHECK(tile_runtime_synchronize(rt) == TILE_SUCCESS);
    CHECK(tile_memcpy_to_host(rt, out, dout, bytes) == TILE_SUCCESS);
    wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += out[i] != saxpyReference(alpha, x[i]);
    CHECK(wrong == 0);
    CHECK(tile_tuned_kernel_last_choice(tuned, &choice) == TILE_SUCCESS &&
          choice < 3);
    CHECK_ERROR(tile_tuned_kernel_config_value(tuned, 0, "BM", &(int64_t){0}),
                TILE_ERROR_NOT_FOUND, "BM");
    tile_tuned_kernel_destroy(tuned);
  }
  CHECK_ERROR(tile_tuned_kernel_create(rt, saxpySource, "s", "saxpy",
                                       "BLOCK=", NULL, 0, &tuned),
              TILE_ERROR_INVALID_ARGUMENT, "BLOCK=");
  CHECK(tile_free(rt, dx) == TILE_SUCCESS);
  CHECK(tile_free(rt, dout) == TILE_SUCCESS);
  free(x);
  free(out);
}

int main(int argc, char **argv) {
  int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  rngState = (unsigned long long)time(NULL) ^ (unsigned long long)clock();
  printf("seed %llu\n", rngState);
  if (!gpu) {
    testWithoutDevice();
    testInterpreter();
  } else {
    if (!tile_runtime_available()) {
      printf("SKIPPED: no GPU\n");
      return 77;
    }
    tile_runtime *rt = NULL;
    CHECK(tile_runtime_create(0, &rt) == TILE_SUCCESS);
    if (rt) {
      testDevice(rt);
      tile_runtime_destroy(rt);
    }
    /* Device 1 where the machine has it: modules, memory and launches of
       its own runtime. */
    tile_runtime *second = NULL;
    if (tile_runtime_create(1, &second) == TILE_SUCCESS) {
      printf("device 1\n");
      testDevice(second);
      tile_runtime_destroy(second);
    } else {
      printf("no device 1: %s\n", tile_last_error());
    }
    CHECK_ERROR(tile_runtime_create(99, &second), TILE_ERROR_NO_DEVICE,
                "device 99");
  }
  printf("%s: %d failures\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
