// How a command opens the store: waiting while another process holds it, and
// never leaving behind a store it created for nothing. A store of some
// megabytes made by a command that failed, or wrote no row, would look like
// data and say nothing of what happened.

import {existsSync, rmSync} from "node:fs";
import type {Store} from "../store/db.js";
import {openStoreWhenFree} from "../store/wait-for-lock.js";

export interface CommandStoreOptions {
  readOnly?: boolean;
  /** When the store must exist already: the error to give if it does not (say what creates one). */
  missing?: string;
  /** Told once if another process holds the store. */
  onWait?: (message: string) => void;
  /**
   * Keep a store this command created when it fails having written to it: a
   * runner's cached answers are what lets the same command resume.
   */
  keepOnFailure?: boolean;
}

export interface CommandStore {
  store: Store;
  /**
   * Closes the store. One this command created is removed if the command
   * wrote no row (every table holds what migrating a new store put there), or
   * failed (unless keepOnFailure), so a failed first import or a run that got
   * no answer leaves nothing.
   */
  close(outcome: {failed: boolean}): Promise<void>;
}

/** Row counts of every table: what a new store holds, to tell later whether anything was written. */
async function tableSizes(store: Store): Promise<Map<string, bigint>> {
  const tables = await store.conn.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary");
  const sizes = new Map<string, bigint>();
  for (const [name] of tables.getRows() as [string][]) {
    const count = await store.conn.runAndReadAll(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`);
    sizes.set(name, count.getRows()[0]![0] as bigint);
  }
  return sizes;
}

const sameSizes = (a: Map<string, bigint>, b: Map<string, bigint>): boolean =>
  a.size === b.size && [...a].every(([name, n]) => b.get(name) === n);

/** Opens the store at `dbPath` for one command, waiting while another process holds it. */
export async function openCommandStore(dbPath: string, o: CommandStoreOptions = {}): Promise<CommandStore> {
  const exists = existsSync(dbPath);
  if (!exists && o.missing) throw new Error(o.missing);
  if (!exists && o.readOnly) throw new Error(`no store at ${dbPath}; import something first (sociometer import-samples)`);
  let creating = !exists;
  const store = await openStoreWhenFree(dbPath, {readOnly: o.readOnly, onWait: (message) => {
    // A store held by another is that process's, even if it was created while this one started: never remove it.
    creating = false;
    (o.onWait ?? ((m) => process.stderr.write(`${m}\n`)))(message);
  }});
  const fresh = creating ? await tableSizes(store) : null;
  let closed = false;
  return {
    store,
    async close({failed}) {
      if (closed) return;
      closed = true;
      let remove = false;
      try {
        remove = fresh !== null && ((failed && !o.keepOnFailure) || sameSizes(fresh, await tableSizes(store)));
      } catch {
        // A store that cannot be read now is kept, for someone to look at; the command's own error says what happened.
      } finally {
        store.close();
      }
      if (remove) for (const file of [dbPath, `${dbPath}.wal`]) rmSync(file, {force: true});
    },
  };
}

/** Runs `fn` on the store at `dbPath`, opened and closed as openCommandStore says. */
export async function withCommandStore<T>(dbPath: string, o: CommandStoreOptions, fn: (s: Store) => Promise<T>): Promise<T> {
  const opened = await openCommandStore(dbPath, o);
  let failed = true;
  try {
    const result = await fn(opened.store);
    failed = false;
    return result;
  } finally {
    await opened.close({failed});
  }
}

/** `judge`'s error for a store that does not exist: a judge scores what a store already holds. */
export const noStoreToJudge = (dbPath: string): string =>
  `no store at ${dbPath}: a judge scores the episodes a store holds; import some first (sociometer import-samples, or sociometer import <format> FILE) or make some with sociometer run`;
