#!/usr/bin/env node
// safetensors-js.mjs FILE: the npm package `safetensors` (SafeTensor JS,
// Diogo Da Cruz) as a conformance adapter.  new SafeTensor(bytes) parses the
// header of a whole file held in memory; its metadata map holds every
// top-level entry with dtype, shape and data_offsets made absolute (8 + N
// added): reported back relative to the data.  Pinned: TFS_SAFETENSORS_JS_VERSION.
import { readFileSync } from "node:fs";
import { importReader, run } from "./lib.mjs";

const spec = `safetensors@${process.env.TFS_SAFETENSORS_JS_VERSION || "0.0.1"}`;
const { mod, version } = await importReader(spec, "dist/safetensors.es.js"); // its "main" is a UMD bundle

await run({
  reader: `safetensors ${version}`,
  formats: ["safetensors"],
  read: (path) => {
    const b = readFileSync(path);
    const st = new mod.SafeTensor(new Uint8Array(b)); // a fresh buffer, as fetch() gives it
    return { st, base: 8 + Number(b.length >= 8 ? b.readBigUInt64LE(0) : 0n) };
  },
  content: ({ st, base }) => ({
    format: "safetensors",
    tensors: [...st.metadata].map(([name, t]) => ({
      name, type: t.dtype, shape: t.shape, offsets: t.data_offsets.map((o) => o - base),
    })),
  }),
});
