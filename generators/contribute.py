#!/usr/bin/python3
"""contribute.py: add minted fixtures (a `tfs mint --out DIR` folder) to the
project's corpus, in one command (docs/mint.md, "Contributing").

    /usr/bin/python3 generators/contribute.py DIR [--to corpus/minted] [--id GLOB]... [--no-audit]

Copies the fixture files and expected/<id>.json of the selected manifest
lines of DIR into the corpus folder (default corpus/minted, created with a
MANIFEST.tsv header), adds their lines to its MANIFEST.tsv (sorted, the union
of both), refuses an id the corpus already has with other bytes or a file
name taken by other bytes, checks every copied file's sha256 and size
against its line, then runs generators/audit.py (the coverage table of
docs/fixtures.md; --no-audit: not, for a folder outside the corpus).  Exit 0 done, 1 refused (nothing written), 2 usage.
"""
import fnmatch
import hashlib
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tfsgen.manifest import COLUMNS  # noqa: E402
from tfsgen.tables import ROOT  # noqa: E402


def read(path):
    rows = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        if lines and lines[0].split("\t") != COLUMNS:
            raise SystemExit("%s: not a manifest (header %r)" % (path, lines[0]))
        for line in lines[1:]:
            if line.strip():
                rows[line.split("\t")[0]] = line
    return rows


def main(argv):
    args, to, globs, audit = [], os.path.join(ROOT, "corpus", "minted"), [], True
    i = 0
    while i < len(argv):
        if argv[i] == "--to" and i + 1 < len(argv):
            to = argv[i + 1]
            i += 2
        elif argv[i] == "--id" and i + 1 < len(argv):
            globs.append(argv[i + 1])
            i += 2
        elif argv[i] == "--no-audit":  # a folder outside the corpus (tests)
            audit = False
            i += 1
        elif argv[i] in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 1:
        print("usage: contribute.py DIR [--to CORPUS_FOLDER] [--id GLOB]... [--no-audit]", file=sys.stderr)
        return 2
    src = args[0]
    mine = read(os.path.join(src, "MANIFEST.tsv"))
    if not mine:
        print("contribute.py: %s has no manifest lines" % src, file=sys.stderr)
        return 2
    theirs = read(os.path.join(to, "MANIFEST.tsv"))
    take = {k: v for k, v in mine.items() if not globs or any(fnmatch.fnmatch(k, g) for g in globs)}
    problems, copies = [], []
    for fid, line in sorted(take.items()):
        c = line.split("\t")
        path = os.path.join(src, c[1])
        with open(path, "rb") as f:
            data = f.read()
        if hashlib.sha256(data).hexdigest() != c[2] or len(data) != int(c[3]):
            problems.append("%s: %s does not match its line (sha256/size)" % (fid, c[1]))
            continue
        if fid in theirs and theirs[fid] != line:
            problems.append("%s: the corpus has this id with another line" % fid)
            continue
        dest = os.path.join(to, c[1])
        if os.path.exists(dest):
            with open(dest, "rb") as f:
                if f.read() != data:
                    problems.append("%s: %s exists in %s with other bytes" % (fid, c[1], to))
                    continue
        copies.append((fid, line, path, dest))
    if problems:
        for p in problems:
            print("contribute.py: " + p, file=sys.stderr)
        print("contribute.py: refused, nothing written", file=sys.stderr)
        return 1
    os.makedirs(os.path.join(to, "expected"), exist_ok=True)
    for fid, line, path, dest in copies:
        shutil.copyfile(path, dest)
        exp = os.path.join(src, "expected", fid + ".json")
        if os.path.exists(exp):
            shutil.copyfile(exp, os.path.join(to, "expected", fid + ".json"))
        theirs[fid] = line
    if not os.listdir(os.path.join(to, "expected")):
        os.rmdir(os.path.join(to, "expected"))
    with open(os.path.join(to, "MANIFEST.tsv"), "w", encoding="utf-8") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for k in sorted(theirs):
            f.write(theirs[k] + "\n")
    print("contribute.py: %d fixtures added to %s (%d lines now)" % (len(copies), to, len(theirs)))
    if not audit:
        return 0
    rc = subprocess.run([sys.executable, os.path.join(HERE, "audit.py")]).returncode
    if rc:
        print("contribute.py: generators/audit.py failed (exit %d)" % rc, file=sys.stderr)
    return 1 if rc else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
