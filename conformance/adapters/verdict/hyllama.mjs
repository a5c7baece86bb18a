#!/usr/bin/env node
// hyllama.mjs FILE: hyllama (npm) as a verdict-only adapter (metadata
// reader: compare with our header-only profile).
import { readFileSync } from "node:fs";
import { load, verdict } from "./reader.mjs";

const mod = await load("hyllama", process.env.TFS_HYLLAMA_VERSION || "0.2.2");
await verdict((path) => {
  const b = readFileSync(path);
  mod.ggufMetadata(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
});
