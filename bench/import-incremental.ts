// Incremental import benchmark (section `import-incremental` of BENCHMARKS.md).
// Issue 18: importing N records into a store of M episodes should cost O(N),
// not O(M). For each store size M, builds a store of M synthetic SOTOPIA
// episodes (sample style), then measures, each on a fresh copy of that store
// and in a fresh child process (so peak RSS is one import's):
//   episodes  the bundled samples' 232 SOTOPIA episodes (`sotopia` format)
//   scores    then their 2,842 human scores (`sotopia-ratings`), into the store
//             that now holds those episodes too
// and reports each against the same import into the smallest store of the run.
// With --keep, the dumps and base stores stay in .bench/ and a later run reuses them.
//
// Child mode (used by the harness): tsx bench/import-incremental.ts --measure <format> <file> <db>

import {copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from "node:fs";
import {join, resolve} from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {importFiles} from "../loaders/import/session.js";
import {SAMPLE_IMPORTS} from "../loaders/samples.js";
import {openStore} from "../loaders/store/db.js";
import {writeSotopiaDump} from "./dump.js";
import {machine, mb, measureInChild, reportFromChild, type BenchContext, type Measurement} from "./helpers.js";

const DEFAULT_SIZES = [10_000, 100_000];
const SEED = "bench-import-incremental";
/** Goal (issue 18): the same import into the largest store within this factor of the smallest. */
const GOAL = 2;

const sample = (format: string): string => SAMPLE_IMPORTS.find((s) => s.format === format)!.path;
const STEPS = [
  {name: "episodes", format: "sotopia", label: "232 sample episodes (`sotopia`)"},
  {name: "scores", format: "sotopia-ratings", label: "2,842 sample human scores (`sotopia-ratings`)"},
] as const;
type Step = (typeof STEPS)[number]["name"];

interface SizeResult {
  m: number;
  build: Measurement;
  steps: Record<Step, Measurement>;
}

/** Writes `m` sample-style synthetic episodes to `file`, streaming. */
async function writeDump(file: string, m: number): Promise<void> {
  await writeSotopiaDump(file, {seed: SEED, count: m});
}

const removeDb = (db: string): void => {
  for (const f of [db, `${db}.wal`]) rmSync(f, {force: true});
};

const median = (runs: Measurement[]): Measurement => {
  const sorted = runs.slice().sort((a, b) => a.seconds - b.seconds);
  let peakRss = 0;
  for (const r of sorted) peakRss = Math.max(peakRss, r.peakRss);
  return {...sorted[Math.floor((sorted.length - 1) / 2)]!, peakRss, runs: sorted.map((r) => r.seconds)};
};

/** Runs the benchmark at every size and returns the markdown section. */
export async function run(ctx: BenchContext): Promise<string> {
  const sizes = ctx.sizes.length ? ctx.sizes : DEFAULT_SIZES;
  mkdirSync(ctx.dir, {recursive: true});
  const script = fileURLToPath(import.meta.url);
  const builds = new Map<number, {base: string; dump: string; build: Measurement}>();
  for (const m of sizes) {
    const dump = join(ctx.dir, `incremental-dump-${m}.jsonl`);
    if (existsSync(dump)) ctx.log(`reusing ${dump}`);
    else await writeDump(dump, m);
    const base = join(ctx.dir, `incremental-base-${m}.duckdb`);
    const kept = join(ctx.dir, `incremental-base-${m}.json`);
    if (existsSync(base) && existsSync(kept)) {
      ctx.log(`reusing ${base} (kept by an earlier --keep run)`);
      builds.set(m, {base, dump, build: JSON.parse(readFileSync(kept, "utf8")) as Measurement});
      continue;
    }
    removeDb(base);
    ctx.log(`building a store of ${m.toLocaleString("en-US")} episodes (${mb(statSync(dump).size)})`);
    const build = await measureInChild(script, ["--measure", "sotopia", dump, base]);
    writeFileSync(kept, JSON.stringify(build));
    builds.set(m, {base, dump, build});
  }
  // Sizes take turns within each round, so a change in machine load hits all of them alike; the median round counts.
  const runs = new Map(sizes.map((m) => [m, {episodes: [] as Measurement[], scores: [] as Measurement[]}]));
  for (let round = 1; round <= ctx.repeat; round++) {
    for (const m of sizes) {
      const work = join(ctx.dir, `incremental-work-${m}.duckdb`);
      removeDb(work);
      copyFileSync(builds.get(m)!.base, work);
      for (const step of STEPS) {
        const r = await measureInChild(script, ["--measure", step.format, sample(step.format), work]);
        runs.get(m)![step.name].push(r);
        ctx.log(`${m.toLocaleString("en-US")}: ${step.name} run ${round}: ${r.seconds.toFixed(2)} s, peak RSS ${mb(r.peakRss)}`);
      }
      removeDb(work);
    }
  }
  const results: SizeResult[] = sizes.map((m) => {
    const {base, dump, build} = builds.get(m)!;
    if (!ctx.keep) {
      removeDb(base);
      rmSync(`${base.slice(0, -".duckdb".length)}.json`, {force: true});
      rmSync(dump, {force: true});
    }
    return {m, build, steps: {episodes: median(runs.get(m)!.episodes), scores: median(runs.get(m)!.scores)}};
  });
  return section(results, ctx.repeat);
}

function section(results: readonly SizeResult[], repeat: number): string {
  const fmt = (n: number) => n.toLocaleString("en-US");
  const first = results[0]!;
  const rows = results.flatMap(({m, steps}) => STEPS.map((step) => {
    const r = steps[step.name];
    const ratio = r.seconds / first.steps[step.name].seconds;
    const times = Array.isArray(r.runs) && r.runs.length > 1 ? ` (${r.runs.map((x: number) => x.toFixed(2)).join(", ")})` : "";
    const verdict = m === first.m ? "baseline" : `${ratio.toFixed(2)}× (${ratio <= GOAL ? "goal met" : "goal not met"})`;
    return `| ${fmt(m)} | ${step.label} | ${r.seconds.toFixed(2)} s${times} | ${verdict} | ${mb(r.peakRss)} |`;
  }));
  const builds = results.map(({m, build}) => `${fmt(m)}: ${build.seconds.toFixed(1)} s, ${mb(build.peakRss)}`).join("; ");
  return `## Incremental import: a few thousand records into a large store

${new Date().toISOString().slice(0, 10)} · ${machine()}

Each store holds M synthetic SOTOPIA episodes (\`sotopiaEpisodes\`, sample style; built in
${builds}). On a fresh copy of it, in fresh child processes, the bundled samples' SOTOPIA
episodes are imported, then their human scores (which refer to those episodes). Time covers
opening the store, the import and closing; ${repeat} run(s), median shown (all runs in
brackets), peak RSS the largest of the runs. The ratio is against the same import into the
smallest store of this run (goal, issue 18: within ${GOAL}× at any store size, RSS under 2 GiB).

| store episodes M | import | time | vs. smallest store | peak RSS |
| ---: | --- | ---: | ---: | ---: |
${rows.join("\n")}

Reproduce: \`npm run bench -- import-incremental --sizes ${results.map((r) => r.m).join(",")}\`.
`;
}

// ---------------------------------------------------------------------------
// Child mode: one import, result printed as JSON on stdout.

async function child(format: string, file: string, db: string): Promise<void> {
  const started = performance.now();
  const store = await openStore(db);
  let summary;
  try {
    summary = await importFiles(store, format, [file], {});
  } finally {
    store.close();
  }
  reportFromChild((performance.now() - started) / 1000, {episodes: summary.episodes, ratings: summary.ratings});
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [flag, format, file, db] = process.argv.slice(2);
  if (flag !== "--measure" || !format || !file || !db) {
    process.stderr.write("usage: tsx bench/import-incremental.ts --measure <format> <file> <db>  (run the benchmark with npm run bench)\n");
    process.exit(2);
  }
  child(format, file, db).catch((e: unknown) => {
    process.stdout.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
