"""PyTorch's fp16 x @ W.T + ReLU at M = N = K = 4095 and 4096 (do_bench
median, L2 flushed), beside job_odd.sh's tile runs."""
import json
import torch
import triton.testing

for n in (4095, 4096):
    torch.manual_seed(0)
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    w = torch.randn(n, n, device="cuda", dtype=torch.float16)
    ms = triton.testing.do_bench(lambda: torch.relu(a @ w.T))
    print(json.dumps({"impl": "torch", "kernel": "relu(a @ w.T) f16", "n": n,
                      "ms": ms, "tflops": 2.0 * n ** 3 / ms / 1e9}))
