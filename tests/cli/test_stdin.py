#!/usr/bin/env python3
"""test_stdin.py TFS_BINARY SOURCE_DIR: `tfs check` reads a pipe forward
only, in bounded memory, and must give every fixture and real file the same
verdict, rule, offset and index (the whole --json record but "file",
"file_size" and "detail") as `tfs check FILE`, in the profiles default,
--header-only and --strict, with the format forced as the extension says (a
pipe has no name to detect it by).

How: one `tfs check` per profile and format over all the files (batches of
BATCH), once with the files' paths and once with a pipe per file
(/dev/fd/N, all fed by one loop: the stream path of `-`); a sample
is also piped to standard input (`tfs check -`) and must give the same
record as /dev/fd/N.  So the test starts a few dozen processes, not the
~14,000 of one `tfs` and `sed` per file and profile.

Also (the issue's own words): `cat f.gguf | tfs check --header-only -` (no
--format) gives the file's verdict for every GGUF fixture and real file;
where the file's verdict came from its .gguf name (the first bytes are not
the GGUF magic: empty, cut, damaged) the pipe says not_a_model, naming GGUF
in what it looks like (or "an empty file"), and with --format gguf gives
the file's verdict again.  And `tfs dump --json -` of each real file on a
pipe prints valid JSON (what a stream did not keep is counted in
"left_out").

Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
"""
import glob
import json
import os
import re
import selectors
import subprocess
import sys

BATCH = 200  # files per process: two descriptors each stay under a limit of 1024
SAMPLE = 6  # files per format and profile also piped to standard input

tfs, src = sys.argv[1], sys.argv[2]
passed = failed = 0


def fail(msg):
    global failed
    failed += 1
    print("FAIL: " + msg)


# file_size (and unowned_bytes, computed from it) differs on purpose: a valid
# stream with --header-only is not read to its end; detail too: GG130's numbers are re-read from the file, a stream
# has no bytes left to read
STRIP = [re.compile(r'"file":"[^"]*"'), re.compile(r'"file_size":[0-9a-z]*'),
         re.compile(r'"unowned_bytes":[0-9a-z]*'),
         re.compile(r'"detail":("[^"]*"|null)')]


def strip(line):
    for r in STRIP:
        line = r.sub("", line, count=1)
    return line


def run_piped(argv, datas):
    """Run argv (which names /dev/fd/N of each pipe's read end) while
    writing datas[i] into pipe i, all in one loop (no thread per pipe); a
    pipe that tfs stopped reading (GGUF --header-only) is left when tfs
    ends.  Returns tfs's standard output."""
    pipes = [os.pipe() for _ in datas]
    argv = [a.format(*[r for r, _ in pipes]) if a.startswith("/dev/fd/{") else a for a in argv]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, pass_fds=[r for r, _ in pipes])
    sel = selectors.DefaultSelector()
    for (r, w), data in zip(pipes, datas):
        os.close(r)
        os.set_blocking(w, False)
        sel.register(w, selectors.EVENT_WRITE, memoryview(data))
    sel.register(proc.stdout, selectors.EVENT_READ)
    out = []
    while sel.get_map():
        for key, _ in sel.select():
            if key.fileobj is proc.stdout:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if chunk:
                    out.append(chunk)
                    continue
                sel.unregister(proc.stdout)
                continue
            view = key.data
            try:
                n = os.write(key.fd, view[:65536])
                view = view[n:]
            except BlockingIOError:
                continue
            except BrokenPipeError:  # tfs stopped reading (GGUF --header-only) and ended
                view = view[:0]
            if view:
                sel.modify(key.fd, selectors.EVENT_WRITE, view)
            else:
                sel.unregister(key.fd)
                os.close(key.fd)
    proc.wait()
    return b"".join(out)


_content = {}


def content(path):
    """The bytes of path (read once)."""
    if path not in _content:
        with open(path, "rb") as f:
            _content[path] = f.read()
    return _content[path]


def records(args, paths, stream):
    """The stripped --json records of `tfs check ARGS` over paths (as
    files, or each through a pipe as /dev/fd/N), one per path in order."""
    out = []
    for k in range(0, len(paths), BATCH):
        chunk = paths[k:k + BATCH]
        if not stream:
            p = subprocess.run([tfs, "check", "--json"] + args + chunk, stdout=subprocess.PIPE)
            lines = p.stdout.decode("utf-8", "replace").splitlines()
        else:
            datas = [content(path) for path in chunk]
            argv = [tfs, "check", "--json"] + args + ["/dev/fd/{%d}" % i for i in range(len(chunk))]
            lines = run_piped(argv, datas).decode("utf-8", "replace").splitlines()
        if len(lines) != len(chunk):
            fail("tfs check %s over %d %s: %d records" % (" ".join(args), len(chunk), "pipes" if stream else "files",
                                                          len(lines)))
            lines += [""] * (len(chunk) - len(lines))
        out += [strip(l) for l in lines[:len(chunk)]]
    return out


def stdin_record(args, path):
    p = subprocess.Popen([tfs, "check", "--json"] + args + ["-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        p.stdin.write(content(path))
    except BrokenPipeError:
        pass
    p.stdin.close()
    return strip(p.stdout.read().decode("utf-8", "replace").rstrip("\n"))


def compare(what, paths, a, b, name_a, name_b):
    global passed
    for path, x, y in zip(paths, a, b):
        if x == y:
            passed += 1
        else:
            fail("%s: %s" % (what, os.path.relpath(path, src)))
            print("  %s: %s" % (name_a, x))
            print("  %s: %s" % (name_b, y))


# ---- every fixture and real file: file vs pipe, format forced, three profiles
files = sorted(glob.glob(os.path.join(src, "corpus/gguf/*.gguf")))
files += sorted(glob.glob(os.path.join(src, "corpus/safetensors/*.safetensors")))
files += sorted(f for f in glob.glob(os.path.join(src, "corpus/real/*/*"))
                if f.endswith(".gguf") or f.endswith(".safetensors"))
for fmt in ("gguf", "safetensors"):
    paths = [f for f in files if f.endswith("." + fmt)]
    for prof in ([], ["--header-only"], ["--strict"]):
        args = ["--format", fmt] + prof
        a = records(args, paths, False)
        b = records(args, paths, True)
        compare("tfs check --format %s %s" % (fmt, " ".join(prof)), paths, a, b, "file", "stdin")
        # the pipes above go the way of `-`: a sample through standard input
        step = max(1, len(paths) // SAMPLE)
        for i in range(0, len(paths), step):
            compare("tfs check --format %s %s - (standard input)" % (fmt, " ".join(prof)), [paths[i]],
                    [b[i]], [stdin_record(args, paths[i])], "pipe /dev/fd", "stdin -")

# ---- `cat f.gguf | tfs check --header-only -`, no --format
gg = sorted(glob.glob(os.path.join(src, "corpus/gguf/*.gguf")))
gg += sorted(glob.glob(os.path.join(src, "corpus/real/*/*.gguf")))
gg += sorted(glob.glob(os.path.join(src, "../shared/real/gguf*/*.gguf")))
gg = [f for f in gg if os.path.isfile(f)]
a = records(["--header-only"], gg, False)
b = records(["--header-only"], gg, True)
c = records(["--header-only", "--format", "gguf"], gg, True)
not_model = re.compile(r'"verdict":"not_a_model".*"looks_like":"(.*GGUF|an empty file")')
for path, x, y, z in zip(gg, a, b, c):
    magic = content(path)[:4] == b"GGUF"
    if magic and x == y:
        passed += 1
    elif not magic and not_model.search(y) and x == z:
        passed += 1
    else:
        fail("cat %s | tfs check --header-only -%s" % (os.path.relpath(path, src), "" if magic else " (no GGUF magic)"))
        print("  file:                %s" % x)
        print("  stdin:               %s" % y)
        if not magic:
            print("  stdin --format gguf: %s" % z)
sample = gg[::max(1, len(gg) // SAMPLE)]
compare("tfs check --header-only - (standard input)", sample, [b[gg.index(f)] for f in sample],
        [stdin_record(["--header-only"], f) for f in sample], "pipe /dev/fd", "stdin -")

# ---- `tfs dump --json -` on a pipe: valid JSON
for path in sorted(glob.glob(os.path.join(src, "corpus/real/gguf/*.gguf"))) + \
        sorted(glob.glob(os.path.join(src, "corpus/real/safetensors/*.safetensors"))):
    fmt = path.rsplit(".", 1)[1]
    p = subprocess.run([tfs, "dump", "--json", "--format", fmt, "-"], input=content(path), stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    try:
        json.loads(p.stdout)
        passed += 1
    except ValueError:
        fail("tfs dump --json - < %s: not JSON" % os.path.relpath(path, src))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
