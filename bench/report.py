"""Joins tile-bench's and bench/peers.py's JSON lines into one table with
ratios (tile / best peer for bandwidth and TFLOP/s). Usage: report.py tile.jsonl peers.jsonl"""
import json
import sys


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def main():
    rows = load(sys.argv[1]) + load(sys.argv[2])
    table = {}
    for r in rows:
        if "machine" in r:  # what each side ran on (and from which commit)
            print(f"{r['impl']}: " + ", ".join(f"{k} {v}" for k, v in r["machine"].items()))
            continue
        table.setdefault((r["kernel"], r["shape"]), {})[r["impl"]] = r
    print(f"{'kernel':<16} {'shape':<14} {'tile':>9} {'torch':>9} {'triton':>9}"
          f" {'tile/best':>9} {'tile/triton':>11}")
    for (kernel, shape), impls in table.items():
        if kernel in ("compile_cold", "compile_cached"):
            print(f"{kernel:<16} {shape:<14} {impls['tile']['ms']:>7.2f}ms")
            continue
        key = ("us" if kernel == "launch_us" else
               "tflops" if "tflops" in next(iter(impls.values())) else "gbps")
        val = {i: impls[i][key] for i in impls}
        cells = [f"{val[i]:>9.1f}" if i in val else f"{'-':>9}"
                 for i in ("tile", "torch", "triton")]
        peers = [val[i] for i in ("torch", "triton") if i in val]
        ratio = tri = ""
        if "tile" in val and peers:
            best = min(peers) if key == "us" else max(peers)
            ratio = f"{(best / val['tile'] if key == 'us' else val['tile'] / best):>9.3f}"
            if "triton" in val:
                tri = f"{(val['triton'] / val['tile'] if key == 'us' else val['tile'] / val['triton']):>11.3f}"
        unit = {"us": "us", "gbps": "GB/s", "tflops": "TFLOP/s"}[key]
        config = impls.get("tile", {}).get("config", "")
        print(f"{kernel:<16} {shape:<14} {' '.join(cells)} {ratio} {tri}  ({unit})"
              + (f"  {config}" if config else ""))


if __name__ == "__main__":
    main()
