// `npm run store`: builds the store from the bundled samples when it does not exist yet,
// so `npm run dev` and `npm run build` work on a fresh clone.

import {existsSync, renameSync, rmSync} from "node:fs";
import {importSamples} from "../loaders/samples.js";
import {stderrProgress} from "../loaders/progress.js";
import {defaultStorePath, openStore} from "../loaders/store/db.js";

const path = defaultStorePath();
if (existsSync(path)) {
  process.stderr.write(`store: ${path}\n`);
} else {
  process.stderr.write(`store: building ${path} from the bundled synthetic samples…\n`);
  // Built aside and renamed, so an interrupted build never leaves a half-filled store behind.
  const building = `${path}.building`;
  rmSync(building, {force: true});
  rmSync(`${building}.wal`, {force: true});
  const store = await openStore(building);
  try {
    for (const s of await importSamples(store, stderrProgress())) {
      process.stderr.write(`  ${s.format}: ${s.episodes} episodes, ${s.ratings} scores\n`);
    }
    await store.conn.run("CHECKPOINT");
  } finally {
    store.close();
  }
  renameSync(building, path);
}
