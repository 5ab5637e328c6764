// The DuckDB store: opening it, migrating its schema, and small query helpers.

import {DuckDBInstance, type DuckDBConnection, type DuckDBValue} from "@duckdb/node-api";
import {readdirSync, readFileSync} from "node:fs";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {ALL_DIMENSIONS} from "../../src/lib/dimensions.js";

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "migrations");

/** Where the store lives unless --db or SOCIOMETER_DB says otherwise. */
export function defaultStorePath(): string {
  return resolve(process.env.SOCIOMETER_DB ?? "data/sociometer.duckdb");
}

export interface Store {
  path: string;
  conn: DuckDBConnection;
  close(): void;
}

export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

/** Opens (and, unless read-only, creates and migrates) the store at `path`. */
export async function openStore(path: string, {readOnly = false} = {}): Promise<Store> {
  const instance = await DuckDBInstance.create(path, readOnly ? {access_mode: "READ_ONLY"} : {});
  const conn = await instance.connect();
  if (!readOnly) await migrate(conn);
  return {
    path,
    conn,
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

/** Applies every migration file not applied yet, each in its own transaction, then refreshes the dimension table. */
export async function migrate(conn: DuckDBConnection): Promise<void> {
  await conn.run(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)",
  );
  const applied = new Set((await rows<{version: number}>(conn, "SELECT version FROM schema_migrations")).map((r) => r.version));
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  for (const file of files) {
    const version = Number.parseInt(file, 10);
    if (applied.has(version)) continue;
    await conn.run("BEGIN TRANSACTION");
    try {
      await conn.run(readFileSync(join(MIGRATIONS_DIR, file), "utf8"));
      await conn.run("INSERT INTO schema_migrations VALUES ($1, $2, now())", [version, file]);
      await conn.run("COMMIT");
    } catch (e) {
      await conn.run("ROLLBACK");
      throw new Error(`migration ${file} failed: ${(e as Error).message}`);
    }
  }
  // Only when it differs: rewriting equal rows still rewrites the file, so a failed import would not leave the store as it was.
  const wanted = ALL_DIMENSIONS.map((d, i) => [d.key, d.benchmark, d.abbrev, d.name, d.lo, d.hi, d.kind, i + 1]);
  const stored = await rows(conn, "SELECT dimension, benchmark, abbrev, name, lo, hi, kind, ord FROM dimensions ORDER BY ord");
  if (JSON.stringify(stored.map((r) => Object.values(r))) === JSON.stringify(wanted)) return;
  await conn.run("BEGIN TRANSACTION");
  await conn.run("DELETE FROM dimensions");
  for (const [i, d] of ALL_DIMENSIONS.entries()) {
    await conn.run("INSERT INTO dimensions VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", [
      d.key, d.benchmark, d.abbrev, d.name, d.lo, d.hi, d.kind, i + 1,
    ]);
  }
  await conn.run("COMMIT");
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
