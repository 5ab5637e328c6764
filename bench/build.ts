// `npm run bench -- build`: builds the site from the samples store and from
// stores of synthetic SOTOPIA episodes (the pages benchmark's, with human
// ratings on one episode in ten), then builds it again with the store
// unchanged. Reports the build's wall time, each data loader's wall time and
// peak RSS (from bench/loader-probe.mjs, loaded into every process of the
// build), the built site's size and the files that grow with the store.
// Baseline: the samples store's build in the same run.
//
//   npm run bench -- build [--sizes 100000] [--dir /tmp/x] [--keep]     (BENCH_BUILD_PER_LOADER=0: shared builds only)
//
// Stores are cached in --dir as build-store-N.duckdb and reused by later runs
// (delete them after changing the importer). Size 0 is the samples alone.

import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from "node:fs";
import {loadavg} from "node:os";
import {basename, join, relative} from "node:path";
import {pathToFileURL} from "node:url";
import {makeStore} from "./pages.js";
import {buildSite, runNpx} from "../test/browser/helpers.js";
import {REPO, machine, mb, measureInChild, reportFromChild, type BenchContext, type Measurement} from "./run.js";

const BUILD_TIMEOUT_MS = 60 * 60_000;
const PROBE = pathToFileURL(join(REPO, "bench", "loader-probe.mjs")).href;
/** How many loaders, and dist files, each table lists. */
const TOP = 10;

interface ProcessLine {
  script: string;
  seconds: number;
  peakRss: number;
}

interface BuildRun {
  seconds: number;
  /** Data loaders that ran, slowest first: a process each, or src/data/run-loaders.ts's lines (peak RSS: each loader's own, from its line). */
  loaders: ProcessLine[];
  /** Peak RSS of Framework's own process. */
  frameworkRss: number;
  load: number;
  /** Why the build failed, or null. */
  failed?: string | null;
}

/** Loaders per process or all in one (SOCIOMETER_SHARED_LOADERS). */
type Mode = "shared" | "per-loader";

interface SizeResult {
  episodes: number;
  store: Measurement & {bytes: number};
  /** The build with the loaders in one process (the default). */
  cold: BuildRun;
  /** The same build with a process per loader, as Framework runs them; null when a size passes 100k. */
  perLoader: BuildRun | null;
  warm: BuildRun;
  distBytes: number;
  /** Size of every dist file, by path inside dist. */
  files: Map<string, number>;
}

/** Builds (or rebuilds, when `project` already holds one) with every process probed. */
async function probedBuild(run: () => Promise<{log: string} | {stdout: string; stderr: string}>, log: string): Promise<BuildRun> {
  rmSync(log, {force: true});
  const load = loadavg()[0];
  const start = performance.now();
  const result = await run();
  const seconds = (performance.now() - start) / 1000;
  const lines = existsSync(log)
    ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as ProcessLine)
    : [];
  const runner = lines.find((l) => l.script.endsWith("/src/data/run-loaders.ts"));
  // The shared process is no loader: its loaders come from its log below.
  const loaders = lines.filter((l) => l.script.includes(`/src/data/`) && l !== runner);
  const text = "log" in result ? result.log : result.stdout + result.stderr;
  for (const [, output, time, peak] of text.matchAll(/^run-loaders: (\S+) done in ([\d.]+) s(?:, peak RSS ([\d.]+) GiB)?/gm)) {
    // Each loader's own peak where run-loaders could restart the count (Linux), else the whole process's.
    loaders.push({script: `/src/${output}`, seconds: Number(time), peakRss: peak ? Number(peak) * 2 ** 30 : runner?.peakRss ?? 0});
  }
  loaders.sort((a, b) => b.seconds - a.seconds);
  const framework = lines.filter((l) => l.script.endsWith("/observable") || l.script.includes("@observablehq/framework"));
  return {seconds, loaders, frameworkRss: framework.reduce((m, l) => Math.max(m, l.peakRss), 0), load};
}

function distFiles(dist: string): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      // Framework names a file attachment by its content hash: without it, the samples' file and the large store's match.
      else files.set(relative(dist, path).replace(/\.[0-9a-f]{8}(\.[a-z]+)$/, "$1"), statSync(path).size);
    }
  };
  walk(dist);
  return files;
}

async function measureSize(context: BenchContext, episodes: number, withPerLoader: boolean): Promise<SizeResult> {
  mkdirSync(context.dir, {recursive: true});
  const storePath = join(context.dir, `build-store-${episodes}.duckdb`);
  const storeMeta = `${storePath}.json`;
  let store: Measurement;
  if (existsSync(storePath) && existsSync(storeMeta)) {
    store = JSON.parse(readFileSync(storeMeta, "utf8")) as Measurement;
    context.log(`build: reusing ${basename(storePath)}`);
  } else {
    context.log(`build: making the store of ${episodes.toLocaleString("en-US")} episodes`);
    rmSync(storePath, {force: true});
    store = await measureInChild("bench/build.ts", ["make-store", storePath, String(episodes), context.dir]);
    writeFileSync(storeMeta, JSON.stringify(store));
  }
  const probeLog = join(context.dir, `build-${episodes}-processes.jsonl`);
  const cold = async (mode: Mode) => {
    const work = join(context.dir, `build-${episodes}-${mode}`);
    rmSync(work, {recursive: true, force: true});
    const env = {NODE_OPTIONS: `--import ${PROBE}`, SOCIOMETER_LOADER_PROBE: probeLog, SOCIOMETER_SHARED_LOADERS: mode === "shared" ? "1" : "0"};
    context.log(`build: building ${label(episodes)}, loaders ${mode}`);
    let dist = "";
    let failed: string | null = null;
    const run = await probedBuild(async () => {
      try {
        const built = await buildSite(storePath, work, env, BUILD_TIMEOUT_MS);
        dist = built.dist;
        return built;
      } catch (e) {
        // Reported with what did run: the loaders before the failure still say where the time went.
        const message = e instanceof Error ? e.message : String(e);
        failed = /Out of Memory Error[^\n]*|loader exited with code \d+/.exec(message)?.[0] ?? message.slice(-300);
        context.log(`build: ${label(episodes)} (${mode}) failed: ${failed}`);
        return {log: message};
      }
    }, probeLog);
    run.failed = failed;
    return {run, work, dist, env};
  };
  const perLoader = withPerLoader ? await cold("per-loader") : null;
  if (perLoader && !context.keep) rmSync(perLoader.work, {recursive: true, force: true});
  const shared = await cold("shared");
  context.log(`build: rebuilding ${label(episodes)} with the store unchanged`);
  const warm = shared.run.failed ? shared.run : await probedBuild(
    () => runNpx(["observable", "build"], {cwd: join(shared.work, "project"), env: {SOCIOMETER_DB: storePath, ...shared.env}, timeoutMs: BUILD_TIMEOUT_MS}),
    probeLog,
  );
  const files = shared.dist ? distFiles(shared.dist) : new Map<string, number>();
  let distBytes = 0;
  for (const n of files.values()) distBytes += n;
  if (!context.keep) rmSync(shared.work, {recursive: true, force: true});
  return {episodes, store: {...store, bytes: statSync(storePath).size}, cold: shared.run, perLoader: perLoader?.run ?? null, warm, distBytes, files};
}

/**
 * Framework alone: a site of one static page, no data loader and no store,
 * built the same way. What an unchanged-store rebuild cannot go below.
 */
async function minimalSiteBuild(context: BenchContext): Promise<{seconds: number; load: number}> {
  const project = join(context.dir, "build-minimal", "project");
  rmSync(join(context.dir, "build-minimal"), {recursive: true, force: true});
  mkdirSync(join(project, "src"), {recursive: true});
  writeFileSync(join(project, "src", "index.md"), "# One page\n\nNo data: Framework's own cost of a build.\n");
  // The npm look-ups are stubbed as in the site's config, so the build needs no network either.
  writeFileSync(join(project, "observablehq.config.ts"), [
    `import {stubNpmLookups} from ${JSON.stringify(join(REPO, "src", "data", "site-cache.js"))};`,
    `stubNpmLookups("src/.observablehq/cache");`,
    `export default {root: "src", title: "One page", globalStylesheets: [], duckdb: {extensions: {json: null, parquet: null}}, search: false, preserveExtension: true};`,
  ].join("\n"));
  writeFileSync(join(project, "package.json"), JSON.stringify({type: "module", private: true}));
  symlinkSync(join(REPO, "node_modules"), join(project, "node_modules"), "dir");
  const load = loadavg()[0];
  const start = performance.now();
  await runNpx(["observable", "build"], {cwd: project, timeoutMs: BUILD_TIMEOUT_MS});
  const seconds = (performance.now() - start) / 1000;
  if (!context.keep) rmSync(join(context.dir, "build-minimal"), {recursive: true, force: true});
  return {seconds, load};
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
const s = (seconds: number) => `${seconds.toFixed(1)} s`;
const label = (n: number) => (n === 0 ? "samples" : `${n.toLocaleString("en-US")} episodes`);
const loaderName = (script: string) => script.slice(script.lastIndexOf("/src/data/") + "/src/data/".length);

function report(results: SizeResult[], minimal: {seconds: number; load: number}): string {
  const base = results[0];
  const maxRss = (run: BuildRun) => run.loaders.reduce((m, l) => Math.max(m, l.peakRss), 0);
  const out = [
    `Build of the site (\`observable build\` in a copy of the project) per store. *shared*: the loaders run in one process before Framework's build (src/data/run-loaders.ts, the default); *per loader*: a process per loader, as Framework runs them (SOCIOMETER_SHARED_LOADERS=0); *unchanged*: the shared build again with the store unchanged. Ratios against the samples' shared build. ${machine()}.`,
    "",
    "| store | store size | import | import peak RSS | build, per loader | build, shared | vs samples | unchanged rebuild | loaders run (unchanged) | loader peak RSS (max) | Framework RSS | dist | load (1 min) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  const failures = results.flatMap((r) => [r.perLoader, r.cold].filter((b) => b?.failed).map((b) => `${label(r.episodes)}: ${b === r.cold ? "shared" : "per loader"} build failed (${b!.failed})`));
  for (const r of results) {
    out.push(
      `| ${label(r.episodes)} | ${mb(r.store.bytes)} | ${s(r.store.seconds)} | ${gb(r.store.peakRss)} | ${r.perLoader ? s(r.perLoader.seconds) : "—"} | ${s(r.cold.seconds)} | ` +
        `${(r.cold.seconds / base.cold.seconds).toFixed(2)}× | ${s(r.warm.seconds)} | ${r.cold.loaders.length} (${r.warm.loaders.length}) | ` +
        `${gb(Math.max(maxRss(r.cold), r.perLoader ? maxRss(r.perLoader) : 0))} | ${gb(r.cold.frameworkRss)} | ${mb(r.distBytes)} | ` +
        `${[r.perLoader?.load, r.cold.load, r.warm.load].filter((x) => x !== undefined).map((x) => x!.toFixed(2)).join(" / ")} |`,
    );
  }
  out.push("", `Framework alone, a one-page site with no data loader built in the same run: ${s(minimal.seconds)} (load ${minimal.load.toFixed(2)}); an unchanged rebuild runs no loader and copies no store, so the rest of its time is Framework's work on the site's pages, modules and files.`);
  if (failures.length) out.push("", ...failures.map((f) => `- ${f}; the times above are up to the failure.`));
  for (const r of results) {
    const run = r.perLoader ?? r.cold;
    const total = run.loaders.reduce((sum, l) => sum + l.seconds, 0);
    const how = r.perLoader ? "a process per loader: wall time and peak RSS of each" : "all in one process: wall time and peak RSS of each (the process's peak count restarted before each loader)";
    out.push("", `Slowest ${TOP} loaders, ${label(r.episodes)}, ${how} (all ${run.loaders.length}: ${s(total)}, one after another):`, "");
    out.push("| loader | wall | peak RSS |", "| --- | ---: | ---: |");
    for (const l of run.loaders.slice(0, TOP)) out.push(`| ${loaderName(l.script)} | ${s(l.seconds)} | ${gb(l.peakRss)} |`);
  }
  const largest = results.at(-1)!;
  if (largest !== base) {
    out.push("", `Largest dist files at ${label(largest.episodes)}, against the samples build (a file that grows with the store must not be fetched whole before a page's first chart):`, "");
    out.push(`| file | samples | ${label(largest.episodes)} | growth |`, "| --- | ---: | ---: | ---: |");
    const ranked = Array.from(largest.files.entries()).sort((a, b) => b[1] - a[1]).slice(0, TOP);
    for (const [file, bytes] of ranked) {
      const before = base.files.get(file);
      out.push(`| ${file} | ${before === undefined ? "—" : mb(before)} | ${mb(bytes)} | ${before ? `${(bytes / before).toFixed(1)}×` : "—"} |`);
    }
  }
  return out.join("\n");
}

export async function run(context: BenchContext): Promise<string> {
  const sizes = [0, ...(context.sizes.length ? context.sizes : [100_000]).filter((n) => n > 0)];
  const results: SizeResult[] = [];
  // One process per loader is Framework's own way: measured when no size passes 100k, where a build is minutes,
  // unless BENCH_BUILD_PER_LOADER=0 (on a busy machine it doubles the run and was measured before).
  const withPerLoader = sizes.every((n) => n <= 100_000) && process.env.BENCH_BUILD_PER_LOADER !== "0";
  for (const n of sizes) results.push(await measureSize(context, n, withPerLoader));
  context.log("build: building a one-page site (Framework alone)");
  return report(results, await minimalSiteBuild(context));
}

// Child mode: make one store and report the import's time and peak RSS.
if (process.argv[2] === "make-store") {
  const [path, n, dir] = process.argv.slice(3);
  const start = performance.now();
  await makeStore(path!, dir!, Number(n), (m) => process.stderr.write(`[bench] ${m}\n`));
  reportFromChild((performance.now() - start) / 1000);
}
