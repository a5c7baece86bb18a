#!/usr/bin/python3
"""mutate_ab.py: two builds of bench/mutate_bench side by side, alternating.

    bench/mutate_ab.py [--rounds N] [--seconds S] [--max-size BYTES] OLD NEW SEED...

OLD and NEW are mutate_bench binaries (e.g. one built from an earlier commit
and build/release/bench/mutate_bench).  Each round runs OLD then NEW (the
order flips every round) with --json over the same seeds, so both see the
same machine load.  Prints per round the median over families and the
random-pick figure of each, then the median over rounds and NEW / OLD, and
the load average before and after.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run(binary, args):
    out = subprocess.run([binary, "--json"] + args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", default="0.5")
    ap.add_argument("--max-size", default="131072")
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("seeds", nargs="+")
    a = ap.parse_args()
    args = ["--seconds", a.seconds, "--max-size", a.max_size] + a.seeds
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())
    res = {"old": [], "new": []}
    for r in range(a.rounds):
        order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
        for which in order:
            j = run(a.old if which == "old" else a.new, args)
            res[which].append(j)
            print("round %d %s: median over families %d/s, random picks %d/s, phases %s" %
                  (r + 1, which, j["median_over_families"], j["all_random"],
                   ", ".join("%s %.0f%%" % kv for kv in j["phase_percent"].items())), flush=True)
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())
    fam = sorted(res["new"][0]["families"])
    print("\n| figure (median of %d rounds) | old | new | new / old |" % a.rounds)
    print("|---|---:|---:|---:|")

    def row(name, f):
        o = statistics.median(f(j) for j in res["old"])
        n = statistics.median(f(j) for j in res["new"])
        print("| %s | %.0f | %.0f | %.2f |" % (name, o, n, n / o if o else 0))

    row("**median over families**", lambda j: j["median_over_families"])
    row("random picks, all seeds", lambda j: j["all_random"])
    for c in res["new"][0]["size_classes"]:
        row("random picks, seeds %s" % c, lambda j, c=c: j["size_classes"][c]["per_s"])
    for f in fam:
        row("family %s" % f, lambda j, f=f: j["families"].get(f, 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
