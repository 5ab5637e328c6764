// Stores that many test files start from, filled once per test run
// (oncePerRun) and copied for each test that asks: a copy of a closed store
// file takes milliseconds, where importing the samples again takes 3–5 s.
// Each copy is the test's own, to change as it likes.

import {copyFileSync, existsSync, readdirSync} from "node:fs";
import {join} from "node:path";
import {importFiles} from "../../loaders/import/session.js";
import {openStore} from "../../loaders/store/db.js";
import {makeReplicatedStore} from "../../scripts/samples/replicate.js";
import {fixture} from "./fixtures.js";
import {oncePerRun} from "./shared-dir.js";

/** The bundled samples, as `npm run import` fills a store: the store's path, never to be written (copy it). */
export const sharedSamplesStore = (): Promise<string> => sharedReplicatedStore(0);

/**
 * The samples plus `copies` more of the LIFELONG-SOTOPIA, HSII, STSS and
 * InformativeBench sample logs (scripts/samples/replicate.ts); 0 is the samples alone.
 */
export function sharedReplicatedStore(copies: number): Promise<string> {
  return oncePerRun(copies === 0 ? "store-samples" : `store-samples-x${copies + 1}`, async (dir) => {
    const path = join(dir, "store.duckdb");
    await makeReplicatedStore(path, dir, copies);
    // Closed and checkpointed: the copies need the file alone.
    if (existsSync(`${path}.wal`)) throw new Error(`${path} kept a WAL after it was closed`);
    return path;
  });
}

/** Copies the shared samples store (or its replication with `copies` more) to `path`. */
export async function copySamplesStore(path: string, copies = 0): Promise<void> {
  copyFileSync(await sharedReplicatedStore(copies), path);
}

/** A copy of the samples store at `path`, opened. */
export async function openSamplesCopy(path: string) {
  await copySamplesStore(path);
  return openStore(path);
}

/**
 * The Sotopia-π human evaluation as a researcher imports it: its 154 episode
 * logs (sotopia EpisodeLog files), then its six annotation CSVs. Needs the
 * shared fixtures (describeWithFixtures).
 */
export function sharedSotopiaPiStore(): Promise<string> {
  return oncePerRun("store-sotopia-pi", async (dir) => {
    const path = join(dir, "store.duckdb");
    const humanEval = fixture("sotopia-lab__sotopia-pi", "human_eval");
    const otree = join(humanEval, "otree_project", "sotopia_official_study");
    const store = await openStore(path);
    try {
      await importFiles(store, "sotopia", readdirSync(otree).flatMap((d) => readdirSync(join(otree, d)).map((f) => join(otree, d, f))));
      await importFiles(store, "sotopia-ratings", readdirSync(humanEval).filter((f) => f.endsWith(".csv")).map((f) => join(humanEval, f)));
    } finally {
      store.close();
    }
    return path;
  });
}
