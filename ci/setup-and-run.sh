#!/usr/bin/env bash
# ci/setup-and-run.sh: first command on a fresh Debian 12 machine (as root).
# Installs the missing Debian packages, builds the release preset, and runs
# `tfs check` over every real model file in corpus/real/, printing one row
# per file (file, format, verdict, rule, category) and a summary.  The
# expected verdicts are those of corpus/real/MANIFEST.tsv (default profile);
# exit 0 when every file gets its expected verdict and rule.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source ci/deps.sh
tfs_install_deps

tfs_log "build: release preset"
mkdir -p build
cmake --preset release --no-warn-unused-cli > build/configure-release.log 2>&1 || {
    cat build/configure-release.log
    echo "ci/setup-and-run.sh: configure failed" >&2
    exit 1
}
cmake --build --preset release -j "$(nproc 2> /dev/null || echo 2)" > build/build-release.log 2>&1 || {
    tail -40 build/build-release.log
    echo "ci/setup-and-run.sh: build failed (build/build-release.log)" >&2
    exit 1
}
tfs=$root/build/release/tools/tfs
tfs_log "$("$tfs" --version): tfs check --json corpus/real/*/*"

set +e
(cd corpus/real && "$tfs" check --json */*.safetensors */*.gguf) > build/real-check.jsonl
rc=$?
set -e
# the exit status is told after the table, beside what the manifest expects
# (corpus/real holds damaged files on purpose: 1 is then the right answer)
/usr/bin/python3 - build/real-check.jsonl corpus/real/MANIFEST.tsv "$rc" <<'PY'
import csv, json, sys

rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
want = {}
with open(sys.argv[2], encoding="utf-8") as f:
    for m in csv.DictReader(f, delimiter="\t"):
        if m["mode"] == "default":
            want[m["path"]] = (m["expect"], m["rule"])
cols = ("file", "format", "verdict", "rule", "category")
table = [[str(r.get(c) if r.get(c) is not None else "-") for c in cols] for r in rows]
width = [max(len(c), *(len(t[i]) for t in table)) for i, c in enumerate(cols)]
print("  ".join(c.ljust(w) for c, w in zip(cols, width)) + "  expected")
bad = 0
for r, t in zip(rows, table):
    exp, rule = want.get(r["file"], ("?", "-"))
    ok = exp == r["verdict"] and (rule == "-" or r["rule"] in rule.split("|"))
    bad += not ok
    print("  ".join(v.ljust(w) for v, w in zip(t, width)) + "  " + ("ok" if ok else "MISMATCH: want %s %s" % (exp, rule)))
n = {v: sum(r["verdict"] == v for r in rows) for v in ("valid", "parser_error", "io_error")}
print("%d files: %d valid, %d parser_error, %d io_error; %d as expected, %d not"
      % (len(rows), n["valid"], n["parser_error"], n["io_error"], len(rows) - bad, bad))
rc = int(sys.argv[3])
want_rc = 2 if n["io_error"] else 1 if n["parser_error"] else 0
print("tfs check exit status: %d (0 all valid, 1 some invalid, 2 I/O error)%s"
      % (rc, "; as expected: %d files invalid on purpose" % n["parser_error"] if rc == want_rc and n["parser_error"] and not bad
         else "" if rc == want_rc else "; MISMATCH: want %d" % want_rc))
sys.exit(1 if bad or rc != want_rc else 0)
PY
