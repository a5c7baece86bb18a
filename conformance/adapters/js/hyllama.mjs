#!/usr/bin/env node
// hyllama.mjs FILE: hyllama (npm) as a conformance adapter.
// ggufMetadata(arrayBuffer) over the whole file: KVs come back as key ->
// value without their GGUF types, so the content is partial (keys and
// values; tensors with type, shape, offset).  Metadata only: run with
// --profile header-only.  Pinned: TFS_HYLLAMA_VERSION (default 0.2.2).
import { readFileSync } from "node:fs";
import { importReader, run, ggufKv, ggufTensor } from "./lib.mjs";

const spec = `hyllama@${process.env.TFS_HYLLAMA_VERSION || "0.2.2"}`;
const { mod, version } = await importReader(spec);
const PSEUDO = new Set(["version", "tensorCount"]); // the reader's header fields, not KVs

await run({
  reader: `hyllama ${version}`,
  formats: ["gguf"],
  read: (path) => {
    const b = readFileSync(path);
    return mod.ggufMetadata(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  },
  content: (r) => {
    const kv = [];
    for (const [key, value] of Object.entries(r.metadata)) if (!PSEUDO.has(key)) kv.push(ggufKv(key, value));
    return {
      format: "gguf",
      version: r.metadata.version,
      tensors: r.tensorInfos.map((t) => ggufTensor(t.name, t.type, t.shape, t.offset)),
      kv,
    };
  },
});
