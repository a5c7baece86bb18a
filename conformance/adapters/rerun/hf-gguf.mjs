#!/usr/bin/env node
// rerun/hf-gguf.mjs FILE: second adapter of the hf-gguf column,
// @huggingface/gguf 0.4.6 (TFS_HF_GGUF_VERSION).  Entry point:
// ggufAllShards(path, {allowLocalFile: true}), the call behind the package's
// own CLI (gguf-view), which also counts the parameters; the first adapter
// (../js/hf-gguf.mjs) calls gguf() with typedMetadata.  Content: untyped
// metadata (value only), tensors from shard 0.  Header-only profile.
import { join } from "node:path";
import { pkgDir, load, version, main, kv, tensor } from "./common.mjs";

const v = process.env.TFS_HF_GGUF_VERSION || "0.4.6";
const dir = pkgDir([`@huggingface/gguf@${v}`], "@huggingface/gguf");
const mod = await load(join(dir, "dist", "index.mjs"));
const HEADER = ["version", "tensor_count", "kv_count"];

await main(`@huggingface/gguf ${version(dir)} ggufAllShards`, "gguf", async (path) => {
  const { shards } = await mod.ggufAllShards(path, { allowLocalFile: true });
  const s = shards[0];
  return {
    format: "gguf",
    version: Number(s.metadata.version),
    tensors: s.tensorInfos.map((t) => tensor(t.name, t.dtype, t.shape, t.offset)),
    kv: Object.keys(s.metadata).filter((k) => !HEADER.includes(k)).map((k) => kv(k, s.metadata[k])),
  };
});
