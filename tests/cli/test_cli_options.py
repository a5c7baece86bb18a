#!/usr/bin/env python3
"""test_cli_options.py TFS_BINARY SOURCE_DIR: for every command of `tfs`,
the options its parser accepts are exactly the options its help, the manual
page and the bash completion name.

The accepted set is found by asking the binary: each candidate option of a
command (every option-shaped string literal of its parser's sources, SOURCES,
generators/mint.py's add_argument, and every option its --help, its text in
tools/tfs/tfs.1 and its completion in tools/tfs/tfs.bash name) is given to
`tfs COMMAND OPTION --zz-probe --zz-probe2` (an option that takes a value
takes the first; the parser stops at the next, so nothing runs); the option
is refused when the error names it as unknown ("unknown option 'X'", "unknown argument 'X'", argparse's
"unrecognized arguments: X"), accepted otherwise (the parser went on to the
next word, or took --zz-probe as its value).  Then, per command:
  - each accepted option is named by `tfs COMMAND --help`, and by its usage
    line (or an alias of it, "-r, --recursive") when the usage line lists
    options one by one rather than "[options]";
  - each is named in tfs.1 where that command is described: its SYNOPSIS
    lines, its COMMANDS entry, or an OPTIONS entry that names the command;
  - each is offered by the completion (`tfs COMMAND -<TAB>`);
  (-h and --help, which every command takes, are named once by `tfs help`
  and tfs.1, and must be accepted by each command);
  - each option the help's usage and option lines or the completion offer is
    accepted.
Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

tfs, src = os.path.abspath(sys.argv[1]), sys.argv[2]
man_path = os.path.join(src, "tools/tfs/tfs.1")
bash_path = os.path.join(src, "tools/tfs/tfs.bash")
COMMANDS = ["check", "dump", "rules", "mutate", "mint", "conform"]
OPT = re.compile(r"(?<![\w-])(--?[a-z][a-z-]*)(?![\w])")
# the parser's sources of each command
SOURCES = {
    "check": ["tools/tfs/args.c", "tools/tfs/check.c"],
    "dump": ["tools/tfs/args.c", "tools/tfs/dump.c"],
    "rules": ["tools/tfs/rules_cmd.c"],
    "mutate": ["tools/tfs/mutate_cmd.c"],
    "mint": ["tools/tfs/mint_cmd.c", "generators/mint.py"],
    "conform": ["conformance/runner/options.c", "tools/tfs/conform_main.c", "tools/tfs/lint_conform.c"],
}
GENERAL = ("-h", "--help")  # every command's; `tfs help` and tfs.1 name them once
passed = failed = 0


def check(cond, msg):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + msg)


def run(args, cwd):
    p = subprocess.run([tfs] + args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def help_text(cmd):
    return run([cmd, "--help"], src)[1]


def help_listed(text):
    """Options on the usage lines and option lines ("  -x ...") of a help."""
    out, in_usage = set(), False
    for line in text.splitlines():
        if line.startswith("usage:"):
            in_usage = True
        elif not line.strip():
            in_usage = False
        if in_usage or line.startswith("  -"):
            out |= set(OPT.findall(line))
    return out


def usage_block(text):
    lines = []
    for line in text.splitlines():
        if not line.strip():
            break
        lines.append(line)
    return "\n".join(lines)


def completion(cmd):
    script = ('source "$1"; COMP_WORDS=(tfs "$2" -); COMP_CWORD=2; COMPREPLY=(); _tfs; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    p = subprocess.run(["bash", "-c", script, "bash", bash_path, cmd], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return set(p.stdout.decode().split())


def man_sections(text):
    """Per command, the tfs.1 text that describes it (unescaped)."""
    text = text.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")
    lines = text.splitlines()
    per = {c: [] for c in COMMANDS}
    section, cur_cmd, entry = None, None, []

    def flush_entry():
        body = "\n".join(entry)
        for c in COMMANDS:
            if re.search(r"^\.BR? (tfs )?%s\b|\btfs %s\b" % (c, c), body, re.M):
                per[c].append(body)

    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            if section == "OPTIONS":
                flush_entry()
            section, cur_cmd, entry = line[4:].strip(), None, []
            continue
        if section == "SYNOPSIS":
            m = re.match(r"\.B tfs (\w+)", line)
            if m:
                cur_cmd = m.group(1)
            elif line.startswith(".br"):
                cur_cmd = None
            elif cur_cmd in per:
                per[cur_cmd].append(line)
        elif section == "COMMANDS":
            if line == ".TP" and i + 1 < len(lines):
                m = re.match(r"\.B (\w+)$", lines[i + 1])
                if m:
                    cur_cmd = m.group(1)
            if cur_cmd in per:
                per[cur_cmd].append(line)
        elif section == "OPTIONS":
            if line == ".TP":
                flush_entry()
                entry = []
            else:
                entry.append(line)
    return {c: "\n".join(v) for c, v in per.items()}


with open(man_path, encoding="utf-8") as fh:
    man = fh.read()
mans = man_sections(man)
helps = {c: help_text(c) for c in COMMANDS}
have_conform = run(["conform", "--help"], src)[0] == 0


def candidates(cmd):
    """Every option-shaped word of the command's parser sources (string
    literals; add_argument), help, tfs.1 text and completion."""
    cand = set()
    for f in SOURCES[cmd]:
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            text = fh.read()
        cand |= set(re.findall(r'add_argument\("(--?[a-z][a-z-]*)"' if f.endswith(".py") else r'"(--?[a-z][a-z-]*)"',
                               text))
    cand |= set(OPT.findall(helps[cmd])) | set(OPT.findall(mans[cmd])) | completion(cmd)
    return sorted(o for o in cand if o not in ("-", "--") and not o.startswith("--zz"))


with tempfile.TemporaryDirectory() as tmp:

    def accepted(cmd, opt):
        # an option that takes a value takes --zz-probe, and --zz-probe2 is
        # refused: nothing runs either way
        args = [cmd, opt, "--zz-probe", "--zz-probe2"]
        if cmd == "mint":  # its one required option first
            args = [cmd, "--out", os.path.join(tmp, "mint-out")] + args[1:]
        rc, _, err = run(args, tmp)
        for line in err.splitlines():
            if re.search(r"unknown .*'%s'" % re.escape(opt), line):
                return False
            m = re.search(r"unrecognized arguments:(.*)", line)
            if m and opt in m.group(1).split():
                return False
        return True

    for c in COMMANDS:
        if c == "conform" and not have_conform:
            print("note: tfs-conform not built, conform not probed")
            continue
        cand = candidates(c)
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            acc = {o for o, ok in zip(cand, pool.map(lambda o: accepted(c, o), cand)) if ok}
        check("--help" in acc and "--zz-probe" not in acc and len(acc) > 2,
              "tfs %s: the probe found %s" % (c, sorted(acc)))
        h = helps[c]
        named = set(OPT.findall(h))
        usage = usage_block(h)
        enumerates = "[options]" not in usage and "[OPTION" not in usage
        aliases = {}
        for line in h.splitlines():
            m = re.match(r"\s+(-[a-z]), (--[a-z-]+)", line)
            if m:
                aliases[m.group(1)], aliases[m.group(2)] = m.group(2), m.group(1)
        comp = completion(c)
        for o in sorted(acc):
            if o in GENERAL:
                continue
            check(o in named, "tfs %s accepts %s, its --help does not name it" % (c, o))
            if enumerates:
                check(o in OPT.findall(usage) or aliases.get(o) in OPT.findall(usage),
                      "tfs %s accepts %s, its usage line does not name it" % (c, o))
            check(o in OPT.findall(mans[c]), "tfs %s accepts %s, tfs.1 does not name it for %s" % (c, o, c))
            check(o in comp, "tfs %s accepts %s, the completion does not offer it" % (c, o))
        for o in sorted(help_listed(h) | comp | set(GENERAL)):
            if o.startswith("--zz"):
                continue
            check(o in acc, "tfs %s: %s is in its help or completion, but the parser refuses it" % (c, o))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
