# Rewrites the PTX of a tile runtime cache directory (argv[1]) compiled from
# ap_sumfirst.tile (the row sums computed before P V's result is read): each
# `wgmma.wait_group.sync.aligned 0;` right after the two row sums' adds is
# put behind a uniform branch whose condition reads both sums (vote.all of
# their XOR against %dynamic_smem_size, which ptxas cannot fold; the other
# path traps and never runs), so that ptxas can neither hoist the wait
# (WARPGROUP.DEPBAR) above the exponentials the sums read nor sink them
# below it. Probe only. With a second argument, rewrites that PTX file.
import hashlib, os, re, sys
ADD = re.compile(r"^\s*add\.rn\.f32\s+(%r\d+),")

def guard(a, b):
    return ("{\n.reg .pred %pg;\n.reg .b32 %rg;\n.reg .b32 %rs;\n"
            f"xor.b32 %rg, {a}, {b};\nmov.u32 %rs, %dynamic_smem_size;\n"
            "setp.ne.u32 %pg, %rg, %rs;\nvote.sync.all.pred %pg, %pg, -1;\n"
            "@%pg bra.uni SUM_OK;\ntrap;\nSUM_OK:\n}\n")

def edit(text):
    lines = text.split("\n")
    out, n = [], 0
    for i, line in enumerate(lines):
        if line.strip() == "wgmma.wait_group.sync.aligned 0;":
            prev = [l for l in lines[max(0, i - 4):i] if not l.strip().startswith("//")]
            regs = [ADD.match(l).group(1) for l in prev[-2:] if ADD.match(l)]
            if len(regs) == 2:
                # Before the "// begin inline asm" line already emitted.
                out.insert(len(out) - 1, guard(*regs))
                n += 1
        out.append(line)
    return "\n".join(out), n

if len(sys.argv) > 2:
    path = sys.argv[2]
    text, n = edit(open(path).read())
    open(path, "w").write(text)
    print(path, "waits guarded by the sums:", n, file=sys.stderr)
    sys.exit(0)
d = sys.argv[1]
for name in os.listdir(d):
    if not name.endswith(".ptx"):
        continue
    path = os.path.join(d, name)
    data = open(path, "rb").read()
    header, payload = data.split(b"\n", 1)
    magic, size, digest = header.split(b" ")
    text, n = edit(payload.decode())
    new = text.encode()
    header = b" ".join([magic, str(len(new)).encode(), hashlib.sha256(new).hexdigest().encode()])
    open(path, "wb").write(header + b"\n" + new)
    print(name, "waits guarded by the sums:", n, file=sys.stderr)
