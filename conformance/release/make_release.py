#!/usr/bin/python3
"""make_release.py: the versioned fixture release, tfs-conformance-<version>.tar.gz.

    make_release.py --version 0.1.0 --src PROJECT_ROOT --out DIR [--mtime SECONDS]

Writes DIR/tfs-conformance-<version>.tar.gz holding one folder
tfs-conformance-<version>/ with
    README.md                 conformance/README.md (the protocol)
    gguf/ safetensors/ real/ minted/  corpus/<folder>/: MANIFEST.tsv, the fixtures,
                              expected/<id>.json (expected contents)
    adapters/                 the example adapters (C, Python), tfs-adapter and every *.xfail
    SHA256SUMS                `sha256sum -c SHA256SUMS` inside the folder checks
                              every other file
so that `tfs conform --fixtures tfs-conformance-<version>` runs it.

Reproducible: the same source tree gives the same bytes.  Entries sorted by
name, owner and group 0 with no names, modes 0644 (0755 for directories and
executables), every mtime = --mtime (default: $SOURCE_DATE_EPOCH, else the
commit time of the source's git HEAD, else 0); gzip header without name and
with that mtime (as `gzip -n`), compression level 9.
Prints the tarball's path and SHA-256.  Exit 2 on errors.
"""
import argparse
import gzip
import hashlib
import io
import os
import subprocess
import sys
import tarfile

CORPUS = ("gguf", "safetensors", "real", "minted")
ADAPTERS = ("example_adapter.c", "example_adapter.py", "tfs-adapter")


def commit_time(src):
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        out = subprocess.run(["git", "-C", src, "log", "-1", "--format=%ct"], capture_output=True, text=True)
        return int(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip() else 0
    except OSError:
        return 0


def release_files(src):
    """(name in the tarball, path on disk), sorted by name."""
    files = [("README.md", os.path.join(src, "conformance", "README.md"))]
    for folder in CORPUS:
        base = os.path.join(src, "corpus", folder)
        for root, dirs, names in os.walk(base):
            dirs.sort()
            for n in names:
                path = os.path.join(root, n)
                files.append((folder + "/" + os.path.relpath(path, base).replace(os.sep, "/"), path))
    adapters = os.path.join(src, "conformance", "adapters")
    xfails = sorted(n for n in os.listdir(adapters) if n.endswith(".xfail"))  # every expected-failures file
    for n in ADAPTERS + tuple(xfails):
        files.append(("adapters/" + n, os.path.join(adapters, n)))
    return sorted(files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mtime", type=int)
    a = ap.parse_args()
    mtime = a.mtime if a.mtime is not None else commit_time(a.src)
    top = "tfs-conformance-" + a.version

    entries = []  # (name, bytes, executable)
    for name, path in release_files(a.src):
        with open(path, "rb") as f:
            entries.append((name, f.read(), os.access(path, os.X_OK)))
    sums = "".join("%s  %s\n" % (hashlib.sha256(d).hexdigest(), n) for n, d, _ in entries)
    entries.append(("SHA256SUMS", sums.encode(), False))
    entries.sort()

    dirs = set()
    for n, _, _ in entries:
        parts = n.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    members = [(d + "/", None, True) for d in dirs] + entries
    members.sort(key=lambda m: m[0])

    def info(name, size, mode, kind):
        ti = tarfile.TarInfo(name)
        ti.size, ti.mode, ti.type, ti.mtime = size, mode, kind, mtime
        ti.uid = ti.gid = 0
        ti.uname = ti.gname = ""
        return ti

    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        tar.addfile(info(top, 0, 0o755, tarfile.DIRTYPE))
        for name, data, exe in members:
            if data is None:
                tar.addfile(info(top + "/" + name.rstrip("/"), 0, 0o755, tarfile.DIRTYPE))
            else:
                tar.addfile(info(top + "/" + name, len(data), 0o755 if exe else 0o644, tarfile.REGTYPE),
                            io.BytesIO(data))
    os.makedirs(a.out, exist_ok=True)
    out = os.path.join(a.out, top + ".tar.gz")
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=f, mtime=mtime) as gz:
            gz.write(raw.getvalue())
    os.replace(tmp, out)
    with open(out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    print("%s  %s (%d files, mtime %d)" % (digest, out, len(entries), mtime))
    return 0


if __name__ == "__main__":
    sys.exit(main())
