// Prepares Observable Framework's cache folder (src/.observablehq/cache) before
// a build or preview. Called from observablehq.config.ts, so it runs for
// `npm run build`, `npm run dev` and a bare `observable build` alike.

import {createHash} from "node:crypto";
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {basename, join} from "node:path";
import {snapshotStore} from "../../loaders/store/snapshot.js";

/**
 * Packages Framework's client bundle looks up on the npm registry even when no
 * page imports them (OFFLINE.md item 9). An empty `_npm/<name>@<version>`
 * folder answers the look-up from the cache, so a build needs no network. The
 * versions are the ones the registry named when this list was made; no page
 * loads these packages, so they only have to be valid version numbers.
 */
const NPM_LOOKUPS = [
  "@observablehq/plot@0.6.17",
  "@observablehq/sample-datasets@1.0.1",
  "apache-arrow@21.2.0",
  "arquero@8.0.3",
  "d3@7.9.2",
  "d3-dsv@3.0.2",
  "echarts@6.1.0",
  "htl@1.0.0",
  "leaflet@1.9.4",
  "lodash@4.18.1",
  "mapbox-gl@3.32.0",
  "parquet-wasm@0.8.0",
  "react@19.3.1",
  "react-dom@19.3.1",
  "topojson-client@3.1.0",
];

/** Creates the empty npm cache folders that stop Framework's registry look-ups. */
export function stubNpmLookups(cacheDir: string): void {
  for (const spec of NPM_LOOKUPS) mkdirSync(join(cacheDir, "_npm", spec), {recursive: true});
}

/** What identifies the store's contents cheaply: its path, size and modification time (and its WAL's). */
function storeFingerprint(storePath: string): string {
  const parts = [storePath];
  for (const file of [storePath, `${storePath}.wal`]) {
    if (!existsSync(file)) continue;
    const {size, mtimeMs} = statSync(file);
    parts.push(`${size}:${mtimeMs}`);
  }
  // Hashed: the cache folder should not record where the store lives.
  return createHash("sha256").update(parts.join("|")).digest("hex");
}

/**
 * Framework reuses a data loader's cached output until the loader's source file
 * changes; it cannot know the loader reads the store. When the store changed
 * since the last build (a new import, or another SOCIOMETER_DB), drop the
 * cached loader outputs so every page is rebuilt from the current store.
 * Returns whether they were dropped.
 */
export function invalidateLoaderCache(cacheDir: string, storePath: string): boolean {
  const marker = join(cacheDir, "store-fingerprint.txt");
  const current = storeFingerprint(storePath);
  const previous = existsSync(marker) ? readFileSync(marker, "utf8") : null;
  if (previous === current) return false;
  rmSync(join(cacheDir, "data"), {recursive: true, force: true});
  mkdirSync(cacheDir, {recursive: true});
  writeFileSync(marker, current);
  return true;
}

/**
 * Framework also cannot know a loader reads files outside src/ (the built-in
 * audit CSVs in data/audits/ behind data/audits.json). When any of `inputs`
 * was added, removed or changed since the last build, drop the cached `output`
 * (a path inside the cache, e.g. "data/audits.json") so its loader runs again.
 * Runs when the config is loaded: at each build and each start of
 * `npm run dev`, not while a dev server is already running. Returns whether
 * the output was dropped.
 */
export function invalidateOutputOnInputs(cacheDir: string, output: string, inputs: readonly string[]): boolean {
  const marker = join(cacheDir, `inputs-${output.replace(/[^A-Za-z0-9]+/g, "-")}.txt`);
  const parts = [...inputs].sort().map((file) => {
    if (!existsSync(file)) return `${file}:absent`;
    const {size, mtimeMs} = statSync(file);
    return `${file}:${size}:${mtimeMs}`;
  });
  const current = createHash("sha256").update(parts.join("|")).digest("hex");
  const previous = existsSync(marker) ? readFileSync(marker, "utf8") : null;
  if (previous === current) return false;
  rmSync(join(cacheDir, output), {force: true});
  mkdirSync(cacheDir, {recursive: true});
  writeFileSync(marker, current);
  return true;
}

/**
 * For a build: copies the store once (waiting while an import holds it) into
 * a temporary folder removed when the build ends, points SOCIOMETER_DB at the
 * copy for the data loaders Framework starts, and returns the copy's path.
 * Every page then shows one state of the store, whatever lands meanwhile.
 * The loader cache is checked against the live store while it is held, so a
 * cached output always belongs to the state that was copied.
 */
export async function snapshotForBuild(cacheDir: string, storePath: string): Promise<string> {
  if (!existsSync(storePath)) {
    invalidateLoaderCache(cacheDir, storePath);
    return storePath; // the loaders say there is no store
  }
  const dir = mkdtempSync(join(tmpdir(), "sociometer-build-"));
  process.on("exit", () => rmSync(dir, {recursive: true, force: true}));
  const snapshot = join(dir, basename(storePath));
  await snapshotStore(storePath, snapshot, {whileHeld: () => invalidateLoaderCache(cacheDir, storePath)});
  process.env.SOCIOMETER_DB = snapshot;
  return snapshot;
}
