#!/usr/bin/env node
// rerun/hyllama.mjs FILE: second adapter of the hyllama column, hyllama 0.2.2
// (TFS_HYLLAMA_VERSION).  The package has one entry point, ggufMetadata
// (ArrayBuffer): this adapter gives it a fresh ArrayBuffer filled by
// fs.readSync (the first, ../js/hyllama.mjs, slices readFileSync's Buffer)
// and maps the result with its own code (rerun/common.mjs).  Header-only.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { pkgDir, load, version, main, kv, tensor } from "./common.mjs";

const v = process.env.TFS_HYLLAMA_VERSION || "0.2.2";
const dir = pkgDir([`hyllama@${v}`], "hyllama");
const { ggufMetadata } = await load(join(dir, "src", "hyllama.js"));

function whole(path) {
  const fd = openSync(path, "r");
  const ab = new ArrayBuffer(fstatSync(fd).size);
  let at = 0;
  while (at < ab.byteLength) {
    const n = readSync(fd, new Uint8Array(ab, at), 0, ab.byteLength - at, at);
    if (n === 0) break;
    at += n;
  }
  closeSync(fd);
  return ab;
}

await main(`hyllama ${version(dir)} ggufMetadata`, "gguf", (path) => {
  const { metadata, tensorInfos } = ggufMetadata(whole(path));
  const keys = Object.keys(metadata).filter((k) => k !== "version" && k !== "tensorCount");
  return {
    format: "gguf",
    version: metadata.version,
    tensors: tensorInfos.map((t) => tensor(t.name, t.type, t.shape, t.offset)),
    kv: keys.map((k) => kv(k, metadata[k])),
  };
});
