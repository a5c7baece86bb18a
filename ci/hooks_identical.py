#!/usr/bin/python3
"""hooks_identical.py: the build hooks of parsers/ cost the normal build nothing.

The parsers carry two kinds of hooks for special builds: TFS_RULE_OFF (the rule-coverage
build, parsers/core/internal.h: TFS_RULE_HIT, TFS_RULE_IS_OFF, `#ifdef TFS_RULE_OFF` blocks)
and TFS_BUG (the fuzzing benchmark, parsers/core/bug.h: TFS_BUG_CHECK, TFS_BUG_CANARY).  The
docs claim that without their definitions the machine code is what it would be without the
hooks.  This script checks that claim instead of trusting the macro definitions: it writes a
copy of parsers/ with every hook removed from the text

    TFS_RULE_HIT(rule, cond)          -> (cond)
    TFS_BUG_CHECK(id, fixed, buggy)   -> (fixed)
    TFS_BUG_CANARY(id, r, t);         -> ;
    TFS_RULE_IS_OFF(rule)             -> 0   (the branches it guards become dead code)
    #ifdef TFS_RULE_OFF / TFS_BUG ... [#else ...] #endif   -> the #else part only

compiles every parsers/*/*.c of both trees with the same compiler and flags (no TFS_RULE_OFF,
no TFS_BUG: the normal build), and compares the objects' disassembly (`objdump -d
--no-show-raw-insn`) and their section sizes.  Any difference is printed and fails.

Usage: ci/hooks_identical.py [--cc CC] [--opt "-O2"]... [--version-include DIR] [SOURCE_DIR]
  --opt     optimisation flags, repeatable: each set is checked (default: "-O2 -DNDEBUG";
            CMake's Release is "-O3 -DNDEBUG")
  --version-include  a folder holding tfs/version.h (a configured build's include/);
            default: a stand-in is written
Exit 0 identical, 1 different, 2 usage or tool errors.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile


def call_end(s, i):
    """Index just past the ')' matching the '(' at s[i]; the top-level comma positions."""
    depth, commas, j = 0, [], i
    while j < len(s):
        ch = s[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return j + 1, commas
        elif ch == "," and depth == 1:
            commas.append(j)
        elif ch in "\"'":
            q, j = ch, j + 1
            while s[j] != q:
                j += 2 if s[j] == "\\" else 1
        j += 1
    raise ValueError("unbalanced call at %d" % i)


def replace_calls(s, name, make):
    out, pos = [], 0
    pat = re.compile(r"\b%s\s*\(" % name)
    while True:
        m = pat.search(s, pos)
        if not m:
            break
        if s[:m.start()].rstrip().endswith("#define") or s.rfind("#define", s.rfind("\n", 0, m.start()), m.start()) >= 0:
            out.append(s[pos:m.end()])  # the macro's own definition line: left alone
            pos = m.end()
            continue
        open_at = m.end() - 1
        end, commas = call_end(s, open_at)
        args = [s[a + 1:b].strip() for a, b in zip([open_at] + commas, commas + [end - 1])]
        out.append(s[pos:m.start()])
        out.append(make(args))
        pos = end
    out.append(s[pos:])
    return "".join(out)


def drop_hook_blocks(s):
    """`#ifdef TFS_RULE_OFF` / `#ifdef TFS_BUG` blocks -> their #else part (nesting counted)."""
    lines, out, i = s.split("\n"), [], 0
    hook = re.compile(r"\s*#\s*(ifdef\s+(TFS_RULE_OFF|TFS_BUG)\b|if\s+defined\s*\(?\s*(TFS_RULE_OFF|TFS_BUG)\b)")
    while i < len(lines):
        if not hook.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        depth, keep, i = 1, False, i + 1
        while depth:
            ln = lines[i].strip()
            if re.match(r"#\s*if", ln):
                depth += 1
            elif re.match(r"#\s*endif", ln):
                depth -= 1
                if depth == 0:
                    out.append("")  # keep the line count
                    i += 1
                    break
            elif depth == 1 and re.match(r"#\s*(else|elif)", ln):
                if ln.startswith("#elif") or re.match(r"#\s*elif", ln):
                    raise SystemExit("hooks_identical: #elif in a hook block: not handled")
                keep = True
                out.append("")
                i += 1
                continue
            out.append(lines[i] if keep else "")
            i += 1
    return "\n".join(out)


def strip_hooks(s):
    s = drop_hook_blocks(s)
    s = replace_calls(s, "TFS_RULE_HIT", lambda a: "(" + a[1] + ")")
    s = replace_calls(s, "TFS_BUG_CHECK", lambda a: "(" + a[1] + ")")
    s = replace_calls(s, "TFS_BUG_CANARY", lambda a: "((void)0)")
    s = replace_calls(s, "TFS_RULE_IS_OFF", lambda a: "0")
    return s


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode:
        raise RuntimeError("%s: %s" % (" ".join(cmd), p.stderr.decode(errors="replace")[:2000]))
    return p.stdout.decode(errors="replace")


def cflags(tree, inc):
    return ["-I", os.path.join(tree, "include"), "-I", inc, "-I", os.path.join(tree, "parsers", "core"), "-I", os.path.join(tree, "parsers")]


def preprocessed(cc, flags, tree, inc, rel):
    """The translation unit's tokens, line markers and blank lines dropped."""
    out = run([cc] + flags + cflags(tree, inc) + ["-E", "-P", os.path.join(tree, rel)])
    return [ln.strip() for ln in out.splitlines() if ln.strip()]


def compile_and_dump(cc, flags, tree, inc, rel, obj):
    run([cc] + flags + cflags(tree, inc) + ["-c", os.path.join(tree, rel), "-o", obj])
    dis = run(["objdump", "-d", "--no-show-raw-insn", obj]).split("\n", 3)[-1]  # drop the file-name line
    sizes = [ln for ln in run(["size", "-A", obj]).splitlines()[2:] if ln and not ln.startswith(".debug")]
    return dis, sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--opt", action="append")
    ap.add_argument("--version-include")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    opts = a.opt or ["-O2 -DNDEBUG"]
    if not shutil.which("objdump") or not shutil.which("size") or not shutil.which(a.cc):
        print("hooks_identical: needs %s, objdump and size (binutils)" % a.cc, file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="tfs-hooks.")
    try:
        trees = {}
        for kind in ("orig", "stripped"):
            t = os.path.join(work, kind)
            shutil.copytree(os.path.join(a.source, "parsers"), os.path.join(t, "parsers"))
            shutil.copytree(os.path.join(a.source, "include"), os.path.join(t, "include"))
            trees[kind] = t
        changed = []
        for root, _, files in os.walk(os.path.join(trees["stripped"], "parsers")):
            for f in files:
                if f.endswith((".c", ".h")):
                    p = os.path.join(root, f)
                    s = open(p, encoding="utf-8").read()
                    n = strip_hooks(s)
                    if n != s:
                        changed.append(os.path.relpath(p, trees["stripped"]))
                        open(p, "w", encoding="utf-8").write(n)
        if not changed:
            print("hooks_identical: no hooks found in parsers/ (has the hook syntax changed?)")
            return 1
        inc = a.version_include
        if not inc:
            inc = os.path.join(work, "gen")
            os.makedirs(os.path.join(inc, "tfs"))
            ver = open(os.path.join(a.source, "include", "tfs", "version.h.in"), encoding="utf-8").read()
            ver = re.sub(r"@[A-Za-z_]+@", "0", ver)
            open(os.path.join(inc, "tfs", "version.h"), "w").write(ver)
        sources = sorted(os.path.relpath(os.path.join(r, f), trees["orig"])
                         for r, _, fs in os.walk(os.path.join(trees["orig"], "parsers")) for f in fs
                         if f.endswith(".c") and not f.startswith("posix_"))  # posix_*: no hooks, POSIX flags
        bad, jobs = 0, []
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            for k, opt in enumerate(opts):
                flags = ["-std=c11", "-g0", "-fvisibility=hidden", "-DTFS_BUILDING_LIBRARY"] + opt.split()
                for rel in sources:
                    if preprocessed(a.cc, flags, trees["orig"], inc, rel) == \
                            preprocessed(a.cc, flags, trees["stripped"], inc, rel):
                        continue  # the same tokens: the same code
                    objs = [os.path.join(work, "%s-%d-%s.o" % (kind, k, rel.replace("/", "_"))) for kind in ("o", "s")]
                    jobs.append((opt, rel,
                                 ex.submit(compile_and_dump, a.cc, flags, trees["orig"], inc, rel, objs[0]),
                                 ex.submit(compile_and_dump, a.cc, flags, trees["stripped"], inc, rel, objs[1])))
            for opt, rel, fo, fs in jobs:
                try:
                    (do, so), (ds, ss) = fo.result(), fs.result()
                except RuntimeError as e:
                    print("hooks_identical: %s" % e, file=sys.stderr)
                    return 2
                if do != ds or so != ss:
                    bad += 1
                    print("DIFFERENT %s (%s): the hooks change the normal build's code" % (rel, opt))
                    dl = [(x, y) for x, y in zip(do.splitlines(), ds.splitlines()) if x != y][:5]
                    for x, y in dl:
                        print("  with hooks:    %s\n  hooks removed: %s" % (x, y))
        print("hooks_identical: %d sources x %d flag sets (%s); hooks removed from the text of %d files "
              "(%s); %d objects whose tokens differ compiled with and without the hooks; %d differ"
              % (len(sources), len(opts), " | ".join(opts), len(changed), " ".join(sorted(changed)),
                 len(jobs), bad))
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
