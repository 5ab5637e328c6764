// Sites the browser tests share. Each distinct store is filled, and the site
// built from it, once per test run, by whichever test file asks first; the
// others wait for it and read the same store and dist/ (read only: a test that
// needs to change a store or a site makes its own). A build costs 30 s to
// minutes on a busy 2-core machine; the files that used to build the samples
// site each for itself now share one.

import {copyFileSync, readdirSync} from "node:fs";
import {join} from "node:path";
import {importFiles} from "../../loaders/import/session.js";
import {openStore} from "../../loaders/store/db.js";
import {fixture} from "../helpers/fixtures.js";
import {oncePerRun} from "../helpers/shared-dir.js";
import {copySamplesStore, sharedSotopiaPiStore} from "../helpers/shared-stores.js";
import {buildSite} from "./helpers.js";

/** A store filled once, and the site built from it. */
export interface SharedSite {
  /** The store's path: open it read-only. */
  store: string;
  /** The built site's folder: serve it, never write to it. */
  dist: string;
  /** How long the build took, in ms. */
  buildMs: number;
}

/** The bundled samples, as `npm run import` fills a store (a copy of the run's samples store). */
const fillSamples = (path: string): Promise<void> => copySamplesStore(path);

/**
 * The real fixtures as a researcher would import them: the Sotopia-π human
 * evaluation (a copy of the run's store of its episode logs and annotation
 * CSVs), then sotopia-rl's example episodes, sonzai's LIFELONG-SOTOPIA results
 * and STSS's task files.
 */
async function fillFixtures(path: string): Promise<void> {
  copyFileSync(await sharedSotopiaPiStore(), path);
  const store = await openStore(path);
  try {
    await importFiles(store, "sotopia", [fixture("sotopia-lab__sotopia-rl", "example_episodes.jsonl")]);
    const sonzai = fixture("sonz-ai__sonzai-python", "benchmarks", "lifelong_sotopia", "results");
    await importFiles(store, "sonzai-lifelong", readdirSync(sonzai).map((f) => join(sonzai, f)));
    const tasks = fixture("wcx21__Social-Tasks-in-Sandbox-Simulation", "environment", "data", "task_0905");
    await importFiles(store, "stss-tasks", [join(tasks, "tasks.json"), join(tasks, "tasks_dlc.json")]);
  } finally {
    store.close();
  }
}

const RECIPES = {samples: fillSamples, fixtures: fillFixtures} as const;
export type SharedSiteName = keyof typeof RECIPES;

/** The shared site `name`, built now if no file of this run has built it yet. */
export function sharedSite(name: SharedSiteName): Promise<SharedSite> {
  return oncePerRun(`site-${name}`, async (dir) => {
    const store = join(dir, `${name}.duckdb`);
    await RECIPES[name](store);
    const {dist, ms} = await buildSite(store, join(dir, "build"), {}, 900_000);
    return {store, dist, buildMs: ms};
  });
}
