"""manifest.py: the fixture manifest format of docs/fixtures.md, and writing a
corpus folder (fixture files + sorted MANIFEST.tsv) or checking that it is
up to date.  Rules and categories come from tables.py (include/tfs/rules.def)."""
import hashlib
import os

from .tables import ROOT, RULES

COLUMNS = ["id", "path", "sha256", "size", "format", "expect", "rule", "category", "mode", "description",
           "provenance"]
# the corpus manifests of gg_fixtures.py / st_fixtures.py add the optional offset and index columns
# (docs/fixtures.md): the byte where the generator put the fault and the record it is about (the KV
# pair, tensor or __metadata__ entry a reader's error names, -1 for the file as a whole), each empty
# when the generator cannot tell
OFFSET_COLUMNS = COLUMNS + ["offset", "index"]
NO_COLUMN = object()


def read_rules():
    """rule id -> (profile, category), from include/tfs/rules.def."""
    return {r: (v.profile, v.category) for r, v in RULES.items()}


def manifest_row(fid, name, data, fmt, expect, rule, category, mode, desc, prov, offset=NO_COLUMN, index=None):
    """One manifest line (without newline) for fixture bytes `data` stored as `name`; with
    `offset` (an int, or None for an empty field) the line has the offset and index columns too
    (`index`: the record's index, -1 for the file as a whole, or None for an empty field)."""
    cols = [fid, name, hashlib.sha256(data).hexdigest(), str(len(data)), fmt, expect, rule, category, mode, desc,
            prov]
    if offset is not NO_COLUMN:
        assert offset is None or (expect != "valid" and 0 <= offset < 2**64), fid
        assert index is None or (expect != "valid" and -1 <= index < 2**63), fid
        cols.append("" if offset is None else str(offset))
        cols.append("" if index is None else str(index))
    assert all("\t" not in c and "\n" not in c for c in cols), fid
    return "\t".join(cols)


def sync_corpus(out_dir, ext, files, rows, check, columns=COLUMNS):
    """Write `files` (name -> bytes) and MANIFEST.tsv (sorted `rows`, header `columns`) into
    out_dir, removing fixture files (*ext) no longer generated.  With check=True write
    nothing and report what would change.  Returns the process exit code."""
    manifest = "\t".join(columns) + "\n" + "".join(r + "\n" for r in sorted(rows))

    def differs(path, data):
        if not os.path.exists(path):
            return True
        with open(path, "rb") as f:
            return f.read() != data

    changed = [n for n, d in sorted(files.items()) if differs(os.path.join(out_dir, n), d)]
    existing = os.listdir(out_dir) if os.path.isdir(out_dir) else []
    stale = sorted(n for n in existing if n.endswith(ext) and n not in files)
    mpath = os.path.join(out_dir, "MANIFEST.tsv")
    if differs(mpath, manifest.encode("utf-8")):
        changed.append("MANIFEST.tsv")
    if check:
        if changed or stale:
            print("out of date: " + " ".join(changed + stale))
            return 1
        print("%s: %d fixtures, %d manifest lines, up to date" % (os.path.relpath(out_dir, ROOT), len(files), len(rows)))
        return 0
    os.makedirs(out_dir, exist_ok=True)
    for n in changed:
        if n != "MANIFEST.tsv":
            with open(os.path.join(out_dir, n), "wb") as f:
                f.write(files[n])
    for n in stale:
        os.remove(os.path.join(out_dir, n))
    with open(mpath, "w", encoding="utf-8") as f:
        f.write(manifest)
    print("%d fixtures, %d manifest lines, %d files written, %d removed" % (len(files), len(rows), len(changed),
                                                                            len(stale)))
    return 0
