// Writing query results to Parquet or CSV files, or to stdout for data loaders.

import type {DuckDBConnection} from "@duckdb/node-api";
import {createReadStream, mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {pipeline} from "node:stream/promises";

export type ExportFormat = "parquet" | "csv";

export function formatOfPath(path: string): ExportFormat {
  if (path.endsWith(".parquet")) return "parquet";
  if (path.endsWith(".csv")) return "csv";
  throw new Error(`cannot tell the format of ${path}: name it *.parquet or *.csv`);
}

/** Writes the result of `sql` to `outPath`. ZSTD Parquet, in row groups small enough for the browser to decode one at a time. */
export async function exportQuery(conn: DuckDBConnection, sql: string, outPath: string, format = formatOfPath(outPath)): Promise<void> {
  const options = format === "parquet" ? "FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000" : "FORMAT csv, HEADER true";
  await conn.run(`COPY (${sql}) TO '${outPath.replaceAll("'", "''")}' (${options})`);
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
