"""PyTorch's relu(a @ b) in tf32 and f32 at M = N = K = 4095 in the four
operand orders (transposed views), do_bench median with L2 flushed: the
peer of job_odd32.sh's tile rows."""
import json
import torch
import triton.testing

n = 4095
for variant in ("tf32", "f32"):
    torch.backends.cuda.matmul.allow_tf32 = variant == "tf32"
    for order in ("NN", "NT", "TN", "TT"):
        torch.manual_seed(0)
        a = (torch.randn(n, n, device="cuda").T if order[0] == "T"
             else torch.randn(n, n, device="cuda"))
        b = (torch.randn(n, n, device="cuda").T if order[1] == "T"
             else torch.randn(n, n, device="cuda"))
        c = torch.empty(n, n, device="cuda")
        ms = min(triton.testing.do_bench(lambda: torch.relu(a @ b)),
                 triton.testing.do_bench(lambda: torch.mm(a, b, out=c).relu_()))
        print(json.dumps({"impl": "torch", "variant": variant, "order": order,
                          "n": n, "ms": ms, "tflops": 2.0 * n ** 3 / ms / 1e9}))
