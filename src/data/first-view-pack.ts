// A page's first view ships as one pack: every table the page draws from, as
// Arrow IPC streams that the browser decodes with flechette alone
// (src/client/tables.ts), so no page fetches and compiles parquet-wasm's 5 MB
// module before its first chart (issue 18). Each table is the query of its
// Parquet loader, written by DuckDB's Parquet writer and turned into Arrow by
// the same parquet-wasm reader the browser used, so a page decodes exactly the
// values it decoded from the Parquet file. The Parquet loaders stay: the table
// explorer and DuckDB-wasm read them, and the query behind both runs once per
// build (shared-query.ts).

import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {createRequire} from "node:module";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {float64, tableFromArrays, tableToIPC, utf8} from "@uwdata/flechette";
import initParquet, {readParquet} from "parquet-wasm/esm";
import {exportQuery} from "../../loaders/store/export.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {decodeIpcRows, encodePack, encodeView, orderBy, type Row} from "../client/tables.js";
import {redactStrings} from "./redaction.js";
import {sharedResult, sharedStoredResult} from "./shared-query.js";
import {withStore} from "./store.js";

/**
 * A table of a pack: a query over the store, or a summary of another query's
 * result, whose SQL reads that result as `source` (a read_parquet call), so the
 * heavy query still runs once and the summary costs one pass over its rows; or
 * a page's default view, computed from query results by the page's own library
 * functions (encodeView), for first views whose numbers SQL sums cannot give.
 */
export type PackTable =
  | string
  | {from: string; sql: (source: string) => string}
  | ({view: (rowsOf: (sql: string) => Promise<Row[]>, partsOf: PartsOf, summaryOf: SummaryOf) => unknown | Promise<unknown>} & Computed)
  | ({columns: (rowsOf: (sql: string) => Promise<Row[]>) => PackColumns | Promise<PackColumns>} & Computed);

/**
 * How a computed table reads the store. By default its queries' rows come
 * redacted, as the page would read them. `asStored: true` gives it the text as
 * stored, for computations whose numbers depend on the text (scoring answers:
 * two redacted answers would look alike, as `report` never sees them), and
 * redacts every string of its output instead, with the same rule
 * (redactStrings).
 */
interface Computed {
  asStored?: boolean;
}

/**
 * The rows of `sql`'s result one group of the `by` columns at a time, groups in
 * the order orderBy gives them (DuckDB's), each group's rows in the result's
 * order: a view computed group by group holds one group's rows, not the
 * store's. `sql` must order its rows by the `by` columns first (each group one
 * run of rows), or the parts are refused. `read` may be called more than once.
 */
export type PartsOf = (sql: string, by: readonly string[]) => Promise<{parts: number; read: () => AsyncGenerator<Row[]>}>;

/**
 * The rows of a summary of `from`'s result, whose SQL reads that result as
 * `source`: counts and the like a view needs before it reads the parts, taken
 * from the same rows the parts hold.
 */
export type SummaryOf = (from: string, sql: (source: string) => string) => Promise<Row[]>;

/** Per-row values the page's functions computed (scores, say), as numeric or text columns: an Arrow table, not a JSON view, because it grows with the rows. */
export type PackColumns = Record<string, number[] | (string | null)[]>;

/** The columns as one Arrow IPC stream: a column with a number as float64 (NaN kept), the rest as text. */
function encodeColumns(columns: PackColumns): Uint8Array {
  const types = Object.fromEntries(Object.entries(columns).map(([name, values]) => [name, values.some((v) => typeof v === "number") ? float64() : utf8()]));
  return tableToIPC(tableFromArrays(columns, {types}), {format: "stream"})!;
}

const quoted = (path: string): string => `'${path.replaceAll("'", "''")}'`;
const identifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** PartsOf over a query's result file (written once: sharedResult, or sharedStoredResult), each group read back by its row numbers in that file. */
async function partsOfResult(file: string, store: Store, dir: string, by: readonly string[]): Promise<{parts: number; read: () => AsyncGenerator<Row[]>}> {
  const source = `read_parquet(${quoted(file)}, file_row_number = true)`;
  const keys = by.map(identifier).join(", ");
  const groups = orderBy(await rows<Row & {first: number; last: number; n: number}>(store.conn,
    `SELECT ${keys}, min(file_row_number)::BIGINT AS first, max(file_row_number)::BIGINT AS last, count(*)::BIGINT AS n FROM ${source} GROUP BY ALL`), by);
  for (const g of groups) {
    if (g.last - g.first + 1 !== g.n) throw new Error(`first-view pack: the rows of ${by.map((k) => `${k} ${JSON.stringify(g[k])}`).join(", ")} are not together in the query's result; order it by ${by.join(", ")} first`);
  }
  const part = join(dir, "part.parquet");
  return {
    parts: groups.length,
    read: async function* () {
      for (const batch of readBatches(groups)) {
        const first = batch[0]!, last = batch[batch.length - 1]!;
        // Row numbers, written here from integers DuckDB counted: nothing from the store's text enters the SQL.
        await exportQuery(store.conn, `SELECT * EXCLUDE (file_row_number) FROM ${source} WHERE file_row_number BETWEEN ${Number(first.first)} AND ${Number(last.last)} ORDER BY file_row_number`, part, "parquet");
        const read = decodeIpcRows(readParquet(readFileSync(part)).intoIPCStream());
        let at = 0;
        for (const g of batch) {
          yield read.slice(at, at + Number(g.n));
          at += Number(g.n);
        }
      }
    },
  };
}

/** Rows read back at once at most, unless one group has more: small groups (a plan's updates, say) share one read, not one export each. */
const BATCH_ROWS = 20_000;

/** Groups that follow one another in the file, gathered into reads of at most BATCH_ROWS rows (a larger group alone). */
function readBatches<G extends {first: number; last: number; n: number}>(groups: readonly G[]): G[][] {
  const batches: G[][] = [];
  let batch: G[] = [], rowsIn = 0;
  for (const g of groups) {
    const follows = batch.length > 0 && Number(g.first) === Number(batch[batch.length - 1]!.last) + 1;
    if (batch.length && (!follows || rowsIn + Number(g.n) > BATCH_ROWS)) {
      batches.push(batch);
      batch = [];
      rowsIn = 0;
    }
    batch.push(g);
    rowsIn += Number(g.n);
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/**
 * DuckDB's threads for a pack when SOCIOMETER_PACK_THREADS names a count (a
 * build beside other work may want fewer; the tests build a pack on 1 and on 4
 * threads to show its bytes do not depend on them), else DuckDB's default.
 */
export function packThreads(env: NodeJS.ProcessEnv = process.env): number | null {
  const text = env.SOCIOMETER_PACK_THREADS?.trim();
  if (!text) return null;
  if (!/^[1-9]\d{0,3}$/.test(text)) throw new Error(`SOCIOMETER_PACK_THREADS: expected a whole number of threads from 1 to 9999, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** Writes the pack of `tables` (table name → PackTable, key-shaped text redacted) to stdout. */
export async function emitFirstViewPack(tables: Readonly<Record<string, PackTable>>): Promise<void> {
  const require = createRequire(import.meta.url);
  await initParquet({module_or_path: readFileSync(require.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm"))});
  const threads = packThreads();
  const pack = await withStore(async (store) => {
    // A whole number checked just above, so it cannot carry SQL.
    if (threads !== null) await store.conn.run(`SET threads = ${threads}`);
    const dir = mkdtempSync(join(tmpdir(), "sociometer-pack-"));
    try {
      const entries: {name: string; ipc: Uint8Array}[] = [];
      for (const [name, table] of Object.entries(tables)) {
        const stored = typeof table === "object" && "asStored" in table && table.asStored === true;
        const resultOf = (sql: string) => (stored ? sharedStoredResult : sharedResult)(store, sql);
        const shipped = <T>(value: T): T => (stored ? redactStrings(value) : value);
        // The rows as the browser would decode them from the same query, then the page's own functions.
        const rowsOf = async (sql: string) => decodeIpcRows(readParquet(readFileSync(await resultOf(sql))).intoIPCStream());
        if (typeof table === "object" && "view" in table) {
          const summaryOf: SummaryOf = async (from, sql) => rows<Row>(store.conn, sql(`read_parquet(${quoted(await resultOf(from))})`));
          const partsOf: PartsOf = async (sql, by) => partsOfResult(await resultOf(sql), store, dir, by);
          entries.push({name, ipc: encodeView(shipped(await table.view(rowsOf, partsOf, summaryOf)))});
          continue;
        }
        if (typeof table === "object" && "columns" in table) {
          entries.push({name, ipc: encodeColumns(shipped(await table.columns(rowsOf)))});
          continue;
        }
        let file: string;
        if (typeof table === "string") {
          file = await sharedResult(store, table);
        } else {
          // The source is redacted already; the summary only groups and sums its columns.
          const source = `read_parquet(${quoted(await sharedResult(store, table.from))})`;
          file = join(dir, `${name}.parquet`);
          await exportQuery(store.conn, table.sql(source), file, "parquet");
        }
        entries.push({name, ipc: readParquet(readFileSync(file)).intoIPCStream()});
      }
      return encodePack(entries);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
  await new Promise<void>((resolve, reject) => process.stdout.write(pack, (e) => (e ? reject(e) : resolve())));
}
