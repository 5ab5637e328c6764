// Agreement page benchmark (section `agreement-page` of BENCHMARKS.md): the
// computations behind one view of the evaluator agreement page, timed in Node
// at N multiply-rated episodes (14 instances each), two ways:
//   old     the library on score objects, as the page ran it on its main
//           thread: pairInstances → agreementTable → kappaAmongAllAnnotators
//           → differenceView (a change of k or basis skipped pairInstances)
//   worker  AgreementEngine over columns, as the page's worker runs it, after
//           the worker's warm-up on the starting view (what it does once the
//           rows are read)
// for the changes a reader makes: k, the basis, rater A (an LLM, an
// annotator), rater B, and the dimension of the histogram. Each new-path
// change is timed on its own fresh engine (so earlier changes cache nothing
// for it); the median of --repeat runs counts. The scores are generated
// directly as columns (seeded): a judge on every instance, a second LLM on
// half the episodes, two or three of 40 annotators per episode, a person
// playing one agent in five.

import {once} from "node:events";
import {existsSync, mkdirSync, renameSync, rmSync} from "node:fs";
import {loadavg} from "node:os";
import {join} from "node:path";
import {importFiles} from "../loaders/import/session.js";
import {openStore} from "../loaders/store/db.js";
import {writeSotopiaDump} from "./dump.js";
import type {AgreementColumns} from "../src/client/agreement-columns.js";
import {AgreementEngine, type ViewOptions} from "../src/client/agreement-engine.js";
import {agreementTable, differenceView, HUMANS, kappaAmongAllAnnotators, pairInstances, type PairedInstance, type RaterScore} from "../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../src/lib/dimensions.js";
import type {Page} from "playwright-core";
import {launchBrowser} from "../test/browser/chromium.js";
import {buildSite, serveStatic} from "../test/browser/helpers.js";
import {machine, type BenchContext} from "./helpers.js";

const DEFAULT_SIZES = [10_000, 100_000];
const KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);
const ANNOTATORS = 40;
const GOAL_MS = 100;

/** Seeded columns for `episodes` multiply-rated episodes. */
export function syntheticColumns(episodes: number): AgreementColumns {
  let seed = 18;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const raters = ["gpt-4", "llama-3-70b", ...Array.from({length: ANNOTATORS}, (_, i) => `annotator-${String(i + 1).padStart(2, "0")}`)];
  const instances = episodes * 14;
  const c: AgreementColumns = {
    rowStart: new Int32Array(instances + 1), episode: new Int32Array(instances), dimension: new Int32Array(instances), playedByHuman: new Uint8Array(instances),
    rater: new Int32Array(instances * 5), human: new Uint8Array(instances * 5), value: new Float64Array(instances * 5),
    raters, dimensions: SOTOPIA_DIMENSIONS.map((d) => ({key: d.key, lo: d.lo, hi: d.hi})),
  };
  let i = 0;
  let row = 0;
  const push = (rater: number, human: number, value: number) => {
    c.rater[row] = rater;
    c.human[row] = human;
    c.value[row++] = value;
  };
  for (let e = 0; e < episodes; e++) {
    const annotators = new Set([2 + Math.floor(next() * ANNOTATORS), 2 + Math.floor(next() * ANNOTATORS)]);
    if (next() < 0.3) annotators.add(2 + Math.floor(next() * ANNOTATORS));
    const sorted = [...annotators].sort((x, y) => x - y);
    for (let agent = 0; agent < 2; agent++) {
      const played = next() < 0.2 ? 1 : 0;
      SOTOPIA_DIMENSIONS.forEach((d, di) => {
        c.rowStart[i] = row;
        c.episode[i] = e;
        c.dimension[i] = di;
        c.playedByHuman[i] = played;
        const level = d.lo + Math.floor(next() * (d.hi - d.lo + 1));
        const near = () => Math.max(d.lo, Math.min(d.hi, level + Math.floor(next() * 3) - 1));
        // Rows by rater name within an instance, as the SQL orders them: the LLMs sort after "annotator-…".
        for (const a of sorted) push(a, 1, near());
        push(0, 0, near());
        if (e % 2 === 0) {
          const v = near();
          push(1, 0, next() < 0.1 && v < d.hi ? v + 0.5 : v);
        }
        i++;
      });
    }
  }
  c.rowStart[instances] = row;
  return {...c, rater: c.rater.subarray(0, row), human: c.human.subarray(0, row), value: c.value.subarray(0, row)};
}

/**
 * A store of `episodes` synthetic SOTOPIA episodes, every one multiply rated
 * as syntheticColumns rates them: the dump's judge on all, a second LLM on
 * half, two or three of 40 annotators (near the judge's score). Built once
 * per size under `dir` and reused: the import takes minutes at 100k.
 */
export async function agreementStore(dir: string, episodes: number, log: (m: string) => void): Promise<string> {
  const path = join(dir, `agreement-${episodes}.duckdb`);
  if (existsSync(path)) return path;
  mkdirSync(dir, {recursive: true});
  const building = `${path}.building`;
  rmSync(building, {force: true});
  const dump = join(dir, `agreement-${episodes}.jsonl`);
  await writeSotopiaDump(dump, {seed: "bench-agreement", count: episodes, style: "sample"});
  const store = await openStore(building);
  try {
    log(`agreement-page: importing ${episodes.toLocaleString("en-US")} episodes`);
    await importFiles(store, "sotopia", [dump], {});
    const csv = join(dir, `agreement-${episodes}-ratings.csv`);
    // Annotator slots 0 and 1 always, slot 2 on about 30% of episodes; the second LLM on even hashes.
    await store.conn.run(`COPY (
      WITH judged AS (
        SELECT r.episode_id, r.agent, r.dimension, r.value, d.lo, d.hi, hash(r.episode_id) AS h
        FROM ratings r JOIN dimensions d ON d.dimension = r.dimension AND d.benchmark = 'sotopia'
        WHERE r.rater_kind = 'llm'
      )
      SELECT episode_id, agent, dimension, 'annotator-' || lpad((1 + (h + slot * (1 + (h // 40) % 13)) % 40)::VARCHAR, 2, '0') AS rater,
             greatest(lo, least(hi, value + (h // 7 + slot) % 3 - 1))::INTEGER AS value, 'bench' AS rationale, 'human' AS rater_kind
      FROM judged CROSS JOIN (VALUES (0), (1), (2)) s(slot)
      WHERE slot < 2 OR (h // 1000) % 10 < 3
      UNION ALL
      SELECT episode_id, agent, dimension, 'llama-3-70b', greatest(lo, least(hi, value + (h // 11) % 3 - 1))::INTEGER, 'bench', 'llm'
      FROM judged WHERE h % 2 = 0
      ORDER BY episode_id, agent, dimension, rater
    ) TO '${csv.replaceAll("'", "''")}' (HEADER, DELIMITER ',')`);
    log(`agreement-page: importing the annotators' and the second LLM's scores`);
    await importFiles(store, "sotopia-ratings", [csv], {});
    rmSync(csv, {force: true});
  } finally {
    store.close();
    rmSync(dump, {force: true});
  }
  renameSync(building, path);
  return path;
}

/** The score objects the old page held, one per row. */
function scoreObjects(c: AgreementColumns): RaterScore[] {
  const out: RaterScore[] = [];
  for (let i = 0; i + 1 < c.rowStart.length; i++) {
    const d = c.dimensions[c.dimension[i]!]!;
    for (let r = c.rowStart[i]!; r < c.rowStart[i + 1]!; r++) {
      out.push({episode_id: `ep-${String(c.episode[i]).padStart(7, "0")}`, agent: 1 + (Math.floor(i / 7) % 2), dimension: d.key, rater: c.raters[c.rater[r]!]!,
        rater_kind: c.human[r] ? "human" : "llm", value: c.value[r]!, lo: d.lo, hi: d.hi, played_by: c.playedByHuman[i] ? "human" : "model"});
    }
  }
  return out;
}

interface Change {
  name: string;
  options: ViewOptions;
  /** Whether the old page paired the instances again for it (a change of rater). */
  repairs: boolean;
  /** The histogram's dimension menu: no new computation at all on the new path. */
  lookupOnly?: boolean;
}

const START: ViewOptions = {a: {rater: "gpt-4"}, b: HUMANS, bins: 5, basis: "dimension"};
const CHANGES: Change[] = [
  {name: "k 5 → 3", options: {...START, bins: 3}, repairs: false},
  {name: "basis → annotators", options: {...START, basis: "annotators"}, repairs: false},
  {name: "A → second LLM", options: {...START, a: {rater: "llama-3-70b"}}, repairs: true},
  {name: "A → an annotator", options: {...START, a: {rater: "annotator-07"}}, repairs: true},
  {name: "B → second LLM", options: {...START, b: {rater: "llama-3-70b"}}, repairs: true},
  {name: "B → an annotator", options: {...START, b: {rater: "annotator-07"}}, repairs: true},
  {name: "histogram dimension", options: START, repairs: false, lookupOnly: true},
];

const median = (xs: number[]) => xs.slice().sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)]!;

function timed(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** CPU milliseconds (user + system) that fn takes: under a high load average, wall times measure the queue for the cores. */
function cpuTimed(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The old page's computation for one change: everything after pairing, and the pairing too when the raters changed. */
function oldPath(scores: readonly RaterScore[], paired: PairedInstance[] | null, {a, b, bins, basis}: ViewOptions): PairedInstance[] {
  const instances = paired ?? pairInstances(scores, a, b);
  kappaAmongAllAnnotators(agreementTable(instances, KEYS, {bins, basis}), scores, KEYS, {bins, basis});
  differenceView(instances, "all", basis);
  return instances;
}

interface Row {
  episodes: number;
  instances: number;
  rows: number;
  step: string;
  oldMs: number | null;
  /** The worker's time on request (nothing computed ahead for it), wall and CPU. */
  newMs: number;
  newCpuMs: number | null;
  /** The worker's time once it has computed the starting view's neighbours ahead. */
  aheadMs: number | null;
}

export async function run(ctx: BenchContext): Promise<string> {
  const sizes = ctx.sizes.length ? ctx.sizes : DEFAULT_SIZES;
  const results: Row[] = [];
  const loads: string[] = [];
  for (const n of sizes) {
    const columns = syntheticColumns(n);
    const instances = columns.rowStart.length - 1;
    const rows = columns.value.length;
    ctx.log(`agreement-page: ${n.toLocaleString("en-US")} episodes, ${instances.toLocaleString("en-US")} instances, ${rows.toLocaleString("en-US")} scores`);
    loads.push(`${n.toLocaleString("en-US")}: ${loadavg()[0]!.toFixed(1)}`);
    const warmRuns: number[] = [];
    const warmCpuRuns: number[] = [];
    const aheadRuns: number[] = [];
    const aheadCpuRuns: number[] = [];
    const longestStep: number[] = [];
    let stepCount = 0;
    const onRequest = new Map<string, number[]>(CHANGES.map((c) => [c.name, []]));
    const onRequestCpu = new Map<string, number[]>(CHANGES.map((c) => [c.name, []]));
    const ahead = new Map<string, number[]>(CHANGES.map((c) => [c.name, []]));
    let neighbours = 0;
    for (let round = 0; round < ctx.repeat; round++) {
      for (const change of CHANGES) {
        // On request: a fresh engine that has only the starting view, as the worker right after reading the rows.
        const engine = new AgreementEngine(columns, KEYS);
        let warm = 0;
        const warmCpu = cpuTimed(() => (warm = timed(() => engine.view(START))));
        if (change === CHANGES[0]) {
          warmRuns.push(warm);
          warmCpuRuns.push(warmCpu);
        }
        let wall = 0;
        const cpu = change.lookupOnly ? 0 : cpuTimed(() => (wall = timed(() => engine.view(change.options))));
        onRequest.get(change.name)!.push(wall);
        onRequestCpu.get(change.name)!.push(cpu);
      }
      const engine = new AgreementEngine(columns, KEYS);
      engine.view(START);
      neighbours = engine.neighbours(START).length;
      // The worker's way: one step per turn; the longest step is the most a request waits for the work ahead.
      let longest = 0;
      let steps = 0;
      aheadCpuRuns.push(cpuTimed(() => aheadRuns.push(timed(() => {
        for (;;) {
          let step: unknown = null;
          longest = Math.max(longest, timed(() => (step = engine.prefetchStep(START))));
          steps++;
          if (step === null) break;
        }
      }))));
      longestStep.push(longest);
      stepCount = steps;
      for (const change of CHANGES) ahead.get(change.name)!.push(change.lookupOnly ? 0 : timed(() => engine.view(change.options)));
    }
    // The old path once per size: at 100k it takes seconds and a few GB.
    const scores = scoreObjects(columns);
    let paired: PairedInstance[] = [];
    const oldStart = timed(() => (paired = oldPath(scores, null, START)));
    results.push({episodes: n, instances, rows, step: "starting view, cold (worker: once the rows are read)", oldMs: oldStart, newMs: median(warmRuns), newCpuMs: median(warmCpuRuns), aheadMs: null});
    results.push({episodes: n, instances, rows, step: `computing ahead all ${neighbours} neighbours of the starting view (worker, between requests; ${stepCount} steps)`, oldMs: null, newMs: median(aheadRuns), newCpuMs: median(aheadCpuRuns), aheadMs: null});
    results.push({episodes: n, instances, rows, step: "longest step of that (the most a request waits for the work ahead)", oldMs: null, newMs: median(longestStep), newCpuMs: null, aheadMs: null});
    for (const change of CHANGES) {
      const oldMs = change.lookupOnly ? timed(() => differenceView(paired, "goal", START.basis)) : timed(() => oldPath(scores, change.repairs ? null : paired, change.options));
      results.push({episodes: n, instances, rows, step: change.name, oldMs, newMs: median(onRequest.get(change.name)!), newCpuMs: median(onRequestCpu.get(change.name)!), aheadMs: median(ahead.get(change.name)!)});
      ctx.log(`agreement-page: ${change.name}: old ${oldMs.toFixed(0)} ms, on request ${median(onRequest.get(change.name)!).toFixed(1)} ms (CPU ${median(onRequestCpu.get(change.name)!).toFixed(1)} ms), computed ahead ${median(ahead.get(change.name)!).toFixed(2)} ms`);
    }
  }
  const pages: PageResult[] = [];
  // A site already built from agreementStore at the one size given (BENCH_AGREEMENT_DIST), to measure the page without building again.
  const prebuilt = process.env.BENCH_AGREEMENT_DIST;
  if (prebuilt && sizes.length !== 1) throw new Error("BENCH_AGREEMENT_DIST names one site: give one size (--sizes N)");
  for (const n of sizes) {
    const store = await agreementStore(ctx.dir, n, ctx.log);
    const work = join(ctx.dir, `agreement-site-${n}`);
    if (!prebuilt) rmSync(work, {recursive: true, force: true});
    ctx.log(`agreement-page: building the site for ${n.toLocaleString("en-US")} multiply-rated episodes`);
    const build = prebuilt ? {dist: prebuilt, ms: NaN} : await buildSite(store, work, {}, 60 * 60_000);
    const load = loadavg()[0]!;
    const run = await measurePage(build.dist, ctx.repeat, ctx.log);
    pages.push({episodes: n, buildSeconds: build.ms / 1000, loadBefore: load, loadAfter: loadavg()[0]!, run});
    if (!ctx.keep && !prebuilt) rmSync(work, {recursive: true, force: true});
  }
  return section(results, loads, ctx.repeat) + pageSection(pages, ctx.repeat);
}

interface PageResult {
  episodes: number;
  buildSeconds: number;
  loadBefore: number;
  loadAfter: number;
  run: PageRun;
}

function pageSection(pages: readonly PageResult[], repeat: number): string {
  const ms = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
  const lines: string[] = [];
  for (const p of pages) {
    const n = p.episodes.toLocaleString("en-US");
    lines.push(`| ${n} | first view (navigation → the first table, from the build-time summary) | ${ms(median(p.run.firstView))} | | |`);
    lines.push(`| ${n} | every neighbour of the starting view computed ahead (rows read → last one ready) | ${ms(median(p.run.aheadMs))} | | |`);
    for (const c of PAGE_CHANGES) {
      const ready = median(p.run.ready.get(c.name)!);
      lines.push(`| ${n} | ${c.name} | ${ms(ready)} | ${ms(median(p.run.notReady.get(c.name)!))} | ${ready <= GOAL_MS ? "yes" : "no"} |`);
    }
  }
  const build = (s: number) => (Number.isNaN(s) ? "site built beforehand from the same store and code" : `build ${s.toFixed(0)} s`);
  const loads = pages.map((p) => `${p.episodes.toLocaleString("en-US")}: ${p.loadBefore.toFixed(1)} before, ${p.loadAfter.toFixed(1)} after (${build(p.buildSeconds)})`).join("; ");
  return `
### The page in Chromium: from the input event to the updated DOM

Load average (1 min): ${loads}.

A store of N synthetic SOTOPIA episodes, every one multiply rated as above (\`agreementStore\`:
the dump's judge gpt-4 on all, llama-3-70b on half, two or three of 40 annotators), the site built
from it and the agreement page opened in headless Chromium at 1440 px. A change is set as a reader
sets it (scrolled into view, then the control's value, then its input event) and timed on the page's clock from the event to
the last DOM change before 700 ms of quiet (the worker's status line and the Reliability section left
out), charts included. *ready*: after the worker has computed every neighbour of the starting view
ahead, one change after another, each undone before the next; *not ready*: on a fresh open, the
change made as soon as the rows are read, while the worker is just starting to compute ahead (the
page says "Computing these options…" at once, and the time includes the worker finishing the view
it is on). Median of ${repeat}.

| episodes | step | ready (ms) | not ready (ms) | ready ≤ ${GOAL_MS} ms |
| ---: | --- | ---: | ---: | :---: |
${lines.join("\n")}
`;
}

function section(results: readonly Row[], loads: readonly string[], repeat: number): string {
  const fmt = (n: number) => n.toLocaleString("en-US");
  const ms = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
  const lines = results.map((r) => {
    // Under a millisecond the worker only looks the answer up: a ratio would measure the timer.
    const ratio = r.oldMs === null ? "" : r.newMs === 0 ? "no work" : r.newMs < 1 ? "lookup" : `${(r.oldMs / r.newMs).toFixed(0)}×`;
    const goal = r.aheadMs === null ? "" : `${r.aheadMs <= GOAL_MS ? "yes" : "no"} / ${r.newMs <= GOAL_MS ? "yes" : "no"} / ${r.newCpuMs !== null && r.newCpuMs <= GOAL_MS ? "yes" : "no"}`;
    return `| ${fmt(r.episodes)} | ${fmt(r.instances)} | ${fmt(r.rows)} | ${r.step} | ${r.oldMs === null ? "" : ms(r.oldMs)} | ${ms(r.newMs)} | ${r.newCpuMs === null ? "" : ms(r.newCpuMs)} | ${ratio} | ${r.aheadMs === null ? "" : r.aheadMs.toFixed(2)} | ${goal} |`;
  });
  // Sections join with "\n": no spread over the sizes.
  const sizes = Array.from(new Set(results.map((r) => r.episodes))).join(",");
  return `## Agreement page: a reactive change at 100k multiply-rated episodes

${new Date().toISOString().slice(0, 10)} · ${machine()} · load average (1 min) when each size started: ${loads.join("; ")}

### The worker's computation, in Node

The computations behind one view of the evaluator agreement page, in Node, on synthetic columns
(\`syntheticColumns\` in \`bench/agreement-page.ts\`: 14 instances per episode, a judge on all, a
second LLM on half, two or three of 40 annotators per episode). *old*: the library on one object
per score, as the page ran it on its main thread before (a change of k or basis re-ran
\`agreementTable\`, a change of rater \`pairInstances\` too), run once. *on request*:
\`AgreementEngine\` over typed arrays as the page's worker runs it, each change on a fresh engine
that has computed only the starting view (the worker right after reading the rows). *computed
ahead*: the same change once the engine has computed ahead every neighbour of the starting view
(\`AgreementEngine.neighbours\`: the other basis, the raters next to A and B in the menus, every k,
every other rater B, every other rater A), which the
worker does between requests, one small step per turn (\`AgreementEngine.prefetchStep\`: the
annotators' scores, a rater's, the pairing, its sums, correlations, ranges, kappa, within-one-sd
counts, histograms), posting each view it finishes to the page: the change is then a lookup (and on
the page no round trip at all); a request that arrives meanwhile waits for the step under way, at
most the *longest step* row. *CPU*: the process's user + system time for the same change, which a
high load average does not inflate as it does wall time. Median of ${repeat}. Goal: ≤ ${GOAL_MS} ms
per change at 100k. Numbers are equal to the library's to the last bit
(\`test/client/agreement-engine.test.ts\`).

| episodes | instances | scores | step | old (ms) | on request (ms) | on request, CPU (ms) | old / on request | computed ahead (ms) | ≤ ${GOAL_MS} ms (ahead / on request / its CPU) |
| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | :---: |
${lines.join("\n")}

Reproduce: \`npm run bench -- agreement-page --sizes ${sizes} --dir /tmp/agreereact\` (the stores are built once under \`--dir\` and kept).
`;
}

// ---------------------------------------------------------------------------
// The page itself, in Chromium: from the input event to the updated DOM.

/** One input a reader changes: the control's label, and what to set it to. */
type PageInput =
  | {select: string; option: string}
  | {number: string; value: number}
  | {radio: string; option: number};

interface PageChange {
  name: string;
  input: PageInput;
  /** Its inverse, to come back to the starting view before the next change. */
  back: PageInput;
}

/** The changes timed on the page, each from the starting view (gpt-4 against the humans, k = 5, sd of the dimension). */
const PAGE_CHANGES: PageChange[] = [
  {name: "k 5 → 3", input: {number: "Kappa bins k", value: 3}, back: {number: "Kappa bins k", value: 5}},
  {name: "basis → annotators", input: {radio: "Spread basis", option: 1}, back: {radio: "Spread basis", option: 0}},
  {name: "A → second LLM", input: {select: "Rater A", option: "llama-3-70b"}, back: {select: "Rater A", option: "gpt-4"}},
  {name: "A → an annotator", input: {select: "Rater A", option: "annotator-"}, back: {select: "Rater A", option: "gpt-4"}},
  {name: "B → second LLM", input: {select: "Rater B", option: "llama-3-70b"}, back: {select: "Rater B", option: "mean of human annotators"}},
  {name: "B → an annotator", input: {select: "Rater B", option: "annotator-"}, back: {select: "Rater B", option: "mean of human annotators"}},
  {name: "histogram dimension → GOAL", input: {select: "Dimension", option: "Goal"}, back: {select: "Dimension", option: "All dimensions"}},
];

// The two scripts that run in the page are text: tsx would wrap functions written here in a
// helper (__name) that the page does not have.

/**
 * Times of the page's DOM changes, but for those of the status line (which
 * counts the worker's progress) and of the Reliability section (whose point
 * estimates arrive on their own schedule), and of the first view's mark.
 */
const WATCH = `(() => {
  const w = window;
  w.__agree = {last: 0};
  const aside = "[data-testid=agreement-progress], [data-testid^=reliability], [data-testid=trust-by-reliability], [data-testid=bland-altman-note]";
  const inAside = (node) => (node instanceof Element ? node : node.parentElement)?.closest(aside) != null;
  // A cell's new or old output: aside when it is (or holds) one of those, or the bootstrap's button.
  const isAside = (node) => inAside(node) || (node instanceof Element && (node.querySelector(aside) !== null || /^Compute intervals/.test(node.querySelector("button")?.textContent ?? "")));
  new MutationObserver((records) => {
    const now = performance.now();
    if (w.__agree.firstView === undefined && document.querySelector("[data-first-view]")) w.__agree.firstView = now;
    // When the page last said "Computing…", and when that line last went blank after it: the worker's answer drawn.
    const computing = document.querySelector("[data-testid=agreement-computing]")?.textContent ?? "";
    if (computing !== "") w.__agree.computing = now;
    else if (w.__agree.computing !== undefined && (w.__agree.answered ?? 0) < w.__agree.computing) w.__agree.answered = now;
    for (const r of records) {
      if (inAside(r.target)) continue;
      const nodes = Array.from(r.addedNodes).concat(Array.from(r.removedNodes));
      if (nodes.length > 0 && nodes.every(isAside)) continue;
      w.__agree.last = now;
      // What changed last, for the log of a slow change: a change's time ends at the last DOM change not set aside above.
      w.__agree.lastChange = (r.target.outerHTML ?? "").slice(0, 120) + " gained " + Array.from(r.addedNodes).map((n) => (n.outerHTML ?? n.textContent ?? "").slice(0, 120)).join(" | ");
      return;
    }
  }).observe(document, {childList: true, subtree: true, characterData: true});
})();`;

/** A ready change (a lookup) slower than this gets its last DOM change logged: it has been another section's output, not the change's. */
const SLOW_READY_MS = 300;

/** Sets an input as a reader would (value, then an input event) and returns the event's time on the page's clock. */
const SET_INPUT = `(input) => {
  const name = input.select ?? input.number ?? input.radio;
  const form = Array.from(document.querySelectorAll("#observablehq-main form")).find((f) => (f.querySelector("label")?.textContent?.trim() ?? "") === name);
  if (!form) throw new Error("no input labelled " + JSON.stringify(input));
  let target;
  if (input.select !== undefined) {
    target = form.querySelector("select");
    const option = Array.from(target.options).find((o) => o.textContent.startsWith(input.option));
    if (!option) throw new Error("no option " + input.option + " in " + input.select);
    target.value = option.value;
  } else if (input.number !== undefined) {
    target = form.querySelector("input[type=number]");
    target.value = String(input.value);
  } else {
    target = form.querySelectorAll("input[type=radio]")[input.option];
    target.checked = true;
  }
  const at = performance.now();
  target.dispatchEvent(new Event("input", {bubbles: true}));
  return at;
}`;

/**
 * Brings the input's control into view as a reader's scroll would (the page
 * holds the updates of charts away from the view until they come near), and
 * lets two frames pass before the change, as a reader's click comes after.
 */
const SCROLL_TO_INPUT = `(input) => {
  const name = input.select ?? input.number ?? input.radio;
  const form = Array.from(document.querySelectorAll("#observablehq-main form")).find((f) => (f.querySelector("label")?.textContent?.trim() ?? "") === name);
  if (!form) throw new Error("no input labelled " + JSON.stringify(input));
  form.scrollIntoView({block: "nearest"});
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}`;

async function setInput(page: Page, input: PageInput): Promise<number> {
  await page.evaluate(`(${SCROLL_TO_INPUT})(${JSON.stringify(input)})`);
  return page.evaluate(`(${SET_INPUT})(${JSON.stringify(input)})`) as Promise<number>;
}

/** The time from `at` to the page's last DOM change before `quietMs` of no change (the status line aside). */
async function untilQuiet(page: Page, at: number, quietMs: number): Promise<number> {
  // Not ready, the page says "Computing…" at once and then nothing until the worker answers: if it said so, wait for the answer first.
  const said = await page.waitForFunction((t) => ((window as unknown as {__agree: {computing?: number}}).__agree.computing ?? 0) > t, at, {timeout: 1000, polling: 10}).then(() => true, () => false);
  if (said) await page.waitForFunction((t) => ((window as unknown as {__agree: {answered?: number}}).__agree.answered ?? 0) > t, at, {timeout: 10 * 60_000, polling: 20});
  for (;;) {
    await page.waitForTimeout(100);
    const {last, now} = await page.evaluate(() => ({last: (window as unknown as {__agree: {last: number}}).__agree.last, now: performance.now()}));
    if (now - Math.max(last, at) >= quietMs) return Math.max(0, last - at);
  }
}

const aheadState = (page: Page) => page.getByTestId("agreement-progress").getAttribute("data-ahead");

/** Waits until the worker has read the rows; with `allAhead`, until it has also computed every neighbour of the current options. */
async function waitForWorker(page: Page, allAhead: boolean): Promise<void> {
  await page.waitForFunction((all) => {
    const line = document.querySelector<HTMLElement>("[data-testid=agreement-progress]");
    const ahead = line?.dataset.ahead;
    if (!ahead) return false;
    const [done, total] = ahead.split("/").map(Number);
    return !all || done === total;
  }, allAhead, {timeout: 30 * 60_000, polling: 200});
}

interface PageRun {
  firstView: number[];
  /** Per change: after the worker computed ahead (ready) and right after the rows were read (not ready yet). */
  ready: Map<string, number[]>;
  notReady: Map<string, number[]>;
  /** From the rows read to every neighbour of the starting view computed. */
  aheadMs: number[];
}

/** Opens the built page `repeat` times for the ready case (one open, every change in turn) and once per change and round for the not-ready case. */
export async function measurePage(dist: string, repeat: number, log: (m: string) => void): Promise<PageRun> {
  const server = await serveStatic(dist);
  const browser = await launchBrowser();
  const run: PageRun = {firstView: [], ready: new Map(PAGE_CHANGES.map((c) => [c.name, []])), notReady: new Map(PAGE_CHANGES.map((c) => [c.name, []])), aheadMs: []};
  const open = async (): Promise<Page> => {
    const context = await browser.newContext({viewport: {width: 1440, height: 900}});
    const page = await context.newPage();
    await page.addInitScript({content: WATCH});
    await page.goto(`${server.origin}/agreement`);
    await page.waitForSelector("[data-first-view]", {timeout: 600_000});
    run.firstView.push(await page.evaluate(() => (window as unknown as {__agree: {firstView: number}}).__agree.firstView));
    return page;
  };
  try {
    for (let round = 0; round < repeat; round++) {
      const page = await open();
      await waitForWorker(page, false);
      const started = Date.now();
      await waitForWorker(page, true);
      run.aheadMs.push(Date.now() - started);
      for (const change of PAGE_CHANGES) {
        const at = await setInput(page, change.input);
        run.ready.get(change.name)!.push(await untilQuiet(page, at, 700));
        const took = run.ready.get(change.name)!.at(-1)!;
        if (took > SLOW_READY_MS) log(`agreement-page (browser): ready ${change.name} took ${took.toFixed(0)} ms; the last DOM change: ${await page.evaluate(() => (window as unknown as {__agree: {lastChange?: string}}).__agree.lastChange ?? "none")}`);
        await setInput(page, change.back);
        await untilQuiet(page, at, 700);
        await waitForWorker(page, true);
      }
      log(`agreement-page (browser): round ${round + 1}: first view ${run.firstView.at(-1)!.toFixed(0)} ms, ahead ${run.aheadMs.at(-1)} ms, ready ` +
        PAGE_CHANGES.map((c) => `${c.name} ${run.ready.get(c.name)!.at(-1)!.toFixed(0)}`).join(", "));
      await page.context().close();
      for (const change of PAGE_CHANGES) {
        const fresh = await open();
        await waitForWorker(fresh, false);
        const at = await setInput(fresh, change.input);
        run.notReady.get(change.name)!.push(await untilQuiet(fresh, at, 700));
        // The worker may have computed this change ahead between its first "ahead" message and the change: said here.
        const onRequest = await fresh.evaluate((t) => ((window as unknown as {__agree: {computing?: number}}).__agree.computing ?? 0) > t, at);
        log(`agreement-page (browser): not ready: ${change.name} ${run.notReady.get(change.name)!.at(-1)!.toFixed(0)} ms (${onRequest ? "computed on request" : "computed ahead by then"}; ${await aheadState(fresh)} ahead after it)`);
        await fresh.context().close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return run;
}
