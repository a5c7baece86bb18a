#!/usr/bin/env python3
"""maint/mutants/f64_range_check.py: out_of_range (parsers/safetensors/st_json.c) against the hardware.

  maint/mutants/f64_range_check.py [--mutants FILE] [--only RX] [--status S] [--random N]

serde_json (without float_roundtrip) rejects significand x 10^exponent when
`significand as f64 * POW10[exponent]` is infinite.  On x86-64 (SSE2, C's
FLT_EVAL_METHOD == 0) that product is one correctly rounded IEEE multiply, so
this machine computes the crate's answer directly.  The script copies
st_json.c's out_of_range (from the POW10 table to the end of the function),
compiles it beside that multiply and compares the two for every exponent
289..308 on: every significand within 3,000 of the verdict boundary (found
by bisection on the hardware product), and N random significands of every
bit length (default 2,000,000 per exponent).  Below 289 and above 308 the
function is a plain guard; the parser's tests cover those.

With --mutants (a mutants.json of maint/mutants/run.py), each mutant of the
function's lines that matches --only is applied in turn and judged the same
way: "0 differ" over these cases is the evidence behind the equivalence
arguments in maint/mutants/equivalent.tsv for the function (a mutant that
only perturbs the exact product below its top 54 bits, or a branch that no
reachable operand takes).

Exit 0 when the unmutated function agrees everywhere, 1 when it does not,
2 usage or build error (or not x86-64: a wider float evaluation would make
the hardware product wrong, which is the defect the integer code fixes).
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "parsers", "safetensors", "st_json.c")

HARNESS = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
static uint64_t rs = 88172645463325252u;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
static int hw(uint64_t sig, int k) { volatile double f = (double)sig; f *= k_pow10_top[k - 289]; return isinf(f); }
int main(int argc, char **argv) {
    long random_n = argc > 1 ? atol(argv[1]) : 2000000, n = 0, bad = 0;
    for (int k = 289; k <= 308; k++) {
        uint64_t lo = 0, hi = UINT64_MAX;
        if (hw(hi, k)) {
            while (hi - lo > 1) { uint64_t m = lo + (hi - lo) / 2; if (hw(m, k)) hi = m; else lo = m; }
            for (int64_t d = -3000; d <= 3000; d++) {
                uint64_t s = lo + (uint64_t)d; n++;
                if (hw(s, k) != out_of_range(s, k)) { if (bad < 5) printf("differ: %llue%d\n", (unsigned long long)s, k); bad++; }
            }
        }
        for (long i = 0; i < random_n; i++) {
            unsigned b = (unsigned)(rnd() % 64) + 1; uint64_t s = rnd() >> (64 - b); n++;
            if (hw(s, k) != out_of_range(s, k)) { if (bad < 5) printf("differ: %llue%d\n", (unsigned long long)s, k); bad++; }
        }
    }
    printf("%ld cases, %ld differ\n", n, bad);
    return bad != 0;
}
"""


def extract(lines):
    a = next(i for i, l in enumerate(lines) if l.startswith("static const double k_pow10_top"))
    b = next(i for i, l in enumerate(lines) if l.startswith("static inline bool digit"))
    return a, b


def judge(lines, random_n, tmp, tag):
    a, b = extract(lines)
    c = os.path.join(tmp, tag + ".c")
    with open(c, "w") as f:
        f.write("#include <stdbool.h>\n#include <stdint.h>\n#include <string.h>\n")
        f.write("\n".join(lines[a:b]) + "\n" + HARNESS)
    exe = c[:-2]
    r = subprocess.run(["cc", "-std=c11", "-O1", "-w", "-o", exe, c, "-lm"], capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr.strip().splitlines()[-1:]
    r = subprocess.run([exe, str(random_n)], capture_output=True, text=True, timeout=600)
    out = r.stdout.strip().splitlines()
    return r.returncode, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mutants", help="a mutants.json of maint/mutants/run.py")
    ap.add_argument("--only", default=".", help="mutant ids or diffs matching this regular expression")
    ap.add_argument("--status", help="only the mutants with this outcome in FILE (e.g. survived)")
    ap.add_argument("--random", type=int, default=2000000, help="random significands per exponent")
    a = ap.parse_args()
    if platform.machine() not in ("x86_64", "AMD64"):
        print("f64_range_check: needs x86-64 (SSE2 doubles) for the hardware product", file=sys.stderr)
        return 2
    lines = open(SRC).read().split("\n")
    fa, fb = extract(lines)
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = judge(lines, a.random, tmp, "base")
        print("unmutated:", " | ".join(out))
        if rc is None:
            return 2
        if rc:
            return 1
        if not a.mutants:
            return 0
        d = json.load(open(a.mutants))
        for m in d["mutants"] if isinstance(d, dict) else d:
            if not (fa < m["line"] <= fb) or not m["file"].endswith("st_json.c"):
                continue
            if a.status and m.get("status") != a.status:
                continue
            if not re.search(a.only, m["id"]) and not re.search(a.only, m["diff"]):
                continue
            old = [l[1:] for l in m["diff"].split("\n") if l.startswith("-") and not l.startswith("---")]
            new = [l[1:] for l in m["diff"].split("\n") if l.startswith("+") and not l.startswith("+++")]
            if lines[m["line"] - 1] != old[0]:
                print(f"{m['id']}: line {m['line']} changed since the run, skipped")
                continue
            ml = list(lines)
            ml[m["line"] - 1] = new[0]
            rc, out = judge(ml, a.random, tmp, "m")
            verdict = "did not compile" if rc is None else out[-1]
            print(f"{m['id']} {m['diff_hash']}: {new[0].strip()} -> {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
