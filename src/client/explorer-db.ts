// The table explorer's DuckDB-wasm: one database per page that loads a table
// only when the reader first opens it or names it in SQL (a million-row table
// costs seconds and memory, so nothing loads up front), pages through tables
// and results inside DuckDB, keeps the reader's query result as a table, and
// writes downloads with DuckDB's CSV writer or parquet-wasm. No network: the
// files come from the site itself (OFFLINE.md), and the database is sealed
// (sealed-sql.ts) before the reader can type anything.

import type * as duckdb from "@duckdb/duckdb-wasm";
import {Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet} from "parquet-wasm/esm";
import {initParquetOnce, loadParquet, plain, startDuckDB, type Row} from "./duckdb.js";
import {
  browseQuery, ipcFileToStream, locateSqlError, locationAt, pageDataTable, referencedTables, shippedFileUrl, tableRef, trimSql,
  type BrowseState, type ColumnInfo, type LocatedSqlError,
} from "./explorer.js";
import {checkScript, DOWNLOAD_FILE, SEAL_SQL} from "./sealed-sql.js";

/** The manifest src/data/explorer-manifest.json.ts writes (the fields the page reads). */
export interface ExplorerManifest {
  rowLimit: number;
  tables: {
    name: string;
    kind: string;
    file: string;
    rows: number;
    shippedRows: number;
    columns: {name: string; type: string; storeType: string; note?: string}[];
    withheld: {name: string; storeType: string; reason: string}[];
    redactedCells: number;
  }[];
  pageData: {name: string; file: string}[];
}

export interface ExplorerTable {
  /** The name in SQL: `ratings`, `pages.ratings`, `explorer_result`. */
  name: string;
  kind: "store" | "page data" | "result" | "created here";
  /** Where the site serves its Parquet file (none for tables made in the page). */
  file?: string;
  /** Rows in the store, when known before loading. */
  storeRows?: number;
  /** Rows in this page's database; known once loaded (or from the manifest for store tables). */
  rows?: number;
  columns?: ColumnInfo[];
  /** Store types and notes of shipped columns, by name. */
  notes?: Map<string, {storeType: string; note?: string}>;
  withheld?: ExplorerManifest["tables"][number]["withheld"];
  redactedCells?: number;
  loaded: boolean;
}

/** The result of running the reader's SQL. */
export type RunOutcome =
  | {ok: true; kind: "query"; table: string; rows: number; columns: ColumnInfo[]; ms: number}
  | {ok: true; kind: "statement"; columns: ColumnInfo[]; rows: Row[]; total: number; ms: number}
  | {ok: false; error: LocatedSqlError; message: string};

/** The table that holds the reader's last query result. */
export const RESULT_TABLE = "explorer_result";
/** The most rows of a statement's own result (not a query kept as a table) the page shows. */
const STATEMENT_ROWS = 1000;

/** Arrow type names to DuckDB's, for results of statements (queries get DuckDB's own DESCRIBE). */
function arrowTypeName(type: {toString(): string}): string {
  const t = type.toString();
  if (/^(Int|Uint)\d+$|^Float\d+$|^Decimal/.test(t)) return "DOUBLE";
  if (t === "Bool") return "BOOLEAN";
  if (/^(Large)?Utf8$/.test(t)) return "VARCHAR";
  return t;
}

export class Explorer {
  readonly tables: ExplorerTable[];
  private readonly listeners = new Set<() => void>();
  /** One operation at a time on the one connection: a page of rows never interleaves with a download's temporary table. */
  private queue: Promise<unknown> = Promise.resolve();
  private db!: duckdb.AsyncDuckDB;
  private conn!: duckdb.AsyncDuckDBConnection;
  /**
   * DuckDB-wasm starting in the background (1.3–1.9 s): the table list, read
   * from the manifest, is drawn at once; every operation waits for it.
   */
  private readonly ready: Promise<void>;

  private constructor(
    readonly manifest: ExplorerManifest,
    /** The manifest's address as the server gave it (FileAttachment's href): tells where the Parquet files are. */
    private readonly manifestHref: string,
  ) {
    this.tables = [
      ...manifest.tables.map((t): ExplorerTable => ({
        name: t.name,
        kind: "store",
        file: t.file,
        storeRows: t.rows,
        rows: t.shippedRows,
        columns: t.columns.map(({name, type}) => ({name, type})),
        notes: new Map(t.columns.map((c) => [c.name, {storeType: c.storeType, note: c.note}])),
        withheld: t.withheld,
        redactedCells: t.redactedCells,
        loaded: false,
      })),
      ...manifest.pageData.map((p): ExplorerTable => ({name: pageDataTable(p.name), kind: "page data", file: p.file, loaded: false})),
    ];
    this.ready = this.start();
    // A failed start is reported by the first operation that waits for it.
    this.ready.catch(() => undefined);
  }

  private async start(): Promise<void> {
    const [db] = await Promise.all([startDuckDB(), initParquetOnce()]);
    const conn = await db.connect();
    // Sealed before any operation can run: operations wait for this.
    await conn.query(`CREATE SCHEMA pages;\n${SEAL_SQL}`);
    this.db = db;
    this.conn = conn;
  }

  /**
   * An explorer over the manifest's tables, with a sealed DuckDB-wasm (no
   * table loaded yet) starting in the background; `manifestHref` is
   * FileAttachment("data/explorer-manifest.json").href.
   */
  static async open(manifest: ExplorerManifest, manifestHref: string): Promise<Explorer> {
    return new Explorer(manifest, manifestHref);
  }

  /** Resolves when DuckDB-wasm is running and sealed; rejects if it could not start. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Calls `listener` whenever a table is loaded, created or replaced. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    // After the previous operation, failed or not, and once the database runs.
    const next = this.queue.then(() => this.ready, () => this.ready).then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  table(name: string): ExplorerTable | undefined {
    return this.tables.find((t) => t.name === name);
  }

  /** Loads the named tables that are not loaded yet, one at a time (peak memory stays at one row group). */
  ensureLoaded(names: readonly string[]): Promise<void> {
    return this.serial(() => this.loadTables(names));
  }

  private async loadTables(names: readonly string[]): Promise<void> {
    let any = false;
    for (const name of names) {
      const t = this.table(name);
      if (!t || t.loaded || !t.file) continue;
      const [schema, table] = name.includes(".") ? name.split(".") : [undefined, name];
      // One address, the one this server uses (preview or built site): no request that is bound to 404.
      t.rows = await loadParquet(this.conn, table, shippedFileUrl(t.file, this.manifestHref, document.baseURI), schema);
      t.columns = await this.describe(tableRef(name));
      t.loaded = true;
      any = true;
    }
    if (any) this.changed();
  }

  private async rowsOf<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    let result;
    if (params.length === 0) {
      result = await this.conn.query(sql);
    } else {
      const statement = await this.conn.prepare(sql);
      try {
        result = await statement.query(...params);
      } finally {
        await statement.close();
      }
    }
    return result.toArray().map((row) => plain(row) as T);
  }

  private async describe(ref: string): Promise<ColumnInfo[]> {
    const rows = await this.rowsOf<{column_name: string; column_type: string}>(`DESCRIBE ${ref}`);
    return rows.map((r) => ({name: r.column_name, type: r.column_type}));
  }

  /** One page of `name` under `state`, how many rows match, and how many the table has. */
  browse(name: string, state: BrowseState): Promise<{columns: ColumnInfo[]; rows: Row[]; matching: number; all: number}> {
    return this.serial(async () => {
      await this.loadTables([name]);
      const t = this.table(name);
      if (!t?.columns) throw new Error(`no table ${name}`);
      const count = browseQuery(name, t.columns, state).count;
      const [{n}] = await this.rowsOf<{n: number}>(count.sql, count.params);
      const q = browseQuery(name, t.columns, state, n);
      const rows = await this.rowsOf(q.rows.sql, q.rows.params);
      return {columns: t.columns, rows: q.reversed ? rows.reverse() : rows, matching: n, all: t.rows ?? n};
    });
  }

  /**
   * Runs the reader's SQL. A query is kept whole as the table explorer_result
   * (in DuckDB, not in JavaScript) to page, sort, filter, chart and download;
   * its text goes on its own lines, so DuckDB's LINE numbers are the reader's
   * plus one. Any other statement runs as written.
   */
  run(text: string): Promise<RunOutcome> {
    return this.serial(async () => {
      const sql = trimSql(text);
      const check = checkScript(sql, await this.db.tokenize(sql));
      if (!check.ok) return {ok: false, error: {summary: check.message, location: locationAt(sql, check.offset), context: null}, message: check.message};
      const start = performance.now();
      try {
        await this.loadTables(referencedTables(sql, this.tables.filter((t) => !t.loaded).map((t) => t.name)));
      } catch (e) {
        const message = `could not load a table the query names: ${(e as Error).message}`;
        return {ok: false, error: {summary: message, location: null, context: null}, message};
      }
      if (check.kind === "query") {
        try {
          await this.conn.query(`CREATE OR REPLACE TEMP TABLE ${RESULT_TABLE} AS SELECT * FROM (\n${sql}\n)`);
        } catch (e) {
          const message = (e as Error).message;
          return {ok: false, error: locateSqlError(message, sql, 1), message};
        }
        const columns = await this.describe(RESULT_TABLE);
        const [{n}] = await this.rowsOf<{n: number}>(`SELECT count(*) AS n FROM ${RESULT_TABLE}`);
        this.remember({name: RESULT_TABLE, kind: "result", rows: n, columns, loaded: true});
        await this.discoverCreated();
        this.changed();
        return {ok: true, kind: "query", table: RESULT_TABLE, rows: n, columns, ms: performance.now() - start};
      }
      let result;
      try {
        result = await this.conn.query(sql);
      } catch (e) {
        const message = (e as Error).message;
        return {ok: false, error: locateSqlError(message, sql), message};
      }
      const columns = result.schema.fields.map((f) => ({name: f.name, type: arrowTypeName(f.type)}));
      const rows = result.slice(0, STATEMENT_ROWS).toArray().map((row) => plain(row) as Row);
      await this.discoverCreated();
      this.changed();
      return {ok: true, kind: "statement", columns, rows, total: result.numRows, ms: performance.now() - start};
    });
  }

  private remember(table: ExplorerTable): void {
    const i = this.tables.findIndex((t) => t.name === table.name);
    if (i >= 0) this.tables[i] = table;
    else this.tables.push(table);
  }

  /** Lists tables the reader created (CREATE TABLE … in the SQL box) next to the shipped ones; drops the ones dropped. */
  private async discoverCreated(): Promise<void> {
    const present = await this.rowsOf<{name: string}>(`
      SELECT CASE WHEN schema_name = 'main' THEN table_name ELSE schema_name || '.' || table_name END AS name
      FROM duckdb_tables() WHERE NOT internal AND table_name <> '${RESULT_TABLE}'`);
    const names = new Set(present.map((p) => p.name));
    for (let i = this.tables.length - 1; i >= 0; i--) {
      const t = this.tables[i];
      if (t.kind === "created here" && !names.has(t.name)) this.tables.splice(i, 1);
    }
    for (const p of present) {
      const known = this.table(p.name);
      if (known && known.kind !== "created here") continue;
      const columns = await this.describe(tableRef(p.name));
      const [{n}] = await this.rowsOf<{n: number}>(`SELECT count(*) AS n FROM ${tableRef(p.name)}`);
      this.remember({name: p.name, kind: "created here", rows: n, columns, loaded: true});
    }
  }

  /** Every row of `name` that `state`'s search and filters keep, in its order, as CSV (DuckDB's writer) or Parquet (parquet-wasm, ZSTD). */
  download(name: string, state: BrowseState, format: "csv" | "parquet"): Promise<Uint8Array> {
    return this.serial(async () => {
      await this.loadTables([name]);
      const t = this.table(name);
      if (!t?.columns) throw new Error(`no table ${name}`);
      const q = browseQuery(name, t.columns, state).all;
      // The filtered rows first become a temporary table (parameters bound), which COPY and the Arrow export then read whole.
      const statement = await this.conn.prepare(`CREATE OR REPLACE TEMP TABLE explorer_download AS ${q.sql}`);
      try {
        await statement.query(...q.params);
      } finally {
        await statement.close();
      }
      try {
        if (format === "csv") {
          await this.conn.query(`COPY (SELECT * FROM explorer_download ORDER BY rowid) TO ${quoteLiteral(DOWNLOAD_FILE)} (FORMAT csv, HEADER true)`);
          try {
            return await this.db.copyFileToBuffer(DOWNLOAD_FILE);
          } finally {
            await this.db.dropFile(DOWNLOAD_FILE);
          }
        }
        const ipc = await this.conn.useUnsafe((bindings, id) => bindings.runQuery(id, "SELECT * FROM explorer_download ORDER BY rowid"));
        return writeParquet(WasmTable.fromIPCStream(ipcFileToStream(ipc)), new WriterPropertiesBuilder().setCompression(Compression.ZSTD).build());
      } finally {
        await this.conn.query("DROP TABLE IF EXISTS explorer_download");
      }
    });
  }

  /** Up to `limit` rows of a table in its order, for charts. */
  sample(name: string, limit: number): Promise<Row[]> {
    return this.serial(() => this.rowsOf(`SELECT * FROM ${tableRef(name)} ORDER BY rowid LIMIT ${Math.max(0, Math.floor(limit))}`));
  }
}

const quoteLiteral = (s: string): string => `'${s.replaceAll("'", "''")}'`;
