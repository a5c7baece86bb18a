"""render.py: the matrix (results.json's document) as Markdown and as one
static HTML page (docs/matrix.md).  No third-party module; the page has no
network reference and works from file://."""
import html as H
import json

ABBR = {"pass": "ok", "false_accept": "FA", "false_reject": "FR", "wrong_rule": "WR", "misread": "MR", "crash": "CRASH",
        "timeout": "TO", "skip": "skip", "implementation_defined": "impl", "xfail": "xfail"}
ORDER = ["pass", "false_accept", "false_reject", "wrong_rule", "misread", "crash", "timeout", "implementation_defined", "skip"]


def family(c):
    rule = c.get("rule")
    if rule and rule != "-":
        return rule.split("|")[0][:3] + "xx"
    return f"{c['format']} {c.get('manifest_expect') or c.get('expect')}"


def _stamp(doc):
    redo = [f"`{r['id']}` redone {r['generated']} by `{r['run_command']}`" for r in doc["readers"] if r.get("run_command")]
    return (f"Generated {doc['generated']} by `{doc['command']}` at tfs {doc['tfs_commit']}"
            + ("; " + "; ".join(redo) if redo else "") + ". Regenerate with the same command (docs/matrix.md).")


def markdown(doc):
    out = ["# Results matrix: how the readers people use fare", "",
           "Every fixture of the suite through every reader we could get, each in the profile it implements",
           "(docs/conform.md \"Profiles\"). Cells: `ok` pass, `FA` false accept, `FR` false reject, `WR` wrong",
           "rule, `MR` misread (accepted, content differs), `CRASH` (signal, sanitizer report, exit outside the",
           "protocol), `TO` timeout, `impl` implementation-defined (either verdict conforms), `-` not run for",
           "this reader (format or profile). Each non-pass cell is explained in docs/findings.md.", ""]
    if any(c.get("warning") for cells in doc["cells"].values() for c in cells.values()):
        out += ["A `*` after a cell: the adapter broke the protocol there (its JSON line was not stdout's first",
                "line, docs/conform.md), so the verdict stands but the content was not compared.", ""]
    out += [_stamp(doc), "", "## Readers", "",
           "| reader | version | profile | cases | pass | false accept | false reject | wrong rule | misread | crash | timeout | impl | skip |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in doc["readers"]:
        s = r.get("summary")
        if not s:
            out.append(f"| {r['label']} | - | {r['profile']} | not run: {r.get('why') or '?'} |||||||||||")
            continue
        n = sum(s.values())
        out.append(f"| {r['label']} | {r.get('version') or 'this tree'} | {r['profile']} | {n} | " +
                   " | ".join(str(s.get(k, 0)) for k in ORDER) + " |")
    out += ["", "Commands (`tfs conform` options per reader):", ""]
    for r in doc["readers"]:
        if r.get("conform_command"):
            out.append(f"- `{r['id']}`: `tfs {r['conform_command']}`")
    ids = [r["id"] for r in doc["readers"] if r["id"] in doc["cells"]]
    fams = {}
    for f in doc["fixtures"]:
        fams.setdefault(f["family"], []).append(f)
    out += ["", "## By rule family", "", "Columns: " + ", ".join(f"`{i}`" for i in ids) + ".", ""]
    for fam in sorted(fams):
        out += [f"### {fam}", "", "| fixture | expect | " + " | ".join(ids) + " |", "|---|---|" + "---|" * len(ids)]
        for f in fams[fam]:
            row = []
            for i in ids:
                c = doc["cells"][i].get(f["id"])
                row.append((ABBR.get(c["result"], c["result"]) + ("\\*" if c.get("warning") else "")) if c else "-")
            out.append(f"| [{f['id']}](../{f['path']}) | {f['manifest_expect']} | " + " | ".join(row) + " |")
        out.append("")
    return "\n".join(out) + "\n"


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>tfs results matrix</title>
<style>
body{font:14px system-ui,sans-serif;margin:1em;color:#222}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:2px 6px;text-align:center}
th{background:#f3f3f3;position:sticky;top:0}td.id{text-align:left;font-family:monospace}
.pass{background:#d9f2d9}.false_accept{background:#f8c9c9}.false_reject{background:#fbe0b5}
.wrong_rule{background:#f6efb0}.misread{background:#e3c9f2}.crash{background:#c0392b;color:#fff}
.timeout{background:#7f8c8d;color:#fff}.implementation_defined{background:#dde8f5}.skip{background:#eee}
.na{color:#bbb}#filters label{margin-right:1em}.fam td{background:#fafafa;font-weight:bold;text-align:left}
</style></head><body>
<h1>How the readers people use fare</h1>
<p id="stamp"></p>
<div id="filters">
<label>reader <select id="f-reader"><option value="">all</option></select></label>
<label>rule family <select id="f-family"><option value="">all</option></select></label>
<label>result <select id="f-result"><option value="">all</option></select></label>
<span id="count"></span>
</div>
<table id="readers"></table>
<h2>Cells</h2>
<table id="grid"></table>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const ROOT = __ROOT__;
const ABBR = __ABBR__;
const ids = D.readers.filter(r => D.cells[r.id]).map(r => r.id);
const el = (t, a = {}, ...kids) => { const e = document.createElement(t); for (const [k, v] of Object.entries(a)) e.setAttribute(k, v); for (const k of kids) e.append(k); return e; };
document.getElementById("stamp").textContent = `Generated ${D.generated} by ${D.command} at tfs ${D.tfs_commit}.`;
const rt = document.getElementById("readers");
rt.append(el("tr", {}, ...["reader", "version", "profile", ...Object.keys(ABBR)].map(h => el("th", {}, h))));
for (const r of D.readers) {
  const s = r.summary || {};
  rt.append(el("tr", {}, el("td", {class: "id"}, r.label), el("td", {}, r.version || (r.summary ? "this tree" : "not run: " + (r.why || ""))),
    el("td", {}, r.profile), ...Object.keys(ABBR).map(k => el("td", {class: s[k] ? k : ""}, String(s[k] ?? "")))));
}
const fr = document.getElementById("f-reader"), ff = document.getElementById("f-family"), fres = document.getElementById("f-result");
for (const i of ids) fr.append(el("option", {value: i}, i));
for (const f of [...new Set(D.fixtures.map(f => f.family))].sort()) ff.append(el("option", {value: f}, f));
for (const k of Object.keys(ABBR)) fres.append(el("option", {value: k}, k));
function draw() {
  const g = document.getElementById("grid");
  g.replaceChildren();
  const shown = fr.value ? [fr.value] : ids;
  g.append(el("tr", {}, el("th", {}, "fixture"), el("th", {}, "expect"), ...shown.map(i => el("th", {title: D.readers.find(r => r.id === i).label}, i))));
  let n = 0, fam = null;
  for (const f of D.fixtures) {
    if (ff.value && f.family !== ff.value) continue;
    const cells = shown.map(i => D.cells[i][f.id]);
    if (fres.value && !cells.some(c => c && c.result === fres.value)) continue;
    if (f.family !== fam) { fam = f.family; g.append(el("tr", {class: "fam"}, el("td", {colspan: String(shown.length + 2)}, fam))); }
    const a = el("a", {href: ROOT + "/" + f.path, title: f.description || ""}, f.id);
    const tr = el("tr", {"data-id": f.id}, el("td", {class: "id", title: f.description || ""}, a), el("td", {}, f.manifest_expect));
    shown.forEach((i, k) => {
      const c = cells[k];
      tr.append(c ? el("td", {class: c.result, title: (f.description || "") + (c.detail ? "\\n" + c.detail : "") + (c.warning ? "\\nprotocol warning: " + c.warning : "")}, (ABBR[c.result] || c.result) + (c.warning ? "*" : ""))
                  : el("td", {class: "na"}, "-"));
    });
    g.append(tr);
    n++;
  }
  document.getElementById("count").textContent = n + " fixtures shown";
}
for (const s of [fr, ff, fres]) s.addEventListener("change", draw);
draw();
</script>
</body></html>
"""


def html(doc, rel_root):
    data = json.dumps(doc, separators=(",", ":")).replace("</", "<\\/")
    return (PAGE.replace("__DATA__", data).replace("__ROOT__", json.dumps(rel_root))
            .replace("__ABBR__", json.dumps(ABBR)))
