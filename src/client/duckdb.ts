// A small DuckDB-wasm client for the pages: one in-browser database per page,
// filled from the Parquet tables the data loaders build. Written to need no
// network (OFFLINE.md items 4–6): every file comes from node_modules through
// Framework, DuckDB never fetches extensions, and Parquet is decoded by
// parquet-wasm rather than DuckDB's parquet extension.

import * as duckdb from "@duckdb/duckdb-wasm";
import {ParquetFile} from "parquet-wasm/esm";
import {initParquetOnce} from "./parquet.js";
// The row types live in tables.ts, which imports nothing of DuckDB or parquet-wasm, so parquet.ts can use them without importing this file.
import type {Row, TableSource} from "./tables.js";

export {initParquetOnce};
export type {Row, TableSource};

export interface Database {
  /** Runs `sql` with `?` placeholders bound to `params`; returns plain row objects. */
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Names and row counts of the loaded tables, for "what is loaded" notes. */
  readonly tables: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** Starts DuckDB-wasm's exception-handling build in a module worker (the only bundle the site ships). */
export async function startDuckDB(): Promise<duckdb.AsyncDuckDB> {
  const worker = new Worker(import.meta.resolve("@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js"), {type: "module"});
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(import.meta.resolve("@duckdb/duckdb-wasm/dist/duckdb-eh.wasm"));
  // Results with DOUBLE instead of BIGINT / DECIMAL, so pages get plain numbers.
  await db.open({query: {castBigIntToDouble: true, castDecimalToDouble: true}});
  return db;
}

/**
 * Loads one Parquet file into table `name`, one row group at a time: decoding
 * the whole file at once needs several times its size in wasm memory and fails
 * for large files (OFFLINE.md, data size). Returns the number of rows loaded.
 * `schema` (default main) must exist.
 */
export async function loadParquet(conn: duckdb.AsyncDuckDBConnection, name: string, url: string, schema?: string): Promise<number> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load table ${name}: ${response.status} ${response.statusText} for ${url}`);
  const file = await ParquetFile.fromFile(await response.blob());
  const metadata = file.metadata();
  const groups = metadata.rowGroups();
  try {
    if (groups.length === 0) {
      // An empty result still defines the table's columns.
      await conn.insertArrowFromIPCStream(file.schema().intoIPCStream(), {name, schema, create: true});
    }
    let rowCount = 0;
    for (const [i, group] of groups.entries()) {
      const table = await file.read({rowGroups: [i]});
      rowCount += group.numRows();
      // intoIPCStream hands the table's wasm memory over; the table is freed with it.
      await conn.insertArrowFromIPCStream(table.intoIPCStream(), {name, schema, create: i === 0});
    }
    return rowCount;
  } finally {
    for (const group of groups) group.free();
    metadata.free();
    file.free();
  }
}

/** Converts one Arrow value to plain JavaScript (bigints to numbers, vectors to arrays, rows and structs to objects). */
export function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  // Arrow rows, structs and vectors all have toJSON: rows and structs give objects, vectors arrays.
  const v = value as {toJSON?: () => unknown};
  if (typeof v.toJSON !== "function") return value;
  const json = v.toJSON();
  if (Array.isArray(json)) return json.map(plain);
  if (json !== null && typeof json === "object") return Object.fromEntries(Object.entries(json).map(([k, x]) => [k, plain(x)]));
  return json;
}

/** Table names become SQL identifiers in the browser; keep them to simple words. */
function checkTableName(name: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid table name ${JSON.stringify(name)}: use letters, digits and _`);
}

/**
 * Opens an in-browser DuckDB with one table per entry of `sources`, e.g.
 * `await openDuckDB({ratings: FileAttachment("data/ratings.parquet").url()})`.
 */
export async function openDuckDB(sources: Readonly<Record<string, TableSource>>): Promise<Database> {
  for (const name of Object.keys(sources)) checkTableName(name);
  const [db] = await Promise.all([startDuckDB(), initParquetOnce()]);
  const conn = await db.connect();
  // Never download extensions at run time: the site must work with no network.
  await conn.query("SET autoinstall_known_extensions = false; SET autoload_known_extensions = false;");
  const tables = new Map<string, number>();
  // One table at a time keeps peak wasm memory at one row group.
  for (const [name, source] of Object.entries(sources)) {
    const url = new URL(String(await source), document.baseURI).href;
    tables.set(name, await loadParquet(conn, name, url));
  }
  return {
    tables,
    async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
      let result;
      if (params.length === 0) {
        result = await conn.query(sql);
      } else {
        const statement = await conn.prepare(sql);
        try {
          result = await statement.query(...params);
        } finally {
          await statement.close();
        }
      }
      return result.toArray().map((row) => plain(row) as T);
    },
    async close() {
      await conn.close();
      await db.terminate();
    },
  };
}
