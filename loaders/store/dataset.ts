// `sociometer export --dataset DIR`: the store's tables as a Hive-partitioned
// Parquet dataset that DuckDB, Spark, Trino or BigQuery read as it is, for
// analyses past what one machine holds (docs/scale.md).

import type {DuckDBConnection} from "@duckdb/node-api";
import {existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync} from "node:fs";
import {basename, dirname, join} from "node:path";
import {rows} from "./db.js";

/** The Hive keys of a partitioned table: its episode's benchmark and the file the episode was imported from. */
export const PARTITION_KEYS = ["benchmark", "source"] as const;

/**
 * Tables left out: the store's own bookkeeping, and the cache of LLM requests
 * (whole prompts and answers, the largest table, replayed by `sociometer run`,
 * never analysed).
 */
const LEFT_OUT = new Set(["schema_migrations", "llm_calls"]);

export interface DatasetTable {
  name: string;
  rows: number;
  /** PARTITION_KEYS for a table of episode rows, else empty: one whole file. */
  partitionedBy: string[];
  /** The table's files, relative to the dataset folder, as a glob every engine accepts. */
  files: string;
}

export interface DatasetManifest {
  format: "sociometer-dataset";
  version: 1;
  tables: DatasetTable[];
}

const quoted = (text: string): string => `'${text.replaceAll("'", "''")}'`;
const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * The query whose rows a partitioned table writes: its own columns plus the
 * partition keys. A LEFT JOIN: a row whose episode is missing is written
 * under benchmark=NULL rather than dropped.
 */
function partitionedQuery(table: string, ownColumns: readonly string[]): string {
  if (table === "episodes") return `SELECT *, source_id AS source FROM episodes`;
  const own = ownColumns.map((c) => `t.${ident(c)}`).join(", ");
  return `SELECT ${own}, e.benchmark AS benchmark, e.source_id AS source FROM ${ident(table)} t LEFT JOIN episodes e USING (episode_id)`;
}

/**
 * Writes every table of the store (but LEFT_OUT) under `dir`: a table with an
 * episode_id as `<table>/benchmark=…/source=…/data_0.parquet`, others (and
 * empty ones) as `<table>/data.parquet`, plus `dataset.json` with each
 * table's row count. Refuses a `dir` that exists and is not empty; written
 * beside it first and renamed into place, so a failed export leaves nothing.
 */
export async function exportDataset(conn: DuckDBConnection, dir: string): Promise<DatasetManifest> {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(`${dir} exists and is not empty: name a new folder (an export never writes over files)`);
  }
  const partial = join(dirname(dir), `.${basename(dir)}.partial-${process.pid}`);
  rmSync(partial, {recursive: true, force: true});
  mkdirSync(partial, {recursive: true});
  try {
    const tables = await rows<{name: string}>(
      conn,
      `SELECT table_name AS name FROM duckdb_tables()
       WHERE database_name = current_database() AND schema_name = 'main' ORDER BY table_name`,
    );
    const written: DatasetTable[] = [];
    for (const {name} of tables) {
      if (LEFT_OUT.has(name)) continue;
      const columns = (await rows<{column_name: string}>(
        conn,
        `SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = ? ORDER BY column_index`,
        [name],
      )).map((c) => c.column_name);
      const [{n}] = await rows<{n: number}>(conn, `SELECT count(*)::BIGINT AS n FROM ${ident(name)}`);
      const folder = join(partial, name);
      mkdirSync(folder);
      const partitioned = columns.includes("episode_id") && Number(n) > 0;
      if (partitioned) {
        await conn.run(
          `COPY (${partitionedQuery(name, columns)}) TO ${quoted(folder)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (${PARTITION_KEYS.join(", ")}), OVERWRITE_OR_IGNORE)`,
        );
      } else {
        await conn.run(`COPY (SELECT * FROM ${ident(name)}) TO ${quoted(join(folder, "data.parquet"))} (FORMAT parquet, COMPRESSION zstd)`);
      }
      written.push({
        name,
        rows: Number(n),
        partitionedBy: partitioned ? [...PARTITION_KEYS] : [],
        files: partitioned ? `${name}/*/*/*.parquet` : `${name}/data.parquet`,
      });
    }
    const manifest: DatasetManifest = {format: "sociometer-dataset", version: 1, tables: written};
    writeFileSync(join(partial, "dataset.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    if (existsSync(dir)) rmSync(dir, {recursive: true});
    renameSync(partial, dir);
    return manifest;
  } catch (e) {
    rmSync(partial, {recursive: true, force: true});
    throw e;
  }
}
