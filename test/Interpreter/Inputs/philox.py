"""Philox 4x32-10 (Salmon et al., SC'11), written from the paper's
definition, checked against the published known-answer vectors of Random123
(kat_vectors), then used as the reference for the language's
randint/rand: the counter is (offset, offset >> 32, 0, 0) and the key
(seed, seed >> 32), as Triton's tl.randint. Prints the expected tilec
--print-all lines for: philox.py SEED COUNT [OFFSET0]."""
import struct
import sys

M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def philox(ctr, key, rounds=10):
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for _ in range(rounds):
        p0, p1 = M0 * c0, M1 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0, p1 & MASK,
                          (p0 >> 32) ^ c3 ^ k1, p0 & MASK)
        k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
    return c0, c1, c2, c3


KAT = [((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
       ((MASK,) * 4, (MASK, MASK), (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
       ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
        (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1))]


def signed(v):
    return v - (1 << 32) if v >> 31 else v


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def uniform(v):
    # Triton's uint_to_uniform_float: the bits as i32, negatives mirrored,
    # times 4.6566127342e-10 in f32 (both roundings of f32 arithmetic).
    x = signed(v)
    if x < 0:
        x = -x - 1
    return f32(f32(float(x)) * f32(4.6566127342e-10))


def main():
    for ctr, key, want in KAT:
        got = philox(ctr, key)
        assert got == want, "KAT %s %s: %s" % (ctr, key, [hex(g) for g in got])
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    key = (seed & MASK, (seed >> 32) & MASK)
    words = [philox(((first + i) & MASK, ((first + i) >> 32) & MASK, 0, 0),
                    key)[0] for i in range(count)]
    print("ints: i32[%d] = %s" % (count, " ".join(str(signed(w)) for w in words)))
    print("floats: f32[%d] = %s" % (count, " ".join("%g" % uniform(w) for w in words)))


if __name__ == "__main__":
    main()
