// The store's schema version: which migration files this sociometer has, which
// ones a store has applied (with their hashes), and the clear refusal when the
// two disagree in a way that applying migrations cannot fix.

import {DuckDBInstance, type DuckDBConnection} from "@duckdb/node-api";
import {createHash} from "node:crypto";
import {readdirSync, readFileSync} from "node:fs";
import {basename, dirname, join} from "node:path";
import {fileURLToPath} from "node:url";

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "migrations");

/** Where the hash of every landed migration is committed (a test keeps it true). */
export const COMMITTED_HASHES_PATH = join(MIGRATIONS_DIR, "hashes.json");

export interface MigrationFile {
  version: number;
  name: string;
  sql: string;
  sha256: string;
}

export interface AppliedMigration {
  version: number;
  name: string;
  /** NULL for migrations applied before hashes were recorded (before 007). */
  sha256: string | null;
}

/** What a store has applied, read without writing anything. */
export interface SchemaState {
  applied: AppliedMigration[];
  /** schema_migrations exists (false for a new, empty file). */
  tracked: boolean;
  /** schema_migrations has the sha256 column (migration 007). */
  hashed: boolean;
}

/** A store this sociometer cannot use as it is; the message says what to do. */
export class StoreVersionError extends Error {
  override name = "StoreVersionError";
}

/**
 * The sha256 of a migration's text. Line endings are normalised so a checkout
 * that turns LF into CRLF does not look like an edit.
 */
export function migrationHash(sql: string): string {
  return createHash("sha256").update(sql.replace(/\r\n/g, "\n")).digest("hex");
}

/** Every migration file, in version order. */
export function migrationFiles(): MigrationFile[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort()
    .map((name) => {
      const sql = readFileSync(join(MIGRATIONS_DIR, name), "utf8");
      return {version: Number.parseInt(name, 10), name, sql, sha256: migrationHash(sql)};
    });
}

/** The committed hash of each landed migration, by file name. */
export function committedHashes(): Record<string, string> {
  return JSON.parse(readFileSync(COMMITTED_HASHES_PATH, "utf8")) as Record<string, string>;
}

/** Reads the store's schema_migrations, whichever version made it. */
export async function readSchemaState(conn: DuckDBConnection): Promise<SchemaState> {
  const columns = (await conn.runAndReadAll(
    "SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'schema_migrations'",
  )).getRowObjectsJS().map((r) => String(r.column_name));
  if (!columns.length) return {applied: [], tracked: false, hashed: false};
  const hashed = columns.includes("sha256");
  const applied = (await conn.runAndReadAll(
    `SELECT version, name, ${hashed ? "sha256" : "NULL::VARCHAR"} AS sha256 FROM schema_migrations ORDER BY version`,
  )).getRowObjectsJS().map((r) => ({version: Number(r.version), name: String(r.name), sha256: r.sha256 === null ? null : String(r.sha256)}));
  return {applied, tracked: true, hashed};
}

/** The migrations a store lacks, in the order they apply. */
export function pendingMigrations(state: SchemaState, files: MigrationFile[]): MigrationFile[] {
  const applied = new Set(state.applied.map((m) => m.version));
  return files.filter((f) => !applied.has(f.version));
}

const describeVersion = (applied: AppliedMigration[]): string => {
  const last = applied.at(-1);
  return last ? `schema version ${last.version} (${last.name})` : "schema version 0 (no migrations)";
};

/**
 * Throws a StoreVersionError when the store holds a migration this sociometer
 * does not know (a newer version wrote it) or one whose recorded hash differs
 * from the file here (the file was edited after the store was made). Applying
 * migrations fixes neither. A migration recorded without a hash counts as the
 * committed one: it was applied before hashes were recorded.
 */
export async function assertKnownMigrations(conn: DuckDBConnection, storePath: string, state: SchemaState, files: MigrationFile[]): Promise<void> {
  const byVersion = new Map(files.map((f) => [f.version, f]));
  const store = basename(storePath);
  const current = files.at(-1);
  const ours = current ? `schema version ${current.version} (${current.name})` : "no migrations";
  const unknown = state.applied.filter((m) => !byVersion.has(m.version));
  if (unknown.length) {
    throw new StoreVersionError(
      `store ${store} is at ${describeVersion(state.applied)}, newer than this sociometer, which knows up to ${ours}: ` +
        `it does not know ${unknown.map((m) => m.name).join(", ")}. Open the store with the sociometer that wrote it, ` +
        `or rebuild it with this one by importing its sources into a new store (--db NEW_FILE). ${await describeSources(conn)}`,
    );
  }
  for (const m of state.applied) {
    const file = byVersion.get(m.version)!;
    const renamed = m.name !== file.name;
    if (!renamed && (m.sha256 === null || m.sha256 === file.sha256)) continue;
    const what = renamed
      ? `recorded migration ${m.version} as ${m.name}, but this sociometer's migration ${m.version} is ${file.name}`
      : `recorded migration ${m.name} with sha256 ${m.sha256!.slice(0, 12)}…, but this sociometer's ${file.name} has sha256 ${file.sha256.slice(0, 12)}…`;
    throw new StoreVersionError(
      `store ${store}, at ${describeVersion(state.applied)}, ${what}: the migration changed after the store was made, ` +
        `so its tables may not be what this version expects. \`sociometer migrate\` cannot repair that; ` +
        `rebuild the store by importing its sources into a new store (--db NEW_FILE). ${await describeSources(conn)}`,
    );
  }
}

/** The most schema differences a refusal names; the rest are counted. */
const LISTED_DIFFERENCES = 5;

/**
 * For a store whose migrations carry no hashes (made before 007): throws a
 * StoreVersionError when its tables differ from what its migrations create
 * today, i.e. one of them was edited in place after the store was made. Run
 * once, when such a store records its hashes. Compares table and column names
 * and types against the same migrations applied to an empty in-memory database.
 */
export async function assertSchemaMatches(conn: DuckDBConnection, storePath: string, state: SchemaState, files: MigrationFile[]): Promise<void> {
  const applied = new Set(state.applied.map((m) => m.version));
  const own = files.filter((f) => applied.has(f.version));
  const reference = await DuckDBInstance.create(":memory:");
  const refConn = await reference.connect();
  let expected: Map<string, string>;
  try {
    for (const f of own) await refConn.run(f.sql);
    expected = await columnTypes(refConn);
  } finally {
    refConn.closeSync();
    reference.closeSync();
  }
  const actual = await columnTypes(conn);
  const creator = (table: string) => own.find((f) => new RegExp(`CREATE TABLE\\s+${table}\\b`, "i").test(f.sql))?.name;
  const differences: string[] = [];
  for (const [key, type] of expected) {
    const [table, column] = key.split(".") as [string, string];
    const found = actual.get(key);
    if (found === type) continue;
    const by = creator(table) ? ` (${creator(table)})` : "";
    differences.push(found === undefined ? `table ${table} lacks column ${column} ${type}${by}` : `column ${table}.${column} is ${found}, not ${type}${by}`);
  }
  // Tables of the user's own beside the store's are no concern; extra columns in the store's tables are (positional inserts).
  const tables = new Set(Array.from(expected.keys(), (key) => key.split(".")[0]));
  for (const [key, type] of actual) {
    if (tables.has(key.split(".")[0]) && !expected.has(key)) differences.push(`column ${key} ${type} is no longer created by its migration`);
  }
  if (!differences.length) return;
  const listed = differences.slice(0, LISTED_DIFFERENCES).join("; ");
  const more = differences.length > LISTED_DIFFERENCES ? ` (and ${differences.length - LISTED_DIFFERENCES} more)` : "";
  throw new StoreVersionError(
    `store ${basename(storePath)}, at ${describeVersion(state.applied)}, was made with migrations that have changed since: ` +
      `${listed}${more}. \`sociometer migrate\` cannot repair that; rebuild the store by importing its sources ` +
      `into a new store (--db NEW_FILE). ${await describeSources(conn)}`,
  );
}

/** Every column of the store's own tables (not views, not DuckDB's catalog) but schema_migrations, as "table.column" → type. */
async function columnTypes(conn: DuckDBConnection): Promise<Map<string, string>> {
  const reader = await conn.runAndReadAll(
    `SELECT table_name, column_name, data_type FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name = 'main' AND table_name <> 'schema_migrations'
       AND table_name IN (SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main')
     ORDER BY table_name, column_index`,
  );
  return new Map(reader.getRowObjectsJS().map((r) => [`${String(r.table_name)}.${String(r.column_name)}`, String(r.data_type)]));
}

/** The refusal for a read-only open of a store that still lacks migrations. */
export function pendingError(storePath: string, state: SchemaState, pending: MigrationFile[], files: MigrationFile[]): StoreVersionError {
  const current = files.at(-1)!;
  return new StoreVersionError(
    `store ${basename(storePath)} is at ${describeVersion(state.applied)}; this sociometer needs schema version ${current.version} ` +
      `(not applied yet: ${pending.map((f) => f.name).join(", ")}). Run \`sociometer migrate\` to upgrade it ` +
      `(--db FILE for a store other than data/sociometer.duckdb); commands that write, such as import, upgrade it too.`,
  );
}

/** The most source files a refusal names; the rest are counted. */
const LISTED_SOURCES = 20;

/** The files the store was imported from, by format, for rebuilding it. */
async function describeSources(conn: DuckDBConnection): Promise<string> {
  let sources: {format: string; path: string}[];
  try {
    sources = (await conn.runAndReadAll("SELECT format, path FROM sources ORDER BY format, path")).getRowObjectsJS()
      .map((r) => ({format: String(r.format), path: String(r.path)}));
  } catch {
    return "Its sources table could not be read.";
  }
  if (!sources.length) return "It lists no source files.";
  const byFormat = new Map<string, string[]>();
  for (const s of sources.slice(0, LISTED_SOURCES)) {
    const names = byFormat.get(s.format) ?? [];
    names.push(basename(s.path));
    byFormat.set(s.format, names);
  }
  const listed = Array.from(byFormat, ([format, names]) => `sociometer import ${format} ${names.join(" ")}`).join("; ");
  const more = sources.length > LISTED_SOURCES ? ` (and ${sources.length - LISTED_SOURCES} more, in its sources table)` : "";
  return `Its ${sources.length} source file(s), by format: ${listed}${more}.`;
}
