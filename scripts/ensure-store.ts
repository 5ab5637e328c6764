// `npm run store`: makes sure the store exists before `npm run dev` and
// `npm run build`. A missing store is built from the bundled samples; a store
// that holds only the samples is brought up to date with them (imports are
// idempotent: unchanged files do nothing, changed ones replace their rows).
// A store with anything else in it is left alone.

import {existsSync, renameSync, rmSync} from "node:fs";
import {importSamples, SAMPLE_IMPORTS} from "../loaders/samples.js";
import {stderrProgress} from "../loaders/progress.js";
import {defaultStorePath, rows} from "../loaders/store/db.js";
import {openStoreWhenFree} from "../loaders/store/wait-for-lock.js";

const path = defaultStorePath();
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

if (!existsSync(path)) {
  process.stderr.write(`store: building ${path} from the bundled synthetic samples…\n`);
  // Built aside and renamed, so an interrupted build never leaves a half-filled store behind.
  const building = `${path}.building`;
  rmSync(building, {force: true});
  rmSync(`${building}.wal`, {force: true});
  await fill(building);
  renameSync(building, path);
} else {
  const store = await openStoreWhenFree(path, {readOnly: true});
  const sources = await rows<{path: string}>(store.conn, "SELECT path FROM sources");
  store.close();
  if (sources.every((s) => samplePaths.has(s.path))) {
    process.stderr.write(`store: ${path} (bundled samples; refreshing any that changed)\n`);
    await fill(path);
  } else {
    process.stderr.write(`store: ${path} (your data; left as it is)\n`);
  }
}
