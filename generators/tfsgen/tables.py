"""tables.py: the type and rule tables of include/tfs/*.def, read at import.

Never retyped here: every table below is parsed from the X-macro files that
the C library compiles (gg_types.def, gg_vtypes.def, st_dtypes.def,
rules.def), so Python and C cannot disagree.  A malformed or unexpected .def
raises at import.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = os.path.join(ROOT, "include", "tfs")


def _rows(name, macro, pattern):
    pat = re.compile(r"^" + macro + r"\(" + pattern + r"\)\s*$")
    out = []
    with open(os.path.join(INCLUDE, name), encoding="utf-8") as f:
        for line in f:
            if line.startswith(macro + "("):
                m = pat.match(line.strip())
                if not m:
                    raise ValueError("%s: cannot read %r" % (name, line))
                out.append(m.groups())
    if not out:
        raise ValueError("%s: no %s rows" % (name, macro))
    return out


# ---- ggml types: id -> (name or None, block size, bytes per block); removed ids: (None, 0, 0)
GG_TYPES = {}
for _id, _name, _blck, _size in _rows("gg_types.def", "TFS_GG_TYPE", r'(\d+), (NULL|"\w+"), (\d+), (\d+)'):
    GG_TYPES[int(_id)] = (None if _name == "NULL" else _name.strip('"'), int(_blck), int(_size))
GG_TYPE_COUNT = len(GG_TYPES)
assert sorted(GG_TYPES) == list(range(GG_TYPE_COUNT)), "gg_types.def: ids not 0..n-1"
GG_REMOVED = [t for t, (n, b, _) in sorted(GG_TYPES.items()) if b == 0]
GG_VALID = [t for t, (n, b, _) in sorted(GG_TYPES.items()) if b != 0]
GG_TYPE_ID = {n: t for t, (n, b, _) in GG_TYPES.items() if n}

# ---- GGUF value types: id -> (symbol, name, fixed size or 0)
GG_VTYPES = {}
for _sym, _id, _name, _size in _rows("gg_vtypes.def", "TFS_GG_VTYPE", r'(\w+), (\d+), "(\w+)", (\d+)'):
    GG_VTYPES[int(_id)] = (_sym, _name, int(_size))
GG_VTYPE_COUNT = len(GG_VTYPES)
assert sorted(GG_VTYPES) == list(range(GG_VTYPE_COUNT)), "gg_vtypes.def: ids not 0..n-1"
VT = {sym: i for i, (sym, _, _) in GG_VTYPES.items()}          # "U32" -> 4
VT_NAME = [GG_VTYPES[i][1] for i in range(GG_VTYPE_COUNT)]      # 4 -> "u32"
VT_SIZE = {i: s for i, (_, _, s) in GG_VTYPES.items() if s}     # fixed-size types only
VT_STRING, VT_ARRAY = VT["STRING"], VT["ARRAY"]
VT_STRUCT = {VT["U8"]: "<B", VT["I8"]: "<b", VT["U16"]: "<H", VT["I16"]: "<h", VT["U32"]: "<I", VT["I32"]: "<i",
             VT["F32"]: "<f", VT["BOOL"]: "<B", VT["U64"]: "<Q", VT["I64"]: "<q", VT["F64"]: "<d"}
assert all(__import__("struct").calcsize(f) == VT_SIZE[t] for t, f in VT_STRUCT.items())

# ---- safetensors dtypes, in st_dtypes.def order: [(name, bits)]
ST_DTYPES = [(n, int(b)) for _sym, n, b in _rows("st_dtypes.def", "TFS_ST_DTYPE", r'(\w+), "(\w+)", (\d+)')]
ST_BITS = dict(ST_DTYPES)

# ---- rules: id -> Rule
class Rule:
    __slots__ = ("id", "code", "format", "profile", "index", "category", "message", "ref")

    def __init__(self, *cols):
        for k, v in zip(self.__slots__, cols):
            setattr(self, k, v)

    def __repr__(self):
        return "Rule(%s %s %s)" % (self.id, self.profile, self.category)


RULES = {}
for _cols in _rows("rules.def", "TFS_RULE",
                   r'(\w+), (\d+), (\w+), (\w+), (\w+), "([^"]*)", "((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"'):
    RULES[_cols[0]] = Rule(_cols[0], int(_cols[1]), *_cols[2:])
LIVE_RULES = sorted(r for r, v in RULES.items() if v.profile != "RETIRED")


def file_index(rule, index):
    """The manifest index column for a line of `rule`: -1 (the file as a whole) when the generator gave
    none and the rule's index kind in rules.def is NONE (a reader reports -1 for such a rule), else index."""
    if index is None and rule in RULES and RULES[rule].index == "NONE":
        return -1
    return index


def category(rule_ids):
    """Manifest category column for a '|'-separated rule list ('-' for none)."""
    if rule_ids == "-":
        return "-"
    return "|".join(RULES[r].category for r in rule_ids.split("|"))
