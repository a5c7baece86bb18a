#!/usr/bin/env node
// rerun/safetensors-js.mjs FILE: second adapter of the safetensors-js column,
// npm `safetensors` 0.0.1 (TFS_SAFETENSORS_JS_VERSION).  Loads the package's
// "main", its UMD bundle, through require() (the first adapter,
// ../js/safetensors-js.mjs, imports the ES build), builds a SafeTensor over a
// fresh Uint8Array that owns its ArrayBuffer (as fetch() would give it) and
// asks getTensor() for every tensor (the bytes are not read further).
// Offsets reported relative to the data.  Header-only.
import { createRequire } from "node:module";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { pkgDir, version, main } from "./common.mjs";

const v = process.env.TFS_SAFETENSORS_JS_VERSION || "0.0.1";
const dir = pkgDir([`safetensors@${v}`], "safetensors");
const { SafeTensor } = createRequire(join(dir, "package.json"))(dir);

function bytes(path) {
  const fd = openSync(path, "r");
  const u = new Uint8Array(new ArrayBuffer(fstatSync(fd).size));
  for (let at = 0, n; at < u.length; at += n) if ((n = readSync(fd, u, at, u.length - at, at)) === 0) break;
  closeSync(fd);
  return u;
}

await main(`safetensors ${version(dir)} (UMD) SafeTensor`, "safetensors", (path) => {
  const u = bytes(path);
  const st = new SafeTensor(u);
  const base = u.length >= 8 ? 8 + Number(new DataView(u.buffer).getBigUint64(0, true)) : 8;
  const tensors = [];
  for (const [name, m] of st.metadata) {
    st.getTensor(name);
    tensors.push({ name, type: m.dtype, shape: m.shape, offsets: [m.data_offsets[0] - base, m.data_offsets[1] - base] });
  }
  return { format: "safetensors", tensors };
});
