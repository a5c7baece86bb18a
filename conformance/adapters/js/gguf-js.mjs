#!/usr/bin/env node
// gguf-js.mjs FILE: the npm package `gguf` (GGUF.js, Ben Williams) as a
// conformance adapter.  parseRawMetadata(path) reads the KV section only and
// nests keys by their dots (general.name -> metadata.general.name), without
// GGUF types: the content is partial (KV keys and values, flattened back;
// no tensors, no version).  Metadata only: run with --profile header-only.
import { importReader, run, ggufKv } from "./lib.mjs";

const spec = `gguf@${process.env.TFS_GGUF_JS_VERSION || "1.0.7"}`;
const { mod, version } = await importReader(spec);

function flatten(obj, prefix, out) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) flatten(v, key, out);
    else out.push(ggufKv(key, v));
  }
  return out;
}

await run({
  reader: `gguf ${version}`,
  formats: ["gguf"],
  read: async (path) => {
    const r = await mod.parseRawMetadata(path);
    if (r.error) throw r.error;
    return r.metadata;
  },
  content: (m) => ({ format: "gguf", kv: flatten(m, "", []) }),
});
