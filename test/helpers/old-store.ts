// Store files as older (or newer) versions of sociometer left them, written
// directly with DuckDB rather than through openStore, which would upgrade them.

import {DuckDBInstance} from "@duckdb/node-api";
import {createHash} from "node:crypto";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {rows} from "../../loaders/store/db.js";
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
