// A query that both a page's first-view pack and a Parquet loader ship (the
// SOTOPIA statistics, the overview counts, …) runs once per build, not once per
// output (issue 18: SOTOPIA's pack took 65 s at 100k running the loader's
// aggregation a second time). src/data/run-loaders.ts runs every loader of a
// build in one process, so the first loader that needs a query's result writes
// it as Parquet to this process's temporary folder and the others read that
// file. A loader run alone (`observable preview`) pays for its queries itself,
// as before.

import {createReadStream, existsSync, mkdtempSync, rmSync, statSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {pipeline} from "node:stream/promises";
import {defaultStorePath, type Store} from "../../loaders/store/db.js";
import {exportQuery} from "../../loaders/store/export.js";
import {redactedQuery} from "./redaction.js";
import {withStore} from "./store.js";

let folder: string | null = null;
/** Result files by store version and query, for this process. */
const results = new Map<string, Promise<string>>();

/** The store's path, size and modification time: a result is reused only while the store is the same file, unchanged. */
function storeVersion(): string {
  const path = defaultStorePath();
  const parts = [path];
  for (const file of [path, `${path}.wal`]) {
    if (existsSync(file)) {
      const {size, mtimeMs} = statSync(file);
      parts.push(`${size}:${mtimeMs}`);
    }
  }
  return parts.join("|");
}

function resultFolder(): string {
  if (folder === null) {
    const made = mkdtempSync(join(tmpdir(), "sociometer-shared-"));
    folder = made;
    process.once("exit", () => rmSync(made, {recursive: true, force: true}));
  }
  return folder;
}

/**
 * The path of a Parquet file holding the result of `sql` over the store (key-
 * shaped text redacted, as every loader ships it), written by the first caller
 * in this process and reused by the others. The file is the loader's output
 * byte for byte: the same query through the same writer (exportQuery).
 */
export function sharedResult(store: Store, sql: string): Promise<string> {
  return sharedFile(`query\u0000${sql}`, async (file) => exportQuery(store.conn, await redactedQuery(store.conn, sql), file, "parquet"));
}

/**
 * Like sharedResult, but the text as stored, not redacted: only for a loader
 * that computes from the text itself (scoring answers, where a redacted
 * "password: …" would match another) and redacts what it outputs
 * (first-view-pack.ts, `asStored`). The file stays in this process's
 * temporary folder and is never shipped.
 */
export function sharedStoredResult(store: Store, sql: string): Promise<string> {
  return sharedFile(`stored query\u0000${sql}`, (file) => exportQuery(store.conn, sql, file, "parquet"));
}

/**
 * The path of a Parquet file that `make` writes (given the path) for `name`
 * over the store as it is now, made by the first caller in this process and
 * reused by the others while the store is unchanged. `make` writes what the
 * site may ship (key-shaped text redacted), but for sharedStoredResult's
 * files, which only a loader's own computation reads.
 */
export function sharedFile(name: string, make: (file: string) => Promise<void>): Promise<string> {
  const key = `${storeVersion()}\u0000${name}`;
  let result = results.get(key);
  if (!result) {
    const file = join(resultFolder(), `${results.size}.parquet`);
    result = make(file).then(() => file);
    // A failed query is not remembered: the next caller runs it again and reports its own error.
    result.catch(() => results.delete(key));
    results.set(key, result);
  }
  return result;
}

/** Writes the result of `sql` over the store as Parquet to stdout (a `*.parquet.ts` loader), through sharedResult. */
export async function emitSharedParquet(sql: string): Promise<void> {
  await withStore(async (store) => {
    const file = await sharedResult(store, sql);
    await pipeline(createReadStream(file), process.stdout, {end: false});
  });
}
