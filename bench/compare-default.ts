// `npm run bench -- compare-default`: how the Compare page's summary loader
// chooses each benchmark's default sides (src/data/compare-choices.ts), on a
// store of N synthetic SOTOPIA episodes (the pages benchmark's stores) with
// the compare rows staged once. **Before**: the scores per rater counted in a
// pass of their own, and each pair count (the two largest models, then every
// model when those two pair nothing) a pass over the benchmark's rows
// (modelPairsSql over compare_rows, as the loader did until issue 18's
// follow-up). **After**: one pass counting the rows per side keys, metric
// and task into a table, and the key groups, rater counts and pair counts
// from it. Both include the key groups. **Worst
// case**: both pair counts of every benchmark, as when the two largest models
// pair nothing. Baseline: one pass over the staged rows (the key groups
// alone), timed in the same run. Before and after alternate.
//
//   npm run bench -- compare-default [--sizes 100000] [--repeat 5]
//
// BENCH_COMPARE_STORE names a store to use instead of making one.

import {loadavg} from "node:os";
import {resolve} from "node:path";
import {modelPairsSql} from "../loaders/cli/compare-pairs.js";
import {openStore, rows, type Store} from "../loaders/store/db.js";
import {stageCompareRows} from "../src/data/compare-rows.js";
import {COMPARE_BENCHMARKS, countedDefaultSides, type ModelPairCount} from "../src/lib/compare.js";
import {makeStore} from "./pages-store.js";
import {machine, type BenchContext} from "./helpers.js";

type Way = "baseline" | "before" | "after" | "before, worst case" | "after, worst case";
const WAYS: readonly Way[] = ["baseline", "before", "after", "before, worst case", "after, worst case"];

const GROUPS = "SELECT benchmark, model, rater, run, source, setting, memory, cot, count(*)::INTEGER AS rows FROM compare_rows GROUP BY ALL";

/** The default sides of every benchmark, counted one way; `worst` counts every model's pairs too, as when the two largest pair nothing. */
async function chooseDefaults(store: Store, way: Way, models: {benchmark: string; model: string; n: number}[]): Promise<number> {
  const started = performance.now();
  if (way === "baseline") {
    await rows(store.conn, GROUPS);
    return (performance.now() - started) / 1000;
  }
  const shared = way.startsWith("after");
  const worst = way.endsWith("worst case");
  let raters: {benchmark: string; rater: string; n: number}[];
  if (shared) {
    await store.conn.run(`CREATE OR REPLACE TEMP TABLE bench_keys AS
      SELECT benchmark, model, rater, run, source, setting, memory, cot, metric, task, count(*)::INTEGER AS rows FROM compare_rows GROUP BY ALL`);
    const groups = await rows<{benchmark: string; rater: string | null; rows: number}>(store.conn,
      "SELECT benchmark, model, rater, run, source, setting, memory, cot, sum(rows)::INTEGER AS rows FROM bench_keys GROUP BY ALL");
    const n = new Map<string, {benchmark: string; rater: string; n: number}>();
    for (const g of groups) {
      if (g.rater === null) continue;
      const e = n.get(`${g.benchmark}\u0000${g.rater}`) ?? {benchmark: g.benchmark, rater: g.rater, n: 0};
      e.n += g.rows;
      n.set(`${g.benchmark}\u0000${g.rater}`, e);
    }
    raters = Array.from(n.values());
  } else {
    await rows(store.conn, GROUPS);
    raters = await rows(store.conn, "SELECT benchmark, rater, count(*)::INTEGER AS n FROM compare_rows WHERE rater IS NOT NULL GROUP BY ALL");
  }
  for (const benchmark of COMPARE_BENCHMARKS) {
    const count = (only: readonly string[] | null) => rows<ModelPairCount>(store.conn,
      modelPairsSql(`SELECT * FROM ${shared ? "bench_keys" : "compare_rows"} WHERE benchmark = ?`, only?.length ?? 0),
      ([benchmark] as string[]).concat(only ?? []));
    const mine = models.filter((m) => m.benchmark === benchmark);
    await countedDefaultSides(benchmark, mine, raters.filter((r) => r.benchmark === benchmark), count);
    if (worst && mine.length >= 2) await count(null);
  }
  if (shared) await store.conn.run("DROP TABLE temp.bench_keys");
  return (performance.now() - started) / 1000;
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(context: BenchContext): Promise<string> {
  const lines: string[] = [];
  const runs: string[] = [];
  const loads: number[] = [];
  for (const n of context.sizes.length ? context.sizes : [100_000]) {
    const path = process.env.BENCH_COMPARE_STORE ?? resolve(context.dir, `compare-default-${n}.duckdb`);
    if (!process.env.BENCH_COMPARE_STORE) await makeStore(path, context.dir, n, context.log);
    const store = await openStore(path, {readOnly: true});
    try {
      // As a loader runs: under its memory limit.
      await store.conn.run("SET memory_limit = '1GiB'");
      let started = performance.now();
      await stageCompareRows(store, COMPARE_BENCHMARKS);
      const staging = (performance.now() - started) / 1000;
      const rowCount = (await rows<{n: number}>(store.conn, "SELECT count(*)::BIGINT AS n FROM compare_rows"))[0].n;
      started = performance.now();
      const models = await rows<{benchmark: string; model: string; n: number}>(store.conn,
        "SELECT benchmark, model, count(DISTINCT episode_id)::INTEGER AS n FROM compare_rows WHERE model IS NOT NULL GROUP BY ALL");
      const modelsSeconds = (performance.now() - started) / 1000;
      const items = (await rows<{n: number}>(store.conn, "SELECT count(*)::BIGINT AS n FROM (SELECT DISTINCT benchmark, model, rater, run, source, setting, memory, cot, metric, task FROM compare_rows)"))[0].n;
      const times = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
      for (let r = 0; r < context.repeat; r++) {
        // Alternating, so a change in the machine's load falls on every way alike.
        for (const way of r % 2 ? WAYS.slice().reverse() : WAYS) {
          loads.push(loadavg()[0]);
          const s = await chooseDefaults(store, way, models);
          times.get(way)!.push(s);
          context.log(`compare-default: ${n} episodes, ${way} ${s.toFixed(2)} s (load ${loads.at(-1)!.toFixed(1)})`);
        }
      }
      const m = (w: Way) => median(times.get(w)!);
      const base = m("baseline");
      lines.push(`| ${n.toLocaleString("en-US")} | ${rowCount.toLocaleString("en-US")} | ${items.toLocaleString("en-US")} | ${staging.toFixed(1)} | ${modelsSeconds.toFixed(2)} | ${base.toFixed(2)} | `
        + `${m("before").toFixed(2)} (${(m("before") / base).toFixed(1)}×) | ${m("after").toFixed(2)} (${(m("after") / base).toFixed(1)}×) | `
        + `${m("before, worst case").toFixed(2)} (${(m("before, worst case") / base).toFixed(1)}×) | ${m("after, worst case").toFixed(2)} (${(m("after, worst case") / base).toFixed(1)}×) |`);
      for (const w of WAYS) runs.push(`${n.toLocaleString("en-US")}, ${w}: ${times.get(w)!.map((s) => s.toFixed(2)).join(", ")} s`);
    } finally {
      store.close();
    }
  }
  return [
    "## Compare page: choosing the default sides",
    "",
    `${machine([`1-minute load average ${loads.reduce((a, b) => Math.min(a, b), Infinity).toFixed(1)}–${loads.reduce((a, b) => Math.max(a, b), 0).toFixed(1)} during the runs`])}; median of ${context.repeat} runs of each way, alternating, in one process; (×) is the ratio to the baseline of the same run.`,
    "",
    "What src/data/compare-choices.ts does besides the episodes per model (both ways alike): the key groups, the scores per rater, and per benchmark the pair counts of the two largest models (then of every model, in the worst case). **Before**: the key groups, the rater counts and each pair count a pass each over the staged rows (a view over their Parquet files). **After**: one pass counting the rows per side keys, metric and task into a table (*keys* rows), and the key groups, rater counts and pair counts from that table. **Baseline**: one pass over the staged rows (the key groups alone). Staging the rows (shared with the page's pack loaders) and the episodes per model are shown for scale.",
    "",
    "| episodes | staged rows | keys | staging (s) | episodes per model (s) | baseline (s) | before (s) | after (s) | before, worst case (s) | after, worst case (s) |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...lines,
    "",
    `Every run: ${runs.join("; ")}.`,
  ].join("\n");
}
