// The pages' first view: small tables decoded straight into JavaScript rows
// with no database and no wasm. Starting DuckDB-wasm costs 1.3–1.9 s and 34 MB
// before any data, and parquet-wasm 5 MB (issue 18); the benchmark pages need
// no SQL beyond loading and ordering their small tables, so each reads one pack
// of Arrow IPC streams (written by src/data/first-view-pack.ts) decoded by
// flechette, and orders rows with orderBy, which sorts as DuckDB's ORDER BY does.

import {tableFromArrays, tableFromIPC, tableToIPC, utf8} from "@uwdata/flechette";

/** A table to load: the URL of its file (Parquet for openDuckDB, a pack for readPack), e.g. `FileAttachment("data/x.parquet").url()`. */
export type TableSource = string | URL | Promise<string | URL>;

/** A row with plain JavaScript values, as a query result or a decoded table gives it: numbers (never bigints), strings, booleans, null, arrays. */
export type Row = Record<string, unknown>;

/** Decoded tables by name, each a list of rows with plain values (numbers, strings, booleans, null, arrays). */
export type Tables<K extends string = string> = Record<K, Row[]>;

/** Lists come out of Arrow as typed arrays for numeric items; pages expect plain arrays, as the DuckDB path gave. */
function plainValue(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<unknown>);
  if (Array.isArray(value)) return value.map(plainValue);
  return value;
}

/** A decoded Arrow row with plain values, as the DuckDB path gave. */
export function plainRow(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const key in row) out[key] = plainValue(row[key]);
  return out;
}

const PACK_MAGIC = "SMPK";
const textEncoder = new TextEncoder();

/** Arrow buffers are read as typed arrays, which must start at a multiple of their element size: every stream starts at a multiple of 8. */
const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/**
 * A pack of named Arrow IPC streams in one file: "SMPK", the length of a JSON
 * list of {name, bytes} (uint32, little-endian), that list padded with spaces,
 * then the streams in its order, each padded with zeros to a multiple of 8
 * bytes. One fetch per page for all of its first-view tables.
 */
export function encodePack(entries: readonly {name: string; ipc: Uint8Array}[]): Uint8Array {
  const prefix = PACK_MAGIC.length + 4;
  const list = textEncoder.encode(JSON.stringify(entries.map((e) => ({name: e.name, bytes: e.ipc.byteLength}))));
  const header = new Uint8Array(align8(prefix + list.byteLength) - prefix).fill(0x20);
  header.set(list);
  let total = prefix + header.byteLength;
  for (const e of entries) total += align8(e.ipc.byteLength);
  const out = new Uint8Array(total);
  out.set(textEncoder.encode(PACK_MAGIC), 0);
  new DataView(out.buffer).setUint32(PACK_MAGIC.length, header.byteLength, true);
  out.set(header, prefix);
  let at = prefix + header.byteLength;
  for (const e of entries) {
    out.set(e.ipc, at);
    at += align8(e.ipc.byteLength);
  }
  return out;
}

/** The rows of one Arrow IPC stream, with plain values. */
export function decodeIpcRows(ipc: Uint8Array): Row[] {
  const rows: Row[] = [];
  for (const row of tableFromIPC(ipc).toArray()) rows.push(plainRow(row as Record<string, unknown>));
  return rows;
}

/**
 * A page's default view computed at build time by the page's own library
 * functions (first-view-pack.ts): a JSON value in a one-row, one-column Arrow
 * stream. NaN and ±Infinity (a "n/a" cell) survive, which JSON alone drops.
 */
export function encodeView(value: unknown): Uint8Array {
  const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? {$number: String(v)} : v));
  return tableToIPC(tableFromArrays({view: [json]}, {types: {view: utf8()}}), {format: "stream"})!;
}

/** The value encodeView wrote, from its decoded table. */
export function decodeView<T>(table: readonly Row[] | undefined, source: string): T {
  const text = table?.[0]?.view;
  if (table?.length !== 1 || typeof text !== "string") throw new Error(`${source}: no view in the first-view pack; rebuild the site`);
  return JSON.parse(text, (_key, v: unknown) =>
    v !== null && typeof v === "object" && "$number" in v && Object.keys(v).length === 1 ? Number((v as {$number: string}).$number) : v) as T;
}

/** Decodes a pack (encodePack) into rows per table; `source` names the file in errors. */
export function decodePack(packed: Uint8Array, source = "pack"): Tables {
  // A copy when the view does not start on an 8-byte boundary (a pooled Node Buffer), so the streams stay aligned.
  const bytes = packed.byteOffset % 8 === 0 ? packed : packed.slice();
  const fail = (why: string): never => {
    throw new Error(`${source}: not a first-view pack (${why}); rebuild the site`);
  };
  const prefix = PACK_MAGIC.length + 4;
  if (bytes.byteLength < prefix) fail(`${bytes.byteLength} bytes, shorter than its header`);
  if (new TextDecoder().decode(bytes.subarray(0, PACK_MAGIC.length)) !== PACK_MAGIC) fail(`no ${PACK_MAGIC} header`);
  const headerBytes = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(PACK_MAGIC.length, true);
  if (prefix + headerBytes > bytes.byteLength) fail(`its table list runs past the end of the file`);
  const entries = JSON.parse(new TextDecoder().decode(bytes.subarray(prefix, prefix + headerBytes))) as {name: string; bytes: number}[];
  const tables: Tables = {};
  let at = prefix + headerBytes;
  for (const {name, bytes: length} of entries) {
    if (at + align8(length) > bytes.byteLength) fail(`table ${name} runs past the end of the file`);
    tables[name] = decodeIpcRows(bytes.subarray(at, at + length));
    at += align8(length);
  }
  if (at !== bytes.byteLength) fail(`${bytes.byteLength - at} bytes after its last table`);
  return tables;
}

/** Fetches a page's first-view pack and decodes it; the names are the tables the pack loader wrote. */
export async function readPack<K extends string>(url: TableSource): Promise<Tables<K>> {
  const href = new URL(String(await url), document.baseURI).href;
  const response = await fetch(href);
  if (!response.ok) throw new Error(`cannot load ${href}: ${response.status} ${response.statusText}`);
  return decodePack(new Uint8Array(await response.arrayBuffer()), href) as Tables<K>;
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
