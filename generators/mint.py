#!/usr/bin/python3
"""mint.py: new fixtures on demand (`tfs mint`, docs/mint.md).

Candidates come from the structure-aware mutators (`tfs mutate --mutation M
--seed R SEED`, every mutation of the seed's format); each is classified with
the reference parser (libtfs, in process through ctypes) in every profile,
minimised while that classification stays the same (model level first: the
seed model is cut down -- arrays, strings, KV pairs, tensors, dims,
__metadata__, names -- and the same mutation re-applied; then bytes: the
tail cut, then chunks removed), deduplicated by (rule, profile verdicts,
minimised sha256) and written as fixture files, MANIFEST.tsv lines and
expected/<id>.json for valid ones.  With --against 'CMD {file}' (hunting) a
candidate is kept only when that reader's verdict disagrees with ours, the
disagreement is what minimisation preserves, and fixtures are grouped by
disagreement class.  With --mutant 'CMD {file}' beside --against (an
implementer hardening the corpus against slips in their own reader: the
mutated reader beside the original) a candidate is kept when the original
agrees with us and the mutant answers in a way `tfs conform` fails (another
verdict, rule or category, a crash, other content); that pair is what
minimisation preserves, and fixtures are grouped by how the
mutant differs.  --oracle 'CMD {file}' confirms each fixture before it is
written (the oracle must accept exactly when our default profile does).

Run by `tfs mint` (tools/tfs/mint_cmd.c), which passes --tfs and --lib; it
can also be run by hand: python3 generators/mint.py --tfs build/dev/tools/tfs
--lib build/dev/parsers/libtfs.so --out DIR SEED...
Deterministic: the candidate sequence and every fixture's bytes depend only
on the seed files, --seed, --rule and --profile; --budget only decides how
far along that sequence a run gets (--max-candidates makes it exact).
"""
import argparse
import ctypes
import hashlib
import json
import os
import random
import shlex
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tfsgen import gguf as G  # noqa: E402
from tfsgen import safetensors as S  # noqa: E402
from tfsgen.manifest import COLUMNS  # noqa: E402

PROFILES = ("default", "strict", "header-only")
FLAGS = {"default": 0, "strict": 1, "header-only": 2}
FMT = {"safetensors": 1, "gguf": 2}
EXT = {"safetensors": ".safetensors", "gguf": ".gguf"}
SMALL = 1024  # the size a minted fixture should reach (bytes)
# rules no file of at most SMALL bytes can violate first, and why
NEVER_SMALL = {"GG505": "no file under 64 KiB: the rule needs a KV key longer than 65,535 bytes"}


# ---------------------------------------------------------------- classify

class TfsError(ctypes.Structure):
    _fields_ = [("rule", ctypes.c_int), ("offset", ctypes.c_uint64), ("index", ctypes.c_int64),
                ("message", ctypes.c_char_p), ("sys_errno", ctypes.c_int)]


class Classifier:
    """Our verdict of file bytes in each profile: libtfs in process (ctypes),
    else `tfs check --json` on a temporary file."""

    def __init__(self, tfs, lib):
        self.tfs, self.lib, self.calls = tfs, None, 0
        L = None
        # loaded in a child first: a sanitizer-built library aborts a process
        # that loads it without its runtime
        probe = [sys.executable, "-c", "import ctypes,sys; ctypes.CDLL(sys.argv[1])", lib or ""]
        why = "no shared library given" if not lib else "%s not found" % lib
        try:
            if lib and os.path.exists(lib):
                why = "%s cannot be loaded" % lib
                if subprocess.run(probe, capture_output=True).returncode == 0:
                    L = ctypes.CDLL(lib)
        except OSError:  # another word size (an m32 build): tfs check instead
            L = None
        if not L:
            # said once: the fallback is correct but much slower
            sys.stderr.write("tfs mint: %s (libtfs: in process); classifying with one `tfs check` process "
                             "per check instead (slower)\n" % why)
        if L:
            L.tfs_parse_buffer.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_uint,
                                           ctypes.c_void_p, ctypes.POINTER(TfsError)]
            L.tfs_parse_buffer.restype = ctypes.c_int
            for f in ("tfs_rule_id", "tfs_rule_category"):
                getattr(L, f).argtypes = [ctypes.c_int]
                getattr(L, f).restype = ctypes.c_char_p
            self.lib = L

    def one(self, data, fmt, profile):
        """(verdict, rule, category, offset) of one profile."""
        self.calls += 1
        if self.lib:
            err = TfsError()
            st = self.lib.tfs_parse_buffer(data, len(data), FMT[fmt], FLAGS[profile], None, ctypes.byref(err))
            if st == 0:
                return ("valid", "-", "-", 0)
            if st == 1:
                return ("parser_error", self.lib.tfs_rule_id(err.rule).decode(),
                        self.lib.tfs_rule_category(err.rule).decode(), err.offset)
            return ("internal", str(st), "-", 0)
        with tempfile.NamedTemporaryFile(suffix=EXT[fmt]) as f:
            f.write(data)
            f.flush()
            args = [self.tfs, "check", "--json", "--format", fmt]
            if profile != "default":
                args.append("--" + profile)
            p = subprocess.run(args + [f.name], capture_output=True, text=True)
            o = json.loads(p.stdout.splitlines()[0])
            if o["verdict"] == "valid":
                return ("valid", "-", "-", 0)
            return (o["verdict"], o.get("rule") or "-", o.get("category") or "-", o.get("offset") or 0)

    def classify(self, data, fmt):
        """{profile: (verdict, rule, category, offset)}."""
        return {p: self.one(data, fmt, p) for p in PROFILES}


def cls_key(c):
    """What minimisation keeps: verdict and rule in every profile."""
    return tuple((p, c[p][0], c[p][1]) for p in PROFILES)


# ---------------------------------------------------------------- hunting

class Adapter:
    """A third-party reader through the adapter protocol (docs/conform.md):
    exit 0 accept, 1 reject, 77 unsupported, else crash; optional first
    stdout line JSON with rule/category/content.  run() gives (verdict,
    rule, category, content sha256), None for what the reader does not say."""

    def __init__(self, cmd, timeout):
        self.cmd, self.timeout, self.calls = cmd, timeout, 0

    def run(self, path):
        self.calls += 1
        words = shlex.split(self.cmd)
        if any("{file}" in w for w in words):
            words = [w.replace("{file}", path) for w in words]
        else:
            words.append(path)
        p = None
        for _ in range(2):  # a timeout is tried once more: a loaded machine is not a hang
            try:
                p = subprocess.run(words, capture_output=True, timeout=self.timeout)
                break
            except subprocess.TimeoutExpired:
                pass
        if p is None:
            return ("timeout", None, None, None)
        if p.returncode == 0:
            v = "accept"
        elif p.returncode == 1:
            v = "reject"
        elif p.returncode == 77:
            v = "skip"
        else:
            v = "crash"
        rule = cat = content = None
        line = p.stdout.split(b"\n", 1)[0]
        if line.startswith(b"{"):
            try:
                o = json.loads(line)
                rule, cat = o.get("rule"), o.get("category")
                if "content" in o:  # compared as canonical JSON: cheap, and enough to see two readers differ
                    content = hashlib.sha256(json.dumps(o["content"], sort_keys=True).encode()).hexdigest()
            except (ValueError, AttributeError):
                pass
        return (v, rule, cat, content)


def disagreement(ours, theirs, profile):
    """A disagreement class name, or None when the reader agrees with us."""
    v, rule = ours[profile][0], ours[profile][1]
    t = theirs[0]
    if t == "skip":
        return None
    if t in ("crash", "timeout"):
        return "%s-on-%s" % (t, rule if v != "valid" else "valid")
    if v == "valid" and t == "reject":
        return "false-reject-valid"
    if v != "valid" and t == "accept":
        return "false-accept-%s" % rule
    return None


def kill_class(ours, orig, mut, profile):
    """--mutant: the class a mutated reader's slip is kept as, or None.  Kept
    when the original reader agrees with us in `profile` (accepts exactly what
    we accept; a rule or category it reports for a rejection is ours) and the
    mutant's answer is one `tfs conform` fails against our expectation: another
    verdict, a crash or timeout, a rule or category that is not ours, or other
    content than the original's (both printing content).  The fixture's
    expectation is then ours, the original passes it and the mutant does not."""
    v, rule, cat = ours[profile][0], ours[profile][1], ours[profile][2]
    if "skip" in (orig[0], mut[0]) or disagreement(ours, orig, profile) or orig[0] not in ("accept", "reject"):
        return None
    if orig[0] == "reject" and (orig[1] not in (None, rule) or orig[2] not in (None, cat)):
        return None
    name = rule if v != "valid" else "valid"
    if mut[0] in ("crash", "timeout"):
        return "%s-mutant-%s" % (name, mut[0])
    if mut[0] != orig[0]:
        return "%s-mutant-%s" % (name, "accepts" if mut[0] == "accept" else "rejects")
    if mut[0] == "reject" and (mut[1] not in (None, rule) or mut[2] not in (None, cat)):
        return "%s-mutant-other-rule" % name
    if mut[0] == "accept" and None not in (mut[3], orig[3]) and mut[3] != orig[3]:
        return "%s-mutant-misreads" % name
    return None


# ---------------------------------------------------------------- seeds

def seed_files(args):
    out = []
    for a in args:
        if os.path.isdir(a):
            for d, dirs, files in os.walk(a):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith((".gguf", ".safetensors")):
                        out.append(os.path.join(d, f))
        else:
            out.append(a)
    return out


def fmt_of(data, path):
    if data[:4] == b"GGUF" or path.endswith(".gguf"):
        return "gguf"
    return "safetensors"


def st_model(data):
    """(entries, metadata) of a safetensors file, or None: entries as
    [name, dtype, shape] in header order."""
    if len(data) < 8:
        return None
    n = struct.unpack("<Q", data[:8])[0]
    try:
        h = json.loads(data[8:8 + n])
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(h, dict):
        return None
    meta = h.pop("__metadata__", None)
    ents = []
    for k, v in h.items():
        if not isinstance(v, dict) or not isinstance(v.get("shape"), list):
            return None
        ents.append([k, v.get("dtype"), list(v["shape"])])
    return ents, meta



def st_write(ents, meta):
    h, off = {}, 0
    if meta is not None:
        h["__metadata__"] = meta
    for name, dt, shape in ents:
        n = 1
        for d in shape:
            n *= d
        size = (n * S.ST_BITS.get(dt, 8) + 7) // 8
        h[name] = {"dtype": dt, "shape": shape, "data_offsets": [off, off + size]}
        off += size
    return S.st_file(S.crate_padded(json.dumps(h, separators=(",", ":"))), bytes(off))


def seed_reductions(data, fmt):
    """Smaller versions of a valid seed, biggest cuts first (model level):
    yields (description, bytes)."""
    if fmt == "gguf":
        try:
            m = G.parse(data)
        except G.ParseError:
            return
        s = G.shrink(m)
        cur = s if (yield "shrink", s) else m
        # drop KV pairs and tensors (halves, then one by one), shorten
        for attr in ("kvs", "tensors"):
            items = getattr(cur, attr)
            k = max(1, len(items) // 2)
            while k >= 1:
                i = 0
                while i < len(getattr(cur, attr)):
                    c = cur.copy()
                    setattr(c, attr, getattr(c, attr)[:i] + getattr(c, attr)[i + k:])
                    ok = yield "drop %s[%d:%d]" % (attr, i, i + k), c
                    if ok:
                        cur = c
                    else:
                        i += k
                k //= 2
        for i in range(len(cur.kvs)):
            kv = cur.kvs[i]
            c = cur.copy()
            if kv.vtype == G.VT_ARRAY and len(kv.value) > 1:
                c.kvs[i].value = kv.value[:1]
            elif kv.vtype == G.VT_STRING and len(kv.value) > 1:
                c.kvs[i].value = kv.value[:1]
            else:
                continue
            if (yield "shorten kv %d" % i, c):
                cur = c
        for i in range(len(cur.tensors)):
            t = cur.tensors[i]
            c = cur.copy()
            if len(t.dims) > 1:
                c.tensors[i].dims = t.dims[:1]
                if (yield "drop dims of tensor %d" % i, c):
                    cur = c
                    continue
            if len(t.name) > 1:
                c = cur.copy()
                c.tensors[i].name = b"t%d" % i
                if (yield "short name of tensor %d" % i, c):
                    cur = c
    else:
        sm = st_model(data)
        if not sm:
            return
        ents, meta = sm
        small = ([[n, d, [min(x, 2) if isinstance(x, int) else x for x in s]] for n, d, s in ents], meta)
        cur = small if (yield "shrink", small) else (ents, meta)
        k = max(1, len(cur[0]) // 2)
        while k >= 1:
            i = 0
            while i < len(cur[0]):
                c = (cur[0][:i] + cur[0][i + k:], cur[1])
                if (yield "drop entries[%d:%d]" % (i, i + k), c):
                    cur = c
                else:
                    i += k
            k //= 2
        if isinstance(cur[1], dict) and cur[1]:
            if (yield "drop __metadata__ pairs", (cur[0], {})):
                cur = (cur[0], {})
        if cur[1] is not None and (yield "drop __metadata__", (cur[0], None)):
            cur = (cur[0], None)
        for i in range(len(cur[0])):
            c = ([list(e) for e in cur[0]], cur[1])
            c[0][i][0] = "t%d" % i
            if (yield "short name of entry %d" % i, c):
                cur = c


def reduce_seed(data, fmt, test):
    """Model-level delta debugging: the smallest seed model (from
    seed_reductions) whose mutant keeps the class; `test(seed_bytes)` says
    whether it does.  Returns (seed bytes, steps taken)."""
    gen = seed_reductions(data, fmt)
    best, steps, ok = data, [], None
    try:
        desc, m = gen.send(None)
        while True:
            b = G.serialize(m)[0] if fmt == "gguf" else st_write(*m)
            ok = len(b) < len(best) and test(b)
            if ok:
                best = b
                steps.append(desc)
            desc, m = gen.send(ok)
    except StopIteration:
        pass
    return best, steps


def reduce_bytes(data, keep, limit):
    """Byte-level: cut the tail, then remove chunks (halving), while keep()
    holds; at most `limit` tests."""
    tests = [0]

    def k(b):
        tests[0] += 1
        return keep(b)
    # the tail: shortest prefix found by halving the cut
    lo, hi = 0, len(data)
    while lo < hi and tests[0] < limit:
        mid = (lo + hi) // 2
        if k(data[:mid]):
            hi = mid
        else:
            lo = mid + 1
    if hi < len(data) and k(data[:hi]):
        data = data[:hi]
    n = max(1, len(data) // 2)
    while n >= 1 and tests[0] < limit:
        i = 0
        while i < len(data) and tests[0] < limit:
            b = data[:i] + data[i + n:]
            if k(b):
                data = b
            else:
                i += n
        n //= 2
    return data


def data_mode_whole(b):
    """A GGUF file our default profile accepts stays one ggml's data mode accepts: the file must
    reach the padded end of the last tensor (our default, as llama.cpp's loader, accepts a last
    tensor without its padding, ggml reads the padded blob: GG304-last-tensor-unpadded, an
    implementation-defined case).  A cut that loses that padding is not kept."""
    end = G.padded_data_end(b)
    return end is None or len(b) >= end


def fid_part(mutation):
    return mutation.replace(".", "-").replace("_", "-")


# ---------------------------------------------------------------- run

class Mint:
    def __init__(self, a):
        self.a = a
        self.cls = Classifier(a.tfs, a.lib)
        self.against = Adapter(a.against, a.timeout) if a.against else None
        self.mutant = Adapter(a.mutant, a.timeout) if a.mutant else None
        self.oracle = Adapter(a.oracle, a.timeout) if a.oracle else None
        self.dropped = 0    # fixtures the oracle did not confirm
        self.tmp = tempfile.mkdtemp(prefix="tfs-mint-")
        self.out = a.out
        self.seen = {}      # dedup key -> fixture id
        self.best = {}      # target rule (or disagreement class) -> smallest size
        self.written = []   # (id, size, rule, group)
        self.tried = 0
        self.existing = self.read_manifest()
        self.mutations = self.list_mutations()
        self.t0 = time.monotonic()
        self.known_classes()

    def known_classes(self):
        """The fixtures already in --out count as reached: a second run into
        the folder makes the same decisions as a longer first run (no second
        fixture of a class already reached at <= 1 KiB)."""
        if self.against:
            return
        for line in self.existing.values():
            c = line.split("\t")
            path = os.path.join(self.out, c[1])
            if not os.path.isfile(path) or c[8] != "default":
                continue
            with open(path, "rb") as f:
                data = f.read(16 << 20)
            cl = self.cls.classify(data, c[4])
            v, rule = cl[self.a.profile][0], cl[self.a.profile][1]
            group = ("rule", rule if v != "valid" else "valid-" + c[4])
            self.seen[(group, cls_key(cl))] = c[2]
            self.best[group] = min(self.best.get(group, 1 << 62), len(data))

    def read_manifest(self):
        p = os.path.join(self.out, "MANIFEST.tsv")
        rows = {}
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                for line in f.read().splitlines()[1:]:
                    if line.strip():
                        c = line.split("\t")
                        rows[c[0]] = line
        for line in rows.values():
            c = line.split("\t")
            self.seen_sha = getattr(self, "seen_sha", set())
            self.seen_sha.add((c[4], c[2]))  # (format, sha256): an empty file is a fixture of each
        self.seen_sha = getattr(self, "seen_sha", set())
        return rows

    def list_mutations(self):
        p = subprocess.run([self.a.tfs, "mutate", "--list"], capture_output=True, text=True, check=True)
        out = {"gguf": [], "safetensors": []}
        for line in p.stdout.splitlines():
            w = line.split()
            if len(w) < 2:
                continue
            for f in ("gguf", "safetensors"):
                if w[1] in (f, "both"):
                    out[f].append(w[0])
        return out

    def mutate(self, seed_path, mutation, rseed):
        outp = os.path.join(self.tmp, "m")
        try:
            p = subprocess.run([self.a.tfs, "mutate", "-q", "--seed", str(rseed), "--mutation", mutation,
                                "--max-size", str(max(os.path.getsize(seed_path) + 65536, 1 << 16)), seed_path,
                                outp], capture_output=True)
        except OSError as e:  # tfs being rebuilt under a long run: this candidate is lost, not the run
            sys.stderr.write("tfs mint: %s: %s\n" % (self.a.tfs, e))
            return None
        if p.returncode != 0:
            return None
        with open(outp, "rb") as f:
            return f.read(16 << 20)

    def mutate_bytes(self, seed_bytes, fmt, mutation, rseed):
        sp = os.path.join(self.tmp, "seed" + EXT[fmt])
        with open(sp, "wb") as f:
            f.write(seed_bytes)
        return self.mutate(sp, mutation, rseed)

    def their(self, data, fmt, reader=None):
        p = os.path.join(self.tmp, "cand" + EXT[fmt])
        with open(p, "wb") as f:
            f.write(data)
        return (reader or self.against).run(p)

    def group_of(self, c, data, fmt):
        """The class a candidate is kept for: ('rule', RULE) for minting,
        ('disagree', NAME) when hunting, ('kill', NAME) with --mutant (None:
        not kept)."""
        prof = self.a.profile
        if self.mutant:
            orig = self.their(data, fmt)
            if disagreement(c, orig, prof) or orig[0] == "skip":  # the mutant is not run
                return None
            d = kill_class(c, orig, self.their(data, fmt, self.mutant), prof)
            return ("kill", d) if d else None
        if self.against:
            d = disagreement(c, self.their(data, fmt), prof)
            return ("disagree", d) if d else None
        v, rule = c[prof][0], c[prof][1]
        target = rule if v != "valid" else "valid-" + fmt
        if self.a.rule and target not in self.a.rule:
            # a --rule of another profile (a strict-only rule, say): kept for it
            hits = [c[p][1] for p in PROFILES if c[p][0] != "valid" and c[p][1] in self.a.rule]
            return ("rule", hits[0]) if hits else None
        return ("rule", target)

    def keep_fn(self, fmt, key, group):
        def keep(b):
            c = self.cls.classify(b, fmt)
            if cls_key(c) != key:
                return False
            if fmt == "gguf" and c["default"][0] == "valid" and not data_mode_whole(b):
                return False
            return not self.against or self.group_of(c, b, fmt) == group
        return keep

    def candidate(self, seed_path, seed_bytes, fmt, mutation, rseed):
        data = self.mutate(seed_path, mutation, rseed)
        self.tried += 1
        if data is None:
            return
        wanted = self.intake(data, fmt)
        if not wanted:
            return
        key, group = wanted
        keep = self.keep_fn(fmt, key, group)
        steps = []
        # model level: the seed cut down, the same mutation and random seed
        if len(data) > SMALL:
            def seed_ok(sb):
                m = self.mutate_bytes(sb, fmt, mutation, rseed)
                return m is not None and keep(m)
            small_seed, steps = reduce_seed(seed_bytes, fmt, seed_ok)
            if steps:
                data = self.mutate_bytes(small_seed, fmt, mutation, rseed)
        # byte level
        data = reduce_bytes(data, keep, self.a.byte_tests if not self.against else self.a.byte_tests // 10)
        self.record(data, fmt, key, group, seed_path, mutation, rseed, steps)

    def intake(self, data, fmt):
        """(classification key, group) of a candidate worth minimising, or
        None: no group, or its group already has a fixture of at most SMALL
        bytes with that classification."""
        c = self.cls.classify(data, fmt)
        key = cls_key(c)
        group = self.group_of(c, data, fmt)
        if not group:
            return None
        if (group, key) in self.seen and self.best.get(group, 1 << 62) <= SMALL:
            return None
        return key, group

    def record(self, data, fmt, key, group, source, mutation, rseed, steps):
        """Write a minimised candidate unless its classification changed,
        its bytes are already written, or its group has one no larger."""
        c = self.cls.classify(data, fmt)
        if cls_key(c) != key:
            return
        sha = hashlib.sha256(data).hexdigest()
        if (fmt, sha) in self.seen_sha:
            return
        dedup = (group, key)
        if dedup in self.seen and len(data) >= self.best.get(group, 1 << 62):
            return
        if self.oracle and not self.confirmed(data, fmt, c):
            return
        self.write(data, fmt, c, group, source, mutation, rseed, steps, sha)
        self.seen[dedup] = sha
        self.seen_sha.add((fmt, sha))
        self.best[group] = min(self.best.get(group, 1 << 62), len(data))

    def confirmed(self, data, fmt, c):
        """--oracle: it accepts exactly when our default profile does (else
        the fixture is dropped, said on stderr, and the run goes on)."""
        o = self.their(data, fmt, self.oracle)
        if o[0] in ("accept", "reject") and (o[0] == "accept") == (c["default"][0] == "valid"):
            return True
        self.dropped += 1
        sys.stderr.write("tfs mint: the oracle says %s of a file we call %s (default profile): not written\n" % (
            o[0], c["default"][1] if c["default"][0] != "valid" else "valid"))
        return False

    def strategy_candidate(self, data, fmt, name, k):
        """A file drawn by a per-rule strategy: classified, kept, minimised
        over bytes (a strategy has no seed model to cut down), written."""
        self.tried += 1
        wanted = self.intake(data, fmt)
        if not wanted:
            return
        key, group = wanted
        data = reduce_bytes(data, self.keep_fn(fmt, key, group),
                            self.a.byte_tests if not self.against else self.a.byte_tests // 10)
        self.record(data, fmt, key, group, None, name, k, [])

    def strategy_files(self):
        """[(rule, fmt, k, bytes)]: --strategies examples of each rule's
        strategy (tfsgen/breakers.py; the --rule ones when given), drawn
        deterministically from --seed; [] without python3-hypothesis."""
        n = self.a.strategies
        if n <= 0:
            return []
        try:
            from hypothesis import HealthCheck, given, settings, seed as hseed
            from tfsgen.breakers import BREAKERS
        except ImportError:
            sys.stderr.write("tfs mint: python3-hypothesis is not installed: no strategy candidates\n")
            return []
        out = []
        for rule in sorted(BREAKERS):
            if self.a.rule and rule not in self.a.rule:
                continue
            b = BREAKERS[rule]
            if self.a.format and b.fmt != self.a.format:
                continue
            got = []

            @hseed(self.a.seed)
            @settings(max_examples=n, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck))
            @given(b.strategy)
            def draw(data):
                got.append(data)
            draw()
            out += [(rule, b.fmt, k, d) for k, d in enumerate(got[:n])]
        return out

    def write(self, data, fmt, c, group, seed_path, mutation, rseed, steps, sha):
        if seed_path is None:  # a per-rule strategy of tfsgen/breakers.py
            how = "hypothesis strategy %s (tfsgen/breakers.py), example %d" % (mutation, rseed)
            prov = "minted by tfs mint: strategy %s, example %d of --seed %d" % (mutation, rseed, self.a.seed)
            return self.write_lines(data, fmt, c, group, fid_part(mutation), how, prov, sha)
        seedname = os.path.basename(seed_path)
        how = "mutation %s of %s (random seed %d)" % (mutation, seedname, rseed)
        if steps:
            how += ", seed cut down (%s)" % ", ".join(steps[:3] + (["..."] if len(steps) > 3 else []))
        prov = "minted by tfs mint: seed %s, mutation %s, random seed %d" % (seedname, mutation, rseed)
        return self.write_lines(data, fmt, c, group, fid_part(mutation), how, prov, sha)

    def write_lines(self, data, fmt, c, group, part, how, prov, sha):
        if group[0] == "disagree":
            prov += ", against %s" % self.a.against.replace("\t", " ")
        if group[0] == "kill":
            prov += ", mode --mutant: %s (mutant %s; original %s agrees with us)" % (
                group[1], self.a.mutant, self.a.against)
        if self.oracle:
            prov += ", confirmed by the oracle %s" % self.a.oracle
        os.makedirs(self.out, exist_ok=True)
        d = c["default"]
        base = (d[1] if d[0] != "valid" else "valid") + "-minted-"
        if group[0] == "disagree":
            base = group[1] + "-" + (d[1] if d[0] != "valid" else "valid") + "-"
        if group[0] == "kill":  # the class begins with the rule (or valid)
            base = group[1] + "-"
        fid = base + part + "-" + sha[:8]
        name = fid + EXT[fmt]
        path = os.path.join(self.out, name)
        if os.path.exists(path):  # never overwrite
            return
        with open(path, "wb") as f:
            f.write(data)
        lines = []
        # one line per profile whose verdict differs from the default's
        modes = ["default"]
        for p in ("strict", "header-only"):
            if p == "header-only" and fmt != "gguf":
                continue
            if c[p][:2] != c["default"][:2]:
                modes.append(p)
        for mode in modes:
            v = c[mode]
            lid = fid if mode == "default" else fid + "-" + mode
            if v[0] == "valid":
                desc = "minted valid file: %s" % how
            else:
                desc = "minted: %s %s at offset %d in %s; %s" % (v[1], v[2], v[3], mode, how)
            row = [lid, name, sha, str(len(data)), fmt, "valid" if v[0] == "valid" else "parser_error",
                   v[1], v[2], mode, desc, prov]
            lines.append("\t".join(x.replace("\t", " ").replace("\n", " ") for x in row))
            if v[0] == "valid":
                self.expected(lid, path, fmt, mode)
        for line in lines:
            self.existing[line.split("\t")[0]] = line
        self.flush_manifest()
        self.written.append((fid, len(data), c[self.a.profile][1] if c[self.a.profile][0] != "valid"
                             else "valid", group))

    def expected(self, lid, path, fmt, mode):
        args = [self.a.tfs, "dump", "--json", "--content-only", "--format", fmt]
        if mode != "default":
            args.append("--" + mode)
        p = subprocess.run(args + [path], capture_output=True, text=True)
        if p.returncode == 0:
            os.makedirs(os.path.join(self.out, "expected"), exist_ok=True)
            with open(os.path.join(self.out, "expected", lid + ".json"), "w") as f:
                f.write(p.stdout)

    def flush_manifest(self):
        with open(os.path.join(self.out, "MANIFEST.tsv"), "w", encoding="utf-8") as f:
            f.write("\t".join(COLUMNS) + "\n")
            for k in sorted(self.existing):
                f.write(self.existing[k] + "\n")

    def progress(self, t0, final=False):
        if not sys.stderr.isatty() and not final:
            return
        msg = "tfs mint: %d candidates, %d fixtures, %d classes, %.0f s" % (
            self.tried, len(self.written), len(self.best), time.monotonic() - t0)
        sys.stderr.write(("\r" + msg + "\033[K") if sys.stderr.isatty() else msg + "\n")
        if final and sys.stderr.isatty():
            sys.stderr.write("\n")

    def run(self):
        a = self.a
        seeds = seed_files(a.seeds)
        if not seeds and not a.strategies:
            sys.stderr.write("tfs mint: no seed files (.gguf, .safetensors) in %s\n" % " ".join(a.seeds))
            return 2
        loaded = []
        for s in seeds:
            with open(s, "rb") as f:
                b = f.read(64 << 20)
            if not a.format or fmt_of(b, s) == a.format:
                loaded.append((s, b, fmt_of(b, s)))
        rng = random.Random(a.seed)
        t0 = time.monotonic()
        last = 0
        n = 0
        # the per-rule strategies first (small files, one rule each), then
        # rounds of mutations of the seed files
        for rule, fmt, k, data in self.strategy_files():
            if time.monotonic() - t0 > a.budget or (a.max_candidates and n >= a.max_candidates):
                self.progress(t0, True)
                return self.summary(loaded)
            self.strategy_candidate(data, fmt, "strategy." + rule, k)
            n += 1
            if time.monotonic() - last > 0.5:
                self.progress(t0)
                last = time.monotonic()
        if not loaded:
            self.progress(t0, True)
            return self.summary(loaded)
        # rounds: every (seed, mutation) pair once per round, in an order from
        # --seed; the random seed of a candidate comes from the same stream
        while True:
            pairs = [(i, m) for i, (_, _, f) in enumerate(loaded) for m in self.mutations[f]]
            rng.shuffle(pairs)
            for i, m in pairs:
                if time.monotonic() - t0 > a.budget or (a.max_candidates and n >= a.max_candidates):
                    self.progress(t0, True)
                    return self.summary(loaded)
                rseed = rng.getrandbits(32)
                s, b, f = loaded[i]
                self.candidate(s, b, f, m, rseed)
                n += 1
                if time.monotonic() - last > 0.5:
                    self.progress(t0)
                    last = time.monotonic()

    def summary(self, loaded):
        a = self.a
        out = sys.stdout
        groups = {}
        for fid, size, rule, g in self.written:
            groups.setdefault(g, []).append((size, fid))
        kind = "disagreement classes" if self.against else "rules reached (profile %s)" % a.profile
        if self.mutant:
            kind = "mutant classes (the original agrees with us, the mutant fails the fixture)"
        out.write("tfs mint: %d candidates from %d seed files in %.0f s; %d fixtures written to %s\n" % (
            self.tried, len(loaded), 0 if not self.tried else time.monotonic() - self.t0, len(self.written), a.out))
        out.write("%s: %d\n" % (kind, len(groups)))
        for g in sorted(groups):
            sizes = sorted(groups[g])
            flag = "" if sizes[0][0] <= SMALL else "  (smallest over 1 KiB)"
            out.write("  %-28s %2d fixture(s), smallest %6d bytes: %s%s\n" % (g[1], len(sizes), sizes[0][0],
                                                                          sizes[0][1], flag))
        if self.oracle:
            out.write("oracle: %d fixture(s) dropped (it disagrees with our default verdict)\n" % self.dropped)
        if a.rule and not self.against:
            missing = [r for r in a.rule if ("rule", r) not in groups]
            for r in missing:
                out.write("  %-28s not reached: no candidate violated it first in the %s profile\n" % (r, a.profile))
        if not self.against:
            self.rule_table(out)
        out.flush()
        return 0

    def rule_table(self, out):
        """Every rule id: the smallest fixture of --out whose line names it
        (any profile), or why there is none of at most 1 KiB."""
        try:
            from tfsgen.tables import LIVE_RULES, RULES
        except Exception:  # noqa: BLE001 (a tree without the .def files)
            return
        best = {}
        for line in self.existing.values():
            c = line.split("\t")
            if c[5] == "parser_error" and (c[6] not in best or int(c[3]) < best[c[6]][0]):
                best[c[6]] = (int(c[3]), c[0])
        rules = [r for r in LIVE_RULES if RULES[r].format in ("GG", "ST") and (not self.a.rule or r in self.a.rule)]
        small = sum(1 for r in rules if r in best and best[r][0] <= SMALL)
        out.write("every rule (fixtures in %s, any profile): %d of %d with a fixture of at most 1 KiB\n" % (
            self.out, small, len(rules)))
        for r in rules:
            if r in best and best[r][0] <= SMALL:
                continue
            if r in NEVER_SMALL:
                why = NEVER_SMALL[r] + (" (smallest here: %d bytes, %s)" % best[r] if r in best else "")
            elif r in best:
                why = "smallest %d bytes (%s): the minimiser kept the file whole to keep the verdicts" % best[r]
            else:
                why = "none: no candidate of this run violated it first (more --budget, --strategies, seeds)"
            out.write("  %-6s %s\n" % (r, why))


def main():
    ap = argparse.ArgumentParser(prog="tfs mint", description=__doc__.split("\n\n")[0], allow_abbrev=False)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rule", action="append", default=[])
    ap.add_argument("--profile", default="default", choices=PROFILES)
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--against")
    ap.add_argument("--mutant")
    ap.add_argument("--oracle")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--max-candidates", type=int, default=0)
    ap.add_argument("--byte-tests", type=int, default=4000)
    ap.add_argument("--strategies", type=int, default=2)
    ap.add_argument("--format", choices=("gguf", "safetensors"))
    # given by `tfs mint` itself (mint_cmd.c), not by its user
    ap.add_argument("--tfs", help=argparse.SUPPRESS)
    ap.add_argument("--lib", help=argparse.SUPPRESS)
    ap.add_argument("seeds", nargs="*")
    a = ap.parse_args()
    if not a.tfs:
        ap.error("run by `tfs mint`, which names the tfs program (--tfs)")
    if a.mutant and not a.against:
        ap.error("--mutant 'CMD {file}' needs --against 'CMD {file}', the reader it is a mutant of")
    m = Mint(a)
    try:
        return m.run()
    finally:
        for f in os.listdir(m.tmp):
            os.remove(os.path.join(m.tmp, f))
        os.rmdir(m.tmp)


if __name__ == "__main__":
    sys.exit(main())
