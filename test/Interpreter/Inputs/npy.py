"""Writes and reads .npy files without NumPy, for the --arg file: tests.

  npy.py write PATH DESCR V...   a 1-D .npy (format 1.0) of the values
  npy.py read PATH               prints "descr shape: values"
"""
import ast
import struct
import sys

FORMATS = {"<f2": "e", "<f4": "f", "<f8": "d", "|i1": "b", "<i2": "h",
           "<i4": "i", "<i8": "q", "|b1": "?", "|u1": "B", "<u2": "H",
           "<u4": "I", "<u8": "Q"}


def write(path, descr, values):
    code = FORMATS[descr]
    cast = float if code in "efd" else int
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (
        descr, len(values))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(struct.pack("<%d%s" % (len(values), code),
                            *[cast(v) for v in values]))


def read(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", "no magic"
    (length,) = struct.unpack("<H", data[8:10])
    assert (10 + length) % 64 == 0, "header not padded to 64 bytes"
    header = ast.literal_eval(data[10:10 + length].decode())
    count = 1
    for d in header["shape"]:
        count *= d
    values = struct.unpack("<%d%s" % (count, FORMATS[header["descr"]]),
                           data[10 + length:])
    print(header["descr"], header["shape"], ":", *values)


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        read(sys.argv[2])
