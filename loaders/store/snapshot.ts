// One consistent copy of the store for the site's build: every data loader
// and the site config read the copy, so an import that lands while the site
// builds cannot give two pages two different stores.

import {DuckDBInstance} from "@duckdb/node-api";
import {copyFileSync, existsSync, rmSync} from "node:fs";
import {openStoreWhenFree, type WaitOptions} from "./wait-for-lock.js";

export interface SnapshotOptions extends WaitOptions {
  /** Runs while the store is held, after the copy: what it reads of the live files belongs to the copied state. */
  whileHeld?: () => void;
}

/**
 * Copies the store at `livePath` to `snapshotPath`. The store is held
 * read-only (waiting while a writer has it) while its file and write-ahead
 * log are copied, so no writer can change either in between; the copy then
 * folds its log in, so that each reader of it need not replay the log again.
 */
export async function snapshotStore(livePath: string, snapshotPath: string, o: SnapshotOptions = {}): Promise<void> {
  for (const file of [snapshotPath, `${snapshotPath}.wal`]) rmSync(file, {force: true});
  const live = await openStoreWhenFree(livePath, {...o, readOnly: true});
  try {
    copyFileSync(livePath, snapshotPath);
    if (existsSync(`${livePath}.wal`)) copyFileSync(`${livePath}.wal`, `${snapshotPath}.wal`);
    o.whileHeld?.();
  } finally {
    live.close();
  }
  // Opened directly, not through openStore: a snapshot is read as it is, never migrated.
  const instance = await DuckDBInstance.create(snapshotPath);
  try {
    const conn = await instance.connect();
    await conn.run("CHECKPOINT");
    conn.closeSync();
  } finally {
    instance.closeSync();
  }
}
