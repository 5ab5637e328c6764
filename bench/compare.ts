// Comparing two runs at scale (section `compare` of BENCHMARKS.md): a store
// with N SOTOPIA episodes (default 100,000), each scored on seat 1 by one
// judge in two runs, compared run against run as `sociometer compare` does
// (compareFromArgs: the default sides' counts, the rows' SQL, pairing in DuckDB, then the tests, 1,000
// bootstrap resamples and Holm in src/lib/compare.ts), and as it did before
// (every row read into JS, paired there), against the same paired
// aggregation (n, mean difference, its sd, t) in one DuckDB query alone.
// The answers' mean differences are checked against each other.

import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync} from "node:fs";
import {loadavg} from "node:os";
import {join} from "node:path";
import {compareFromArgs, readCompareRows} from "../loaders/cli/compare.js";
import {openStore, rows, type Store} from "../loaders/store/db.js";
import initParquet from "parquet-wasm/esm";
import {compareCoded} from "../src/client/compare-coded.js";
import {openComparePack} from "../src/client/compare-pack.js";
import {compareRuns, type Comparison} from "../src/lib/compare.js";
import {launchBrowser} from "../test/browser/chromium.js";
import {buildSite, serveStatic} from "../test/browser/helpers.js";
import {fileFetch} from "../test/helpers/compare-fetch.js";
import {machine, REPO, type BenchContext} from "./helpers.js";

const DEFAULT_SIZES = [100_000];

const words = (side: Record<string, string>) => Object.entries(side).map(([k, v]) => `${k}=${v}`);

const median = (xs: readonly number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** N episodes of two seats, seat 1 scored on the seven dimensions in runs v1 and v2 (v2 adds 0.3 to goal). */
export async function fill(store: Store, n: number, log: (message: string) => void): Promise<void> {
  // A shared machine: DuckDB's default (80% of RAM) got the filling process killed.
  await store.conn.run("SET memory_limit = '2GB'");
  await store.conn.run(`INSERT INTO sources VALUES ('bench', '/bench/ratings.csv', 'sotopia-ratings', '0', 0, now(), ${n}, 0, NULL)`);
  const chunk = 10_000;
  for (let start = 0; start < n; start += chunk) {
    const range = `range(${start}, ${Math.min(n, start + chunk)}) t(i)`;
    // Five models in seat 1 take turns on the same tasks (i // 5) against one partner model, so two models pair by task.
    await store.conn.run(`INSERT INTO episodes (episode_id, benchmark, source_id, scenario_id, synthetic)
      SELECT 'ep-' || lpad(i::VARCHAR, 7, '0'), 'sotopia', 'bench', 'scenario-' || ((i // 5) % 450), true FROM ${range}`);
    await store.conn.run(`INSERT INTO participants (episode_id, agent, agent_ref, model)
      SELECT 'ep-' || lpad(i::VARCHAR, 7, '0'), s, 'char-' || (((i // 5) * 7 + s) % 40), CASE WHEN s = 1 THEN 'model-' || (i % 5) ELSE 'partner' END FROM ${range}, range(1, 3) u(s)`);
    await store.conn.run(`INSERT INTO ratings (episode_id, agent, dimension, rater, rater_kind, value, run_id, source_id)
      SELECT 'ep-' || lpad(i::VARCHAR, 7, '0'), 1, d.dimension, 'judge', 'llm',
             least(d.hi, greatest(d.lo, round((d.lo + d.hi) / 2 + (hash(i, d.dimension, r) % 5)::INTEGER - 2 + CASE WHEN r = 'v2' AND d.dimension = 'goal' THEN 0.3 ELSE 0 END))),
             r, 'bench'
      FROM ${range}, (SELECT dimension, lo, hi FROM dimensions WHERE benchmark = 'sotopia') d, (VALUES ('v1'), ('v2')) v(r)`);
    log(`compare: ${Math.min(n, start + chunk).toLocaleString("en-US")} episodes written`);
  }
}

/** The paired aggregation in SQL alone: per dimension, n, mean and sd of the run-to-run differences, and t. */
const SQL_ALONE = `
WITH d AS (
  SELECT a.dimension, b.value - a.value AS diff
  FROM ratings a JOIN ratings b ON b.episode_id = a.episode_id AND b.agent = a.agent AND b.dimension = a.dimension AND b.rater = a.rater
  WHERE a.rater = 'judge' AND a.run_id = 'v1' AND b.run_id = 'v2'
)
SELECT dimension, count(*)::INTEGER AS n, avg(diff) AS mean, stddev_samp(diff) AS sd, avg(diff) / (stddev_samp(diff) / sqrt(count(*))) AS t
FROM d GROUP BY dimension ORDER BY dimension`;

/** What the page bench changes in one go: both sides to the judge's two runs, every model (the CLI's comparison above). */
const PAGE_CHANGE: readonly [string, string][] = [["A: model", "(any)"], ["B: model", "(any)"], ["A: run", "v1 "], ["B: run", "v2 "]];

interface PageTimes {
  firstView: number[];
  change: number[];
  /** The page's goal difference after the change, to check against the CLI. */
  goal: number;
}

/**
 * Opens the built Compare page `repeat` times, each in a fresh browser context:
 * navigation → the first view (data-first-view) in the DOM, then the four
 * side picks of PAGE_CHANGE made in one task → the table showing run=v2.
 */
export async function timePage(dist: string, repeat: number, log: (message: string) => void): Promise<PageTimes> {
  const server = await serveStatic(dist);
  const browser = await launchBrowser();
  const out: PageTimes = {firstView: [], change: [], goal: NaN};
  try {
    for (let r = 0; r < repeat; r++) {
      const context = await browser.newContext({viewport: {width: 1440, height: 900}});
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      try {
        // tsx compiles with esbuild's keepNames, which wraps functions in `__name`; functions sent to the page need it.
        await page.addInitScript("globalThis.__name ??= (fn) => fn;");
        await page.addInitScript(() => {
          const w = window as unknown as {__firstView?: number};
          new MutationObserver(() => {
            if (w.__firstView === undefined && document.querySelector("[data-first-view]")) w.__firstView = performance.now();
          }).observe(document, {subtree: true, childList: true, attributes: true});
        });
        await page.goto(`${server.origin}/compare`, {waitUntil: "commit"});
        const first = await page.waitForFunction(() => (window as unknown as {__firstView?: number}).__firstView, undefined, {timeout: 180_000, polling: 50});
        out.firstView.push((await first.jsonValue()) as number / 1000);
        await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0, undefined, {timeout: 180_000});
        const ms = await page.evaluate(async (changes) => {
          const selectOf = (label: string) => {
            const l = Array.from(document.querySelectorAll("label")).find((x) => x.textContent?.trim() === label);
            const select = l ? document.getElementById(l.htmlFor) : null;
            if (!(select instanceof HTMLSelectElement)) throw new Error(`no select labelled ${label}`);
            return select;
          };
          const t0 = performance.now();
          for (const [label, prefix] of changes) {
            const select = selectOf(label);
            const option = Array.from(select.options).find((o) => o.text.startsWith(prefix));
            if (!option) throw new Error(`${label} has no option ${prefix}`);
            select.value = option.value;
            select.dispatchEvent(new Event("input", {bubbles: true}));
          }
          for (;;) {
            const problem = document.querySelector("[data-testid=compare-problem]")?.textContent;
            if (problem) throw new Error(`the page says: ${problem}`);
            if (performance.now() - t0 > 600_000) throw new Error("no table within 600 s of the side change");
            const statement = document.querySelector("[data-testid=compare-statement]")?.textContent ?? "";
            if (statement.includes("run=v2") && document.querySelector("[data-testid=compare-table]") && document.querySelectorAll("observablehq-loading").length === 0) {
              return performance.now() - t0;
            }
            await new Promise((ok) => setTimeout(ok, 10));
          }
        }, PAGE_CHANGE);
        out.change.push(ms / 1000);
        out.goal = Number(await page.locator("[data-testid=compare-goal-difference]").getAttribute("data-value"));
        const problems = errors.concat(await page.locator(".observablehq--error").allTextContents());
        if (problems.length) throw new Error(`compare page: ${problems.join("; ")}`);
        log(`compare page: open ${r + 1}: first view ${out.firstView.at(-1)!.toFixed(2)} s, side change → table ${out.change.at(-1)!.toFixed(2)} s`);
      } finally {
        await context.close();
      }
    }
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * The page worker's library in Node on the built site's rows pack, read by range requests from the local file:
 * the pack's header, then the blocks on the two sides (parquet-wasm decodes their codes), compareCoded picks,
 * pairs, tests and bootstraps: what the worker does, the network aside. Also the bytes it read.
 */
async function timeWorkerPath(dist: string, a: Record<string, string>, b: Record<string, string>): Promise<{seconds: number; comparison: Comparison; bytes: number}> {
  const folder = join(dist, "_file", "data");
  const name = readdirSync(folder).find((f) => /^compare-rows-sotopia\.[0-9a-f]+\.bin$/.test(f));
  if (!name) throw new Error(`compare: no compare-rows-sotopia.*.bin in ${folder}`);
  await initParquet({module_or_path: readFileSync(join(REPO, "node_modules", "parquet-wasm", "esm", "parquet_wasm_bg.wasm"))});
  const t0 = performance.now();
  const pack = await openComparePack(name, fileFetch(join(folder, name)));
  const coded = await pack.rowsFor(a, b, () => {});
  const comparison = compareCoded("sotopia", coded, a, b, {adjust: "holm", resamples: 1000, seed: 1});
  return {seconds: (performance.now() - t0) / 1000, comparison, bytes: pack.fetched.bytes};
}

export async function run(context: BenchContext): Promise<string> {
  const sizes = context.sizes.length ? context.sizes : DEFAULT_SIZES;
  const lines: string[] = [
    "## Compare two runs",
    "",
    "`sociometer compare sotopia --a rater=judge run=v1 --b rater=judge run=v2` on a store of N synthetic episodes (five models take turns in seat 1 on the same tasks against one partner model), seat 1 scored on the seven dimensions in each run " +
      "(N paired items per dimension, 8 metrics with overall). **CLI**: what the command runs (compareFromArgs): the default sides' counts in one pass over the rows' SQL, then that SQL filtered to the two sides, items averaged and paired in DuckDB, " +
      "only the paired values read into JS, then paired t, Wilcoxon, a 1,000-resample bootstrap shared by the metrics, Holm; **of which bootstrap**: the CLI's time less the same with 1 resample. " +
      "**Rows path**: every row of both sides read into JS as objects and paired there (readCompareRows + compareRuns, what the page's worker did before its rows were coded). " +
      "**Worker path (Node)**: the page worker's library run in Node on the built site's compare-rows-sotopia.bin (the pack's blocks on the two sides read by range, parquet-wasm decodes their integer codes, compareCoded picks the sides' rows, pairs them on the codes, tests, bootstraps), without the fetch. " +
      "**DuckDB alone**: the same paired aggregation (n, mean difference, sd, t per dimension) in one query. " +
      "**Page** (the site built on the same store, served locally, headless Chromium, a fresh context per open): **first view**: navigation → the metric table (data-first-view), drawn from data/compare-summary.json (model-0 against model-1, rated by judge: the page's default); " +
      "**side change**: A and B set to every model, runs v1 and v2, in one task → the table of that comparison drawn, computed by the page's worker (range requests for the blocks of compare-rows-sotopia.bin on the two sides, decoding their codes, the sides' rows, pairing, tests, 1,000-resample bootstrap). Median of the runs.",
    "",
    `Machine: ${machine()}`,
    "",
    "| episodes | rows | CLI (s) | of which bootstrap (s) | rows path (s) | worker path, Node (s) | DuckDB alone (s) | CLI / alone | page first view (s) | page side change (s) | side change / alone | load (1 min) |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  const a = {rater: "judge", run: "v1"};
  const b = {rater: "judge", run: "v2"};
  for (const n of sizes) {
    const dir = join(context.dir, `compare-${n}`);
    const storePath = join(dir, "store.duckdb");
    // With --keep, a store filled by an earlier run is reused (filling 100k takes minutes on a shared machine).
    const reuse = context.keep && existsSync(storePath);
    if (!reuse) {
      rmSync(dir, {recursive: true, force: true});
      mkdirSync(dir, {recursive: true});
    }
    const store = await openStore(storePath);
    const times = {cli: [] as number[], noBoot: [] as number[], rowsPath: [] as number[], alone: [] as number[]};
    let rowsRead = 0;
    let cliGoal = NaN;
    let cliMetrics: Comparison["metrics"] = [];
    try {
      if (!reuse) {
        context.log(`compare: filling a store with ${n.toLocaleString("en-US")} episodes`);
        await fill(store, n, context.log);
      }
      for (let r = 0; r < context.repeat; r++) {
        let t0 = performance.now();
        const c = await compareFromArgs(store, "sotopia", words(a), words(b), {adjust: "holm", resamples: 1000, seed: 1});
        times.cli.push((performance.now() - t0) / 1000);
        cliGoal = c.metrics.find((m) => m.metric === "goal")!.difference;
        cliMetrics = c.metrics;
        t0 = performance.now();
        await compareFromArgs(store, "sotopia", words(a), words(b), {adjust: "holm", resamples: 1, seed: 1});
        times.noBoot.push((performance.now() - t0) / 1000);
        t0 = performance.now();
        const found = await readCompareRows(store, "sotopia", {a, b});
        const viaRows = compareRuns("sotopia", found, a, b, {adjust: "holm", resamples: 1000, seed: 1});
        times.rowsPath.push((performance.now() - t0) / 1000);
        rowsRead = found.length;
        t0 = performance.now();
        const alone = await rows<{dimension: string; n: number; mean: number}>(store.conn, SQL_ALONE);
        times.alone.push((performance.now() - t0) / 1000);
        if (JSON.stringify(viaRows.metrics) !== JSON.stringify(c.metrics)) throw new Error("compare: the CLI and the rows path disagree");
        for (const x of alone) {
          const m = c.metrics.find((y) => y.metric === x.dimension);
          if (!m || m.nPaired !== x.n || Math.abs(m.difference - x.mean) > 1e-9) throw new Error(`compare and SQL alone disagree on ${x.dimension}: ${m?.nPaired} / ${m?.difference} vs ${x.n} / ${x.mean}`);
        }
        context.log(`compare: run ${r + 1}: CLI ${times.cli.at(-1)!.toFixed(2)} s (1 resample: ${times.noBoot.at(-1)!.toFixed(2)} s), rows path ${times.rowsPath.at(-1)!.toFixed(2)} s, DuckDB alone ${times.alone.at(-1)!.toFixed(2)} s`);
      }
    } finally {
      store.close();
    }
    try {
      const siteDir = join(dir, "site");
      const dist = join(siteDir, "project", "dist");
      if (!(context.keep && existsSync(join(dist, "compare.html")))) {
        context.log(`compare: building the site on ${n.toLocaleString("en-US")} episodes`);
        rmSync(siteDir, {recursive: true, force: true});
        const built = await buildSite(storePath, siteDir, {}, 60 * 60_000);
        context.log(`compare: site built in ${(built.ms / 1000).toFixed(0)} s`);
      }
      const worker: number[] = [];
      for (let r = 0; r < context.repeat; r++) {
        const w = await timeWorkerPath(dist, a, b);
        if (JSON.stringify(w.comparison.metrics) !== JSON.stringify(cliMetrics)) throw new Error("compare: the worker path and the CLI disagree");
        worker.push(w.seconds);
        context.log(`compare: worker path (Node) ${w.seconds.toFixed(2)} s, ${(w.bytes / 2 ** 20).toFixed(1)} MB of the pack read, load ${loadavg()[0].toFixed(2)}`);
      }
      const page = await timePage(dist, context.repeat, context.log);
      if (Math.abs(page.goal - cliGoal) > 1e-9) throw new Error(`compare: the page's goal difference ${page.goal} is not the CLI's ${cliGoal}`);
      const cli = median(times.cli);
      const boot = cli - median(times.noBoot);
      const alone = median(times.alone);
      const change = median(page.change);
      lines.push(`| ${n.toLocaleString("en-US")} | ${rowsRead.toLocaleString("en-US")} | ${cli.toFixed(2)} | ${boot.toFixed(2)} | ${median(times.rowsPath).toFixed(2)} | ${median(worker).toFixed(2)} | ${alone.toFixed(3)} | ` +
        `${(cli / alone).toFixed(1)}× | ${median(page.firstView).toFixed(2)} | ${change.toFixed(2)} | ${(change / alone).toFixed(1)}× | ${loadavg()[0].toFixed(2)} |`);
    } finally {
      if (!context.keep) rmSync(dir, {recursive: true, force: true});
    }
  }
  lines.push("", "Last session (before the rows were coded and the bootstrap rewritten over typed arrays; load 11–22): CLI 128.32 s (bootstrap 81.05 s), rows path 112.03 s, DuckDB alone 1.279 s (100.3×), page first view 1.83 s, side change 88.04 s (68.8×).");
  lines.push("", "Where the time went, measured in one process each on this store (CPU = user + system of the process, DuckDB's threads included, steadier than wall time on a machine at load 10–20): " +
    "the 1,000-resample bootstrap of 100k pairs × 8 metrics 6.1 s CPU before (SeededRandom.nextIndex per draw, then a pass testing every pair's weight), 2.3 s after (the draws in one loop over typed arrays, four metrics summed per pass, no test per pair; the same intervals to the bit); " +
    "the CLI 16.7 s CPU (68.6 s wall, load 14.6) before, 11.9 s (47.0 s wall, load 15.5) after, of which the rows' SQL about 5 s (its seat step, 8 s of 16 s wall before, now under 1 s) and the JS bootstrap about 3 s; " +
    "the page worker's path in Node 15.3 s CPU before (61.3 s wall at load 16.5: rows decoded cell by cell into objects, paired in Maps of text keys), 5.3–5.8 s CPU after (6.9–21.2 s wall at load 19: codes into typed arrays, pairing on them, the bootstrap most of what is left).");
  lines.push("", "Before the pairing moved into DuckDB and the rows were read column by column (one run at 100,000 episodes, load average 20+): rows' SQL and reading 208.58 s, library 163.70 s (bootstrap 126.62 s), 372.29 s in all against 7.505 s for DuckDB alone (50×).");
  lines.push("", "The CLI, the rows path and the worker path give the same metrics (every field, to the bit), n and the mean difference of every dimension agree with DuckDB alone (to 1e-9), and the page's goal difference after the side change agrees with the CLI's (to 1e-9), checked on each run.");
  return lines.join("\n");
}
