// Every value the Compare page can compare, one row per (benchmark, metric,
// item, side keys): the rows `sociometer compare` reads (loaders/cli/compare.ts
// readCompareRows), with the benchmark and their order (seq) added, so the
// page filters its two sides with SQL and pairs them with src/lib/compare.ts
// exactly as the CLI does. InformativeBench rows are scored by the metric
// library, so they pass through a temporary table.

import {readCompareRows} from "../../loaders/cli/compare.js";
import {HSII_COMPARE_SQL, LIFELONG_COMPARE_SQL, SOTOPIA_COMPARE_SQL, STSS_COMPARE_SQL} from "../../loaders/queries/compare.js";
import {writeParquetToStdout} from "../../loaders/store/export.js";
import {SIDE_KEYS} from "../lib/compare.js";
import {redactedQuery} from "./redaction.js";
import {withStore} from "./store.js";

const COLUMNS = ["episode_id", "task", "instance", "cluster", "metric", "kind", "value", ...SIDE_KEYS] as const;

await withStore(async (store) => {
  const ib = await readCompareRows(store, "informativebench");
  await store.conn.run(`CREATE TEMP TABLE ib_compare (seq BIGINT, ${COLUMNS.map((c) => `${c} ${c === "value" ? "DOUBLE" : "VARCHAR"}`).join(", ")})`);
  const appender = await store.conn.createAppender("ib_compare", "main", "temp");
  ib.forEach((r, i) => {
    appender.appendBigInt(BigInt(i));
    for (const c of COLUMNS) {
      const v = r[c];
      if (c === "value") appender.appendDouble(v as number);
      else if (v === null) appender.appendNull();
      else appender.appendVarchar(String(v));
    }
    appender.endRow();
  });
  appender.closeSync();
  // row_number() over each ordered query keeps the order the CLI reads the rows in.
  const part = (benchmark: string, sql: string) => `SELECT '${benchmark}' AS benchmark, row_number() OVER () AS seq, * FROM (${sql})`;
  const sql = [
    part("sotopia", SOTOPIA_COMPARE_SQL),
    part("lifelong", LIFELONG_COMPARE_SQL),
    part("hsii", HSII_COMPARE_SQL),
    part("stss", STSS_COMPARE_SQL),
    "SELECT 'informativebench' AS benchmark, seq, * EXCLUDE (seq) FROM temp.ib_compare",
  ].join("\nUNION ALL BY NAME\n");
  await writeParquetToStdout(store.conn, await redactedQuery(store.conn, `SELECT * FROM (${sql}) ORDER BY benchmark, seq`));
});
