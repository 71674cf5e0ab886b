# Rewrites the PTX of a tile runtime cache directory (argv[1]) so that each
# `wgmma.wait_group.sync.aligned 0;` begins a basic block of its own: a
# uniform branch over a trap that never runs (the condition reads
# %dynamic_smem_size, which ptxas cannot fold), so that ptxas cannot move
# the wait (WARPGROUP.DEPBAR) above the instructions before it. Probe only.
# With a second argument, rewrites one PTX file in place instead.
import hashlib, os, re, sys
GUARD = ("{\n.reg .pred %pw;\n.reg .b32 %rw;\nmov.u32 %rw, %dynamic_smem_size;\n"
         "setp.ne.u32 %pw, %rw, 1;\n@%pw bra.uni WAIT_OK;\ntrap;\nWAIT_OK:\n}\n")
def edit(text):
    return text.replace("wgmma.wait_group.sync.aligned 0;", GUARD + "wgmma.wait_group.sync.aligned 0;")
if len(sys.argv) > 2:
    path = sys.argv[2]
    text = edit(open(path).read())
    open(path, "w").write(text)
    sys.exit(0)
d = sys.argv[1]
for name in os.listdir(d):
    if not name.endswith(".ptx"):
        continue
    path = os.path.join(d, name)
    data = open(path, "rb").read()
    header, payload = data.split(b"\n", 1)
    magic, size, digest = header.split(b" ")
    new = edit(payload.decode()).encode()
    n = payload.decode().count("wgmma.wait_group.sync.aligned 0;")
    header = b" ".join([magic, str(len(new)).encode(), hashlib.sha256(new).hexdigest().encode()])
    open(path, "wb").write(header + b"\n" + new)
    print(name, "waits guarded:", n, file=sys.stderr)
