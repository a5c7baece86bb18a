#!/usr/bin/env node
// hf-gguf.mjs FILE: @huggingface/gguf (npm) as a conformance adapter.
// gguf(path, {allowLocalFile: true, typedMetadata: true}): the header and
// every KV with its type; tensors with type, shape and offset.  Metadata
// only (the reader never reads tensor data): run with --profile header-only.
// Pinned: TFS_HF_GGUF_VERSION (default 0.4.6).
import { importReader, run, ggufKv, ggufTensor, int64 } from "./lib.mjs";

const spec = `@huggingface/gguf@${process.env.TFS_HF_GGUF_VERSION || "0.4.6"}`;
const { mod, version } = await importReader(spec);
const PSEUDO = new Set(["version", "tensor_count", "kv_count"]); // the reader's header fields, not KVs

await run({
  reader: `@huggingface/gguf ${version}`,
  formats: ["gguf"],
  read: (path) => mod.gguf(path, { allowLocalFile: true, typedMetadata: true }),
  content: (r) => {
    const kv = [];
    for (const [key, e] of Object.entries(r.typedMetadata)) {
      if (PSEUDO.has(key)) continue;
      kv.push(ggufKv(key, e.value, e.type, e.subType));
    }
    const align = r.metadata["general.alignment"];
    return {
      format: "gguf",
      version: r.metadata.version,
      alignment: typeof align === "number" ? align : 32,
      tensors: r.tensorInfos.map((t) => ggufTensor(t.name, t.dtype, t.shape, t.offset)),
      kv,
    };
  },
});
