// Sites the browser tests share. Each distinct store is filled, and the site
// built from it, once per test run, by whichever test file asks first; the
// others wait for it and read the same store and dist/ (read only: a test that
// needs to change a store or a site makes its own). A build costs 30 s to
// minutes on a busy 2-core machine; the files that used to build the samples
// site each for itself now share one.

import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {importFiles} from "../../loaders/import/session.js";
import {importSamples} from "../../loaders/samples.js";
import {openStore} from "../../loaders/store/db.js";
import {fixture} from "../helpers/fixtures.js";
import {sharedDir} from "../helpers/shared-dir.js";
import {buildSite} from "./helpers.js";

/** A store filled once, and the site built from it. */
export interface SharedSite {
  /** The store's path: open it read-only. */
  store: string;
  /** The built site's folder: serve it, never write to it. */
  dist: string;
  /** How long the build took, in ms (0 for a file that found it built). */
  buildMs: number;
}

/** The bundled samples, as `npm run import` fills a store. */
async function fillSamples(path: string): Promise<void> {
  const store = await openStore(path);
  try {
    await importSamples(store);
  } finally {
    store.close();
  }
}

/**
 * The real fixtures as a researcher would import them: the Sotopia-π human
 * evaluation (its episode logs and annotation CSVs), sotopia-rl's example
 * episodes, sonzai's LIFELONG-SOTOPIA results and STSS's task files.
 */
async function fillFixtures(path: string): Promise<void> {
  const store = await openStore(path);
  try {
    const humanEval = fixture("sotopia-lab__sotopia-pi", "human_eval");
    const otree = join(humanEval, "otree_project", "sotopia_official_study");
    const episodeFiles = readdirSync(otree).flatMap((d) => readdirSync(join(otree, d)).map((f) => join(otree, d, f)));
    await importFiles(store, "sotopia", [fixture("sotopia-lab__sotopia-rl", "example_episodes.jsonl"), ...episodeFiles]);
    await importFiles(store, "sotopia-ratings", readdirSync(humanEval).filter((f) => f.endsWith(".csv")).map((f) => join(humanEval, f)));
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

/** Each process asks the folder once per site. */
const asked = new Map<SharedSiteName, Promise<SharedSite>>();

/** The shared site `name`, built now if no file of this run has built it yet. */
export function sharedSite(name: SharedSiteName): Promise<SharedSite> {
  let site = asked.get(name);
  if (!site) asked.set(name, (site = buildOnce(name)));
  return site;
}

/** How long a file waits for another's build before it gives up. */
const WAIT_MS = 20 * 60_000;

async function buildOnce(name: SharedSiteName): Promise<SharedSite> {
  const dir = join(sharedDir(), `site-${name}`);
  const done = join(dir, "site.json");
  const failed = join(dir, "failed.txt");
  try {
    // mkdir is atomic: of the files that ask at once, one builds.
    mkdirSync(dir, {recursive: false});
  } catch {
    const start = Date.now();
    while (!existsSync(done) && !existsSync(failed)) {
      if (Date.now() - start > WAIT_MS) throw new Error(`the shared ${name} site was not built after ${WAIT_MS / 60_000} min (${dir})`);
      await new Promise((r) => setTimeout(r, 250));
    }
    if (existsSync(failed)) throw new Error(`the shared ${name} site failed to build in another test file: ${readFileSync(failed, "utf8")}`);
    return {...(JSON.parse(readFileSync(done, "utf8")) as SharedSite), buildMs: 0};
  }
  try {
    const store = join(dir, `${name}.duckdb`);
    await RECIPES[name](store);
    const {dist, ms} = await buildSite(store, join(dir, "build"), {}, 900_000);
    const site: SharedSite = {store, dist, buildMs: ms};
    // Renamed into place: a file waiting for it never reads half of it.
    writeFileSync(`${done}.partial`, JSON.stringify(site));
    renameSync(`${done}.partial`, done);
    return site;
  } catch (error) {
    writeFileSync(failed, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
