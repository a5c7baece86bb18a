// lib.mjs: what every JavaScript adapter of the conformance protocol needs
// (docs/adapters.md): the reader installed from npm on first use, the type
// tables (../types/tfs-types.json, generated from include/tfs/*.def), the
// content form (design.md "Expected content"), and the protocol's exits:
//   0 accepted (first stdout line: {"reader", "content"}), 1 rejected
//   ({"reader", "message"}), 77 unsupported, 3 the adapter itself failed
//   (an exception outside the reader's call, a reader that cannot be set
//   up: cache folder, npm install, import; a fixture it cannot open: a
//   crash for the runner, never a verdict).
// stdout is flushed before the exit.
import { execFileSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const types = JSON.parse(readFileSync(join(here, "..", "types", "tfs-types.json"), "utf8"));
const ggmlById = new Map(types.ggml_types.map((t) => [t.id, t]));
const vtypeById = new Map(types.gguf_value_types.map((t) => [t.id, t.name]));

// The reader cache (as npm-reader.sh computes it).
export function cacheDir() {
  const env = process.env;
  return env.TFS_READER_CACHE || join(env.XDG_CACHE_HOME || join(env.HOME || "", ".cache"), "tfs", "readers");
}

// The adapter cannot run its reader: one line on stderr, exit 3 (a crash
// for the runner: exit 1 would read as the reader rejecting the file).
export function setupFailed(spec, why) {
  const msg = String(why).replace(/[\x00-\x1f\x7f]+/g, " ").trim().slice(0, 300);
  process.stderr.write(`adapter setup failed: ${spec}: ${msg} (reader cache ${cacheDir()}; TFS_READER_CACHE sets it)\n`);
  process.exit(3);
}

// The folder of PKG@VERSION in the reader cache, installed on first use; an
// array [PKG@VERSION, WITH@VERSION...] installs them together without the
// optional dependencies (npm-reader.sh).
export function readerDir(spec) {
  try {
    return execFileSync(join(here, "..", "npm-reader.sh"), [].concat(spec), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  } catch (e) {
    return setupFailed(spec, `npm-reader.sh exited ${e.status ?? e.code}: the cache folder not creatable or not writable, or npm install failed (its log above)`);
  }
}

// import() a package (or a subpath) installed by readerDir; also its version.
export async function importReader(spec, subpath = "") {
  const at = spec.lastIndexOf("@");
  const name = spec.slice(0, at);
  const dir = readerDir(spec);
  try {
    const req = createRequire(join(dir, "package.json"));
    const pkgJson = JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8"));
    const entry = subpath ? join(dir, "node_modules", name, subpath) : req.resolve(name);
    const mod = await import(pathToFileURL(entry).href);
    return { mod, version: pkgJson.version, name, dir };
  } catch (e) {
    return setupFailed(spec, `cannot import it from ${dir}: ${e && e.message ? e.message : e}`);
  }
}

// A 64-bit integer as the protocol wants it: a number when exact, else a decimal string.
export function int64(v) {
  if (typeof v === "bigint") return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v.toString();
  return v;
}

export function f32bits(x) {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x, true);
  return "0x" + b.getUint32(0, true).toString(16).padStart(8, "0");
}

export function f64bits(x) {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x, true);
  return "0x" + b.getBigUint64(0, true).toString(16).padStart(16, "0");
}

// One float value: its bits, and its value when JSON can hold it.
function floatField(x, bits) {
  return Number.isFinite(x) ? { value: x, bits: bits(x) } : { bits: bits(x) };
}

// A KV in the content form.  typeId / elemTypeId: GGUF value type ids, or
// undefined when the reader does not say (partial content: value only).
export function ggufKv(key, value, typeId, elemTypeId) {
  const type = typeId === undefined ? undefined : vtypeById.get(typeId) ?? String(typeId);
  const kv = { key };
  if (type !== undefined) kv.type = type;
  const scalar = (v, t) => (typeof v === "bigint" ? int64(v) : v);
  if (Array.isArray(value)) {
    const et = elemTypeId === undefined ? undefined : vtypeById.get(elemTypeId) ?? String(elemTypeId);
    if (et !== undefined) kv.elem_type = et;
    if (et === "f32" || et === "f64") {
      const bits = et === "f32" ? f32bits : f64bits;
      kv.bits = value.map((x) => bits(x));
      if (value.every(Number.isFinite)) kv.value = value;
    } else {
      kv.value = value.map((v) => scalar(v));
    }
    return kv;
  }
  if (type === "f32" || type === "f64") return Object.assign(kv, floatField(value, type === "f32" ? f32bits : f64bits));
  kv.value = scalar(value);
  return kv;
}

// A GGUF tensor in the content form: offsets [begin, end) relative to the
// data section, end from the ggml type's block and type sizes.
export function ggufTensor(name, typeId, shape, offset) {
  const t = ggmlById.get(typeId);
  const out = { name, type: t && t.name ? t.name : String(typeId), shape: shape.map(int64) };
  if (offset !== undefined) {
    const off = BigInt(offset);
    if (t && t.block_size) {
      const n = shape.reduce((a, d) => a * BigInt(d), 1n);
      out.offsets = [int64(off), int64(off + (n / BigInt(t.block_size)) * BigInt(t.type_size))];
    }
  }
  return out;
}

function stringify(obj) {
  return JSON.stringify(obj, (k, v) => (typeof v === "bigint" ? int64(v) : v));
}

function finish(code, line) {
  const text = line ? stringify(line) + "\n" : "";
  process.stdout.write(text, () => process.exit(code));
}

// The protocol around a reader:
//   read(path) -> {content} (accepted) or throws (rejected: the reader's error);
//   formats: the formats the reader handles (others: exit 77).
// An exception thrown while building the content (outside read) is the
// adapter's own failure: exit 3, a crash for the runner.
export async function run({ reader, formats, read, content }) {
  const path = process.argv[process.argv.length - 1];
  const fmt = path.endsWith(".gguf") ? "gguf" : path.endsWith(".safetensors") ? "safetensors" : null;
  if (process.argv.length < 3 || !fmt) {
    process.stderr.write("usage: node ADAPTER.mjs FILE (.gguf or .safetensors)\n");
    return finish(2);
  }
  if (!formats.includes(fmt)) return finish(77);
  try {
    closeSync(openSync(path, "r")); // a file it cannot open: the adapter's failure, not a verdict
  } catch (e) {
    process.stderr.write(`adapter: cannot read ${path}: ${e.message}\n`);
    return finish(3);
  }
  let result;
  try {
    result = await read(path, fmt);
  } catch (e) {
    const message = String(e && e.message ? e.message : e).replace(/[\x00-\x1f\x7f]/g, "?").slice(0, 400);
    // an I/O error of the system (node's errors with a syscall: EIO, EISDIR,
    // ECONNREFUSED of a local server) is not the reader's verdict either
    if (e && typeof e.syscall === "string" && typeof e.code === "string") {
      process.stderr.write(`adapter: ${e.syscall} failed (${e.code}), not a verdict: ${message}\n`);
      return finish(3);
    }
    // the engine giving up (stack overflow, an allocation refused) is not a
    // verdict: a crash, as a native reader's SIGSEGV would be
    if (/Maximum call stack size exceeded|Array buffer allocation failed|Invalid array length|out of memory/i.test(message)) {
      process.stderr.write(`reader failed: ${message}\n`);
      return finish(3, { reader, message });
    }
    return finish(1, { reader, message });
  }
  let c;
  try {
    c = content ? content(result, fmt) : undefined;
  } catch (e) {
    process.stderr.write(`adapter error (not the reader's verdict): ${e && e.stack ? e.stack : e}\n`);
    return finish(3);
  }
  return finish(0, c ? { reader, content: c } : { reader });
}
