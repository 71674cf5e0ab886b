"""Joins the JSON lines of tile-bench, bench/peers.py and, where run,
python/examples/benchmark.py into one table with ratios (tile / best peer for
GB/s and TFLOP/s; best peer / tile for launch microseconds). With --plot DIR
it also writes one PNG per kernel (GB/s or TFLOP/s per shape, tile and tile
from Python against the peers; needs matplotlib, Debian's python3-matplotlib).

Usage: report.py [--plot DIR] tile.jsonl peers.jsonl [py.jsonl ...]"""
import argparse
import json
import os

IMPLS = ("tile", "tile-py", "torch", "torch-flash", "triton")
PEERS = ("torch", "torch-flash", "triton")


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def metric(impls):
    first = next(iter(impls.values()))
    return ("us" if "us" in first else
            "tflops" if "tflops" in first else "gbps")


def ratio(value, best, key):
    return best / value if key == "us" else value / best


def plot(table, directory):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(directory, exist_ok=True)
    kernels = {}
    for (kernel, shape), impls in table.items():
        if kernel not in ("compile_cold", "compile_cached"):
            kernels.setdefault(kernel, []).append((shape, impls))
    written = []
    for kernel, rows in kernels.items():
        key = metric(rows[0][1])
        if key == "us":
            continue
        unit = {"gbps": "GB/s", "tflops": "TFLOP/s"}[key]
        fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(rows), 3.6))
        present = [i for i in IMPLS if any(i in impls for _, impls in rows)]
        width = 0.8 / len(present)
        for j, impl in enumerate(present):
            xs = [i + (j - (len(present) - 1) / 2) * width
                  for i in range(len(rows))]
            ys = [impls[impl][key] if impl in impls else 0
                  for _, impls in rows]
            ax.bar(xs, ys, width, label=impl)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels([shape for shape, _ in rows], fontsize=8)
        ax.set_ylabel(unit)
        ax.set_title(kernel)
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(directory, kernel + ".png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", metavar="DIR",
                        help="also write one PNG per kernel into DIR")
    parser.add_argument("files", nargs="+", help="JSON-lines files")
    args = parser.parse_args()
    rows = [r for path in args.files for r in load(path)]
    table = {}
    tuned = {}  # (impl, shape) -> configuration, from rows without a metric
    for r in rows:
        if "machine" in r:  # what each side ran on (and from which commit)
            print(f"{r['impl']}: " + ", ".join(f"{k} {v}" for k, v in r["machine"].items()))
            continue
        if not any(k in r for k in ("us", "gbps", "tflops", "ms")):
            if "config" in r:
                tuned[(r["impl"], r["shape"])] = r["config"]
            continue
        table.setdefault((r["kernel"], r["shape"]), {})[r["impl"]] = r
    with_py = any("tile-py" in impls for impls in table.values())
    with_flash = any("torch-flash" in impls for impls in table.values())
    shown = [i for i in IMPLS if (i != "tile-py" or with_py) and
             (i != "torch-flash" or with_flash)]
    print(f"{'kernel':<16} {'shape':<14} " +
          " ".join(f"{i:>9}" for i in shown) +
          f" {'tile/best':>9} {'tile/triton':>11}" +
          (f" {'py/best':>8}" if with_py else ""))
    for (kernel, shape), impls in table.items():
        if kernel in ("compile_cold", "compile_cached"):
            print(f"{kernel:<16} {shape:<14} {impls['tile']['ms']:>7.2f}ms")
            continue
        key = metric(impls)
        val = {i: impls[i][key] for i in impls}
        cells = [f"{val[i]:>9.1f}" if i in val else f"{'-':>9}" for i in shown]
        peers = [val[i] for i in PEERS if i in val]
        best = (min(peers) if key == "us" else max(peers)) if peers else None
        tile_ratio = tri = py = ""
        if "tile" in val and best:
            tile_ratio = f"{ratio(val['tile'], best, key):>9.3f}"
            if "triton" in val:
                tri = f"{ratio(val['tile'], val['triton'], key):>11.3f}"
        if with_py:
            py = (f" {ratio(val['tile-py'], best, key):>8.3f}"
                  if "tile-py" in val and best else f" {'':>8}")
        unit = {"us": "us", "gbps": "GB/s", "tflops": "TFLOP/s"}[key]
        config = (impls.get("tile", {}).get("config", "") or
                  tuned.get(("tile", shape)) or tuned.get(("tile-py", shape), ""))
        print(f"{kernel:<16} {shape:<14} {' '.join(cells)} {tile_ratio:>9} "
              f"{tri:>11}{py}  ({unit})" + (f"  {config}" if config else ""))
    if args.plot:
        for path in plot(table, args.plot):
            print("wrote", path)


if __name__ == "__main__":
    main()
