// The Compare page's rows (the rows `sociometer compare` reads: loaders/cli/
// compare.ts readCompareRows), staged once per loader process in a temporary
// table with the benchmark and their order (seq), text redacted as in every
// page data file. Read by one loader per benchmark (compare-rows-<benchmark>
// .parquet, fetched by the page's worker only for the benchmark it compares)
// and by compare-summary.json (the choices and the first view).

import {readCompareRows} from "../../loaders/cli/compare.js";
import {HSII_COMPARE_SQL, LIFELONG_COMPARE_SQL, SOTOPIA_COMPARE_SQL, STSS_COMPARE_SQL} from "../../loaders/queries/compare.js";
import {writeParquetToStdout} from "../../loaders/store/export.js";
import type {Store} from "../../loaders/store/db.js";
import {SIDE_KEYS, type CompareBenchmark} from "../lib/compare.js";
import {redactedQuery} from "./redaction.js";
import {withStore} from "./store.js";

/** The columns of a compare row (src/lib/compare.ts CompareRow), in the files' order. */
export const COMPARE_COLUMNS = ["episode_id", "task", "instance", "cluster", "metric", "kind", "value", ...SIDE_KEYS] as const;

const SQL: Readonly<Record<Exclude<CompareBenchmark, "informativebench">, string>> = {
  sotopia: SOTOPIA_COMPARE_SQL,
  lifelong: LIFELONG_COMPARE_SQL,
  hsii: HSII_COMPARE_SQL,
  stss: STSS_COMPARE_SQL,
};

/** Creates TEMP TABLE compare_rows (benchmark, seq, COMPARE_COLUMNS) holding the rows of `benchmarks`, redacted. */
export async function stageCompareRows(store: Store, benchmarks: readonly CompareBenchmark[]): Promise<void> {
  const parts: string[] = [];
  for (const benchmark of benchmarks) {
    // row_number() over each ordered query keeps the order the CLI reads the rows in; benchmark names come from COMPARE_BENCHMARKS.
    if (benchmark !== "informativebench") parts.push(`SELECT '${benchmark}' AS benchmark, row_number() OVER () AS seq, * FROM (${SQL[benchmark]})`);
    else parts.push(`SELECT 'informativebench' AS benchmark, seq, * EXCLUDE (seq) FROM (${await stageInformativebench(store)})`);
  }
  const sql = parts.join("\nUNION ALL BY NAME\n");
  await store.conn.run(`CREATE TEMP TABLE compare_rows AS ${await redactedQuery(store.conn, `SELECT benchmark, seq, ${COMPARE_COLUMNS.join(", ")} FROM (${sql})`)}`);
}

/** InformativeBench rows are scored by the metric library, not SQL: they pass through a temporary table, whose query this returns. */
async function stageInformativebench(store: Store): Promise<string> {
  const ib = await readCompareRows(store, "informativebench");
  await store.conn.run(`CREATE TEMP TABLE ib_compare (seq BIGINT, ${COMPARE_COLUMNS.map((c) => `${c} ${c === "value" ? "DOUBLE" : "VARCHAR"}`).join(", ")})`);
  const appender = await store.conn.createAppender("ib_compare", "main", "temp");
  ib.forEach((r, i) => {
    appender.appendBigInt(BigInt(i + 1));
    for (const c of COMPARE_COLUMNS) {
      const v = r[c];
      if (c === "value") appender.appendDouble(v as number);
      else if (v === null) appender.appendNull();
      else appender.appendVarchar(String(v));
    }
    appender.endRow();
  });
  appender.closeSync();
  return "SELECT * FROM temp.ib_compare";
}

/** A loader's whole job: one benchmark's rows as Parquet on stdout, in the CLI's order (an empty file when the store has none). */
export async function writeBenchmarkRows(benchmark: CompareBenchmark): Promise<void> {
  await withStore(async (store) => {
    await stageCompareRows(store, [benchmark]);
    await writeParquetToStdout(store.conn, `SELECT ${COMPARE_COLUMNS.join(", ")} FROM compare_rows ORDER BY seq`);
  });
}
