// The part of `npm run store` (scripts/ensure-store.ts) that opens the store:
// a missing store is built from the bundled samples; a store that holds only
// the samples is brought up to date with them (imports are idempotent:
// unchanged files do nothing, changed ones replace their rows). A store with
// anything else in it is left alone, but one that needs `sociometer migrate`
// (or a rebuild) is refused (StoreVersionError), with what to do, rather than
// by the first data loader of the build.

import {DuckDBInstance} from "@duckdb/node-api";
import {existsSync, renameSync, rmSync} from "node:fs";
import {importSamples, SAMPLE_IMPORTS} from "../loaders/samples.js";
import {stderrProgress} from "../loaders/progress.js";
import {rows} from "../loaders/store/db.js";
import {openStoreWhenFree, whenFree} from "../loaders/store/wait-for-lock.js";

export {StoreVersionError} from "../loaders/store/db.js";

const samplePaths = new Set(SAMPLE_IMPORTS.map((s) => s.path));

async function fill(target: string): Promise<void> {
  // An import may hold the store: wait for it rather than fail on DuckDB's lock.
  const store = await openStoreWhenFree(target);
  try {
    for (const s of await importSamples(store, stderrProgress())) {
      const changed = s.files.filter((f) => f.status !== "unchanged").length;
      if (changed) process.stderr.write(`  ${s.format}: ${s.episodes} episodes, ${s.ratings} scores\n`);
    }
    await store.conn.run("CHECKPOINT");
  } finally {
    store.close();
  }
}

/**
 * The files the store was imported from, read directly: a sample store is
 * upgraded by fill, so this must not refuse an older schema (every version
 * has sources.path).
 */
async function sourcePaths(target: string): Promise<string[]> {
  const instance = await whenFree(target, () => DuckDBInstance.create(target, {access_mode: "READ_ONLY"}));
  const conn = await instance.connect();
  try {
    return (await rows<{path: string}>(conn, "SELECT path FROM sources")).map((s) => s.path);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Builds, refreshes or checks the store at `path`, as the file's comment says. */
export async function ensureStore(path: string): Promise<void> {
  if (!existsSync(path)) {
    process.stderr.write(`store: building ${path} from the bundled synthetic samples…\n`);
    // Built aside and renamed, so an interrupted build never leaves a half-filled store behind.
    const building = `${path}.building`;
    rmSync(building, {force: true});
    rmSync(`${building}.wal`, {force: true});
    await fill(building);
    renameSync(building, path);
  } else {
    const sources = await sourcePaths(path);
    if (sources.every((s) => samplePaths.has(s))) {
      process.stderr.write(`store: ${path} (bundled samples; refreshing any that changed)\n`);
      await fill(path);
    } else {
      process.stderr.write(`store: ${path} (your data; left as it is)\n`);
      (await openStoreWhenFree(path, {readOnly: true})).close();
    }
  }
}
