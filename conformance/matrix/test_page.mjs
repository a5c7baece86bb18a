#!/usr/bin/env node
// test_page.mjs PAGE.html SCREENSHOT.png: the matrix page in headless
// Chromium (Debian's /usr/bin/chromium, driven by npm playwright-core,
// installed into the reader cache on first use): it renders from file://
// with no console error and no network request, the filters change what is
// shown, a fixture's description is on hover (title), its link points at the
// fixture, the rule filter, the share table, a non-pass cell's link to its
// class; the screenshot is kept.  Exit 77 when Chromium is absent.
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { importReader } from "../adapters/js/lib.mjs";

const [page_, shot] = process.argv.slice(2);
const exe = process.env.TFS_CHROMIUM || "/usr/bin/chromium";
if (!existsSync(page_)) {
  console.log(`SKIP: no ${page_} (conformance/matrix/run.sh writes it)`);
  process.exit(77);
}
if (!existsSync(exe)) {
  console.log(`SKIP: no Chromium at ${exe} (apt-get install chromium)`);
  process.exit(77);
}
const { mod } = await importReader(`playwright-core@${process.env.TFS_PLAYWRIGHT_VERSION || "1.65.1"}`);
const { chromium } = mod.default || mod;
let passed = 0, failed = 0;
const check = (c, what) => { c ? passed++ : failed++; console.log(c ? "ok:" : "FAIL:", what); };
const browser = await chromium.launch({
  executablePath: exe,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [], requests = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => { if (!r.url().startsWith("file:")) requests.push(r.url()); });
  await page.goto(pathToFileURL(page_).href);
  const rows = () => page.locator("#grid tr[data-id]").count();
  const all = await rows();
  check(all > 0, `renders: ${all} fixture rows`);
  const readers = await page.locator("#readers tr").count();
  check(readers > 2, `reader table: ${readers - 1} readers`);
  const opts = await page.locator("#f-family option").allTextContents();
  await page.selectOption("#f-family", opts[1]);
  const fam = await rows();
  check(fam > 0 && fam < all, `family filter ${opts[1]}: ${fam} of ${all} rows`);
  await page.selectOption("#f-family", "");
  await page.selectOption("#f-result", "crash");
  const crash = await rows();
  const cells = await page.locator("#grid td.crash").count();
  check(crash < all && (crash === 0 || cells > 0), `result filter crash: ${crash} rows, ${cells} crash cells`);
  await page.selectOption("#f-result", "");
  const rules = await page.locator("#f-rule option").allTextContents();
  await page.selectOption("#f-rule", rules[1]);
  const ruled = await rows();
  check(ruled > 0 && ruled < all, `rule filter ${rules[1]}: ${ruled} of ${all} rows`);
  await page.selectOption("#f-rule", "");
  const share = await page.locator("#share tr[data-family]").count();
  check(share > 1, `share table: ${share} rule families`);
  const bad = page.locator("#grid td.false_accept a, #grid td.crash a").first();
  const link = (await bad.count()) ? await bad.getAttribute("href") : "";
  check(/^findings\/[a-z0-9.-]+\.md#c[0-9]+$/.test(link), `a non-pass cell links to its class: ${link}`);
  const rid = (await page.locator("#f-reader option").allTextContents())[1];
  await page.selectOption("#f-reader", rid);
  const cols = await page.locator("#grid tr").first().locator("th").count();
  check(cols === 3, `reader filter ${rid}: one reader column (${cols - 2})`);
  const a = page.locator("#grid tr[data-id] a").first();
  const href = await a.getAttribute("href"), title = await a.getAttribute("title");
  check(/corpus\/.+\.(gguf|safetensors)$/.test(href) && title && title.length > 0, `link ${href}, description on hover: ${title}`);
  await page.selectOption("#f-reader", "");
  await page.screenshot({ path: shot, fullPage: false });
  check(existsSync(shot), `screenshot ${shot}`);
  check(errors.length === 0, `no console error ${JSON.stringify(errors.slice(0, 3))}`);
  check(requests.length === 0, `no network request ${JSON.stringify(requests.slice(0, 3))}`);
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
