// common.mjs: the protocol side of the second ("rerun") JavaScript adapters,
// written apart from ../js/lib.mjs so that a rerun does not share the first
// adapters' code (conformance/matrix/rerun.py, docs/matrix.md "Independent
// rerun").  Only the install is shared: the same npm-reader.sh cache, so the
// same reader version.
//   exit 0 accepted (one JSON line: reader, content), 1 rejected (reader,
//   message), 77 not this reader's format, 3 the adapter failed (a crash).
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const up = join(dirname(fileURLToPath(import.meta.url)), "..");

export function die(msg) {
  process.stderr.write(`rerun adapter: ${msg}\n`);
  process.exit(3);
}

// The folder of an installed package in the reader cache: node_modules/NAME.
export function pkgDir(specs, name) {
  let dir;
  try {
    dir = execFileSync(join(up, "npm-reader.sh"), specs, { encoding: "utf8" }).trim();
  } catch (e) {
    die(`npm-reader.sh ${specs.join(" ")} failed`);
  }
  return join(dir, "node_modules", name);
}

export async function load(file) {
  try {
    return await import(pathToFileURL(file).href);
  } catch (e) {
    die(`cannot import ${file}: ${e.message}`);
  }
}

export const version = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;

// ggml type id -> [name, block size, bytes per block], from the generated table
const table = JSON.parse(readFileSync(join(up, "types", "tfs-types.json"), "utf8"));
const ggml = {};
for (const t of table.ggml_types) ggml[t.id] = [t.name, t.block_size, t.type_size];

const plain = (v) => (typeof v === "bigint" ? v.toString() : v);

// one tensor; offsets only when the type is known
export function tensor(name, typeId, dims, offset) {
  const d = Array.from(dims, (x) => BigInt(x));
  const t = ggml[Number(typeId)];
  const out = { name, type: t && t[0] ? t[0] : String(typeId), shape: d.map(plain) };
  if (t && t[1] && offset !== undefined && offset !== null) {
    const n = d.reduce((a, b) => a * b, 1n);
    const b = BigInt(offset);
    out.offsets = [plain(b), plain(b + (n / BigInt(t[1])) * BigInt(t[2]))];
  }
  return out;
}

// one KV, value only (no GGUF type): non-finite floats are left out
export function kv(key, value) {
  const fix = (v) => (typeof v === "bigint" ? v.toString() : v);
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    const arr = Array.from(value, fix);
    return arr.some((x) => typeof x === "number" && !Number.isFinite(x)) ? { key } : { key, value: arr };
  }
  if (typeof value === "number" && !Number.isFinite(value)) return { key };
  return { key, value: fix(value) };
}

function out(code, obj) {
  const line = obj ? JSON.stringify(obj, (k, v) => (typeof v === "bigint" ? v.toString() : v)) + "\n" : "";
  process.stdout.write(line, () => process.exit(code));
}

// parse(path) returns content or throws the reader's refusal
export async function main(reader, format, parse) {
  const path = process.argv[2];
  if (process.argv.length !== 3) {
    process.stderr.write("usage: node ADAPTER.mjs FILE\n");
    process.exit(2);
  }
  if (!path.endsWith("." + format)) return out(77);
  try {
    statSync(path);
  } catch (e) {
    die(`cannot stat ${path}`);
  }
  let content;
  try {
    content = await parse(path);
  } catch (e) {
    const m = String((e && e.message) || e);
    if (e && e.syscall) die(`${e.syscall}: ${m}`); // the system, not the reader
    if (e instanceof RangeError && /call stack|allocation|array length/i.test(m)) die(`engine: ${m}`);
    return out(1, { reader, message: m.replace(/[^\x20-\x7e]/g, "?").slice(0, 300) });
  }
  return out(0, { reader, content });
}
