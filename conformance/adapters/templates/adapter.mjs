#!/usr/bin/env node
// adapter.mjs FILE: the JavaScript (node) template of a conformance adapter
// (docs/adapters.md "Adapter kit").  Copy it; replace read() by a call to
// your reader and toContent() by a mapping of what it returns.  Exits:
//   0 accepted: first stdout line {"reader", "content"} (partial content is
//     fine: what you leave out is not compared)
//   1 rejected: your reader refused the file (its error class: Reject here)
//   77 unsupported (a format your reader does not read): skipped
//   3 anything else: an uncaught exception, a RangeError of the engine
//     (stack, allocation): a crash for the runner
// stdout is flushed before every exit.  Type tables: ../types/tfs-types.json
// (generated from include/tfs/*.def), never retyped.  For a reader on npm,
// ../js/lib.mjs installs it into the reader cache on first use (importReader).
//
// The reader below is a stand-in: a small GGUF reader (header and KVs, no
// tensor infos), the same in every language of the kit (ctest
// test_adapter_template_*).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const typesJson = process.env.TFS_TYPES_JSON || join(here, "..", "types", "tfs-types.json");
let types;
try {
  types = JSON.parse(readFileSync(typesJson, "utf8"));
} catch (e) {
  // the adapter's own failure: exit 3 (an uncaught error here would exit 1, a "rejection")
  process.stderr.write(`adapter setup failed: type table ${typesJson} (TFS_TYPES_JSON): ${e.message}\n`);
  process.exit(3);
}
const VTYPE = new Map(types.gguf_value_types.map((t) => [t.id, t]));
const READER = "toy-gguf (javascript template)";

class Reject extends Error {} // the reader's verdict "invalid file"

// ---- the stand-in reader (replace by yours) -------------------------------
function read(path) {
  if (process.env.TFS_TEMPLATE_SELFTEST === "uncaught") null.bug; // TypeError: a crash
  const buf = readFileSync(path);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 0;
  const take = (n) => {
    if (BigInt(n) > BigInt(buf.length - pos)) throw new Reject(`truncated at byte ${pos}: ${n} bytes wanted`);
    pos += Number(n);
    return pos - Number(n);
  };
  const u32 = () => dv.getUint32(take(4), true);
  const u64 = () => dv.getBigUint64(take(8), true);
  const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const string = (what) => {
    const n = u64();
    const at = take(n);
    try {
      return utf8.decode(buf.subarray(at, at + Number(n)));
    } catch {
      throw new Reject(`${what} is not UTF-8`);
    }
  };
  const scalar = (t) => {
    const { name, size } = VTYPE.get(t);
    const at = take(size);
    if (name === "f32" || name === "f64") {
      const hex = [...buf.subarray(at, at + size)].reverse().map((b) => b.toString(16).padStart(2, "0")).join("");
      return { bits: "0x" + hex };
    }
    if (name === "bool") {
      if (buf[at] > 1) throw new Reject("bool not 0 or 1");
      return { value: buf[at] === 1 };
    }
    let v = 0n;
    for (let i = size - 1; i >= 0; i--) v = (v << 8n) | BigInt(buf[at + i]);
    if (name.startsWith("i") && v >= 1n << BigInt(8 * size - 1)) v -= 1n << BigInt(8 * size);
    return { value: size === 8 ? v.toString() : Number(v) };
  };
  const vtype = () => {
    const t = u32();
    if (!VTYPE.has(t) || VTYPE.get(t).name === null) throw new Reject(`invalid value type ${t}`);
    return t;
  };
  if (buf.length < 4 || buf.toString("latin1", 0, 4) !== "GGUF") throw new Reject("bad magic");
  take(4);
  const version = u32();
  if (version !== 2 && version !== 3) throw new Reject(`unsupported version ${version}`);
  const nTensors = u64(), nKv = u64();
  const left = BigInt(buf.length - pos);
  if (nKv > left / 12n || nTensors > left / 24n) throw new Reject("more KVs or tensors than the file can hold");
  const kv = [];
  for (let i = 0n; i < nKv; i++) {
    const key = string("key");
    if (!key) throw new Reject("empty key");
    const t = vtype();
    const name = VTYPE.get(t).name;
    const e = { key, type: name };
    if (name === "string") e.value = string("string value");
    else if (name === "array") {
      const et = vtype(), n = u64();
      const ename = VTYPE.get(et).name;
      if (ename === "array") throw new Reject("nested array");
      if (n > BigInt(buf.length - pos)) throw new Reject("array longer than the file");
      e.elem_type = ename;
      const els = [];
      for (let j = 0n; j < n; j++) els.push(ename === "string" ? string("string element") : scalar(et));
      if (ename === "string") e.value = els;
      else if (ename === "f32" || ename === "f64") e.bits = els.map((x) => x.bits);
      else e.value = els.map((x) => x.value);
    } else Object.assign(e, scalar(t));
    kv.push(e);
  }
  return { version, kv };
}

// Your reader's result in the content form (design.md "Expected content").
const toContent = (got) => ({ format: "gguf", version: got.version, kv: got.kv });
// ---------------------------------------------------------------------------

function finish(code, line) {
  process.stdout.write(line ? JSON.stringify(line) + "\n" : "", () => process.exit(code));
}
process.on("uncaughtException", (e) => {
  process.stderr.write(`adapter failed: ${e && e.stack ? e.stack : e}\n`);
  process.exit(3);
});

const path = process.argv[2];
if (process.argv.length !== 3) {
  process.stderr.write("usage: node adapter.mjs FILE\n");
  finish(2);
} else if (!path.endsWith(".gguf")) {
  finish(77);
} else {
  let got;
  try {
    got = read(path);
  } catch (e) {
    if (!(e instanceof Reject)) throw e; // a bug, a stack overflow: exit 3 (uncaughtException)
    got = e;
  }
  if (got instanceof Reject) finish(1, { reader: READER, message: got.message.slice(0, 400) });
  else finish(0, { reader: READER, content: toContent(got) });
}
