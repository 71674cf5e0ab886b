"""Feeds every proper prefix of a .tile file to tilec.

A prefix that is the whole program up to trailing whitespace must compile
(exit 0); every other prefix is an incomplete program and must be rejected
with exit status 1 and an `error:` diagnostic -- never a crash or a hang.
Usage: truncations.py TILEC FILE...
"""
import concurrent.futures
import os
import subprocess
import sys
import tempfile


def check(tilec, path, text, cut, tmpdir):
    prefix = text[:cut]
    complete = prefix.rstrip() == text.rstrip()
    name = os.path.join(tmpdir, f"prefix_{cut}.tile")
    with open(name, "w") as f:
        f.write(prefix)
    try:
        proc = subprocess.run([tilec, name, "-o", os.devnull],
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return f"{path}: prefix of {cut} bytes: tilec hung"
    expected = 0 if complete else 1
    if proc.returncode != expected:
        return (f"{path}: prefix of {cut} bytes: exit {proc.returncode}, "
                f"expected {expected}\n{proc.stderr}")
    if expected == 1 and "error:" not in proc.stderr:
        return f"{path}: prefix of {cut} bytes: no error message"
    return None


def main():
    tilec, files = sys.argv[1], sys.argv[2:]
    failures, runs = [], 0
    with tempfile.TemporaryDirectory() as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        jobs = []
        for path in files:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            # Cut at every character boundary (the sources contain UTF-8).
            jobs += [pool.submit(check, tilec, path, text, cut, tmpdir)
                     for cut in range(len(text) + 1)]
        for job in jobs:
            runs += 1
            if (message := job.result()):
                failures.append(message)
    for message in failures[:20]:
        print(message)
    print(f"{runs} prefixes, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
