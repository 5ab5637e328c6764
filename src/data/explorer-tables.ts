// What the table explorer ships, decided in one place for its two loaders
// (explorer-manifest.json.ts and tables/[table].parquet.ts) and for the site
// config (dynamicPaths): the store's tables, discovered through
// information_schema so that a table a new migration adds appears without
// editing this file, and the page data files of src/data, discovered by name.
//
// Nothing that could hold a credential leaves the store: columns whose name
// says credential, the raw requests and responses of model calls, and any
// key-shaped substring of a text value (replaced by "[redacted]").

import type {DuckDBConnection} from "@duckdb/node-api";
import {existsSync, readdirSync} from "node:fs";
import {dirname} from "node:path";
import {fileURLToPath} from "node:url";
import {rows} from "../../loaders/store/db.js";
import {openStoreWhenFree} from "../../loaders/store/wait-for-lock.js";
import {hasKeySql, ident, PLAIN_TYPE, redactedTextSql} from "./redaction.js";

/**
 * The most rows of one store table the site ships (the first in the store's
 * order). At this size a table still pages in tens of milliseconds in
 * DuckDB-wasm; past it the page says "showing N of M". Change it with
 * SOCIOMETER_EXPLORER_ROWS at build time.
 */
export const EXPLORER_ROW_LIMIT = 1_000_000;

/** The row limit in force: SOCIOMETER_EXPLORER_ROWS when it is a positive integer, else EXPLORER_ROW_LIMIT. */
export function explorerRowLimit(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SOCIOMETER_EXPLORER_ROWS;
  if (raw === undefined || raw === "") return EXPLORER_ROW_LIMIT;
  if (!/^[1-9][0-9]*$/.test(raw)) throw new Error(`SOCIOMETER_EXPLORER_ROWS must be a positive whole number of rows, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

// The key pattern is shared with the page data loaders (redaction.ts).
export {KEY_PATTERN, REDACTED} from "./redaction.js";

/** Column names that say the column holds a credential: never shipped. `prompt_tokens` is a count, not a token. */
const CREDENTIAL_NAME = /(^|_)(api_?key|apikey|secret|password|passwd|token|auth|authorization|headers?|credentials?|cookies?)($|_)/i;

/** Columns never shipped, with the reason the page shows. */
const WITHHELD: Record<string, Record<string, string>> = {
  llm_calls: {
    request: "the full request of a model call (prompt, parameters, possibly client headers): not shipped",
    response: "the full response of a model call as the endpoint returned it: not shipped",
  },
  judge_batch_requests: {
    request: "the full request of a batched judge call (prompt and parameters), as for llm_calls: not shipped",
  },
};

/** Columns shipped in a reduced form. */
const REDUCED: Record<string, Record<string, {sql: (column: string) => string; note: string}>> = {
  sources: {path: {sql: (c) => `parse_filename(${c})`, note: "file name only: absolute paths stay on the machine that imported them"}},
};

export interface StoreColumn {
  name: string;
  /** The column's type in the store, as information_schema names it. */
  type: string;
}

export interface ShippedColumn {
  name: string;
  storeType: string;
  /** The type the page gets (text where the store's type has no plain Parquet form). */
  type: string;
  /** SQL over the store that produces the shipped value. */
  sql: string;
  /** A predicate over the store that is true where a key-shaped substring was redacted. */
  redactedWhen?: string;
  note?: string;
}

export interface WithheldColumn {
  name: string;
  storeType: string;
  reason: string;
}

export interface TablePlan {
  table: string;
  columns: ShippedColumn[];
  withheld: WithheldColumn[];
}

export {ident};

/** Table names become file names and identifiers in the page: letters, digits and _ only. */
export const isSimpleName = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);

const redact = redactedTextSql;
const hasKey = hasKeySql;

/** Decides, column by column, what of `table` ships and how. */
export function planTable(table: string, columns: readonly StoreColumn[]): TablePlan {
  const shipped: ShippedColumn[] = [];
  const withheld: WithheldColumn[] = [];
  for (const {name, type} of columns) {
    const c = ident(name);
    const reason = WITHHELD[table]?.[name] ?? (CREDENTIAL_NAME.test(name) ? "its name says it may hold a credential: not shipped" : undefined);
    const reduced = REDUCED[table]?.[name];
    if (reason) withheld.push({name, storeType: type, reason});
    else if (type === "BLOB") withheld.push({name, storeType: type, reason: "binary data: not shipped"});
    else if (reduced) shipped.push({name, storeType: type, type: "VARCHAR", sql: redact(reduced.sql(c)), redactedWhen: hasKey(reduced.sql(c)), note: reduced.note});
    else if (PLAIN_TYPE.test(type)) shipped.push({name, storeType: type, type, sql: c});
    else if (type === "VARCHAR") shipped.push({name, storeType: type, type, sql: redact(c), redactedWhen: hasKey(c)});
    else if (type === "VARCHAR[]") {
      shipped.push({name, storeType: type, type, sql: `list_transform(${c}, x -> ${redact("x")})`, redactedWhen: `len(list_filter(${c}, x -> ${hasKey("x")})) > 0`});
    } else {
      const text = `CAST(${c} AS VARCHAR)`;
      shipped.push({name, storeType: type, type: "VARCHAR", sql: redact(text), redactedWhen: hasKey(text), note: `shipped as text (${type} in the store)`});
    }
  }
  return {table, columns: shipped, withheld};
}

/** The SQL whose result is the shipped table: the planned columns of the first `limit` rows. */
export function shipSql(plan: TablePlan, limit: number): string {
  const list = plan.columns.map((c) => `${c.sql} AS ${ident(c.name)}`).join(",\n       ");
  return `SELECT ${list || "NULL AS no_columns_shipped"}\nFROM ${ident(plan.table)}\nLIMIT ${limit}`;
}

/** Counts the cells of the first `limit` rows where a key-shaped substring was redacted. */
export function redactedCellsSql(plan: TablePlan, limit: number): string {
  const checks = plan.columns.flatMap((c) => (c.redactedWhen ? [`count(*) FILTER (WHERE ${c.redactedWhen})`] : []));
  return `SELECT ${checks.join(" + ") || "0"} AS cells FROM (SELECT * FROM ${ident(plan.table)} LIMIT ${limit})`;
}

/** The store's tables and views (schema main, simple names), in name order, with their columns. */
export async function storeTables(conn: DuckDBConnection): Promise<{table: string; kind: string; columns: StoreColumn[]}[]> {
  const found = await rows<{table_name: string; table_type: string}>(conn, `
    SELECT table_name, table_type FROM information_schema.tables
    WHERE table_schema = 'main' AND table_catalog = current_database()
    ORDER BY table_name`);
  const columns = await rows<{table_name: string; column_name: string; data_type: string}>(conn, `
    SELECT table_name, column_name, data_type FROM information_schema.columns
    WHERE table_schema = 'main' AND table_catalog = current_database()
    ORDER BY table_name, ordinal_position`);
  return found.filter((t) => isSimpleName(t.table_name)).map((t) => ({
    table: t.table_name,
    kind: t.table_type === "VIEW" ? "view" : "table",
    columns: columns.filter((c) => c.table_name === t.table_name).map((c) => ({name: c.column_name, type: c.data_type})),
  }));
}

/** Where the store tables' Parquet files sit in the site. */
export const tableFile = (table: string): string => `data/tables/${table}.parquet`;

/** The page data files of src/data (`<name>.parquet.ts` loaders), by name: what the pages load. */
export function pageDataNames(dataDir = dirname(fileURLToPath(import.meta.url))): string[] {
  return readdirSync(dataDir)
    .filter((f) => f.endsWith(".parquet.ts"))
    .map((f) => f.slice(0, -".parquet.ts".length))
    .filter((name) => /^[A-Za-z0-9_-]+$/.test(name))
    .sort();
}

/**
 * The files the explorer fetches by a fixed address, for the config's
 * dynamicPaths: one per store table, and a second, unhashed copy of each page
 * data file (the pages' own copies get content-hashed names the explorer
 * cannot know in advance).
 */
export async function explorerPaths(storePath: string): Promise<string[]> {
  const paths = pageDataNames().map((name) => `/data/${name}.parquet`);
  if (!existsSync(storePath)) return paths;
  const store = await openStoreWhenFree(storePath, {readOnly: true});
  try {
    for (const {table} of await storeTables(store.conn)) paths.push(`/${tableFile(table)}`);
  } finally {
    store.close();
  }
  return paths;
}

/** One store table as the explorer page knows it. */
export interface ManifestTable {
  name: string;
  kind: string;
  file: string;
  /** Rows in the store. */
  rows: number;
  /** Rows shipped: the first min(rows, row limit) in the store's order. */
  shippedRows: number;
  columns: {name: string; type: string; storeType: string; note?: string}[];
  withheld: WithheldColumn[];
  /** Cells of the shipped rows in which a key-shaped substring was replaced. */
  redactedCells: number;
}

/** Everything the explorer page needs to list and load the tables. */
export interface ExplorerManifest {
  rowLimit: number;
  tables: ManifestTable[];
  /** The page data files: `name` is the loader's name, `file` where the explorer fetches it. */
  pageData: {name: string; file: string}[];
}

/** Builds the manifest from an open store. */
export async function buildManifest(conn: DuckDBConnection, rowLimit = explorerRowLimit()): Promise<ExplorerManifest> {
  const tables: ManifestTable[] = [];
  for (const {table, kind, columns} of await storeTables(conn)) {
    const plan = planTable(table, columns);
    const [{n}] = await rows<{n: number}>(conn, `SELECT count(*) AS n FROM ${ident(table)}`);
    const [{cells}] = await rows<{cells: number}>(conn, redactedCellsSql(plan, rowLimit));
    tables.push({
      name: table,
      kind,
      file: tableFile(table),
      rows: n,
      shippedRows: Math.min(n, rowLimit),
      columns: plan.columns.map(({name, type, storeType, note}) => ({name, type, storeType, ...(note ? {note} : {})})),
      withheld: plan.withheld,
      redactedCells: Number(cells),
    });
  }
  return {rowLimit, tables, pageData: pageDataNames().map((name) => ({name, file: `data/${name}.parquet`}))};
}
