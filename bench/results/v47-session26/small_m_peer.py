"""PyTorch's fp16 relu(x @ w.T) for x of M x 4096 rows and w of 4096 x 4096
(nn.Linear at small batch), M = 1, 16, 64, 256; do_bench median, L2
flushed: the peer of job_final.sh's tile rows."""
import json
import torch
import triton.testing

n = k = 4096
for m in (1, 16, 64, 256):
    torch.manual_seed(0)
    x = torch.randn(m, k, device="cuda", dtype=torch.float16)
    w = torch.randn(n, k, device="cuda", dtype=torch.float16)
    ms = triton.testing.do_bench(lambda: torch.relu(x @ w.T))
    print(json.dumps({"impl": "torch", "m": m, "ms": ms,
                      "tflops": 2.0 * m * n * k / ms / 1e9,
                      "gbps": (m * k + n * k + m * n) * 2 / ms / 1e6}))
