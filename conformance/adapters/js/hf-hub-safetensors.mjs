#!/usr/bin/env node
// hf-hub-safetensors.mjs FILE: @huggingface/hub's parseSafetensorsMetadata
// (npm) as a conformance adapter.  The parser fetches from a hub; here its
// `fetch` is a local function that answers from FILE as a hub's resolve URL
// would (HEAD with size and ETag; GET with or without a Range header: 206
// with Content-Range, 416 past the end): no network.  Header only (it never
// reads tensor data).  Pinned: TFS_HF_HUB_VERSION (default 2.17.5).
import { openSync, readSync, fstatSync, closeSync } from "node:fs";
import { basename } from "node:path";
import { importReader, run } from "./lib.mjs";

const spec = `@huggingface/hub@${process.env.TFS_HF_HUB_VERSION || "2.17.5"}`;
const { mod, version } = await importReader(spec);

// fetch over one local file: every URL names it
function localFetch(path) {
  return async (input, init = {}) => {
    const url = input instanceof URL ? input.href : typeof input === "string" ? input : input.url;
    const method = (init.method || (typeof input === "object" && input.method) || "GET").toUpperCase();
    const h = new Headers(init.headers || (typeof input === "object" ? input.headers : undefined));
    const fd = openSync(path, "r");
    try {
      const size = fstatSync(fd).size;
      const common = { "accept-ranges": "bytes", etag: '"tfs-fixture"', "x-repo-commit": "0".repeat(40), "content-type": "application/octet-stream" };
      if (!url.includes("/resolve/")) return new Response("not found", { status: 404 });
      if (!url.endsWith("/" + encodeURIComponent(basename(path))) && !url.endsWith("/" + basename(path)))
        return new Response("not found", { status: 404, headers: { "x-error-code": "EntryNotFound" } });
      let begin = 0, end = size - 1, partial = false;
      const range = h.get("range");
      if (range) {
        const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
        if (!m) return new Response("bad range", { status: 416, headers: { "content-range": `bytes */${size}` } });
        if (m[1] === "") { begin = Math.max(0, size - Number(m[2])); }
        else { begin = Number(m[1]); if (m[2] !== "") end = Math.min(Number(m[2]), size - 1); }
        if (begin >= size || begin > end)
          return new Response("", { status: 416, headers: { ...common, "content-range": `bytes */${size}` } });
        partial = true;
      }
      const len = size === 0 ? 0 : end - begin + 1;
      const headers = { ...common, "content-length": String(len) };
      if (partial) headers["content-range"] = `bytes ${begin}-${end}/${size}`;
      if (method === "HEAD") return new Response(null, { status: partial ? 206 : 200, headers });
      const buf = Buffer.alloc(len);
      if (len) readSync(fd, buf, 0, len, begin);
      return new Response(buf, { status: partial ? 206 : 200, headers });
    } finally {
      closeSync(fd);
    }
  };
}

await run({
  reader: `@huggingface/hub ${version} parseSafetensorsMetadata`,
  formats: ["safetensors"],
  read: (path) =>
    mod.parseSafetensorsMetadata({ repo: "tfs/fixture", path: basename(path), hubUrl: "http://127.0.0.1:9", fetch: localFetch(path) }),
  content: (r) => {
    const header = r.header || {};
    const tensors = [];
    const kv = [];
    for (const [name, t] of Object.entries(header)) {
      if (name === "__metadata__") {
        if (t && typeof t === "object") for (const [k, v] of Object.entries(t)) kv.push({ key: k, type: "string", value: v });
        continue;
      }
      tensors.push({ name, type: t.dtype, shape: t.shape, offsets: t.data_offsets });
    }
    return { format: "safetensors", version: null, alignment: null, tensors, kv };
  },
});
