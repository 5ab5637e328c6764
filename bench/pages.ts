// Page responsiveness at store sizes (section `pages` of BENCHMARKS.md): the
// bundled samples, then stores of N synthetic SOTOPIA episodes (default 10k
// and 100k; `--sizes 1000000` for 1M) added to the samples, with two human
// annotators on 10% of the synthetic episodes. The site is built for each
// store and every page opened `repeat` times in headless Chromium, each open
// in a fresh browser context (empty cache):
//   first view  navigation start → the page's first chart or table in the DOM
//               (the element marked data-first-view; src/client/first-view.ts)
//   settled     navigation start → the last DOM change before 1 s of quiet
//   JS heap     the page's JS heap when settled (CDP; workers not counted)
//   bytes       every byte the server sent for the open (page, scripts, wasm, data)
//   reactive    one input changed in the page (a select, radio, number or a
//               click), from the event to the last DOM change before 300 ms of quiet
// Ratios: against the unlisted baseline page of the same site (one chart from
// the SOTOPIA summary) in the same run, and against the same page on the samples.

import {once} from "node:events";
import {copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync} from "node:fs";
import {createServer} from "node:http";
import type {AddressInfo} from "node:net";
import {loadavg} from "node:os";
import {join, resolve} from "node:path";
import type {Browser, Page} from "playwright-core";
import {launchBrowser, resolveChromium} from "../test/browser/chromium.js";
import {buildSite} from "../test/browser/helpers.js";
import {staticHandler} from "../scripts/serve.js";
import {machine, mb, type BenchContext} from "./helpers.js";
import {makeStore} from "./pages-store.js";

const DEFAULT_SIZES = [10_000, 100_000];
const PAGE_TIMEOUT_MS = 180_000;
const SETTLE_QUIET_MS = 1000;
const REACT_QUIET_MS = 300;
/** A build at 1M episodes takes minutes, more on a busy machine. */
const BUILD_TIMEOUT_MS = 60 * 60_000;

/** One change a reader makes on a page: the control is found by its label's text. */
type Reaction =
  | {select: string; option: number}
  | {radio: string; option: number}
  | {number: string; value: number}
  | {click: string}
  | {header: string};

interface PageSpec {
  path: string;
  name: string;
  /** What counts as the first view: the element the page marks (src/client/first-view.ts). */
  firstView: string;
  react?: Reaction;
  what?: string;
}

const MARKED = "[data-first-view]";

const PAGES: readonly PageSpec[] = [
  {path: "/bench-baseline", name: "baseline (one chart from the SOTOPIA summary)", firstView: MARKED},
  {path: "/", name: "overview", firstView: MARKED, react: {header: "Episodes"}, what: "sort the benchmarks table by episodes"},
  {path: "/sotopia", name: "SOTOPIA", firstView: MARKED, react: {select: "Rater", option: 1}, what: "second rater"},
  {path: "/agreement", name: "evaluator agreement", firstView: MARKED, react: {select: "", option: 1}, what: "first menu's second choice"},
  {path: "/lifelong", name: "LIFELONG-SOTOPIA", firstView: MARKED, react: {radio: "Band", option: 1}, what: "band: 95% CI"},
  {path: "/hsii", name: "HSII", firstView: MARKED, react: {radio: "Formula", option: 1}, what: "formula: Table 1's"},
  {path: "/stss", name: "STSS", firstView: MARKED, react: {radio: "Metric", option: 0}, what: "chart metric: SR"},
  {path: "/informativebench", name: "InformativeBench", firstView: MARKED, react: {radio: "Precision match", option: 1}, what: "precision match: contains"},
  {path: "/episodes", name: "episode viewer", firstView: MARKED, react: {select: "", option: 1}, what: "first menu's second choice"},
  {path: "/explorer", name: "table explorer", firstView: MARKED, react: {click: "[data-testid=\"browser-next\"]"}, what: "next page of the table"},
  {path: "/compare", name: "run comparison", firstView: MARKED, react: {select: "", option: 1}, what: "first menu's second choice"},
  {path: "/audit", name: "reported-table audit", firstView: MARKED, react: {number: "Largest denominator searched", value: 100}, what: "largest denominator 100"},
];

/**
 * The pages measured: all, or the baseline and the paths BENCH_PAGES_ONLY lists
 * (comma-separated, such as "/,/lifelong"), to re-measure the pages a change touched.
 */
function pagesToMeasure(only = process.env.BENCH_PAGES_ONLY): readonly PageSpec[] {
  if (!only?.trim()) return PAGES;
  const paths = only.split(",").map((p) => p.trim());
  const unknown = paths.filter((p) => !PAGES.some((s) => s.path === p));
  if (unknown.length) throw new Error(`BENCH_PAGES_ONLY: no page ${unknown.join(", ")}; pages: ${PAGES.map((s) => s.path).join(", ")}`);
  return PAGES.filter((s) => s === PAGES[0] || paths.includes(s.path));
}

/**
 * makeStore, or a copy of the store it made before for the same size when
 * BENCH_PAGES_STORES names a folder (stores are deterministic: same seed, same
 * samples), so re-running the benchmark after a page change re-imports nothing.
 */
async function cachedStore(path: string, dir: string, n: number, log: (m: string) => void): Promise<void> {
  const cacheDir = process.env.BENCH_PAGES_STORES;
  const cached = cacheDir ? resolve(cacheDir, `pages-store-${n}.duckdb`) : null;
  if (cached && existsSync(cached)) {
    log(`pages: store of ${n.toLocaleString("en-US")} synthetic episodes copied from ${cached}`);
    copyFileSync(cached, path);
    return;
  }
  await makeStore(path, dir, n, log);
  if (cached) {
    mkdirSync(cacheDir!, {recursive: true});
    copyFileSync(path, cached);
  }
}

/**
 * Serves a built site as `npm run serve` does (scripts/serve.ts: /page →
 * page.html, range requests answered with the bytes asked for) and counts the
 * body bytes it sends, so a page that reads part of a file counts that part.
 */
async function countingServer(dir: string): Promise<{origin: string; bytes: () => number; close(): Promise<void>}> {
  const handle = staticHandler(dir);
  let sent = 0;
  const server = createServer((req, res) => {
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === "string" || chunk instanceof Uint8Array) sent += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    handle(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const {port} = server.address() as AddressInfo;
  return {origin: `http://127.0.0.1:${port}`, bytes: () => sent, close: () => new Promise((ok) => server.close(() => ok()))};
}

// tsx compiles with esbuild's keepNames, which wraps functions in `__name`; functions sent to the page need it.
const NAME_SHIM = "globalThis.__name ??= (fn) => fn;";

interface Watch {
  firstView?: number;
  lastChange: number;
}

/** Before the page's scripts run: note when the first view enters the DOM, and every DOM change. */
async function watch(page: Page, selector: string): Promise<void> {
  await page.addInitScript(NAME_SHIM);
  await page.addInitScript((firstView) => {
    const w = window as unknown as {__bench: Watch};
    w.__bench = {lastChange: 0};
    new MutationObserver(() => {
      w.__bench.lastChange = performance.now();
      if (w.__bench.firstView === undefined && document.querySelector(firstView)) w.__bench.firstView = performance.now();
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  }, selector);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the DOM has not changed for `quietMs` (or the page's deadline), and returns when it last changed. */
async function settled(page: Page, quietMs: number): Promise<number> {
  const deadline = Date.now() + PAGE_TIMEOUT_MS;
  for (;;) {
    const {lastChange, now, loading} = await page.evaluate(() => ({
      lastChange: (window as unknown as {__bench: Watch}).__bench.lastChange,
      now: performance.now(),
      loading: document.querySelectorAll("observablehq-loading").length,
    }));
    if ((loading === 0 && now - lastChange >= quietMs) || Date.now() > deadline) return lastChange;
    await sleep(100);
  }
}

/** Makes the page's change and returns ms from the event to the last DOM change before REACT_QUIET_MS of quiet, or null with no change. */
function react(page: Page, reaction: Reaction): Promise<number | null> {
  return page.evaluate(async ({reaction, quietMs}) => {
    const main = document.querySelector("#observablehq-main") ?? document.body;
    const labelled = (text: string) => Array.from(main.querySelectorAll("form")).find((f) => text === "" || f.querySelector("label")?.textContent?.trim() === text);
    let fire: () => void;
    if ("select" in reaction) {
      const select = labelled(reaction.select)?.querySelector("select");
      if (!select || select.options.length <= reaction.option) return null;
      fire = () => {
        select.selectedIndex = reaction.option;
        select.dispatchEvent(new Event("input", {bubbles: true}));
      };
    } else if ("radio" in reaction) {
      const radio = labelled(reaction.radio)?.querySelectorAll<HTMLInputElement>("input[type=radio]")[reaction.option];
      if (!radio) return null;
      fire = () => radio.click();
    } else if ("number" in reaction) {
      const input = labelled(reaction.number)?.querySelector<HTMLInputElement>("input[type=number]");
      if (!input) return null;
      fire = () => {
        input.value = String(reaction.value);
        input.dispatchEvent(new Event("input", {bubbles: true}));
      };
    } else if ("click" in reaction) {
      const target = document.querySelector<HTMLElement>(reaction.click);
      if (!target) return null;
      fire = () => target.click();
    } else {
      const header = Array.from(document.querySelectorAll<HTMLElement>("[data-first-view] thead th")).find((th) => th.textContent?.trim().startsWith(reaction.header));
      if (!header) return null;
      fire = () => (header.querySelector("span") ?? header).dispatchEvent(new MouseEvent("click", {bubbles: true}));
    }
    let last = -1;
    const observer = new MutationObserver(() => (last = performance.now()));
    observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    const start = performance.now();
    fire();
    const deadline = start + 60_000;
    for (;;) {
      await new Promise((r) => setTimeout(r, 50));
      const now = performance.now();
      if ((last >= 0 && now - last >= quietMs) || (last < 0 && now - start > 5000) || now > deadline) break;
    }
    observer.disconnect();
    return last < 0 ? null : last - start;
  }, {reaction, quietMs: REACT_QUIET_MS});
}

interface Open {
  firstView: number | null;
  settled: number;
  heap: number;
  bytes: number;
  reactive: number | null;
  errors: string[];
}

/** Opens one page in a fresh context (empty cache) and measures it. */
async function openOnce(browser: Browser, origin: string, spec: PageSpec, bytes: () => number): Promise<Open> {
  const context = await browser.newContext({viewport: {width: 1440, height: 900}});
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    await watch(page, spec.firstView);
    const before = bytes();
    await page.goto(`${origin}${spec.path}`, {waitUntil: "commit"});
    let firstView: number | null = null;
    try {
      const handle = await page.waitForFunction(() => (window as unknown as {__bench: Watch}).__bench?.firstView, undefined, {timeout: PAGE_TIMEOUT_MS, polling: 50});
      firstView = (await handle.jsonValue()) as number;
    } catch {
      errors.push(`no first view (${spec.firstView}) within ${PAGE_TIMEOUT_MS / 1000} s`);
    }
    const settledAt = await settled(page, SETTLE_QUIET_MS);
    const sent = bytes() - before;
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const {metrics} = await cdp.send("Performance.getMetrics");
    const heap = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? NaN;
    const reactive = spec.react ? await react(page, spec.react) : null;
    errors.push(...(await page.locator(".observablehq--error").allTextContents()));
    return {firstView, settled: settledAt, heap, bytes: sent, reactive, errors};
  } finally {
    await context.close();
  }
}

const median = (xs: readonly number[]): number => {
  const sorted = xs.slice().sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const medianOrNull = (xs: readonly (number | null)[]): number | null => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length === 0 ? null : median(known);
};

interface PageResult {
  spec: PageSpec;
  opens: Open[];
}

interface SiteResult {
  label: string;
  episodes: number;
  /** Null for a site built elsewhere (BENCH_PAGES_BUILT). */
  buildSeconds: number | null;
  distBytes: number;
  /** Each binary pack the site ships (first views, SOTOPIA's per-task rows, the viewer's) by name, in bytes. */
  packs: Map<string, number>;
  pages: PageResult[];
}

/** The site's .bin data files by name without Framework's content hash, with their sizes. */
function packSizes(dist: string): Map<string, number> {
  const dir = join(dist, "_file", "data");
  const sizes = new Map<string, number>();
  if (!existsSync(dir)) return sizes;
  for (const file of readdirSync(dir).sort()) {
    const name = /^(.+?)\.[0-9a-f]{8}\.bin$/.exec(file)?.[1];
    if (name) sizes.set(name, statSync(join(dir, file)).size);
  }
  return sizes;
}

function dirBytes(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const entry of readdirSync(d, {withFileTypes: true})) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else total += statSync(p).size;
    }
  };
  walk(dir);
  return total;
}

/** Builds, serves and opens every page of one store's site. */
async function measureSite(context: BenchContext, label: string, n: number): Promise<SiteResult> {
  const dir = join(context.dir, `pages-${label}`);
  rmSync(dir, {recursive: true, force: true});
  mkdirSync(dir, {recursive: true});
  const store = join(dir, "store.duckdb");
  context.log(`pages: store "${label}"`);
  await cachedStore(store, dir, n, context.log);
  context.log(`pages: building the site for "${label}"`);
  const build = await buildSite(store, dir, {}, BUILD_TIMEOUT_MS);
  const pages = await measureBuilt(build.dist, label, context);
  const result = {label, episodes: n, buildSeconds: build.ms / 1000, distBytes: dirBytes(build.dist), packs: packSizes(build.dist), pages};
  if (!context.keep) rmSync(dir, {recursive: true, force: true});
  return result;
}

/** Serves a built site and opens every page `repeat` times. */
export async function measureBuilt(dist: string, label: string, context: Pick<BenchContext, "repeat" | "log">): Promise<PageResult[]> {
  const server = await countingServer(dist);
  const browser = await launchBrowser();
  const pages: PageResult[] = [];
  const specs = pagesToMeasure();
  try {
    // One untimed open, so no timed run pays for the browser's own first start.
    await openOnce(browser, server.origin, PAGES[0]!, server.bytes);
    // Pages take turns within each round, so a change in machine load hits them all alike.
    const opens = new Map<PageSpec, Open[]>(specs.map((p) => [p, []]));
    for (let round = 0; round < context.repeat; round++) {
      for (const spec of specs) {
        const open = await openOnce(browser, server.origin, spec, server.bytes);
        opens.get(spec)!.push(open);
        context.log(`pages: ${label} ${spec.path} run ${round + 1}: first view ${open.firstView?.toFixed(0) ?? "none"} ms, settled ${open.settled.toFixed(0)} ms, ` +
          `${mb(open.bytes)}, heap ${mb(open.heap)}, reactive ${open.reactive?.toFixed(0) ?? "n/a"} ms${open.errors.length ? `; errors: ${open.errors.join(" | ").slice(0, 300)}` : ""}`);
      }
    }
    for (const spec of specs) pages.push({spec, opens: opens.get(spec)!});
  } finally {
    await browser.close();
    await server.close();
  }
  return pages;
}

const ms = (x: number | null): string => (x === null ? "—" : x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x).toLocaleString("en-US")}`);
const times = (x: number | null): string => (x === null || !Number.isFinite(x) ? "—" : `${x.toFixed(2)}×`);

function siteTable(site: SiteResult, samples: SiteResult | null): string[] {
  const baseline = site.pages[0]!;
  const lines = [
    `### ${site.label}${site.episodes ? ` (samples + ${site.episodes.toLocaleString("en-US")} synthetic SOTOPIA episodes, human ratings on 10%)` : ""}`,
    "",
    `${site.buildSeconds === null ? "Built elsewhere" : `Build ${site.buildSeconds.toFixed(0)} s`}, dist ${mb(site.distBytes)}. ` +
      `Packs: ${Array.from(site.packs, ([name, bytes]) => `${name} ${mb(bytes)}`).join(", ")}.`,
    "",
    "| page | first view ms | ÷ baseline | ÷ samples | settled ms | JS heap | transferred | reactive change ms (what) | errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
  ];
  for (const p of site.pages) {
    const first = medianOrNull(p.opens.map((o) => o.firstView));
    // Ratios taken within each round (same machine load), then their median.
    const vsBaseline = medianOrNull(p.opens.map((o, i) => (o.firstView === null || baseline.opens[i]?.firstView == null ? null : o.firstView / baseline.opens[i]!.firstView!)));
    const onSamples = samples?.pages.find((s) => s.spec.path === p.spec.path);
    const samplesFirst = onSamples ? medianOrNull(onSamples.opens.map((o) => o.firstView)) : null;
    const reactive = medianOrNull(p.opens.map((o) => o.reactive));
    const errors = new Set(p.opens.flatMap((o) => o.errors));
    lines.push(`| ${p.spec.name} | ${ms(first)} | ${p === baseline ? "1.00×" : times(vsBaseline)} | ${samples && first !== null && samplesFirst !== null ? times(first / samplesFirst) : "—"} | ` +
      `${ms(median(p.opens.map((o) => o.settled)))} | ${mb(median(p.opens.map((o) => o.heap)))} | ${mb(median(p.opens.map((o) => o.bytes)))} | ` +
      `${p.spec.react ? `${ms(reactive)} (${p.spec.what})` : "—"} | ${errors.size ? [...errors].join("; ").replaceAll("|", "\\|").slice(0, 200) : "none"} |`);
  }
  return lines;
}

/**
 * Sites built before the run, to open like the others: BENCH_PAGES_BUILT as
 * `EPISODES=DIST[,EPISODES=DIST…]`, such as `1000000=/tmp/scale/1m/dist` (a 1M
 * build takes longer than a benchmark run should wait for).
 */
export function builtSites(text: string | undefined): {episodes: number; dist: string}[] {
  if (!text?.trim()) return [];
  return text.split(",").map((part) => {
    const at = part.indexOf("=");
    const episodes = Number(part.slice(0, at).replace(/_/g, ""));
    const dist = part.slice(at + 1).trim();
    if (at < 0 || !Number.isInteger(episodes) || episodes <= 0 || !dist) {
      throw new Error(`BENCH_PAGES_BUILT: expected EPISODES=DIST such as 1000000=/tmp/scale/1m/dist, got ${JSON.stringify(part)}`);
    }
    if (!existsSync(join(dist, "index.html"))) throw new Error(`BENCH_PAGES_BUILT: ${dist} holds no built site (no index.html)`);
    return {episodes, dist: resolve(dist)};
  });
}

export async function run(context: BenchContext): Promise<string> {
  await resolveChromium(); // fails now, with what to install, rather than after the first build
  const sizes = context.sizes.length ? context.sizes : DEFAULT_SIZES;
  mkdirSync(context.dir, {recursive: true});
  const loadStart = loadavg()[0]!;
  const samples = await measureSite(context, "samples", 0);
  const sites = [samples];
  for (const n of sizes) sites.push(await measureSite(context, `${n.toLocaleString("en-US")} episodes`, n));
  for (const {episodes, dist} of builtSites(process.env.BENCH_PAGES_BUILT)) {
    const label = `${episodes.toLocaleString("en-US")} episodes`;
    sites.push({label, episodes, buildSeconds: null, distBytes: dirBytes(dist), packs: packSizes(dist), pages: await measureBuilt(dist, label, context)});
  }
  return [
    "## Pages: first view at every store size",
    "",
    "Every page of the site in headless Chromium at 1440 px, each open in a fresh browser context (empty cache), pages",
    `taking turns in each of ${context.repeat} rounds after one untimed open; medians. **First view**: from navigation start until`,
    "the page's first chart or table is in the DOM (the element the page marks `data-first-view`). **÷ baseline**: against the unlisted",
    "`/bench-baseline` page of the same site in the same round (one chart from the SOTOPIA summary, the floor for a page",
    "drawn from a pre-computed summary); **÷ samples**: against the same page built from the bundled samples.",
    "**Settled**: until the last DOM change before 1 s of quiet. **JS heap**: the page's (CDP; the DuckDB worker's",
    "memory is not counted). **Transferred**: every byte the server sent for the open. **Reactive change**: one input",
    "changed in the page, from the event to the last DOM change before 300 ms of quiet.",
    "",
    ...sites.flatMap((s) => [...siteTable(s, s === samples ? null : samples), ""]),
    `Machine: ${machine([`1-minute load average ${loadStart.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end (a shared machine: other work competes for the cores)`])}.`,
  ].join("\n");
}
