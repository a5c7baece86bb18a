// reader.mjs: the shared part of the verdict-only npm adapters of this
// folder (tfs mint --against, docs/mint.md "Hunting"): load an npm package
// from the reader cache, run one read of the fixture, exit 0 accepted /
// 1 rejected (first stdout line: {"category": the error's message}).
//   cache: $TFS_READER_CACHE, else ~/.cache/tfs/readers; the package folder
//   is <cache>/<name with / as +>@<version>, made with
//   npm install --prefix <that folder> --ignore-scripts --save-exact NAME@VERSION
import { createRequire } from "node:module";
import { join } from "node:path";
import { homedir } from "node:os";
import { pathToFileURL } from "node:url";

export async function load(name, version) {
  const cache = process.env.TFS_READER_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "tfs", "readers");
  const dir = join(cache, `${name.replace("/", "+")}@${version}`);
  const req = createRequire(join(dir, "package.json"));
  let entry;
  try {
    entry = req.resolve(name);
  } catch {
    console.error(`${name}@${version} not installed: npm install --prefix '${dir}' --ignore-scripts --save-exact ${name}@${version}`);
    process.exit(77);
  }
  return import(pathToFileURL(entry).href);
}

export async function verdict(read) {
  try {
    await read(process.argv[2]);
  } catch (e) {
    const msg = String((e && e.message) || e).split("\n")[0].slice(0, 200);
    console.log(JSON.stringify({ category: msg }));
    process.exit(1);
  }
  process.exit(0);
}
