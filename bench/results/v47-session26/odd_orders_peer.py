"""PyTorch's fp16 relu(a @ b) at M = N = K = 4095 in the four operand
orders (an operand stored transposed is a transposed view), do_bench
median with L2 flushed: the peer of job_rule.sh's tile rows."""
import json
import torch
import triton.testing

n = 4095
for order in ("NN", "NT", "TN", "TT"):
    torch.manual_seed(0)
    a = (torch.randn(n, n, device="cuda", dtype=torch.float16).T
         if order[0] == "T" else torch.randn(n, n, device="cuda", dtype=torch.float16))
    b = (torch.randn(n, n, device="cuda", dtype=torch.float16).T
         if order[1] == "T" else torch.randn(n, n, device="cuda", dtype=torch.float16))
    c = torch.empty(n, n, device="cuda", dtype=torch.float16)
    ms = min(triton.testing.do_bench(lambda: torch.relu(a @ b)),
             triton.testing.do_bench(lambda: torch.mm(a, b, out=c).relu_()))
    print(json.dumps({"impl": "torch", "order": order, "n": n, "ms": ms,
                      "tflops": 2.0 * n ** 3 / ms / 1e9}))
