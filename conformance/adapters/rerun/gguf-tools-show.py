#!/usr/bin/python3
"""rerun/gguf-tools-show.py GGUF_TOOLS FILE: second adapter of the
gguf-tools-show column, the stock `gguf-tools show` of antirez/gguf-tools
(the binary built by ../c/build_readers.sh from the column's commit).

The first adapter is the command itself (`gguf-tools show {file}`, its
stdout read by the runner).  This one runs it on a private copy of the
fixture (gguf_open maps the file read-write), sends its listing to
/dev/null, sets ASAN_OPTIONS=detect_leaks=0 itself (the stock command never
frees its context) and passes the exit status on: 0 accepted, 1 rejected;
killed by a signal: re-raised on itself (a crash for the runner).
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

if len(sys.argv) != 3:
    sys.stderr.write("usage: gguf-tools-show.py GGUF_TOOLS FILE\n")
    sys.exit(2)
tool, path = sys.argv[1], sys.argv[2]
if not path.endswith(".gguf"):
    sys.exit(77)
env = dict(os.environ)
env["ASAN_OPTIONS"] = ":".join(x for x in (env.get("ASAN_OPTIONS"), "detect_leaks=0") if x)
with tempfile.TemporaryDirectory(prefix="rerun-show-") as d:
    copy = os.path.join(d, "f.gguf")
    shutil.copyfile(path, copy)
    p = subprocess.run([tool, "show", copy], stdout=subprocess.DEVNULL, env=env)
if p.returncode < 0:
    signal.signal(-p.returncode, signal.SIG_DFL)
    os.kill(os.getpid(), -p.returncode)
sys.exit(p.returncode)
