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
    c = doc.get("corpus") or {}
    corpus = f", corpus {c['version']} (manifests sha256 {c['manifests_sha256']}, {len(doc['fixtures'])} fixtures)" if c else ""
    return (f"Generated {doc['generated']} at tfs {doc['tfs_commit']}{corpus}, from `{doc['command']}` and the later "
            "runs that redid or filled columns (the Readers table says when, each column's entry in results.json by "
            "which command). Regenerate: docs/matrix.md.")


SEVERITY = ("crash", "timeout", "misread", "false_accept", "false_reject", "wrong_rule")


def by_severity(doc):
    """The readers, third-party ones first, worst first (crashes, then timeouts, misreads, false accepts, false
    rejects, wrong rules, each as a share of the column's cases), then ours, then those not run."""
    def key(r):
        s = r.get("summary")
        if not s:
            return (2, ())
        n = max(1, sum(s.values()))
        return (1 if r["id"].startswith("tfs-") else 0, tuple(-s.get(k, 0) / n for k in SEVERITY))
    return sorted(doc["readers"], key=key)


def _when(r, doc):
    """When a column was run, and what of the current corpus it lacks."""
    first = r.get("generated_first") or r.get("generated") or doc["generated"]
    commit = r.get("tfs_commit_first") or r.get("tfs_commit") or doc["tfs_commit"]
    out = f"{first[:10]} (tfs {commit[:12]})"
    for f in r.get("filled") or []:
        out += f", +{f['fixtures']} new {f['generated'][:10]}"
    if r.get("lacks"):
        out += f"; lacks {r['lacks']} current fixtures since then"
    elif "lacks" in r:
        out += "; every current fixture"
    return out


def _name(r):
    return r["label"] if r["label"] == r["id"] else f"{r['label']} (`{r['id']}`)"


def share_by_family(doc):
    """Per column (by_severity order) and rule family: (passed, cases); passed counts pass and
    implementation-defined cells."""
    fam = {f["id"]: f["family"] for f in doc["fixtures"]}
    out = {}
    for r in by_severity(doc):
        for fid, c in doc["cells"].get(r["id"], {}).items():
            k = out.setdefault(fam.get(fid, "?"), {}).setdefault(r["id"], [0, 0])
            k[1] += 1
            k[0] += c["result"] in ("pass", "implementation_defined")
    return out


def markdown(doc, links=None):
    """links: {reader id: {fixture id: URL relative to docs/}}: a non-pass cell links to its class in
    docs/findings/<reader>.md (findings.py makes them)."""
    links = links or {}
    out = ["# Results matrix: how the readers people use fare", "",
           "Every fixture of the suite through every reader we could get, each in the profile it implements",
           "(docs/conform.md \"Profiles\"). Cells: `ok` pass, `FA` false accept, `FR` false reject, `WR` wrong",
           "rule, `MR` misread (accepted, content differs), `CRASH` (signal, sanitizer report, exit outside the",
           "protocol), `TO` timeout, `impl` implementation-defined (either verdict conforms), `-` not run for",
           "this reader (format or profile). Each non-pass cell links to its defect class on the reader's page,",
           "docs/findings/<reader>.md (index: docs/findings.md).", ""]
    if any(c.get("warning") for cells in doc["cells"].values() for c in cells.values()):
        out += ["A `*` after a cell: the adapter broke the protocol there (its JSON line was not stdout's first",
                "line, docs/conform.md), so the verdict stands but the content was not compared.", ""]
    out += [_stamp(doc), "", "## Readers", "",
           "Worst first: crashes, timeouts, misreads, false accepts, false rejects, wrong rules (each as a share of",
           "the column's cases); ours after the third-party readers.", "",
           "| reader | version | profile | cases | pass | false accept | false reject | wrong rule | misread | crash | timeout | impl | skip | run |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    readers = by_severity(doc)
    for r in readers:
        s = r.get("summary")
        if not s:
            out.append(f"| {_name(r)} | - | {r['profile']} | not run: {r.get('why') or '?'} ||||||||||||")
            continue
        n = sum(s.values())
        out.append(f"| {_name(r)} | {r.get('version') or 'this tree'} | {r['profile']} | {n} | " +
                   " | ".join(str(s.get(k, 0)) for k in ORDER) + f" | {_when(r, doc)} |")
    out += ["", "Commands (`tfs conform` options per reader):", ""]
    for r in readers:
        if r.get("conform_command"):
            out.append(f"- `{r['id']}`: `tfs {r['conform_command']}`")
    ids = [r["id"] for r in readers if r["id"] in doc["cells"]]
    share = share_by_family(doc)
    out += ["", "## Share passed per rule family", "",
            "Per column, the fixtures of each rule family it passes (pass or implementation-defined) of those it ran.", "",
            "| family | " + " | ".join(ids) + " |", "|---|" + "---|" * len(ids)]
    for fam in sorted(share):
        row = []
        for i in ids:
            p, n = share[fam].get(i, (0, 0))
            row.append(f"{100 * p // n}% ({p}/{n})" if n else "-")
        out.append(f"| {fam} | " + " | ".join(row) + " |")
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
                txt = (ABBR.get(c["result"], c["result"]) + ("\\*" if c.get("warning") else "")) if c else "-"
                url = links.get(i, {}).get(f["id"]) if c else None
                row.append(f"[{txt}]({url})" if url else txt)
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
.na{color:#bbb}td a{color:inherit}#filters label{margin-right:1em}.fam td{background:#fafafa;font-weight:bold;text-align:left}
</style></head><body>
<h1>How the readers people use fare</h1>
<p id="stamp"></p>
<div id="filters">
<label>reader <select id="f-reader"><option value="">all</option></select></label>
<label>rule family <select id="f-family"><option value="">all</option></select></label>
<label>rule <select id="f-rule"><option value="">all</option></select></label>
<label>result <select id="f-result"><option value="">all</option></select></label>
<span id="count"></span>
</div>
<table id="readers"></table>
<h2>Share passed per rule family</h2>
<table id="share"></table>
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
document.getElementById("stamp").textContent = `Generated ${D.generated} at tfs ${D.tfs_commit}` +
  (D.corpus ? `, corpus ${D.corpus.version} (manifests sha256 ${D.corpus.manifests_sha256}, ${D.fixtures.length} fixtures)` : "") +
  `, from ${D.command} and the later runs that redid or filled columns. Readers worst first (crashes, timeouts, misreads, false accepts, false rejects, wrong rules).`;
const rt = document.getElementById("readers");
rt.append(el("tr", {}, ...["reader", "version", "profile", ...Object.keys(ABBR), "lacks"].map(h => el("th", {}, h))));
for (const r of D.readers) {
  const s = r.summary || {};
  rt.append(el("tr", {}, el("td", {class: "id"}, r.label), el("td", {}, r.version || (r.summary ? "this tree" : "not run: " + (r.why || ""))),
    el("td", {}, r.profile), ...Object.keys(ABBR).map(k => el("td", {class: s[k] ? k : ""}, String(s[k] ?? ""))),
    el("td", {}, r.lacks === undefined ? "" : String(r.lacks))));
}
const st = document.getElementById("share");
st.append(el("tr", {}, el("th", {}, "family"), ...ids.map(i => el("th", {}, i))));
for (const fam of Object.keys(D.share).sort()) {
  st.append(el("tr", {"data-family": fam}, el("td", {class: "id"}, fam), ...ids.map(i => {
    const v = D.share[fam][i];
    return v ? el("td", {class: v[0] === v[1] ? "pass" : "", title: `${v[0]} of ${v[1]} passed`}, Math.floor(100 * v[0] / v[1]) + "%") : el("td", {class: "na"}, "-");
  })));
}
const fr = document.getElementById("f-reader"), ff = document.getElementById("f-family"), fres = document.getElementById("f-result");
const frule = document.getElementById("f-rule");
const ruleOf = (f) => (f.rule && f.rule !== "-") ? f.rule.split("|")[0] : "";
for (const r of [...new Set(D.fixtures.map(ruleOf).filter(Boolean))].sort()) frule.append(el("option", {value: r}, r));
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
    if (frule.value && ruleOf(f) !== frule.value) continue;
    const cells = shown.map(i => D.cells[i][f.id]);
    if (fres.value && !cells.some(c => c && c.result === fres.value)) continue;
    if (f.family !== fam) { fam = f.family; g.append(el("tr", {class: "fam"}, el("td", {colspan: String(shown.length + 2)}, fam))); }
    const a = el("a", {href: ROOT + "/" + f.path, title: f.description || ""}, f.id);
    const tr = el("tr", {"data-id": f.id}, el("td", {class: "id", title: f.description || ""}, a), el("td", {}, f.manifest_expect));
    shown.forEach((i, k) => {
      const c = cells[k];
      const url = c && (D.links[i] || {})[f.id];
      const txt = c ? (ABBR[c.result] || c.result) + (c.warning ? "*" : "") : "-";
      tr.append(c ? el("td", {class: c.result, title: (f.description || "") + (c.detail ? "\\n" + c.detail : "") + (c.warning ? "\\nprotocol warning: " + c.warning : "")},
                       url ? el("a", {href: url}, txt) : txt)
                  : el("td", {class: "na"}, "-"));
    });
    g.append(tr);
    n++;
  }
  document.getElementById("count").textContent = n + " fixtures shown";
}
for (const s of [fr, ff, fres, frule]) s.addEventListener("change", draw);
draw();
</script>
</body></html>
"""


def html(doc, rel_root, links=None):
    """The page; rel_root: the tree from the page's folder; links as markdown()'s."""
    doc = dict(doc, readers=by_severity(doc), links=links or {}, share=share_by_family(doc))
    data = json.dumps(doc, separators=(",", ":")).replace("</", "<\\/")
    return (PAGE.replace("__DATA__", data).replace("__ROOT__", json.dumps(rel_root))
            .replace("__ABBR__", json.dumps(ABBR)))
