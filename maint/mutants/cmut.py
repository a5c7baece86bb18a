"""cmut.py: the mutants of one C source file (maint/mutants, docs/mutation-testing.md).

A small C tokenizer (comments, string and character literals and preprocessor
lines are skipped) and the operators of issue 16, item 2:

  ror   relational operator: < <= > >= == != replaced by its boundary
        neighbour and by its negation (< -> <=, >=; == -> !=; ...)
  lcr   logical connector: && <-> ||
  aor   arithmetic + <-> - (binary, and += <-> -=)
  crp   integer constant +1 and -1 (suffix kept; not below 0; not an array
        size written `[N]` followed by ; = , ) [ or a bit-field width)
  cond  the condition of an if negated, forced true (1) and false (0); the
        condition of a while negated
  stmt  a return or break statement removed (replaced by `;`): a return only
        inside a block or as the body of an if/else, never a function's last

Tokens inside TFS_BUG_CHECK's third argument and TFS_BUG_CANARY, and inside
`#ifdef TFS_RULE_OFF` / `#ifdef TFS_BUG` blocks (all unused in a normal
build) are never mutated.

A mutant's id does not move when unrelated lines do:
  <path>@<8 hex of the sha256 of its line's text, stripped>#<k>:<op>:<replacement>
where k counts the mutable tokens of that line text (0-based).
"""
import hashlib
import re

PUNCT = sorted("""<<= >>= ... -> ++ -- << >> <= >= == != && || *= /= %= += -= &= ^= |= ## 
[ ] ( ) { } . & * + - ~ ! / % < > ^ | ? : ; = , #""".split(), key=len, reverse=True)

ROR = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"], "==": ["!="], "!=": ["=="]}


class Tok:
    __slots__ = ("kind", "text", "start", "end", "line")

    def __init__(self, kind, text, start, end, line):
        self.kind, self.text, self.start, self.end, self.line = kind, text, start, end, line


def tokenize(src):
    toks = []
    i, n, line = 0, len(src), 1
    at_line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if src.startswith("/*", i):
            j = src.index("*/", i + 2) + 2
            line += src.count("\n", i, j)
            i = j
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "#" and at_line_start:  # a preprocessor line, with its continuations
            j = i
            while True:
                k = src.find("\n", j)
                if k < 0:
                    j = n
                    break
                if src[k - 1] == "\\":
                    j = k + 1
                    continue
                j = k
                break
            line += src.count("\n", i, j)
            i = j
            continue
        at_line_start = False
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            toks.append(Tok("str", src[i:j + 1], i, j + 1, line))
            i = j + 1
            continue
        m = re.compile(r"[A-Za-z_][A-Za-z_0-9]*").match(src, i)
        if m:
            toks.append(Tok("id", m.group(), i, m.end(), line))
            i = m.end()
            continue
        m = re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)[uUlLfF]*").match(src, i)
        if m and (c.isdigit()):
            toks.append(Tok("num", m.group(), i, m.end(), line))
            i = m.end()
            continue
        for p in PUNCT:
            if src.startswith(p, i):
                toks.append(Tok("p", p, i, i + len(p), line))
                i += len(p)
                break
        else:
            raise ValueError(f"line {line}: cannot tokenize {src[i:i+20]!r}")
    return toks


def _match(toks, i):
    """index of the token closing the bracket at toks[i]"""
    pairs = {"(": ")", "[": "]", "{": "}"}
    o, c = toks[i].text, pairs[toks[i].text]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == o:
            depth += 1
        elif toks[j].text == c:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def _skipped(toks):
    """indices of tokens never mutated (TFS_BUG_CHECK's buggy argument, TFS_BUG_CANARY)"""
    skip = set()
    for i, t in enumerate(toks):
        if t.kind == "id" and t.text in ("TFS_BUG_CHECK", "TFS_BUG_CANARY") and i + 1 < len(toks):
            close = _match(toks, i + 1)
            if t.text == "TFS_BUG_CANARY":
                skip.update(range(i, close + 1))
                continue
            depth, commas = 0, 0
            for j in range(i + 1, close + 1):
                x = toks[j].text
                if x in "([{":
                    depth += 1
                elif x in ")]}":
                    depth -= 1
                elif x == "," and depth == 1:
                    commas += 1
                if commas == 0 or commas >= 2:
                    skip.add(j)
    return skip


def _int_value(text):
    m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)", text)
    if not m:
        return None
    body, suffix = m.groups()
    if body.lower().startswith("0x"):
        return int(body, 16), suffix, True
    if len(body) > 1 and body.startswith("0"):
        return int(body, 8), suffix, False
    return int(body, 10), suffix, False


# Blocks a normal build never compiles: their mutants would be the unmutated object.
OFF_BLOCK = re.compile(r"^\s*#\s*(ifdef\s+(TFS_RULE_OFF|TFS_BUG)\b|if\s+defined\s*\(?\s*(TFS_RULE_OFF|TFS_BUG)\b)")


def _off_ranges(src):
    """[(start, end)] character ranges of `#ifdef TFS_RULE_OFF` / `#ifdef TFS_BUG` blocks
    (up to their #else or #endif; nested conditionals counted)"""
    out, pos, depth, start = [], 0, 0, None
    for ln in src.split("\n"):
        d = re.match(r"^\s*#\s*(\w+)", ln)
        word = d.group(1) if d else ""
        if start is None:
            if OFF_BLOCK.match(ln):
                start, depth = pos, 1
        elif word in ("if", "ifdef", "ifndef"):
            depth += 1
        elif word == "endif" or (word in ("else", "elif") and depth == 1):
            depth -= word == "endif"
            if depth == 0 or word != "endif":
                out.append((start, pos))
                start = None
        pos += len(ln) + 1
    return out


def mutants(path, src):
    """[(id, op, start, end, replacement, line)] for the source text src"""
    toks = tokenize(src)
    skip = _skipped(toks)
    for a, b in _off_ranges(src):
        skip.update(i for i, t in enumerate(toks) if a <= t.start < b)
    lines = src.split("\n")
    out = []
    per_line = {}

    def add(op, start, end, rep, line):
        text = lines[line - 1].strip()
        h = hashlib.sha256(text.encode()).hexdigest()[:8]
        key = (h, op)
        k = per_line.get((line, op), None)
        if k is None:
            # the k of a line counts mutable places of that operator on it
            k = 0
        per_line[(line, op)] = k
        out.append([path, h, op, start, end, rep, line])

    depth = 0
    for i, t in enumerate(toks):
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
        if i in skip:
            continue
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.kind == "p" and t.text in ROR:
            for r in ROR[t.text]:
                add("ror", t.start, t.end, r, t.line)
        elif t.kind == "p" and t.text in ("&&", "||"):
            add("lcr", t.start, t.end, "||" if t.text == "&&" else "&&", t.line)
        elif t.kind == "p" and t.text in ("+", "-") and prev is not None and (
                prev.kind in ("id", "num") or prev.text in (")", "]")) and prev.text not in ("return", "case", "sizeof"):
            add("aor", t.start, t.end, "-" if t.text == "+" else "+", t.line)
        elif t.kind == "p" and t.text in ("+=", "-="):
            add("aor", t.start, t.end, "-=" if t.text == "+=" else "+=", t.line)
        elif t.kind == "num":
            v = _int_value(t.text)
            if v is None:
                continue
            if prev is not None and prev.text == "[" and nxt is not None and nxt.text == "]":
                after = toks[i + 2] if i + 2 < len(toks) else None
                if after is not None and after.text in (";", "=", ",", ")", "["):
                    continue
            if prev is not None and prev.text == ":" and nxt is not None and nxt.text == ";":
                continue  # a bit-field width
            val, suffix, hexa = v
            for nv in (val + 1, val - 1):
                if nv < 0:
                    continue
                hx = ("0x%X" if t.text[:2] == "0x" and t.text[2:] != t.text[2:].lower() else "0x%x") % nv
                add("crp", t.start, t.end, (hx if hexa else str(nv)) + suffix, t.line)
        elif t.kind == "id" and t.text in ("if", "while") and nxt is not None and nxt.text == "(":
            close = _match(toks, i + 1)
            a, b = toks[i + 1].end, toks[close].start
            cond = src[a:b]
            add("cond", a, b, "!(" + cond + ")", t.line)
            if t.text == "if":
                add("cond", a, b, "1", t.line)
                add("cond", a, b, "0", t.line)
        elif t.kind == "id" and t.text in ("return", "break"):
            j = i
            while j < len(toks) and toks[j].text != ";":
                j += 1
            if j >= len(toks):
                continue
            in_if = prev is not None and (prev.text == ")" or prev.text == "else")
            last_of_function = depth == 1 and toks[j + 1].text == "}" if j + 1 < len(toks) else True
            if t.text == "return" and (last_of_function or not (in_if or depth >= 2)):
                continue
            add("stmt", t.start, toks[j].end, ";", t.line)

    # stable ids: k counts, per line text and operator, the mutants in source order
    counts = {}
    result = []
    for path_, h, op, start, end, rep, line in out:
        k = counts.get((h, op, line), 0)
        counts[(h, op, line)] = k + 1
        mid = f"{path_}@{h}#{k}:{op}"
        result.append({"id": mid, "op": op, "start": start, "end": end, "rep": rep, "line": line})
    # ids must be unique within a file even when two lines have the same text
    seen = {}
    for m in result:
        c = seen.get(m["id"], 0)
        seen[m["id"]] = c + 1
        if c:
            m["id"] += f"~{c}"
    return result


def apply(src, m):
    return src[:m["start"]] + m["rep"] + src[m["end"]:]


def diff_lines(src, m):
    """the changed line before and after, as a two-line diff"""
    ls = src.rfind("\n", 0, m["start"]) + 1
    le = src.find("\n", m["end"])
    le = len(src) if le < 0 else le
    before = src[ls:le]
    after = src[ls:m["start"]] + m["rep"] + src[m["end"]:le]
    return f"-{before}\n+{after}"


def diff_hash(src, m):
    return hashlib.sha256(diff_lines(src, m).encode()).hexdigest()[:16]
