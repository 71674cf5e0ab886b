"""examples/matmul_relu.tile (C = relu(A @ B), f16) from PyTorch, autotuned
over the configurations tile-bench uses."""
import os

import torch

from _common import EXAMPLES
import tile

mod = tile.compile(os.path.join(EXAMPLES, "matmul_relu.tile"))
CONFIGS = [tile.Config(dict(BM=bm, BN=bn, BK=bk), num_warps=w, num_stages=s)
           for bm, bn, bk, w, s in (
               (128, 128, 32, 4, 3), (128, 128, 64, 4, 3), (128, 128, 16, 4, 4),
               (256, 128, 32, 8, 4), (128, 256, 32, 8, 4), (256, 64, 32, 4, 3),
               (64, 128, 64, 4, 3), (128, 64, 64, 4, 3), (64, 64, 32, 4, 4),
               (256, 64, 32, 4, 2), (128, 256, 64, 8, 4), (128, 128, 64, 4, 4),
               (128, 64, 64, 4, 6))]
tuned = tile.autotune(CONFIGS, key=["M", "N", "K"])(mod.matmul_relu)


def matmul_relu(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty(M, N, device=a.device, dtype=torch.float16)
    grid = lambda meta: (tile.cdiv(M, meta["BM"]), tile.cdiv(N, meta["BN"]))
    tuned[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
    return c


if __name__ == "__main__":
    for M, N, K in ((1, 64, 48), (127, 129, 65), (1000, 700, 300),
                    (2048, 2048, 2048)):
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        ref = torch.relu(a.double() @ b.double()).half()
        torch.testing.assert_close(matmul_relu(a, b), ref, rtol=2e-2,
                                   atol=2e-2 * K ** 0.5)
    print("matmul_relu: matches relu(a @ b); chose", tuned.last_config.text())
