// A file beside the store that says an import is under way: written (and
// synced) before the import's transaction begins, removed once it has
// committed or rolled back. Found when the store is opened, it means the
// process doing the import was killed, and the store is checked for rows that
// import left behind (integrity.ts).
//
// Why a commit cannot simply be trusted: DuckDB 1.5 writes a table's rows that
// fill whole row groups (122,880 rows) straight into the database file and
// logs only pointers to them in the WAL. Replaying a WAL cut short by a kill
// during the commit keeps those pointers' rows although the commit never
// finished, and drops the rest of the transaction: a SIGKILL while a 9,744-
// episode import committed left its 136,416 ratings and 204,260 messages in
// the store without their episodes (BENCHMARKS.md, import-kill). The import
// now commits by checkpoint instead (session.ts), which writes no WAL; this
// journal is what catches a commit DuckDB still sends through the WAL.

import {closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync, writeSync} from "node:fs";

export interface ImportJournal {
  pid: number;
  /** When the import began (ISO 8601, UTC). */
  started: string;
  format: string;
  files: string[];
}

/** Stores that are no file (DuckDB's in-memory database) have no journal. */
const journaled = (storePath: string): boolean => storePath !== ":memory:" && !storePath.startsWith(":memory:");

export const journalPath = (storePath: string): string => `${storePath}.importing`;

/** Writes the journal and syncs it to disk, so that it outlives a kill that comes right after. */
export function beginImportJournal(storePath: string, journal: Omit<ImportJournal, "pid" | "started">): void {
  if (!journaled(storePath)) return;
  const body: ImportJournal = {pid: process.pid, started: new Date().toISOString(), ...journal};
  const fd = openSync(journalPath(storePath), "w");
  try {
    writeSync(fd, `${JSON.stringify(body)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function endImportJournal(storePath: string): void {
  if (journaled(storePath)) rmSync(journalPath(storePath), {force: true});
}

/** The journal of an import that did not finish, or null. A journal that cannot be read still says one did not. */
export function readImportJournal(storePath: string): ImportJournal | {unreadable: string} | null {
  if (!journaled(storePath) || !existsSync(journalPath(storePath))) return null;
  const text = readFileSync(journalPath(storePath), "utf8");
  try {
    return JSON.parse(text) as ImportJournal;
  } catch {
    // Killed while writing the journal itself: the import had not begun its transaction, but the check costs little.
    return {unreadable: text.slice(0, 200)};
  }
}

/** "the sotopia import of d.jsonl begun 2026-12-08T02:00:00Z (process 123)", for messages. */
export function describeJournal(j: ImportJournal | {unreadable: string}): string {
  if ("unreadable" in j) return "an import (its journal is unreadable)";
  const files = j.files.length === 1 ? j.files[0] : `${j.files.length} files (${j.files[0]}, …)`;
  return `the ${j.format} import of ${files} begun ${j.started} (process ${j.pid})`;
}
