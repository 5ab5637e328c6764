// The pages' first view: Parquet tables decoded straight into JavaScript rows
// (parquet-wasm to Arrow IPC, flechette to objects), with no database. Starting
// DuckDB-wasm costs 1.3–1.9 s and 34 MB before any data (issue 18); the
// benchmark pages need no SQL beyond loading and ordering their small tables,
// so they read them here and order them with orderBy, which sorts as DuckDB's
// ORDER BY does.

import {tableFromIPC} from "@uwdata/flechette";
import {ParquetFile} from "parquet-wasm/esm";
import type {Row, TableSource} from "./duckdb.js";
import {initParquetOnce} from "./parquet.js";

export type {Row, TableSource};

/** Decoded tables by name, each a list of rows with plain values (numbers, strings, booleans, null, arrays). */
export type Tables<K extends string = string> = Record<K, Row[]>;

/** Lists come out of Arrow as typed arrays for numeric items; pages expect plain arrays, as the DuckDB path gave. */
function plainValue(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<unknown>);
  if (Array.isArray(value)) return value.map(plainValue);
  return value;
}

function plainRow(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const key in row) out[key] = plainValue(row[key]);
  return out;
}

/**
 * Fetches one Parquet file and decodes it into rows, one row group at a time
 * (decoding a whole large file at once needs several times its size in wasm
 * memory: OFFLINE.md, data size).
 */
export async function readParquetRows(url: string): Promise<Row[]> {
  const [response] = await Promise.all([fetch(url), initParquetOnce()]);
  if (!response.ok) throw new Error(`cannot load ${url}: ${response.status} ${response.statusText}`);
  return decodeParquetRows(await response.blob());
}

/** Decodes Parquet bytes into rows, one row group at a time; parquet-wasm must be initialised. */
export async function decodeParquetRows(parquet: Blob): Promise<Row[]> {
  const file = await ParquetFile.fromFile(parquet);
  const metadata = file.metadata();
  const groups = metadata.rowGroups();
  const rows: Row[] = [];
  try {
    for (let i = 0; i < groups.length; i++) {
      const table = await file.read({rowGroups: [i]});
      // intoIPCStream hands the table's wasm memory over; it is freed with it.
      for (const row of tableFromIPC(table.intoIPCStream()).toArray()) rows.push(plainRow(row as Record<string, unknown>));
    }
    return rows;
  } finally {
    for (const group of groups) group.free();
    metadata.free();
    file.free();
  }
}

/** Reads every table of `sources` (name → Parquet URL) at once; names as given. */
export async function readTables<K extends string>(sources: Readonly<Record<K, TableSource>>): Promise<Tables<K>> {
  const names = Object.keys(sources) as K[];
  const decoded = await Promise.all(names.map(async (name) => readParquetRows(new URL(String(await sources[name]), document.baseURI).href)));
  const tables = {} as Tables<K>;
  names.forEach((name, i) => (tables[name] = decoded[i]));
  return tables;
}

/** Compares strings by Unicode code point, as DuckDB's default (binary) collation does; `<` on UTF-16 units differs past U+FFFF. */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!, y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** DuckDB's ascending order for one value: NULLS LAST, false before true, numbers by value, text by code point. */
export function compareValues(a: unknown, b: unknown): number {
  const aNull = a === null || a === undefined, bNull = b === null || b === undefined;
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? 1 : -1;
  if (typeof a === "string" && typeof b === "string") return compareText(a, b);
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  throw new Error(`cannot order ${typeof a} against ${typeof b}`);
}

/** A sort key: a column in ascending order, or `{column, desc: true}` (NULLs still last, as in DuckDB). */
export type OrderKey<T> = keyof T & string | {column: keyof T & string; desc: true};

/**
 * The rows in the order of `ORDER BY k1, k2, …` (ascending, NULLS LAST), ties
 * kept in input order as DuckDB keeps the file's order for a single-threaded
 * sort of equal keys. Returns a new array.
 */
export function orderBy<T extends object>(rows: readonly T[], keys: readonly OrderKey<T>[]): T[] {
  const parts = keys.map((k) => (typeof k === "string" ? {column: k, sign: 1} : {column: k.column, sign: -1}));
  return rows.slice().sort((a, b) => {
    for (const {column, sign} of parts) {
      const x = a[column], y = b[column];
      // DuckDB puts NULLs last in either direction.
      const xNull = x === null || x === undefined, yNull = y === null || y === undefined;
      if (xNull !== yNull) return xNull ? 1 : -1;
      const c = compareValues(x, y);
      if (c !== 0) return sign * c;
    }
    return 0;
  });
}

/** The distinct values of `column`, in ascending order (SELECT DISTINCT column ORDER BY column). */
export function distinctSorted<T extends object, K extends keyof T & string>(rows: readonly T[], column: K): T[K][] {
  const seen = new Set<T[K]>();
  for (const row of rows) seen.add(row[column]);
  return Array.from(seen).sort(compareValues);
}
