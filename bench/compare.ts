// Comparing two runs at scale (section `compare` of BENCHMARKS.md): a store
// with N SOTOPIA episodes (default 100,000), each scored on seat 1 by one
// judge in two runs, compared run against run as `sociometer compare` does
// (loaders/queries/compare.ts, then src/lib/compare.ts: pairing, paired t,
// Wilcoxon, 1,000 bootstrap resamples, Holm), against the same paired
// aggregation (n, mean difference, its sd, t) in one DuckDB query alone.
// The two answers' mean differences are checked against each other.

import {mkdirSync, rmSync} from "node:fs";
import {join} from "node:path";
import {readCompareRows} from "../loaders/cli/compare.js";
import {openStore, rows, type Store} from "../loaders/store/db.js";
import {compareRuns} from "../src/lib/compare.js";
import {machine, type BenchContext} from "./run.js";

const DEFAULT_SIZES = [100_000];

const median = (xs: readonly number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** N episodes of two seats, seat 1 scored on the seven dimensions in runs v1 and v2 (v2 adds 0.3 to goal). */
async function fill(store: Store, n: number, log: (message: string) => void): Promise<void> {
  // A shared machine: DuckDB's default (80% of RAM) got the filling process killed.
  await store.conn.run("SET memory_limit = '2GB'");
  await store.conn.run(`INSERT INTO sources VALUES ('bench', '/bench/ratings.csv', 'sotopia-ratings', '0', 0, now(), ${n}, 0, NULL)`);
  const chunk = 10_000;
  for (let start = 0; start < n; start += chunk) {
    const range = `range(${start}, ${Math.min(n, start + chunk)}) t(i)`;
    await store.conn.run(`INSERT INTO episodes (episode_id, benchmark, source_id, scenario_id, synthetic)
      SELECT 'ep-' || lpad(i::VARCHAR, 7, '0'), 'sotopia', 'bench', 'scenario-' || (i % 450), true FROM ${range}`);
    await store.conn.run(`INSERT INTO participants (episode_id, agent, agent_ref, model)
      SELECT 'ep-' || lpad(i::VARCHAR, 7, '0'), s, 'char-' || ((i * 7 + s) % 40), 'model-' || (i % 5) FROM ${range}, range(1, 3) u(s)`);
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

export async function run(context: BenchContext): Promise<string> {
  const sizes = context.sizes.length ? context.sizes : DEFAULT_SIZES;
  const lines: string[] = [
    "## Compare two runs",
    "",
    "`sociometer compare sotopia --a rater=judge run=v1 --b rater=judge run=v2` on a store of N synthetic episodes, seat 1 scored on the seven dimensions in each run " +
      "(N paired items per dimension, 8 metrics with overall; the rows of both sides are read, filtered in SQL): the rows' SQL, then the library (pairing, paired t, Wilcoxon, a 1,000-resample bootstrap per metric, Holm), " +
      "against the same paired aggregation (n, mean difference, sd, t per dimension) in one DuckDB query alone. Median of the runs, in one process; the page runs the same library on the same rows in the browser and is not timed here.",
    "",
    `Machine: ${machine()}`,
    "",
    "| episodes | rows read | SQL rows (s) | library (s) | of which bootstrap (s) | total (s) | DuckDB alone (s) | ratio |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const n of sizes) {
    const dir = join(context.dir, `compare-${n}`);
    rmSync(dir, {recursive: true, force: true});
    mkdirSync(dir, {recursive: true});
    const store = await openStore(join(dir, "store.duckdb"));
    try {
      context.log(`compare: filling a store with ${n.toLocaleString("en-US")} episodes`);
      await fill(store, n, context.log);
      const times = {read: [] as number[], lib: [] as number[], noBoot: [] as number[], alone: [] as number[]};
      let rowsRead = 0;
      for (let r = 0; r < context.repeat; r++) {
        let t0 = performance.now();
        const found = await readCompareRows(store, "sotopia", {a: {rater: "judge", run: "v1"}, b: {rater: "judge", run: "v2"}});
        times.read.push((performance.now() - t0) / 1000);
        rowsRead = found.length;
        t0 = performance.now();
        const c = compareRuns("sotopia", found, {rater: "judge", run: "v1"}, {rater: "judge", run: "v2"}, {adjust: "holm", resamples: 1000, seed: 1});
        times.lib.push((performance.now() - t0) / 1000);
        t0 = performance.now();
        compareRuns("sotopia", found, {rater: "judge", run: "v1"}, {rater: "judge", run: "v2"}, {adjust: "holm", resamples: 1, seed: 1});
        times.noBoot.push((performance.now() - t0) / 1000);
        t0 = performance.now();
        const alone = await rows<{dimension: string; n: number; mean: number}>(store.conn, SQL_ALONE);
        times.alone.push((performance.now() - t0) / 1000);
        for (const a of alone) {
          const m = c.metrics.find((x) => x.metric === a.dimension);
          if (!m || m.nPaired !== a.n || Math.abs(m.difference - a.mean) > 1e-9) throw new Error(`compare and SQL alone disagree on ${a.dimension}: ${m?.nPaired} / ${m?.difference} vs ${a.n} / ${a.mean}`);
        }
        context.log(`compare: run ${r + 1}: read ${times.read.at(-1)!.toFixed(2)} s, library ${times.lib.at(-1)!.toFixed(2)} s, DuckDB alone ${times.alone.at(-1)!.toFixed(2)} s`);
      }
      const read = median(times.read);
      const lib = median(times.lib);
      const boot = lib - median(times.noBoot);
      const alone = median(times.alone);
      lines.push(`| ${n.toLocaleString("en-US")} | ${rowsRead.toLocaleString("en-US")} | ${read.toFixed(2)} | ${lib.toFixed(2)} | ${boot.toFixed(2)} | ${(read + lib).toFixed(2)} | ${alone.toFixed(3)} | ${((read + lib) / alone).toFixed(0)}× |`);
    } finally {
      store.close();
      if (!context.keep) rmSync(dir, {recursive: true, force: true});
    }
  }
  lines.push("", "The mean difference and n of every dimension agree between the two paths (checked on each run, to 1e-9).");
  return lines.join("\n");
}
