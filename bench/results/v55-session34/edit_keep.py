# Rewrites the PTX of a tile runtime cache directory (argv[2]) so that the
# registers A operands of the warpgroup MMAs issued before each
# `wgmma.wait_group.sync.aligned 0;` (attention's P) are read again after
# that wait, on a path that never runs (a uniform branch over shared stores,
# its condition from %dynamic_smem_size, which ptxas cannot fold). ptxas
# then keeps P live until the wait and cannot give the new P's conversions
# (or anything else) P's registers while the MMAs still read them. Probe only.
# argv[1]: "keep" or "keep+guard" (also begin the wait's own basic block as
# edit_waits.py does). With a third argument, rewrites that PTX file instead.
import hashlib, os, re, sys
A = re.compile(r"wgmma\.mma_async[^{]*\{[^}]*\},\s*\{([^}]*)\},")
GUARD = ("{\n.reg .pred %pw;\n.reg .b32 %rw;\nmov.u32 %rw, %dynamic_smem_size;\n"
         "setp.ne.u32 %pw, %rw, 1;\n@%pw bra.uni WAIT_OK;\ntrap;\nWAIT_OK:\n}\n")

def keep(regs):
    out = ["{", ".reg .pred %pk;", ".reg .b32 %rk;", "mov.u32 %rk, %dynamic_smem_size;",
           "setp.ne.u32 %pk, %rk, 1;", "@%pk bra.uni KEEP_OK;"]
    for i in range(0, len(regs), 4):
        chunk = regs[i:i + 4]
        while len(chunk) < 4:
            chunk.append(chunk[-1])
        out.append("st.shared.v4.b32 [%%rk+%u], {%s};" % (16 * (i // 4), ", ".join(chunk)))
    out += ["KEEP_OK:", "}"]
    return "\n".join(out) + "\n"

def edit(text, mode):
    lines = text.split("\n")
    out, regs, n = [], [], 0
    for line in lines:
        m = A.search(line)
        if m:
            for r in m.group(1).split(","):
                r = r.strip()
                if r not in regs:
                    regs.append(r)
        if line.strip() == "wgmma.wait_group.sync.aligned 0;":
            if "guard" in mode:
                out.append(GUARD)
            out.append(line)
            if regs:
                out.append(keep(regs))
                n += 1
            regs = []
            continue
        out.append(line)
    return "\n".join(out), n

mode = sys.argv[1]
if len(sys.argv) > 3:
    path = sys.argv[3]
    text, n = edit(open(path).read(), mode)
    open(path, "w").write(text)
    print(path, "waits keeping A registers:", n, file=sys.stderr)
    sys.exit(0)
d = sys.argv[2]
for name in os.listdir(d):
    if not name.endswith(".ptx"):
        continue
    path = os.path.join(d, name)
    data = open(path, "rb").read()
    header, payload = data.split(b"\n", 1)
    magic, size, digest = header.split(b" ")
    text, n = edit(payload.decode(), mode)
    new = text.encode()
    header = b" ".join([magic, str(len(new)).encode(), hashlib.sha256(new).hexdigest().encode()])
    open(path, "wb").write(header + b"\n" + new)
    print(name, "waits keeping A registers:", n, file=sys.stderr)
