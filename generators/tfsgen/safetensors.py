"""safetensors.py: the safetensors model and writer of tfsgen.

Layout (shared spec/safetensors.md): [u64 LE N][N bytes of JSON header][data].

Three levels, one framing function (st_file):
  * st_file(header, data, n_field): the framing, with a knob to declare any N;
  * raw-token JSON: ent / obj / one build entry and object text, and
    Header / Member render a header member by member from raw tokens (name
    bytes, value text, separator, a cut, text before or after the object),
    recording each member's byte span: the knobs for malformed headers;
  * Model: a valid file from tensors [(name, dtype, shape)] and __metadata__,
    offsets packed in the given order (or any order), padded as the crate's
    writer pads (spaces to a multiple of 8) or not at all.
Dtypes and bit sizes come from include/tfs/st_dtypes.def (tables.py).
"""
import json
import struct

from .tables import ST_BITS, ST_DTYPES

U64_MAX = 2**64 - 1
DTYPES = list(ST_DTYPES)   # [(name, bits)], st_dtypes.def order


def data_bytes(n):
    """n deterministic data bytes."""
    return bytes((i * 7 + 3) & 0xFF for i in range(n))


def st_file(header, data=0, n_field=None):
    """[N][header][data]; header is str (UTF-8) or bytes; data an int (count) or
    bytes; n_field: the N written instead of the header's length."""
    h = header.encode("utf-8") if isinstance(header, str) else header
    d = data_bytes(data) if isinstance(data, int) else data
    n = len(h) if n_field is None else n_field
    return struct.pack("<Q", n) + h + d


# ---------------------------------------------------------------- raw-token JSON text

def ent(dtype, shape, start, end):
    """Canonical entry text {"dtype":..,"shape":[..],"data_offsets":[s,e]} (any values)."""
    return '{"dtype":"%s","shape":[%s],"data_offsets":[%d,%d]}' % (dtype, ",".join(str(s) for s in shape), start, end)


def obj(*pairs):
    """JSON object text from (name, value-text) pairs, in order (names are raw JSON string contents)."""
    return "{" + ",".join('"%s":%s' % (k, v) for k, v in pairs) + "}"


def one(body, name="a"):
    """{"a":{<body>}} for an entry body text."""
    return '{"%s":{%s}}' % (name, body)


def crate_padded(text):
    """The crate's writer: JSON padded with spaces to a multiple of 8."""
    return text + " " * ((8 - len(text) % 8) % 8)


class Member:
    """One member of the header object: name (raw JSON string contents),
    `fields` [(key, value text)] rendered as an object unless `raw` (the whole
    value text) is set; `name_bytes` replaces the name's bytes; `sep` is the
    text after the member (before the next one)."""

    def __init__(self, name, fields=None, raw=None):
        self.name = name
        self.fields = list(fields or [])
        self.raw = raw
        self.name_bytes = None
        self.sep = ","

    def value(self):
        if self.raw is not None:
            return self.raw
        return "{" + ",".join('"%s":%s' % kv for kv in self.fields) + "}"


def tensor_member(name, dtype, shape, start, end):
    return Member(name, [("dtype", '"%s"' % dtype), ("shape", "[%s]" % ",".join(str(s) for s in shape)),
                         ("data_offsets", "[%d,%d]" % (start, end))])


class Header:
    """A JSON header rendered from raw tokens: `lead` before the object,
    members, `tail` after the closing brace; `cut` = (member, chars kept of
    that member's text) ends the header inside that member."""

    def __init__(self, members=None):
        self.members = list(members or [])
        self.lead = ""
        self.tail = ""
        self.cut = None

    def render(self):
        """(header bytes, [(start, end)] per member: from its key to after its separator)."""
        out = bytearray(self.lead.encode("utf-8") + b"{")
        spans = []
        for i, m in enumerate(self.members):
            s = len(out)
            name = m.name_bytes if m.name_bytes is not None else m.name.encode("utf-8")
            text = b'"' + name + b'":' + m.value().encode("utf-8")
            if self.cut is not None and self.cut[0] is m:
                out += text[:self.cut[1]]
                spans.append((s, len(out)))
                return bytes(out), spans
            out += text
            if i + 1 < len(self.members):
                out += m.sep.encode()
            spans.append((s, len(out)))
        out += b"}" + self.tail.encode("utf-8")
        return bytes(out), spans


# ---------------------------------------------------------------- valid model

def nbytes(dtype, shape):
    """Bytes of a tensor (None when the bit count is not whole bytes)."""
    n = 1
    for d in shape:
        n *= d
    bits = n * ST_BITS[dtype]
    return None if bits % 8 else bits // 8


class Model:
    """A valid safetensors file: tensors [(name, dtype, shape)] laid out in
    list order (offsets packed from 0), metadata {str: str} or None (no key)
    or "null" (written as "__metadata__":null)."""

    def __init__(self, tensors=(), metadata=None):
        self.tensors = list(tensors)
        self.metadata = metadata

    def header_text(self, key_order=None, metadata_last=False):
        """The JSON text; key_order: tensor names in the order written (default: layout order)."""
        offs, run = {}, 0
        for name, dtype, shape in self.tensors:
            size = nbytes(dtype, shape)
            if size is None:
                raise ValueError("%s: %s %r is not whole bytes" % (name, dtype, shape))
            offs[name] = (run, run + size)
            run += size
        by_name = {t[0]: t for t in self.tensors}
        names = key_order or [t[0] for t in self.tensors]
        parts = ['%s:%s' % (json.dumps(n, ensure_ascii=False),
                            ent(by_name[n][1], by_name[n][2], *offs[n])) for n in names]
        if self.metadata is not None:
            meta = "null" if self.metadata == "null" else json.dumps(self.metadata, ensure_ascii=False,
                                                                     separators=(",", ":"))
            part = '"__metadata__":' + meta
            parts = parts + [part] if metadata_last else [part] + parts
        return "{" + ",".join(parts) + "}", run

    def write(self, data=None, padded=True, **text_knobs):
        """File bytes: header (space-padded to a multiple of 8 as the crate
        writes it, unless padded=False), then `data` (bytes) or deterministic bytes."""
        text, size = self.header_text(**text_knobs)
        return st_file(crate_padded(text) if padded else text, size if data is None else data)
