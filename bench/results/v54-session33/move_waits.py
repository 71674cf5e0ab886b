# Rewrites PTX (a tile runtime cache directory argv[1], or with a second
# argument one PTX file) so that a loop body's closing
# `wgmma.wait_group.sync.aligned 0;` moves to the start of both of the
# loop's successors (the back edge's block, which releases the previous
# stage, and the exit), out of the block of the softmax: ptxas hoists a
# wait within a block, not into another. Probe only (v54).
import hashlib, os, re, sys
WAIT = "wgmma.wait_group.sync.aligned 0;"
TAIL = re.compile(r"\t@%p\d+ bra \t(\$L__BB\d+_\d+);\n\tbra\.uni \t(\$L__BB\d+_\d+);\n")
def edit(text):
    lines = text.split("\n")
    moved = 0
    targets = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == WAIT:
            # The block's end within a few lines, no label between.
            rest = "\n".join(lines[i + 1:i + 16]) + "\n"
            head = rest.split("\n$L__")[0] + "\n"
            m = TAIL.search(head)
            if m:
                lines[i] = "\t// wait moved to " + m.group(1) + " and " + m.group(2)
                targets += [m.group(1), m.group(2)]
                moved += 1
        i += 1
    out = []
    for line in lines:
        out.append(line)
        if line.endswith(":") and line[:-1] in targets:
            out.append("\t" + WAIT)
    return "\n".join(out), moved
if len(sys.argv) > 2:
    text, n = edit(open(sys.argv[2]).read())
    open(sys.argv[2], "w").write(text)
    print(sys.argv[2], "waits moved:", n, file=sys.stderr)
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
    print(name, "waits moved:", n, file=sys.stderr)
