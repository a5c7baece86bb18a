#!/usr/bin/env node
// rerun/node-llama-cpp-gguf.mjs FILE: second adapter of the
// node-llama-cpp-gguf column, npm node-llama-cpp 3.22.1
// (TFS_NODE_LLAMA_CPP_VERSION).  Entry point: the parser underneath
// readGgufFileInfo, parseGguf({fileReader: new GgufFsFileReader({filePath})}),
// called directly with its own file reader object (the first adapter,
// ../js/node-llama-cpp-gguf.mjs, calls readGgufFileInfo).  KVs come nested by
// the dots of their keys: flattened back (values only).  Header-only.
import { join } from "node:path";
import { pkgDir, load, version, main, kv, tensor } from "./common.mjs";

const v = process.env.TFS_NODE_LLAMA_CPP_VERSION || "3.22.1";
const dir = pkgDir([`node-llama-cpp@${v}`, `@node-llama-cpp/linux-x64@${v}`], "node-llama-cpp");
const { parseGguf } = await load(join(dir, "dist", "gguf", "parser", "parseGguf.js"));
const { GgufFsFileReader } = await load(join(dir, "dist", "gguf", "fileReaders", "GgufFsFileReader.js"));

function walk(node, prefix, acc) {
  for (const k of Object.keys(node)) {
    const key = prefix === "" ? k : prefix + "." + k;
    const val = node[k];
    if (val && typeof val === "object" && !Array.isArray(val) && !ArrayBuffer.isView(val)) walk(val, key, acc);
    else acc.push(kv(key, val));
  }
  return acc;
}

await main(`node-llama-cpp ${version(dir)} parseGguf`, "gguf", async (filePath) => {
  const info = await parseGguf({ fileReader: new GgufFsFileReader({ filePath }), readTensorInfo: true, logWarnings: false });
  return {
    format: "gguf",
    version: info.version,
    tensors: (info.tensorInfo || []).map((t) => tensor(t.name, t.ggmlType, t.dimensions, t.offset)),
    kv: walk(info.metadata, "", []),
  };
});
