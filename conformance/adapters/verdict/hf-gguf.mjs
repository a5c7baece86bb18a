#!/usr/bin/env node
// hf-gguf.mjs FILE: @huggingface/gguf (npm) as a verdict-only adapter
// (metadata reader: compare with our header-only profile).
import { load, verdict } from "./reader.mjs";

const mod = await load("@huggingface/gguf", process.env.TFS_HF_GGUF_VERSION || "0.4.6");
await verdict((path) => mod.gguf(path, { allowLocalFile: true }));
