#!/usr/bin/env node
// node-llama-cpp-gguf.mjs FILE: node-llama-cpp's own GGUF parser (npm
// node-llama-cpp, readGgufFileInfo: what it runs to inspect a model before
// loading it, and what `npx node-llama-cpp inspect gguf` prints) as a
// conformance adapter.  readGgufFileInfo(path, {readTensorInfo: true,
// spliceSplitFiles: false, logWarnings: false}): the version, every KV (nested
// by the dots of their keys and without their GGUF types: flattened back,
// partial content) and every tensor info (name, ggml type, dimensions,
// offset).  Metadata only: run with --profile header-only.  Installed without
// its optional GPU builds (npm-reader.sh with a second spec).  Pinned:
// TFS_NODE_LLAMA_CPP_VERSION (default 3.22.1).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { readerDir, setupFailed, run, ggufKv, ggufTensor } from "./lib.mjs";

const v = process.env.TFS_NODE_LLAMA_CPP_VERSION || "3.22.1";
const spec = `node-llama-cpp@${v}`;
const dir = readerDir([spec, `@node-llama-cpp/linux-x64@${v}`]);
const pkg = join(dir, "node_modules", "node-llama-cpp");
let mod, version;
try {
  version = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
  // the function's own module: the package's main entry loads the whole
  // runtime (native bindings, CLI) and takes seconds per file
  mod = await import(pathToFileURL(join(pkg, "dist", "gguf", "readGgufFileInfo.js")).href);
} catch (e) {
  setupFailed(spec, `cannot import it from ${dir}: ${e && e.message ? e.message : e}`);
}

function flatten(obj, prefix, out) {
  for (const [k, val] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (val !== null && typeof val === "object" && !Array.isArray(val)) flatten(val, key, out);
    else out.push(ggufKv(key, val));
  }
  return out;
}

await run({
  reader: `node-llama-cpp ${version} readGgufFileInfo`,
  formats: ["gguf"],
  read: (path) =>
    mod.readGgufFileInfo(path, { readTensorInfo: true, spliceSplitFiles: false, logWarnings: false, sourceType: "filesystem" }),
  content: (r) => ({
    format: "gguf",
    version: r.version,
    tensors: (r.tensorInfo || []).map((t) => ggufTensor(t.name, t.ggmlType, t.dimensions, t.offset)),
    kv: flatten(r.metadata, "", []),
  }),
});
