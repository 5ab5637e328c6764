// Writing query results to Parquet or CSV files, or to stdout for data loaders.

import type {DuckDBConnection} from "@duckdb/node-api";
import {createReadStream, mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {pipeline} from "node:stream/promises";
import {rows} from "./db.js";

export type ExportFormat = "parquet" | "csv";

export function formatOfPath(path: string): ExportFormat {
  if (path.endsWith(".parquet")) return "parquet";
  if (path.endsWith(".csv")) return "csv";
  throw new Error(`cannot tell the format of ${path}: name it *.parquet or *.csv`);
}

/**
 * Writes the result of `sql` to `outPath`. ZSTD Parquet, in row groups small
 * enough for the browser to decode one at a time; CSV made spreadsheet-safe
 * (see spreadsheetSafe).
 */
export async function exportQuery(conn: DuckDBConnection, sql: string, outPath: string, format = formatOfPath(outPath)): Promise<void> {
  const options = format === "parquet" ? "FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000" : "FORMAT csv, HEADER true";
  const query = format === "csv" ? await spreadsheetSafe(conn, sql) : sql;
  await conn.run(`COPY (${query}) TO '${outPath.replaceAll("'", "''")}' (${options})`);
}

/** First characters that make a spreadsheet read a cell as a formula: = + - @, and tab and carriage return (OWASP, CSV injection). */
const FORMULA_STARTS = "'=', '+', '-', '@', chr(9), chr(13)";

/**
 * `sql` with every text cell that starts like a formula prefixed with an
 * apostrophe, so a spreadsheet shows `=cmd|…` from a log as text instead of
 * running it. Numbers, lists and JSON are left as they are.
 */
async function spreadsheetSafe(conn: DuckDBConnection, sql: string): Promise<string> {
  const columns = await rows<{column_name: string; column_type: string}>(conn, `DESCRIBE (${sql})`);
  const guarded = columns.filter((c) => c.column_type === "VARCHAR").map((c) => {
    const name = `"${c.column_name.replaceAll('"', '""')}"`;
    return `CASE WHEN left(${name}, 1) IN (${FORMULA_STARTS}) THEN '''' || ${name} ELSE ${name} END AS ${name}`;
  });
  return guarded.length ? `SELECT * REPLACE (${guarded.join(", ")}) FROM (${sql})` : sql;
}

/** Writes the result of `sql` as Parquet to stdout (the contract of a `*.parquet.ts` data loader). */
export async function writeParquetToStdout(conn: DuckDBConnection, sql: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "sociometer-"));
  try {
    const file = join(dir, "out.parquet");
    await exportQuery(conn, sql, file, "parquet");
    await pipeline(createReadStream(file), process.stdout, {end: false});
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}
