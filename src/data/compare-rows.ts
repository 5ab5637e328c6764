// The Compare page's rows (the rows `sociometer compare` reads: loaders/cli/
// compare.ts readCompareRows), staged once per loader process in a temporary
// table with the benchmark and their order (seq), text redacted as in every
// page data file. Read by one loader per benchmark (compare-rows-<benchmark>
// .parquet, fetched by the page's worker only for the benchmark it compares)
// and by compare-summary.json (the choices and the first view).

import {readCompareRows} from "../../loaders/cli/compare.js";
import {readChunks} from "../../loaders/cli/compare-pairs.js";
import {COMPARE_QUERIES, withStagedQuery} from "../../loaders/cli/compare-stage.js";
import {writeParquetToStdout} from "../../loaders/store/export.js";
import type {Store} from "../../loaders/store/db.js";
import {SIDE_KEYS, type CompareBenchmark} from "../lib/compare.js";
import {redactedQuery} from "./redaction.js";
import {withStore} from "./store.js";

/** The columns of a compare row (src/lib/compare.ts CompareRow), in the files' order. */
export const COMPARE_COLUMNS = ["episode_id", "task", "instance", "cluster", "metric", "kind", "value", ...SIDE_KEYS] as const;

/**
 * Creates TEMP TABLE compare_rows (benchmark, seq, COMPARE_COLUMNS) holding
 * the rows of `benchmarks`, redacted: one benchmark at a time, each with its
 * rows' query staged in steps (loaders/cli/compare-stage.ts) as the CLI runs it.
 */
export async function stageCompareRows(store: Store, benchmarks: readonly CompareBenchmark[]): Promise<void> {
  const columns = COMPARE_COLUMNS.map((c) => `${c} ${c === "value" ? "DOUBLE" : "VARCHAR"}`).join(", ");
  await store.conn.run(`CREATE TEMP TABLE compare_rows (benchmark VARCHAR, seq BIGINT, ${columns})`);
  const insert = async (benchmark: CompareBenchmark, sql: string) =>
    // Benchmark names come from COMPARE_BENCHMARKS, never from input.
    store.conn.run(`INSERT INTO compare_rows BY NAME ${await redactedQuery(store.conn, `SELECT '${benchmark}' AS benchmark, seq, ${COMPARE_COLUMNS.join(", ")} FROM (${sql})`)}`);
  for (const benchmark of benchmarks) {
    // row_number() over each ordered query keeps the order the CLI reads the rows in.
    if (benchmark !== "informativebench") await withStagedQuery(store.conn, COMPARE_QUERIES[benchmark], (sql) => insert(benchmark, `SELECT row_number() OVER () AS seq, * FROM (${sql})`));
    else await insert(benchmark, await stageInformativebench(store));
  }
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

/** The text columns of a compare row, each shipped as integer codes (src/client/compare-coded.ts reads them). */
export const CODED_COLUMNS = COMPARE_COLUMNS.filter((c) => c !== "value");

/**
 * Creates TEMP TABLE compare_dictionary (column_index, code, text): each
 * coded column's distinct texts numbered in the order JS sorts them (UTF-16
 * code units, which SQL's byte order can differ from), so that sorting codes
 * sorts the texts as the library's pairItems does.
 */
async function stageDictionary(store: Store): Promise<void> {
  await store.conn.run("CREATE TEMP TABLE compare_dictionary (column_index SMALLINT, code INTEGER, text VARCHAR)");
  const appender = await store.conn.createAppender("compare_dictionary", "main", "temp");
  for (let c = 0; c < CODED_COLUMNS.length; c++) {
    const texts: string[] = [];
    // Column names come from COMPARE_COLUMNS, never from input.
    await readChunks(store.conn, `SELECT DISTINCT ${CODED_COLUMNS[c]} FROM compare_rows WHERE ${CODED_COLUMNS[c]} IS NOT NULL`, (chunk) => {
      const column = chunk.getColumnVector(0);
      for (let r = 0; r < chunk.rowCount; r++) texts.push(column.getItem(r) as string);
    });
    texts.sort();
    texts.forEach((text, code) => {
      appender.appendSmallInt(c);
      appender.appendInteger(code);
      appender.appendVarchar(text);
      appender.endRow();
    });
  }
  appender.closeSync();
}

/**
 * A loader's whole job: one benchmark's rows as Parquet on stdout, in the
 * CLI's order (an empty file when the store has none). Every text column is
 * an INTEGER code (−1 for null), and the texts follow the rows once each, as
 * dictionary rows (metric −1; dict_column, dict_code, dict_text): the page's
 * worker filters and pairs on the codes and decodes the text only of the
 * items it shows.
 */
export async function writeBenchmarkRows(benchmark: CompareBenchmark): Promise<void> {
  await withStore(async (store) => {
    await stageCompareRows(store, [benchmark]);
    await stageDictionary(store);
    const codes = CODED_COLUMNS.map((c, i) => `coalesce(d${i}.code, -1) AS ${c}`).join(", ");
    const joins = CODED_COLUMNS.map((c, i) => `LEFT JOIN compare_dictionary d${i} ON d${i}.column_index = ${i} AND d${i}.text = r.${c}`).join("\n");
    const noCodes = CODED_COLUMNS.map((c) => `-1 AS ${c}`).join(", ");
    await writeParquetToStdout(store.conn, `
      SELECT ${CODED_COLUMNS.join(", ")}, value, dict_column, dict_code, dict_text FROM (
        SELECT 0 AS part, r.seq AS ord, ${codes}, r.value, -1 AS dict_column, -1 AS dict_code, NULL::VARCHAR AS dict_text
        FROM compare_rows r ${joins}
        UNION ALL BY NAME
        SELECT 1 AS part, 0 AS ord, ${noCodes}, 0::DOUBLE AS value, column_index::INTEGER AS dict_column, code AS dict_code, text AS dict_text FROM compare_dictionary
      ) ORDER BY part, ord, dict_column, dict_code`);
  });
}
