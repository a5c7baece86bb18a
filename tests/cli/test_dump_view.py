#!/usr/bin/python3
"""test_dump_view.py TFS SOURCE_DIR: `tfs dump` for navigating big models (issue 18, section 3).

Files written here, with values chosen here: a GGUF with 4 layers (blk.0. .. blk.3., 3 tensors
each, two ggml types), 3 model-level tensors, KVs general.* / llama.* / tokenizer.*, and a 20,000
element array; a safetensors file with model.layers.0. .. model.layers.2. tensors.  Expected
figures (parameters, bytes per type, offsets, orders) are computed here from the shapes and the
independent type table of tests/corpus/indep_decode.py, never from tfs's output.
Checks: --keys GLOB, --tensors GLOB, --no-tensors, aligned numbered columns (every row as wide
as the header, right-aligned numbers), totals in all and per type, --sort offset|size|name,
--tree (blk.N. and model.layers.N. groups, layer counts, suffix counts), long arrays shown by
length with their first items, --json refusing the text-only options.
Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "generators"))
import indep_decode  # noqa: E402
from tfsgen import gguf as gg  # noqa: E402
from tfsgen import safetensors as st  # noqa: E402
from tfsgen.tables import VT  # noqa: E402

TFS = sys.argv[1]
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


TYPE_ID = {"f32": 0, "f16": 1, "q8_0": 8}


def nbytes(tname, shape):
    _, block, size = indep_decode.GGML_TYPES[TYPE_ID[tname]]
    n = 1
    for d in shape[1:]:
        n *= d
    return shape[0] // block * size * n


def make_gguf(path):
    """The file is written by generators/tfsgen; the expected rows are computed
    here from the shapes and indep_decode's type table."""
    tensors = [("token_embd.weight", "q8_0", [64, 10])]
    for layer in range(4):
        tensors += [("blk.%d.attn_q.weight" % layer, "q8_0", [64, 64]),
                    ("blk.%d.ffn_up.weight" % layer, "f16", [64, 96]),
                    ("blk.%d.attn_norm.weight" % layer, "f32", [64])]
    tensors += [("output_norm.weight", "f32", [64]), ("output.weight", "f16", [64, 10])]
    kvs = [gg.kv_string("general.architecture", "llama"), gg.kv_string("general.name", "view-test"),
           gg.kv_scalar("llama.block_count", VT["U32"], 4),
           gg.kv_array("tokenizer.ggml.token_type", VT["I32"], list(range(1000, 21000)))]
    m = gg.Model(3, kvs, [gg.Tensor(name, shape, TYPE_ID[t]) for name, t, shape in tensors])
    data, _, info = gg.serialize(m)
    with open(path, "wb") as f:
        f.write(data)
    rows, off = [], 0
    for i, (name, t, shape) in enumerate(tensors):
        size = nbytes(t, shape)
        n = 1
        for d in shape:
            n *= d
        rows.append({"name": name, "type": t, "shape": shape, "offset": off, "bytes": size, "elements": n,
                     "index": i, "file_offset": info["data_start"] + off})
        off += (size + 31) // 32 * 32
    return rows


def make_st(path):
    hdr, off = {}, 0
    for layer in range(3):
        for part, shape in (("mlp.up_proj.weight", [4, 8]), ("input_layernorm.weight", [4])):
            n = 1
            for d in shape:
                n *= d
            hdr["model.layers.%d.%s" % (layer, part)] = {"dtype": "F32", "shape": shape, "data_offsets": [off, off + 4 * n]}
            off += 4 * n
    hdr["lm_head.weight"] = {"dtype": "BF16", "shape": [8, 4], "data_offsets": [off, off + 64]}
    off += 64
    with open(path, "wb") as f:
        f.write(st.st_file(json.dumps(hdr), off))


def dump(*args):
    p = subprocess.run([TFS, "dump"] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def table_rows(out):
    """(header line, data lines) of the tensor table."""
    lines = out.splitlines()
    h = [i for i, ln in enumerate(lines) if ln.split()[:2] == ["#", "name"]]
    if not h:
        return None, []
    rows = []
    for ln in lines[h[0] + 1:]:
        if not ln.startswith("    ") or not ln.split()[0].isdigit():
            break
        rows.append(ln)
    return lines[h[0]], rows


def fmt_n(v):
    return "{:,}".format(v)


with tempfile.TemporaryDirectory() as tmp:
    g = os.path.join(tmp, "view.gguf")
    s = os.path.join(tmp, "view.safetensors")
    rows = make_gguf(g)
    make_st(s)

    # ---- aligned numbered columns, totals
    rc, out, err = dump(g)
    head, got = table_rows(out)
    check(rc == 0 and head is not None and len(got) == len(rows), "dump: %d table rows, want %d" % (len(got), len(rows)))
    check(all(len(r) == len(head) for r in got), "dump: rows not as wide as the header (columns not aligned)")
    for r, w in zip(got, rows):
        f = r.split()
        want = [str(w["index"]), w["name"], w["type"]]
        nums = [str(w["elements"]), str(w["bytes"]), str(w["offset"]), str(w["file_offset"])]
        check(f[:3] == want and f[-4:] == nums, "row %r, want %r ... %r" % (r, want, nums))
    P = sum(r["elements"] for r in rows)
    B = sum(r["bytes"] for r in rows)
    check("  totals      %d tensors, %s parameters, %s bytes" % (len(rows), fmt_n(P), fmt_n(B)) in out,
          "totals line: want %d tensors, %s parameters, %s bytes" % (len(rows), fmt_n(P), fmt_n(B)))
    for t in ("f32", "f16", "q8_0"):
        sel = [r for r in rows if r["type"] == t]
        line = [ln.split() for ln in out.splitlines() if ln.split()[:1] == [t]]
        want = [t, str(len(sel)), "tensors", fmt_n(sum(r["elements"] for r in sel)), "parameters",
                fmt_n(sum(r["bytes"] for r in sel)), "bytes"]
        check(line == [want], "totals of %s: %r, want %r" % (t, line, want))
    # long arrays: length and first items
    check("tokenizer.ggml.token_type (array) = [i32 x 20000] [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, "
          "... (+19992 more)]" in out, "long array line")

    # ---- --keys, --tensors, --no-tensors
    rc, out, err = dump("--keys", "general.*", "--no-tensors", g)
    keys = [ln.split()[0] for ln in out.splitlines() if ln.startswith("    ") and " = " in ln]
    check(rc == 0 and keys == ["general.architecture", "general.name"], "--keys general.*: %r" % keys)
    check("(2 shown: --keys)" in out and table_rows(out)[0] is None and "totals" not in out,
          "--no-tensors: no table, no totals; the key count says 2 shown")
    rc, out, err = dump("--tensors", "blk.1.*", g)
    head, got = table_rows(out)
    sel = [r for r in rows if r["name"].startswith("blk.1.")]
    check([r.split()[1] for r in got] == [r["name"] for r in sel], "--tensors blk.1.*: %r" % [r.split()[1] for r in got])
    check("  totals      3 tensors, %s parameters, %s bytes" % (fmt_n(sum(r["elements"] for r in sel)),
                                                             fmt_n(sum(r["bytes"] for r in sel))) in out,
          "--tensors totals count only those")

    # ---- --sort
    for key, order in (("size", sorted(rows, key=lambda r: (-r["bytes"], r["index"]))),
                       ("name", sorted(rows, key=lambda r: r["name"].encode())),
                       ("offset", sorted(rows, key=lambda r: (r["offset"], r["index"])))):
        rc, out, err = dump("--sort", key, g)
        got = [r.split()[1] for r in table_rows(out)[1]]
        check(rc == 0 and got == [r["name"] for r in order], "--sort %s: %r" % (key, got))
    rc, out, err = dump("--sort", "colour", g)
    check(rc == 2 and "one of file, offset, size, name" in err, "--sort colour: exit %d" % rc)

    # ---- --tree
    rc, out, err = dump("--tree", g)
    lay = [r for r in rows if r["name"].startswith("blk.")]
    want = "    blk.N.  layers 0..3 (4), %d tensors, %s parameters, %s bytes" % (
        len(lay), fmt_n(sum(r["elements"] for r in lay)), fmt_n(sum(r["bytes"] for r in lay)))
    check(want in out, "--tree group line, want %r" % want)
    sfx = [ln.split() for ln in out.splitlines() if ln.startswith("      ")]
    check(sfx == [["attn_q.weight", "x4", "q8_0", "[64,", "64]"], ["ffn_up.weight", "x4", "f16", "[64,", "96]"],
                  ["attn_norm.weight", "x4", "f32", "[64]"]], "--tree suffixes: %r" % sfx)
    check("  tree        12 tensors in 1 layer group, 3 others" in out, "--tree summary")
    rc, out, err = dump("--tree", s)
    check("    model.layers.N.  layers 0..2 (3), 6 tensors, 108 parameters, 432 bytes" in out and
          "      mlp.up_proj.weight" in out and "    lm_head.weight  BF16 [8, 4]" in out,
          "--tree of safetensors model.layers.N.: %s" % out[-400:])

    # ---- the text-only options with --json
    rc, out, err = dump("--json", "--tree", g)
    check(rc == 2 and "--json prints everything" in err, "--json --tree: exit %d" % rc)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
