#!/usr/bin/python3
"""rerun/st-oracle-metadata.py FILE: second adapter of the safetensors-crate
column, the Rust safetensors crate as ../shared/oracles/st-oracle (the binary:
$ST_ORACLE, else st-oracle on PATH; the same build as the column).

Entry point: `st-oracle --read-metadata FILE`, the crate's
SafeTensors::read_metadata over a memory map of the file; the first adapter
(../st-oracle-adapter, sh) runs `st-oracle FILE`, deserialize over the whole
file read into memory.  Prints {"category": variant} on a rejection.  Exit 0
accepted, 1 rejected, 3 anything else (a crash for the runner).
"""
import json
import os
import subprocess
import sys

if len(sys.argv) != 2:
    sys.stderr.write("usage: st-oracle-metadata.py FILE\n")
    sys.exit(2)
p = subprocess.run([os.environ.get("ST_ORACLE", "st-oracle"), "--read-metadata", sys.argv[1]],
                   capture_output=True, text=True, errors="replace")
words = p.stdout.split()
if p.returncode == 0 and words[:1] == ["OK"]:
    sys.exit(0)
if p.returncode == 1 and words[:1] == ["ERR"] and len(words) > 1:
    print(json.dumps({"category": words[1]}), flush=True)
    sys.exit(1)
sys.stderr.write(f"st-oracle --read-metadata: exit {p.returncode}: {p.stdout[:200]} {p.stderr[:200]}\n")
sys.exit(3)
