#!/usr/bin/env node
// llama-node.mjs FILE: @fugood/llama.node (npm; llama.cpp for Node.js, its
// linux-x64 CPU build) as a conformance adapter.  loadLlamaModelInfo(path):
// the package's GGUF inspection call, gguf_init_from_file of the llama.cpp it
// bundles (no_alloc false but no context asked for, so ggml reads the header
// and tensor infos only, never the data), then the version, alignment and
// every KV as a string (gguf_kv_to_str) in one object.  The content is
// partial: version and alignment (the KV values come back as display strings,
// not values).  Metadata only: run with --profile header-only.  Pinned:
// TFS_LLAMA_NODE_VERSION (default 1.7.15; its llama.cpp build: BuildInfo).
import { importReader, run } from "./lib.mjs";

const spec = `@fugood/llama.node@${process.env.TFS_LLAMA_NODE_VERSION || "1.7.15"}`;
const { mod, version } = await importReader(spec);
const build = mod.BuildInfo ? ` (llama.cpp b${mod.BuildInfo.number} ${mod.BuildInfo.commit})` : "";

await run({
  reader: `@fugood/llama.node ${version}${build}`,
  formats: ["gguf"],
  read: (path) => mod.loadLlamaModelInfo(path),
  content: (r) => ({ format: "gguf", version: r.version, alignment: r.alignment }),
});
