#!/usr/bin/env node
// rerun/llama-node.mjs FILE: second adapter of the llama-node column,
// @fugood/llama.node 1.7.15 (TFS_LLAMA_NODE_VERSION).  Entry point: the
// native binding's static LlamaContext.loadModelInfo(path, skip) reached
// through the package's own lib/binding.js loadModule('default') (CommonJS
// require), with an empty skip list; the first adapter
// (../js/llama-node.mjs) calls the exported wrapper loadLlamaModelInfo, which
// skips four tokenizer KVs.  Content: version and alignment.  Header-only.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pkgDir, version, main } from "./common.mjs";

const v = process.env.TFS_LLAMA_NODE_VERSION || "1.7.15";
const dir = pkgDir([`@fugood/llama.node@${v}`], "@fugood/llama.node");
process.env.GGML_NO_BACKTRACE = "1";
const binding = createRequire(join(dir, "package.json"))(join(dir, "lib", "binding.js"));
const native = await binding.loadModule("default");

await main(`@fugood/llama.node ${version(dir)} LlamaContext.loadModelInfo`, "gguf", async (path) => {
  const info = await native.LlamaContext.loadModelInfo(path, []);
  return { format: "gguf", version: info.version, alignment: info.alignment };
});
