"""gg_walk.py: where a GGUF file is cut, found by walking its fields in Python (an account of the
layout written from the shared spec/gguf.md, apart from the C parsers), for the offset and index
columns of the truncation lines (docs/fixtures.md).

    cut(data) -> (rule, offset, index) or None

The walk reads the fixed header, then each KV pair and each tensor info field by field, in file
order, and stops at the first field the file cannot hold whole:
- a fixed-size field (a count, a type, a scalar value, n_dims, ne[j], a tensor's type or offset)
  with fewer bytes left than its size: GG003 (header), GG103 (a KV pair) or GG201 (a tensor info)
  at the field's first byte;
- a string (a key, a string value or array element, a tensor name) whose 8-byte length field is
  whole but whose length is above the bytes left after it: GG102 at the length field (GG101 instead
  for a length above 2^30: not a cut, None).
Anything else that ends the walk is not a cut, or not one this account decides: None. That is an
unknown value or element type, an array whose count or bytes are out of bounds (GG130), n_dims
above 4, or a file that is whole. (A string array element's length field cut is a fixed-size field
cut: GG103 at its first byte.) A caller uses the answer only when its rule is the line's own rule (a
file that fails earlier for another reason gets a different rule here, or None).
"""
import struct

from .tables import VT_ARRAY, VT_SIZE, VT_STRING

MAX_STRING = 1 << 30  # GGUF's string length bound (GG101)


class _Stop(Exception):
    def __init__(self, answer):
        super().__init__()
        self.answer = answer


def cut(data):
    """(rule, offset, index) of the first field of `data` (a GGUF file's bytes) that the file ends inside,
    or None (see the module text)."""
    w = _Walk(data)
    try:
        w.run()
    except _Stop as s:
        return s.answer
    return None


class _Walk:
    def __init__(self, data):
        self.d = data
        self.at = 0
        self.rule = "GG003"
        self.index = -1

    def fixed(self, n):
        if len(self.d) - self.at < n:
            raise _Stop((self.rule, self.at, self.index))
        v = self.d[self.at:self.at + n]
        self.at += n
        return v

    def u32(self):
        return struct.unpack("<I", self.fixed(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.fixed(8))[0]

    def string(self):
        at = self.at
        n = self.u64()
        if n > MAX_STRING:
            raise _Stop(None)
        if n > len(self.d) - self.at:
            raise _Stop(("GG102", at, self.index))
        self.at += n

    def run(self):
        if self.d[:4] != b"GGUF":
            raise _Stop(None)
        self.at = 4
        self.u32()  # version (its value is another rule's matter)
        n_tensors = self.u64()
        n_kv = self.u64()
        if n_tensors >= 1 << 63 or n_kv >= 1 << 63:
            raise _Stop(None)
        self.rule = "GG103"
        for i in range(n_kv):
            self.index = i
            self.string()
            self.value(self.u32())
        self.rule = "GG201"
        for i in range(n_tensors):
            self.index = i
            self.string()
            n_dims = self.u32()
            if n_dims > 4:
                raise _Stop(None)
            for _ in range(n_dims):
                self.fixed(8)
            self.fixed(4)  # ggml type
            self.fixed(8)  # offset

    def value(self, vtype):
        if vtype in VT_SIZE:
            self.fixed(VT_SIZE[vtype])
        elif vtype == VT_STRING:
            self.string()
        elif vtype == VT_ARRAY:
            etype = self.u32()
            count = self.u64()
            if etype in VT_SIZE:
                if count > MAX_STRING or count * VT_SIZE[etype] > len(self.d) - self.at:
                    raise _Stop(None)  # GG130's matter
                self.at += count * VT_SIZE[etype]
            elif etype == VT_STRING:
                if count > MAX_STRING or 8 * count > len(self.d) - self.at:
                    raise _Stop(None)
                for _ in range(count):
                    self.string()
            else:
                raise _Stop(None)
        else:
            raise _Stop(None)
