// Store files as older (or newer) versions of sociometer left them, written
// directly with DuckDB rather than through openStore, which would upgrade them.

import {DuckDBInstance} from "@duckdb/node-api";
import {createHash} from "node:crypto";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {rows} from "../../loaders/store/db.js";
import {migrationFiles} from "../../loaders/store/schema.js";
import {REPO} from "./fixtures.js";
import {tempDir} from "./store.js";

const OLD_STORE_SQL = join(REPO, "test", "fixtures", "store-v5.sql");

/** Runs SQL on a store file directly. */
export async function onFile(path: string, sql: string): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  try {
    await conn.run(sql);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Reads a store file directly, whatever its schema. */
export async function readFile(path: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(path, {access_mode: "READ_ONLY"});
  const conn = await instance.connect();
  try {
    return await rows(conn, sql);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** A new store file `old.duckdb` holding test/fixtures/store-v5.sql: schema version 5, made before hashes. */
export async function oldStore(): Promise<string> {
  const path = join(tempDir(), "old.duckdb");
  await onFile(path, readFileSync(OLD_STORE_SQL, "utf8"));
  return path;
}

/** The sha256 of a file's bytes, to prove a command left it as it was. */
export const fileSha256 = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");

/**
 * What a read-only open says of the oldStore(): the migrations it lacks, up to
 * this version's latest, taken from the migration list so that adding a
 * migration changes no test's expected text.
 */
export function pendingMigrationsMessage(): string {
  const files = migrationFiles();
  const latest = files.at(-1)!;
  const missing = files.filter((m) => m.version > 5).map((m) => m.name).join(", ");
  return `store old.duckdb is at schema version 5 (005_runs.sql); this sociometer needs schema version ${latest.version} ` +
    `(not applied yet: ${missing}). Run \`sociometer migrate\` to upgrade it ` +
    "(--db FILE for a store other than data/sociometer.duckdb); commands that write, such as import, upgrade it too.";
}
