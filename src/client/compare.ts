// Data for the Compare page: SQL (DuckDB-wasm) reads the rows of the two
// sides from data/compare-rows.parquet, arquero reshapes the small tables
// around them (the values each side key can take, the forest plot's rows),
// and src/lib/compare.ts pairs and tests, as `sociometer compare` does.

import {aq} from "./arquero.js";
import {BENCHMARK_KEYS, COMPARE_BENCHMARKS, compareRuns, defaultSidesFromCounts, sidesWhere, type CompareBenchmark, type CompareOptions, type CompareRow, type Comparison, type DefaultSides, type Side, type SideKey} from "../lib/compare.js";
import type {Database} from "./duckdb.js";

export interface BenchmarkChoices {
  benchmark: CompareBenchmark;
  /** Per side key of the benchmark, the values its rows take (sorted), with their row counts. */
  values: Partial<Record<SideKey, {value: string; rows: number}[]>>;
  defaults: DefaultSides;
}

/** The benchmarks with rows, in the CLI's order, each with its key values and default sides. */
export async function loadChoices(db: Database): Promise<BenchmarkChoices[]> {
  const groups = aq.from(await db.query(`SELECT benchmark, model, rater, run, source, setting, memory, cot, count(*) AS rows FROM compare_rows GROUP BY ALL`));
  const models = await db.query<{benchmark: string; model: string; n: number}>(
    "SELECT benchmark, model, count(DISTINCT episode_id) AS n FROM compare_rows WHERE model IS NOT NULL GROUP BY ALL");
  const raters = await db.query<{benchmark: string; rater: string; n: number}>(
    "SELECT benchmark, rater, count(*) AS n FROM compare_rows WHERE rater IS NOT NULL GROUP BY ALL");
  const out: BenchmarkChoices[] = [];
  for (const benchmark of COMPARE_BENCHMARKS) {
    const mine = groups.params({benchmark}).filter((d: {benchmark: string}, $: {benchmark: string}) => d.benchmark === $.benchmark);
    if (mine.numRows() === 0) continue;
    const values: BenchmarkChoices["values"] = {};
    for (const key of BENCHMARK_KEYS[benchmark]) {
      const counted = mine
        .filter(aq.escape((d: Record<string, unknown>) => d[key] !== null))
        .groupby(key)
        .rollup({rows: aq.op.sum("rows")})
        .orderby(key)
        .objects() as Record<string, unknown>[];
      if (counted.length) values[key] = counted.map((c) => ({value: String(c[key]), rows: Number(c.rows)}));
    }
    const defaults = defaultSidesFromCounts(benchmark, models.filter((m) => m.benchmark === benchmark), raters.filter((r) => r.benchmark === benchmark));
    out.push({benchmark, values, defaults});
  }
  return out;
}

/** The rows of either side, in the CLI's order. */
export async function sideRows(db: Database, benchmark: CompareBenchmark, a: Side, b: Side): Promise<CompareRow[]> {
  const where = sidesWhere(a, b);
  const sql = `SELECT episode_id, task, instance, cluster, metric, kind, value, model, rater, run, source, setting, memory, cot
    FROM compare_rows WHERE benchmark = ? AND ${where.sql} ORDER BY seq`;
  return db.query<CompareRow>(sql, [benchmark, ...where.params]);
}

/** Reads both sides and compares them, as `sociometer compare` does. */
export async function comparePage(db: Database, benchmark: CompareBenchmark, a: Side, b: Side, options: CompareOptions): Promise<Comparison> {
  return compareRuns(benchmark, await sideRows(db, benchmark, a, b), a, b, options);
}

/** The forest plot's rows: one per metric with its difference and interval, and whether its adjusted p is below 0.05. */
export function forestRows(c: Comparison, interval: "t" | "bootstrap"): {metric: string; difference: number; lo: number; hi: number; significant: string}[] {
  return aq.from(c.metrics)
    .params({boot: interval === "bootstrap"})
    .derive({
      lo: (d: {lo: number; bootLo: number}, $: {boot: boolean}) => ($.boot ? d.bootLo : d.lo),
      hi: (d: {hi: number; bootHi: number}, $: {boot: boolean}) => ($.boot ? d.bootHi : d.hi),
      significant: (d: {pAdjusted: number}) => (d.pAdjusted < 0.05 ? "adjusted p < 0.05" : "adjusted p ≥ 0.05"),
    })
    .select("metric", "difference", "lo", "hi", "significant")
    .filter(aq.escape((d: {lo: number; hi: number}) => Number.isFinite(d.lo) && Number.isFinite(d.hi)))
    .objects() as {metric: string; difference: number; lo: number; hi: number; significant: string}[];
}
