/*===- tile-c/tile.h - the C interface of the tile runtime -------*- C -*-===*\
|*                                                                            *|
|* Compile .tile kernels, look them up, query their signatures and launch    *|
|* them on CUDA device memory, from C or from any language with a C FFI     *|
|* (the Python package `tile` uses this through ctypes). The library is     *|
|* libtile.so; it contains the compiler, and opens the CUDA driver only    *|
|* when a runtime is created, so compiling, describing and running kernels *|
|* on the CPU interpreter need no GPU.                                      *|
|*                                                                            *|
|*   tile_runtime *rt;                                                        *|
|*   if (tile_runtime_create(0, &rt) != TILE_SUCCESS)                         *|
|*     fprintf(stderr, "%s\n", tile_last_error());                            *|
|*   tile_module *m;                                                          *|
|*   tile_module_compile_file(rt, "vector_add.tile", NULL, &m);               *|
|*   tile_kernel *k;                                                          *|
|*   tile_module_get_kernel(m, "vector_add", &k);                             *|
|*   tile_arg args[4] = {tile_ptr(x), tile_ptr(y), tile_ptr(out),             *|
|*                       tile_i32(n)};                                        *|
|*   tile_kernel_launch(k, tile_grid1((n + 1023) / 1024), NULL, args, 4);     *|
|*                                                                            *|
|* Every function returns a tile_status; on failure the calling thread's    *|
|* tile_last_error() says why (the compiler's diagnostics, the driver's     *|
|* error, or which argument is wrong). Handles are freed with their        *|
|* _destroy function; a kernel keeps its module alive and a module its     *|
|* runtime, so they may be destroyed in any order.                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef TILE_C_TILE_H
#define TILE_C_TILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TILE_API __attribute__((visibility("default")))
#else
#define TILE_API
#endif

/// The version of this interface; tile_api_version() returns the library's.
#define TILE_API_VERSION 1

/// What every call returns.
typedef enum tile_status {
  TILE_SUCCESS = 0,
  /// A null handle or pointer, a bad option, an argument of the wrong kind
  /// or count, or a value out of range.
  TILE_ERROR_INVALID_ARGUMENT = 1,
  /// The source did not compile (tile_last_error() has the diagnostics).
  TILE_ERROR_COMPILE = 2,
  /// No kernel, parameter or file of that name.
  TILE_ERROR_NOT_FOUND = 3,
  /// No CUDA driver or no such device.
  TILE_ERROR_NO_DEVICE = 4,
  /// A CUDA driver call failed (loading, launching, memory).
  TILE_ERROR_CUDA = 5,
  /// The CPU interpreter stopped (an out-of-bounds access, say).
  TILE_ERROR_INTERPRETER = 6,
} tile_status;

typedef struct tile_runtime tile_runtime;
typedef struct tile_module tile_module;
typedef struct tile_kernel tile_kernel;
typedef struct tile_tuned_kernel tile_tuned_kernel;

/// The last error message of the calling thread ("" if none yet). Valid
/// until the thread's next failing call.
TILE_API const char *tile_last_error(void);
/// The name of a status ("TILE_ERROR_COMPILE").
TILE_API const char *tile_status_name(tile_status status);
/// TILE_API_VERSION of the library.
TILE_API int tile_api_version(void);
/// The compiler's version and commit ("tile-0.4 (llvm 22.1.8) (commit
/// abc123)").
TILE_API const char *tile_version(void);

/* ---- Runtime ---------------------------------------------------------- */

/// Opens the CUDA driver and the primary context of device `device`.
TILE_API tile_status tile_runtime_create(int device, tile_runtime **out);
/// Releases the runtime (modules and kernels made from it keep it alive).
TILE_API void tile_runtime_destroy(tile_runtime *rt);
/// 1 when a driver and a GPU are present, else 0 (no error is recorded).
TILE_API int tile_runtime_available(void);
/// The device's name and architecture ("sm_90"), valid while `rt` lives.
TILE_API tile_status tile_runtime_device(tile_runtime *rt, const char **name,
                                         const char **arch);
/// Waits for all work of the runtime's context.
TILE_API tile_status tile_runtime_synchronize(tile_runtime *rt);
/// Device memory: allocation, copies to and from the host, and release.
TILE_API tile_status tile_malloc(tile_runtime *rt, size_t bytes,
                                 uint64_t *address);
TILE_API tile_status tile_free(tile_runtime *rt, uint64_t address);
TILE_API tile_status tile_memcpy_to_device(tile_runtime *rt, uint64_t dst,
                                           const void *src, size_t bytes);
TILE_API tile_status tile_memcpy_to_host(tile_runtime *rt, void *dst,
                                         uint64_t src, size_t bytes);

/* ---- Compiling and loading modules ------------------------------------ */

/// How a module is compiled. Zero-initialize, then set what you need; a
/// null options pointer means all defaults.
typedef struct tile_compile_options {
  /// Const overrides, as names and values in source form ("1024").
  const char *const *const_names;
  const char *const *const_values;
  size_t num_consts;
  /// Warps per program (0: 4) and pipeline stages of dot operands (0: 3;
  /// 1: no pipelining).
  unsigned num_warps;
  unsigned num_stages;
  /// Target architecture ("sm_90"; null: the device's).
  const char *arch;
} tile_compile_options;

/// Compiles .tile source (named `name` in diagnostics).
TILE_API tile_status tile_module_compile_source(
    tile_runtime *rt, const char *source, const char *name,
    const tile_compile_options *options, tile_module **out);
/// Compiles a .tile file.
TILE_API tile_status tile_module_compile_file(
    tile_runtime *rt, const char *path, const tile_compile_options *options,
    tile_module **out);
/// Loads PTX written by `tilec` (its signature lines describe the kernels).
TILE_API tile_status tile_module_load_ptx(tile_runtime *rt, const char *ptx,
                                          const char *name, tile_module **out);
TILE_API tile_status tile_module_load_ptx_file(tile_runtime *rt,
                                               const char *path,
                                               tile_module **out);
/// Runs only the frontend on .tile `source`: a module whose kernels can be
/// looked up and their signatures queried, but not launched (no GPU needed;
/// launches fail with TILE_ERROR_NO_DEVICE).
TILE_API tile_status tile_module_describe_source(
    const char *source, const char *name, const tile_compile_options *options,
    tile_module **out);
TILE_API void tile_module_destroy(tile_module *module);
/// The number of kernels and the name of kernel `index`.
TILE_API tile_status tile_module_num_kernels(tile_module *module,
                                             size_t *count);
TILE_API tile_status tile_module_kernel_name(tile_module *module, size_t index,
                                             const char **name);
/// The kernel named `name` (TILE_ERROR_NOT_FOUND lists the module's kernels).
TILE_API tile_status tile_module_get_kernel(tile_module *module,
                                            const char *name,
                                            tile_kernel **out);
TILE_API void tile_kernel_destroy(tile_kernel *kernel);

/* ---- Signatures ------------------------------------------------------- */

typedef enum tile_param_kind {
  TILE_PARAM_POINTER = 0,
  TILE_PARAM_INT = 1,
  TILE_PARAM_FLOAT = 2,
} tile_param_kind;

/// One kernel parameter as the compiler recorded it. Strings stay valid
/// while the kernel lives.
typedef struct tile_param_info {
  const char *name;
  /// Source spelling of the type: "ptr<f32>", "i32", "f16", ...
  const char *type;
  /// For a pointer, its element type ("f32"); for a scalar, its type.
  const char *element_type;
  tile_param_kind kind;
  /// Bits passed at launch (pointers: 64).
  unsigned bits;
  /// Divisibility the first compiled variant assumes (1: none; 16: by 16,
  /// for a pointer a 16-byte-aligned address). Launches pick or compile the
  /// variant their arguments allow.
  unsigned divisibility;
} tile_param_info;

TILE_API tile_status tile_kernel_name(tile_kernel *kernel, const char **name);
TILE_API tile_status tile_kernel_num_params(tile_kernel *kernel, size_t *count);
TILE_API tile_status tile_kernel_param(tile_kernel *kernel, size_t index,
                                       tile_param_info *info);
/// The const parameters the kernel was compiled with (defaults or overrides),
/// their values as source text ("1024"); none for kernels loaded from PTX.
TILE_API tile_status tile_kernel_num_consts(tile_kernel *kernel, size_t *count);
TILE_API tile_status tile_kernel_const(tile_kernel *kernel, size_t index,
                                       const char **name, const char **value);
/// Warps per program and static shared memory in bytes.
TILE_API tile_status tile_kernel_resources(tile_kernel *kernel,
                                           unsigned *num_warps,
                                           long *shared_bytes);

/* ---- Launching -------------------------------------------------------- */

typedef enum tile_arg_kind {
  TILE_ARG_POINTER = 0, ///< a device address (`pointer`)
  TILE_ARG_I32 = 1,
  TILE_ARG_I64 = 2,
  TILE_ARG_F32 = 3,
  TILE_ARG_F64 = 4,
} tile_arg_kind;

/// One launch argument. An i32 argument accepts TILE_ARG_I64 values that fit;
/// a u32 (u8, u16) one TILE_ARG_I64 values in [0, 2^32) (its range); a u64
/// one any I64, read as its bits; float parameters accept F32 or F64.
typedef struct tile_arg {
  tile_arg_kind kind;
  union {
    uint64_t pointer;
    int64_t integer;
    double real;
  } value;
} tile_arg;

static inline tile_arg tile_ptr(uint64_t address) {
  tile_arg a;
  a.kind = TILE_ARG_POINTER;
  a.value.pointer = address;
  return a;
}
static inline tile_arg tile_i32(int32_t v) {
  tile_arg a;
  a.kind = TILE_ARG_I32;
  a.value.integer = v;
  return a;
}
static inline tile_arg tile_i64(int64_t v) {
  tile_arg a;
  a.kind = TILE_ARG_I64;
  a.value.integer = v;
  return a;
}
static inline tile_arg tile_f32(float v) {
  tile_arg a;
  a.kind = TILE_ARG_F32;
  a.value.real = v;
  return a;
}
static inline tile_arg tile_f64(double v) {
  tile_arg a;
  a.kind = TILE_ARG_F64;
  a.value.real = v;
  return a;
}

/// Program instances along x, y, z.
typedef struct tile_grid {
  unsigned x, y, z;
} tile_grid;

static inline tile_grid tile_grid1(unsigned x) {
  tile_grid g = {x, 1, 1};
  return g;
}

/// Launches `kernel` on `stream` (a CUstream; null: the default stream)
/// with `args` in the kernel's parameter order, checked against its
/// signature (count, kinds, ranges).
TILE_API tile_status tile_kernel_launch(tile_kernel *kernel, tile_grid grid,
                                        void *stream, const tile_arg *args,
                                        size_t num_args);

/* ---- Autotuning ------------------------------------------------------- */

/// The launch grid of configuration `config` (read its const values with
/// tile_tuned_kernel_config_value); returns nonzero to fail the launch.
typedef int (*tile_grid_fn)(void *user_data, tile_tuned_kernel *kernel,
                            size_t config, tile_grid *grid);

/// A kernel of .tile `source` under several configurations: `configs` is
/// "BM=128,BN=128,num_warps=8,num_stages=3;BM=64,..." and `key` names the
/// integer parameters whose values select a tuning (null or empty: all).
/// The first launch per key times every configuration (on the launch's
/// arguments: tune on scratch buffers for kernels that read what they
/// write) and the fastest is launched from then on.
TILE_API tile_status tile_tuned_kernel_create(
    tile_runtime *rt, const char *source, const char *name,
    const char *kernel_name, const char *configs, const char *const *key,
    size_t num_key, tile_tuned_kernel **out);
TILE_API void tile_tuned_kernel_destroy(tile_tuned_kernel *kernel);
TILE_API tile_status tile_tuned_kernel_num_configs(tile_tuned_kernel *kernel,
                                                   size_t *count);
/// The integer value of const `name` in configuration `config`.
TILE_API tile_status tile_tuned_kernel_config_value(tile_tuned_kernel *kernel,
                                                    size_t config,
                                                    const char *name,
                                                    int64_t *value);
/// Configuration `config` as text ("BM=128,BN=64,num_warps=4,num_stages=3").
TILE_API tile_status tile_tuned_kernel_config_text(tile_tuned_kernel *kernel,
                                                   size_t config,
                                                   const char **text);
TILE_API tile_status tile_tuned_kernel_launch(tile_tuned_kernel *kernel,
                                              tile_grid_fn grid,
                                              void *user_data, void *stream,
                                              const tile_arg *args,
                                              size_t num_args);
/// The configuration chosen for the last launch's key.
TILE_API tile_status tile_tuned_kernel_last_choice(tile_tuned_kernel *kernel,
                                                   size_t *config);

/* ---- The CPU interpreter ---------------------------------------------- */

typedef enum tile_dtype {
  TILE_I1 = 0,
  TILE_I8 = 1,
  TILE_I16 = 2,
  TILE_I32 = 3,
  TILE_I64 = 4,
  TILE_F16 = 5,
  TILE_BF16 = 6,
  TILE_F32 = 7,
  TILE_F64 = 8,
  TILE_F8E4M3 = 9, /* OCP E4M3FN, as torch.float8_e4m3fn */
  TILE_F8E5M2 = 10,
} tile_dtype;

/// One argument of an interpreted run: a scalar (kind TILE_ARG_I32 ...) or,
/// for a pointer parameter, host memory of `count` elements of `dtype`,
/// which the run reads and writes in place (a `ptr<u32>` takes TILE_I32
/// memory: the same bits; likewise u8, u16, u64).
typedef struct tile_cpu_arg {
  tile_arg scalar;
  void *data;
  tile_dtype dtype;
  size_t count;
} tile_cpu_arg;

/// Runs kernel `kernel_name` of .tile `source` on the CPU interpreter for
/// every program of `grid`, without a GPU. Pointer arguments are given as
/// host memory (`data` non-null); elements must have the parameter's type.
TILE_API tile_status tile_run_cpu(const char *source, const char *name,
                                  const char *kernel_name,
                                  const tile_compile_options *options,
                                  tile_grid grid, const tile_cpu_arg *args,
                                  size_t num_args);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_TILE_H */
