// `npm run bench -- build`: builds the site the way `npm run build` does
// (scripts/build.ts in a copy of the project) from the samples store and from
// a store of synthetic SOTOPIA episodes (the pages benchmark's, with human
// ratings on one episode in ten), then rebuilds it four ways: nothing changed
// (dist/ reused), nothing changed but forced (Framework's own page work, no
// loader), one page's source changed, and the store changed. Reports wall and
// CPU seconds (this process's waited-for children), each data loader's wall
// time and peak RSS (bench/loader-probe.mjs, loaded into every process), the
// site's size and the files that grow with the store. Baseline: Framework
// building a one-page site in the same run.
//
//   npm run bench -- build [--sizes 100000] [--dir /tmp/x] [--keep]
//
// Stores are cached in --dir as build-store-N.duckdb and reused by later runs
// (delete them after changing the importer; a copied store may stand in, with
// a build-store-N.duckdb.json of {"copiedFrom": PATH}). Size 0 is the samples alone.

import {copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, appendFileSync} from "node:fs";
import {loadavg} from "node:os";
import {basename, join, relative, sep} from "node:path";
import {pathToFileURL} from "node:url";
import {makeStore} from "./pages-store.js";
import {runNpx} from "../test/browser/helpers.js";
import {REPO, machine, mb, measureInChild, reportFromChild, type BenchContext, type Measurement} from "./helpers.js";

const BUILD_TIMEOUT_MS = 60 * 60_000;
const PROBE = pathToFileURL(join(REPO, "bench", "loader-probe.mjs")).href;
/** How many loaders, and dist files, each table lists. */
const TOP = 10;
/** The page whose source the "one page changed" rebuild edits. */
const EDITED_PAGE = join("src", "audit.md");

interface ProcessLine {
  script: string;
  seconds: number;
  peakRss: number;
}

interface BuildRun {
  seconds: number;
  /** CPU seconds of every process the build started (user + system). */
  cpuSeconds: number;
  /** Data loaders that ran, slowest first (src/data/run-loaders.ts's lines; peak RSS: each loader's own). */
  loaders: ProcessLine[];
  /** Peak RSS of Framework's own process, 0 when it did not run. */
  frameworkRss: number;
  load: number;
  /** What scripts/build.ts said it did (its "build:" lines). */
  said: string;
}

/** The kinds of build measured per store, in the order they run. */
const KINDS = ["first", "unchanged", "forced", "page", "store"] as const;
type Kind = (typeof KINDS)[number];

interface SizeResult {
  episodes: number;
  store: Partial<Measurement> & {bytes: number; copiedFrom?: string};
  builds: Record<Kind, BuildRun>;
  distBytes: number;
  /** Size of every dist file, by path inside dist. */
  files: Map<string, number>;
}

/** CPU seconds this process's waited-for children used so far (Linux /proc; 0 elsewhere). */
function childrenCpuSeconds(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ");
    // cutime and cstime are fields 16 and 17 of stat, 14 and 15 after the command; in clock ticks (100 a second on Linux).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

/** A copy of the project as `npm run build` sees it: sources and config copied, code and packages linked. */
function makeProject(work: string): string {
  const project = join(work, "project");
  rmSync(work, {recursive: true, force: true});
  mkdirSync(project, {recursive: true});
  cpSync(join(REPO, "src"), join(project, "src"), {recursive: true, filter: (from) => !from.includes(`${sep}.observablehq`)});
  for (const file of ["observablehq.config.ts", "package.json", "package-lock.json", "tsconfig.json"]) copyFileSync(join(REPO, file), join(project, file));
  for (const dir of ["node_modules", "loaders", "scripts"]) symlinkSync(join(REPO, dir), join(project, dir), "dir");
  return project;
}

/** Runs scripts/build.ts in `project` with every process probed. */
async function probedBuild(project: string, env: Record<string, string>, log: string, args: string[] = []): Promise<BuildRun> {
  rmSync(log, {force: true});
  const load = loadavg()[0];
  const cpuBefore = childrenCpuSeconds();
  const start = performance.now();
  const {stdout, stderr} = await runNpx(["tsx", "scripts/build.ts", ...args], {cwd: project, env, timeoutMs: BUILD_TIMEOUT_MS});
  const seconds = (performance.now() - start) / 1000;
  const cpuSeconds = childrenCpuSeconds() - cpuBefore;
  const lines = existsSync(log)
    ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as ProcessLine)
    : [];
  const text = stdout + stderr;
  const loaders: ProcessLine[] = [];
  for (const [, output, time, peak] of text.matchAll(/^run-loaders: (\S+) done in ([\d.]+) s(?:, [\d.]+ CPU-s)?(?:, peak RSS ([\d.]+) GiB)?/gm)) {
    loaders.push({script: `/src/${output}`, seconds: Number(time), peakRss: Number(peak ?? 0) * 2 ** 30});
  }
  loaders.sort((a, b) => b.seconds - a.seconds);
  const framework = lines.filter((l) => l.script.endsWith("/observable") || l.script.includes("@observablehq/framework"));
  const said = Array.from(text.matchAll(/^build: (.*)$/gm), (m) => m[1]!).join("; ");
  return {seconds, cpuSeconds, loaders, frameworkRss: framework.reduce((m, l) => Math.max(m, l.peakRss), 0), load, said};
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

async function measureSize(context: BenchContext, episodes: number): Promise<SizeResult> {
  mkdirSync(context.dir, {recursive: true});
  const storePath = join(context.dir, `build-store-${episodes}.duckdb`);
  const storeMeta = `${storePath}.json`;
  let store: Partial<Measurement> & {copiedFrom?: string};
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
  const work = join(context.dir, `build-${episodes}`);
  const project = makeProject(work);
  const env = {NODE_OPTIONS: `--import ${PROBE}`, SOCIOMETER_LOADER_PROBE: probeLog, SOCIOMETER_DB: storePath};
  const step = async (kind: Kind, what: string, args: string[] = [], runEnv = env) => {
    context.log(`build: ${label(episodes)}: ${what}`);
    const run = await probedBuild(project, runEnv, probeLog, args);
    context.log(`build: ${label(episodes)}: ${kind} ${run.seconds.toFixed(1)} s (${run.cpuSeconds.toFixed(1)} CPU-s, load ${run.load.toFixed(2)}): ${run.said}`);
    return run;
  };
  const first = await step("first", "first build");
  const files = distFiles(join(project, "dist"));
  const unchanged = await step("unchanged", "rebuild, nothing changed");
  const forced = await step("forced", "rebuild, nothing changed, --force", ["--force"]);
  appendFileSync(join(project, EDITED_PAGE), "\n<!-- bench: this page's source changed -->\n");
  const page = await step("page", `rebuild after ${EDITED_PAGE} changed`);
  // The store changed as an import changes it (a new fingerprint), without writing to the measured store.
  const changedStore = join(context.dir, `build-store-${episodes}-changed.duckdb`);
  copyFileSync(storePath, changedStore);
  const storeRun = await step("store", "rebuild after the store changed", [], {...env, SOCIOMETER_DB: changedStore});
  rmSync(changedStore, {force: true});
  let distBytes = 0;
  for (const n of files.values()) distBytes += n;
  if (!context.keep) rmSync(work, {recursive: true, force: true});
  return {episodes, store: {...store, bytes: statSync(storePath).size}, builds: {first, unchanged, forced, page, store: storeRun}, distBytes, files};
}

/**
 * Framework alone: a site of one static page, no data loader and no store,
 * built the same way. What an unchanged-store rebuild cannot go below.
 */
async function minimalSiteBuild(context: BenchContext): Promise<{seconds: number; cpuSeconds: number; load: number}> {
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
  const cpuBefore = childrenCpuSeconds();
  const start = performance.now();
  await runNpx(["observable", "build"], {cwd: project, timeoutMs: BUILD_TIMEOUT_MS});
  const seconds = (performance.now() - start) / 1000;
  const cpuSeconds = childrenCpuSeconds() - cpuBefore;
  if (!context.keep) rmSync(join(context.dir, "build-minimal"), {recursive: true, force: true});
  return {seconds, cpuSeconds, load};
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
const s = (seconds: number) => `${seconds.toFixed(1)} s`;
const label = (n: number) => (n === 0 ? "samples" : `${n.toLocaleString("en-US")} episodes`);
const loaderName = (script: string) => script.slice(script.lastIndexOf("/src/data/") + "/src/data/".length);

const KIND_HEADINGS: Record<Kind, string> = {
  first: "first build",
  unchanged: "nothing changed",
  forced: "nothing changed, `--force`",
  page: "one page changed",
  store: "store changed",
};

function report(results: SizeResult[], minimal: {seconds: number; cpuSeconds: number; load: number}): string {
  const maxRss = (run: BuildRun) => run.loaders.reduce((m, l) => Math.max(m, l.peakRss), 0);
  const out = [
    `\`npm run build\` (scripts/build.ts, in a copy of the project) per store: the first build, then rebuilds with nothing changed (dist/ reused), nothing changed but \`--force\` (Framework's own page work; no loader runs), after one page's source changed (\`${EDITED_PAGE}\`), and after the store changed (a copy of it: a new fingerprint, as an import gives). Each cell: wall time, CPU seconds of all its processes, and the ratio of its wall time to the baseline's: Framework building a one-page site in the same run, ${s(minimal.seconds)} (${minimal.cpuSeconds.toFixed(1)} CPU-s, load ${minimal.load.toFixed(2)}). ${machine()}.`,
    "",
    `| store | store size | import | ${KINDS.map((k) => KIND_HEADINGS[k]).join(" | ")} | loaders run (${KINDS.join(" / ")}) | loader peak RSS (max) | Framework RSS | dist | load (1 min, per build) |`,
    `| --- | ---: | ---: | ${KINDS.map(() => "---:").join(" | ")} | ---: | ---: | ---: | ---: | --- |`,
  ];
  for (const r of results) {
    const cells = KINDS.map((k) => {
      const b = r.builds[k];
      return `${s(b.seconds)}, ${b.cpuSeconds.toFixed(1)} CPU-s, ${(b.seconds / minimal.seconds).toFixed(2)}×`;
    });
    const imported = r.store.copiedFrom ? "copied" : r.store.seconds !== undefined ? s(r.store.seconds) : "—";
    out.push(
      `| ${label(r.episodes)} | ${mb(r.store.bytes)} | ${imported} | ${cells.join(" | ")} | ${KINDS.map((k) => r.builds[k].loaders.length).join(" / ")} | ` +
        `${gb(Math.max(maxRss(r.builds.first), maxRss(r.builds.store)))} | ${gb(r.builds.first.frameworkRss)} | ${mb(r.distBytes)} | ` +
        `${KINDS.map((k) => r.builds[k].load.toFixed(2)).join(" / ")} |`,
    );
  }
  out.push("", "What scripts/build.ts said for each rebuild:", "");
  for (const r of results) for (const k of KINDS.slice(1)) out.push(`- ${label(r.episodes)}, ${KIND_HEADINGS[k]}: ${r.builds[k].said.replace(/\|/g, "\\|")}`);
  for (const r of results) {
    const run = r.builds.first;
    const total = run.loaders.reduce((sum, l) => sum + l.seconds, 0);
    out.push("", `Slowest ${TOP} loaders of the first build, ${label(r.episodes)}, all in one process: wall time and peak RSS of each (the process's peak count restarted before each loader) (all ${run.loaders.length}: ${s(total)}, one after another):`, "");
    out.push("| loader | wall | peak RSS |", "| --- | ---: | ---: |");
    for (const l of run.loaders.slice(0, TOP)) out.push(`| ${loaderName(l.script)} | ${s(l.seconds)} | ${gb(l.peakRss)} |`);
  }
  const base = results[0];
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
  for (const n of sizes) results.push(await measureSize(context, n));
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
