# Does the driver encode a rank-3 tensor map with 2^31 slices (attention's
# heads, f16 [*, 4096, 64] and [*, 4000, 128], 128-byte swizzle), for
# torch tensors in expandable segments and in plain ones? Prints each
# cuTensorMapEncodeTiled result (0: success).
import ctypes, torch
cu = ctypes.CDLL("libcuda.so.1")
for n, d in ((4096, 64), (4000, 128), (200, 64)):
    t = torch.empty(4 * 32 * n * d, device="cuda", dtype=torch.float16)
    for slices in (1 << 31, 1 << 32):
        tmap = (ctypes.c_uint8 * 128)()
        dims = (ctypes.c_uint64 * 3)(64, n, slices)
        strides = (ctypes.c_uint64 * 2)(d * 2, n * d * 2)
        box = (ctypes.c_uint32 * 3)(64, 64, 1)
        es = (ctypes.c_uint32 * 3)(1, 1, 1)
        # FLOAT16 = 6, interleave none 0, swizzle 128B = 3, L2 256B = 3, oob fill none 0
        r = cu.cuTensorMapEncodeTiled(tmap, 6, 3, ctypes.c_void_p(t.data_ptr()), dims, strides, box, es, 0, 3, 3, 0)
        print("n", n, "d", d, "slices", slices, "rc", r, flush=True)
