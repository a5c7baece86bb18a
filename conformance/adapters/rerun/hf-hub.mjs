#!/usr/bin/env node
// rerun/hf-hub.mjs FILE: second adapter of the hf-hub column,
// @huggingface/hub 2.17.5 (TFS_HF_HUB_VERSION) parseSafetensorsMetadata.
// Differs from ../js/hf-hub-safetensors.mjs in how the file reaches the
// reader: a real HTTP server on 127.0.0.1 (node:http, a port of its own)
// answers the hub's resolve URL with Range support, and the reader uses the
// platform fetch; the first adapter hands it a fetch function.  Header-only.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pkgDir, load, version, main } from "./common.mjs";

const v = process.env.TFS_HF_HUB_VERSION || "2.17.5";
const dir = pkgDir([`@huggingface/hub@${v}`], "@huggingface/hub");
const hub = await load(join(dir, "dist", "index.mjs"));

function serve(bytes, name) {
  const srv = createServer((req, res) => {
    if (!decodeURIComponent(req.url.split("?")[0]).endsWith("/resolve/main/" + name)) {
      res.writeHead(404, { "x-error-code": "EntryNotFound" });
      return res.end();
    }
    const size = bytes.length;
    const h = { "accept-ranges": "bytes", etag: '"rerun"', "x-repo-commit": "1".repeat(40) };
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range || "");
    let a = 0, b = size - 1, code = 200;
    if (m) {
      if (m[1] === "") a = Math.max(0, size - Number(m[2]));
      else { a = Number(m[1]); if (m[2] !== "") b = Math.min(Number(m[2]), size - 1); }
      if (a >= size || a > b) {
        res.writeHead(416, { ...h, "content-range": `bytes */${size}` });
        return res.end();
      }
      code = 206;
      h["content-range"] = `bytes ${a}-${b}/${size}`;
    }
    const body = size ? bytes.subarray(a, b + 1) : Buffer.alloc(0);
    res.writeHead(code, { ...h, "content-length": String(body.length) });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  return new Promise((ok) => srv.listen(0, "127.0.0.1", () => ok(srv)));
}

await main(`@huggingface/hub ${version(dir)} parseSafetensorsMetadata over HTTP`, "safetensors", async (path) => {
  const name = basename(path);
  const srv = await serve(readFileSync(path), name);
  try {
    const r = await hub.parseSafetensorsMetadata({ repo: "rerun/fixture", path: name, hubUrl: `http://127.0.0.1:${srv.address().port}` });
    const tensors = [], kv = [];
    for (const [k, t] of Object.entries(r.header)) {
      if (k !== "__metadata__") tensors.push({ name: k, type: t.dtype, shape: t.shape, offsets: t.data_offsets });
      else if (t && typeof t === "object") for (const [mk, mv] of Object.entries(t)) kv.push({ key: mk, value: mv });
    }
    return { format: "safetensors", tensors, kv };
  } finally {
    srv.close();
  }
});
