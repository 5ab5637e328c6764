// `npm run store`: makes sure the store exists before `npm run dev` and
// `npm run build` (scripts/store-refresh.ts: built from the samples when
// missing, refreshed when it holds only the samples, refused when it needs
// `sociometer migrate`). When the store, the samples and the code that
// imports and checks stores are all as they were at the last check that
// passed, checking again would find the same, so it is skipped without
// loading DuckDB: a rebuild with nothing changed takes seconds.

import {existsSync, mkdirSync, readFileSync, writeFileSync} from "node:fs";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {digestOf, fileDigest, filesUnder, storeFingerprint} from "../src/data/build-inputs.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// As loaders/store/db.ts resolves it, without loading DuckDB.
const path = resolve(process.env.SOCIOMETER_DB ?? "data/sociometer.duckdb");
/** Where the state of the last check that passed is noted: Framework's cache folder, never shipped. */
const CHECKED = join("src", ".observablehq", "cache", "store-checked.txt");

/** The store's fingerprint with the digests of every sample and of the store code (loaders/). */
function checkedState(): string {
  const files = [...filesUnder(join(REPO, "data", "samples"), REPO), ...filesUnder(join(REPO, "loaders"), REPO)];
  return digestOf([storeFingerprint(path), ...files.map((f) => `${f}:${fileDigest(join(REPO, f))}`)]);
}

if (existsSync(path) && existsSync(CHECKED) && readFileSync(CHECKED, "utf8") === checkedState()) {
  process.stderr.write(`store: ${path} (unchanged since it was last checked, as are the samples and the store code)\n`);
} else {
  const {ensureStore, StoreVersionError} = await import("./store-refresh.js");
  try {
    await ensureStore(path);
  } catch (e) {
    if (!(e instanceof StoreVersionError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  mkdirSync(dirname(CHECKED), {recursive: true});
  writeFileSync(CHECKED, checkedState());
}
