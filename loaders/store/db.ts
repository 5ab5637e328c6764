// The DuckDB store: opening it, migrating its schema, and small query helpers.

import {DuckDBInstance, type DuckDBConnection, type DuckDBValue} from "@duckdb/node-api";
import {lstatSync, readlinkSync, realpathSync, statSync, type Stats} from "node:fs";
import {basename, dirname, join, resolve} from "node:path";
import {ALL_DIMENSIONS} from "../../src/lib/dimensions.js";
import {describeJournal, endImportJournal, readImportJournal} from "./import-journal.js";
import {describeLeftovers, removeLeftovers, type Leftover} from "./integrity.js";
import {assertKnownMigrations, assertSchemaMatches, committedHashes, migrationFiles, pendingError, pendingMigrations, readSchemaState} from "./schema.js";

export {StoreVersionError} from "./schema.js";

/** Where the store lives unless --db or SOCIOMETER_DB says otherwise. */
export function defaultStorePath(): string {
  return resolve(process.env.SOCIOMETER_DB ?? "data/sociometer.duckdb");
}

export interface Store {
  path: string;
  conn: DuckDBConnection;
  /** The migration files this open applied (none for a current or read-only store). */
  migrated: string[];
  /** What this open removed of an import that was killed before it finished (import-journal.ts); empty mostly. */
  repaired: Leftover[];
  /**
   * A second connection, opened on first use, for reads that must not queue
   * behind `conn`'s transactions (the request cache's look-ups while answers
   * are being committed). It sees committed data only.
   */
  reader(): Promise<DuckDBConnection>;
  close(): void;
}

export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

/**
 * The store files this process has open, and whether for writing. DuckDB's
 * file lock is per process, so a second instance of a file already open here
 * opens without complaint, and whichever closes last writes its own state over
 * the other's: rows written through one are silently gone (measured with
 * @duckdb/node-api 1.5). Such an open is refused instead.
 */
interface OpenStoreFile {
  readOnly: boolean;
  /** Every name this open is known by: its canonical path, and the file's device and inode once it exists. */
  keys: Set<string>;
}
const openHere = new Set<OpenStoreFile>();

/** The file's canonical name, so two spellings of one path (`./x`, a symlink) count as one; the file may not exist yet. */
function canonicalStorePath(path: string, linksFollowed = 0): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    // A symlink to a file DuckDB has yet to create names that file.
    if (linksFollowed < 40 && lstatOrNull(absolute)?.isSymbolicLink()) {
      return canonicalStorePath(resolve(dirname(absolute), readlinkSync(absolute)), linksFollowed + 1);
    }
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * The file itself, whatever it is called: a hard link to it has a canonical
 * path of its own.
 */
function storeFileIdentity(path: string): string | null {
  try {
    const stat = statSync(path, {bigint: true});
    return `inode ${stat.dev}:${stat.ino}`;
  } catch {
    return null;
  }
}

/**
 * Counts an open of `path`, or throws if it would be a second instance of a
 * file open for writing in this process. `opened` adds the file's identity
 * once DuckDB has created it, so a later open by another name is caught too.
 */
function claimStoreFile(path: string, readOnly: boolean): {release(): void; opened(): void} {
  if (path === ":memory:" || path === "") return {release() {}, opened() {}};
  const keys = new Set([canonicalStorePath(path)]);
  const identity = storeFileIdentity(path);
  if (identity) keys.add(identity);
  let clash: "for writing" | "read-only" | null = null;
  for (const other of openHere) {
    if (readOnly && other.readOnly) continue;
    for (const key of keys) if (other.keys.has(key)) clash = other.readOnly && clash !== "for writing" ? "read-only" : "for writing";
  }
  if (clash) {
    throw new Error(
      `${path}: the store is already open ${clash} in this process; ` +
        "a second DuckDB instance of the same file would lose one side's writes. Use the open store, or close it first.",
    );
  }
  const mine: OpenStoreFile = {readOnly, keys};
  openHere.add(mine);
  return {
    release: () => void openHere.delete(mine),
    opened: () => {
      const created = storeFileIdentity(path);
      if (created) keys.add(created);
    },
  };
}

export interface OpenOptions {
  readOnly?: boolean;
  /** Told what was removed of an interrupted import; default: written to stderr. */
  onRepair?: (message: string) => void;
}

/**
 * Opens the store at `path`: read-write creates and migrates it; read-only
 * refuses a store that needs migrating. An import killed before it finished
 * left its journal: read-write removes the rows it left (integrity.ts) and
 * says so; read-only refuses the store until that is done.
 */
export async function openStore(path: string, {readOnly = false, onRepair}: OpenOptions = {}): Promise<Store> {
  const {release, opened: claimOpened} = claimStoreFile(path, readOnly);
  let instance: DuckDBInstance | undefined;
  let conn: DuckDBConnection;
  try {
    instance = await DuckDBInstance.create(path, readOnly ? {access_mode: "READ_ONLY"} : {});
    claimOpened();
    conn = await instance.connect();
  } catch (e) {
    // The claim goes only with the instance: an instance left open would be the second one the claim is there to prevent.
    try {
      instance?.closeSync();
    } finally {
      release();
    }
    throw e;
  }
  const opened = instance;
  let reader: Promise<DuckDBConnection> | null = null;
  let readerConn: DuckDBConnection | null = null;
  const close = () => {
    try {
      readerConn?.closeSync();
      conn.closeSync();
    } finally {
      try {
        opened.closeSync();
      } finally {
        release();
      }
    }
  };
  let migrated: string[] = [];
  let repaired: Leftover[] = [];
  try {
    if (readOnly) await assertCurrentSchema(conn, path);
    else migrated = await migrate(conn, path);
    // DuckDB's lock kept everyone else out while the import ran: a journal found now is one whose process died.
    const journal = readImportJournal(path);
    if (journal && readOnly) {
      throw new Error(`${basename(path)}: ${describeJournal(journal)} did not finish, and what it left has not been checked: ` +
        `run \`sociometer repair --db ${path}\` (or any command that writes to the store), then again`);
    }
    if (journal) {
      repaired = await removeLeftovers(conn);
      endImportJournal(path);
      (onRepair ?? ((m: string) => process.stderr.write(`${m}\n`)))(
        `store: ${basename(path)}: ${describeJournal(journal)} did not finish; ` +
          (repaired.length ? `removed what it left (${describeLeftovers(repaired)}). Import its files again.` : "it left nothing behind."));
    }
  } catch (e) {
    close();
    throw e;
  }
  return {path, conn, migrated, repaired, close, reader: () => (reader ??= opened.connect().then((c) => (readerConn = c)))};
}

/** Refuses (StoreVersionError) a store whose schema is not exactly this version's, without writing. */
async function assertCurrentSchema(conn: DuckDBConnection, storePath: string): Promise<void> {
  const files = migrationFiles();
  const state = await readSchemaState(conn);
  await assertKnownMigrations(conn, storePath, state, files);
  const pending = pendingMigrations(state, files);
  if (pending.length) throw pendingError(storePath, state, pending, files);
}

/**
 * Applies the migrations the store lacks, all in one transaction, records
 * their hashes (and the committed hashes of migrations applied before hashes
 * were recorded), then refreshes the dimension table if it changed. A store
 * that is already current is not written to. Returns the files applied.
 */
export async function migrate(conn: DuckDBConnection, storePath: string): Promise<string[]> {
  const files = migrationFiles();
  const state = await readSchemaState(conn);
  await assertKnownMigrations(conn, storePath, state, files);
  const pending = pendingMigrations(state, files);
  const unhashed = state.applied.filter((m) => m.sha256 === null);
  // Hashes cannot tell whether a store made before them saw a migration edited since: its tables can.
  if (unhashed.length) await assertSchemaMatches(conn, storePath, state, files);
  if (pending.length || unhashed.length || !state.tracked) {
    const committed = committedHashes();
    await conn.run("BEGIN TRANSACTION");
    let current = "creating schema_migrations";
    try {
      await conn.run(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)",
      );
      for (const file of pending) {
        current = file.name;
        await conn.run(file.sql);
        await conn.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())", [file.version, file.name]);
      }
      current = "recording migration hashes";
      // After the pending migrations, since 007 adds the column; a store made before it gets the committed hashes.
      for (const m of unhashed) {
        await conn.run("UPDATE schema_migrations SET sha256 = $1 WHERE version = $2", [committed[m.name] ?? null, m.version]);
      }
      for (const file of pending) await conn.run("UPDATE schema_migrations SET sha256 = $1 WHERE version = $2", [file.sha256, file.version]);
      await conn.run("COMMIT");
    } catch (e) {
      await conn.run("ROLLBACK");
      throw new Error(`migrating store ${basename(storePath)} failed at ${current}: ${(e as Error).message} (store unchanged: no migration applied)`);
    }
  }
  await refreshDimensions(conn);
  return pending.map((f) => f.name);
}

/** Rewrites the dimension table from the metric library, only when its rows differ (so an unchanged store stays byte-identical). */
async function refreshDimensions(conn: DuckDBConnection): Promise<void> {
  const wanted = ALL_DIMENSIONS.map((d, i) => [d.key, d.benchmark, d.abbrev, d.name, d.lo, d.hi, d.kind, i + 1] as const);
  const stored = await rows<Record<string, unknown>>(conn, "SELECT dimension, benchmark, abbrev, name, lo, hi, kind, ord FROM dimensions ORDER BY ord, benchmark, dimension");
  const same = stored.length === wanted.length && stored.every((r, i) => JSON.stringify(Object.values(r)) === JSON.stringify(wanted[i]));
  if (same) return;
  await conn.run("BEGIN TRANSACTION");
  try {
    await conn.run("DELETE FROM dimensions");
    for (const values of wanted) await conn.run("INSERT INTO dimensions VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", [...values]);
    await conn.run("COMMIT");
  } catch (e) {
    await conn.run("ROLLBACK");
    throw e;
  }
}

/** Runs a query and returns its rows as plain objects (BIGINT and HUGEINT become numbers). */
export async function rows<T = Record<string, unknown>>(conn: DuckDBConnection, sql: string, params?: Params): Promise<T[]> {
  const reader = await conn.runAndReadAll(sql, params);
  return reader.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) out[k] = typeof v === "bigint" ? Number(v) : v;
    return out as T;
  });
}
