"""examples/vector_add.tile from PyTorch, checked against PyTorch."""
import os

import torch

from _common import EXAMPLES
import tile

mod = tile.compile(os.path.join(EXAMPLES, "vector_add.tile"))


def vector_add(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    mod.vector_add[lambda meta: (tile.cdiv(n, meta["BLOCK"]),)](x, y, out, n)
    return out


if __name__ == "__main__":
    for n in (1, 1000, 98_432, 1 << 22):
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        torch.testing.assert_close(vector_add(x, y), x + y, rtol=0, atol=0)
    print("vector_add: matches x + y")
