// The compare rows' queries (loaders/queries/compare.ts) as `sociometer
// compare` and the Compare page's loaders run them: a query's steps each into
// a temporary table first, then the last query over them. At a million
// SOTOPIA episodes the rows as one query ran out of DuckDB's 1 GiB without
// spilling; in steps each join and aggregate fits, or spills.

import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {DuckDBConnection} from "@duckdb/node-api";
import {HSII_COMPARE_SQL, hsiiCompareSql, LIFELONG_COMPARE_SQL, SOTOPIA_COMPARE_STEPS, STSS_COMPARE_SQL, stssCompareSql, type StepwiseQuery} from "../queries/compare.js";
import type {CompareBenchmark} from "../../src/lib/compare.js";
import type {WinPolicy} from "../../src/lib/hsii.js";
import type {AppointmentPartners} from "../../src/lib/stss.js";

/** Each SQL-scored benchmark's rows query (InformativeBench is scored in JS). */
export const COMPARE_QUERIES: Readonly<Record<Exclude<CompareBenchmark, "informativebench">, StepwiseQuery>> = {
  sotopia: SOTOPIA_COMPARE_STEPS,
  lifelong: {steps: [], last: LIFELONG_COMPARE_SQL},
  hsii: {steps: [], last: HSII_COMPARE_SQL},
  stss: {steps: [], last: STSS_COMPARE_SQL},
};

/**
 * A benchmark's rows query with HSII's wins under `winPolicy` (default mean)
 * and STSS's appointment conversations under `appointmentPartners` (default
 * target): each choice belongs to its one benchmark and is ignored by the others.
 */
export function compareQuery(benchmark: keyof typeof COMPARE_QUERIES, winPolicy: WinPolicy = "mean", appointmentPartners: AppointmentPartners = "target"): StepwiseQuery {
  if (benchmark === "hsii" && winPolicy !== "mean") return {steps: [], last: hsiiCompareSql(winPolicy)};
  if (benchmark === "stss" && appointmentPartners !== "target") return {steps: [], last: stssCompareSql(appointmentPartners)};
  return COMPARE_QUERIES[benchmark];
}

/**
 * Runs `fn` with the last query of `query`, its steps staged as temporary
 * tables, and drops them after. Step names come from loaders/queries/compare.ts,
 * never from input.
 */
export async function withStagedQuery<T>(conn: DuckDBConnection, query: StepwiseQuery, fn: (sql: string) => Promise<T>): Promise<T> {
  const made: string[] = [];
  try {
    for (const step of query.steps) {
      // OR REPLACE: a step left behind by a run that failed half-way is recomputed, not refused.
      await conn.run(`CREATE OR REPLACE TEMP TABLE ${step.name} AS ${step.sql}`);
      made.push(step.name);
    }
    return await fn(query.last);
  } finally {
    for (const name of made.reverse()) await conn.run(`DROP TABLE IF EXISTS temp.${name}`);
  }
}

/** What `sociometer compare` lets DuckDB take, as the site's loaders do (src/data/store.ts): past it, joins and aggregates spill. */
export const COMPARE_MEMORY_LIMIT = "1GiB";

/**
 * Caps DuckDB's memory at COMPARE_MEMORY_LIMIT and spills to a folder of the
 * command's own: the default spill folder lies beside the store, which may be
 * read-only or another person's. Returns what removes the folder.
 */
export async function boundCompareMemory(conn: DuckDBConnection): Promise<() => void> {
  await conn.run(`SET memory_limit = '${COMPARE_MEMORY_LIMIT}'`);
  const spill = mkdtempSync(join(tmpdir(), "sociometer-compare-"));
  await conn.run(`SET temp_directory = '${spill.replaceAll("'", "''")}'`);
  return () => rmSync(spill, {recursive: true, force: true});
}
