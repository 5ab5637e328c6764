// Temporary stores and a snapshot of their contents, to prove an import changed nothing.

import {copyFileSync, mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterEach, expect} from "vitest";
import {ImportError} from "../../loaders/import/errors.js";
import {importFiles} from "../../loaders/import/session.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
import {sharedSamplesStore, sharedSotopiaPiStore} from "./shared-stores.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** A fresh directory removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "sociometer-test-"));
  cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
  return dir;
}

/** A fresh store in a temporary directory, closed after the test. */
export async function tempStore(): Promise<Store & {dir: string}> {
  const dir = tempDir();
  const store = await openStore(join(dir, "test.duckdb"));
  cleanups.unshift(() => store.close());
  return Object.assign(store, {dir});
}

/** A copy of `shared` (a store the run fills once: shared-stores.ts) in a temporary directory, the test's own, closed after the test. */
async function tempCopy(shared: Promise<string>): Promise<Store & {dir: string}> {
  const dir = tempDir();
  copyFileSync(await shared, join(dir, "test.duckdb"));
  const store = await openStore(join(dir, "test.duckdb"));
  cleanups.unshift(() => store.close());
  return Object.assign(store, {dir});
}

/** A store of the bundled samples, the test's own. */
export const tempSamplesStore = (): Promise<Store & {dir: string}> => tempCopy(sharedSamplesStore());

/** A store of the Sotopia-π human evaluation (its episode logs, then its annotation CSVs), the test's own. */
export const tempSotopiaPiStore = (): Promise<Store & {dir: string}> => tempCopy(sharedSotopiaPiStore());

export function writeFile(dir: string, name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Every row of every data table, for before/after comparisons. */
export async function snapshot(store: Store): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of ["sources", "source_readers", "episodes", "participants", "messages", "ratings", "spoken_words"]) {
    const columns = t === "sources" ? "* EXCLUDE (imported_at)" : "*";
    out[t] = await rows(store.conn, `SELECT ${columns} FROM ${t} ORDER BY ALL`);
  }
  return out;
}

export const count = async (store: Store, sql: string): Promise<number> =>
  Number(Object.values((await rows(store.conn, sql))[0])[0]);

/** Imports and expects an ImportError, checking the store is exactly as before; returns the error. */
export async function expectImportFailure(store: Store, format: string, paths: string[]): Promise<ImportError> {
  const before = await snapshot(store);
  const error = await importFiles(store, format, paths).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ImportError);
  expect(await snapshot(store)).toEqual(before);
  return error as ImportError;
}
