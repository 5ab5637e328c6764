// Observable Framework configuration for the Sociometer site. Every setting
// here keeps the build and the pages free of network access (OFFLINE.md).

import {existsSync} from "node:fs";
import {join} from "node:path";
import {defaultStorePath, rows} from "./loaders/store/db.js";
import {openStoreWhenFree} from "./loaders/store/wait-for-lock.js";
import {invalidateLoaderCache, invalidateOutputOnInputs, reuseCachedBuild, runLoadersOnce, snapshotForBuild, stubNpmLookups} from "./src/data/site-cache.js";
import {builtinAuditPaths} from "./loaders/audit/builtins.js";
import {explorerPaths} from "./src/data/explorer-tables.js";
import {warmPreview} from "./src/data/preview-warmup.js";
import {BENCHMARK_COUNTS_SQL} from "./loaders/queries/store-contents.js";
import {syntheticNoteText} from "./src/components/synthetic-note.js";

// The site must build with no network; Framework's usage telemetry would call
// out at every build (OFFLINE.md item 7). Read after this config is loaded.
process.env.OBSERVABLE_TELEMETRY_DISABLE ??= "true";

const root = "src";
const cacheDir = join(root, ".observablehq", "cache");
// A build reads one copy of the store taken now (an import that lands during
// the build changes no page); `npm run dev` reads the live store, each loader
// waiting while an import holds it.
const previewing = process.argv[2] === "preview";
stubNpmLookups(cacheDir);
// The audit page's loader reads data/audits/*.csv, outside src/: rebuild it when one changed.
invalidateOutputOnInputs(cacheDir, "data/audits.json", builtinAuditPaths());
const {dynamicPaths, summary} = previewing ? await previewFacts() : await buildFacts();

/** What the config reads from the store: the table explorer's fixed addresses (every store table and page data file), and the footer's counts. */
async function siteFacts(storePath: string): Promise<{dynamicPaths: string[]; summary: StoreSummary | null}> {
  return {dynamicPaths: await explorerPaths(storePath), summary: await storeSummary(storePath)};
}

/**
 * `npm run dev` serves at once and fills the loader cache (from the live
 * store, once per store version and code) and Framework's package bundles in
 * the background, so a page's first open finds its data and modules made.
 */
async function previewFacts() {
  invalidateLoaderCache(cacheDir, defaultStorePath());
  const facts = await siteFacts(defaultStorePath());
  void warmPreview(root, defaultStorePath(), facts.dynamicPaths);
  return facts;
}

/**
 * An unchanged store with every loader output cached runs no loader: the
 * build reads the live store for the config's few facts and copies nothing
 * (at a million episodes the copy alone is a gigabyte). Otherwise it fills the
 * cache from a snapshot, in the build's loader processes (two by default:
 * SOCIOMETER_LOADER_PROCESSES) instead of one process per loader.
 */
async function buildFacts() {
  const reused = await reuseCachedBuild(root, cacheDir, defaultStorePath(), () => siteFacts(defaultStorePath()));
  if (reused) return reused;
  const snapshot = await snapshotForBuild(cacheDir, defaultStorePath());
  const facts = await siteFacts(snapshot);
  await runLoadersOnce(root, snapshot, facts.dynamicPaths);
  return facts;
}

/** How many evaluated episodes, and definitions and inputs, the store holds and how many are synthetic, for the footer. */
async function storeSummary(storePath: string): Promise<StoreSummary | null> {
  if (!existsSync(storePath)) return null;
  try {
    const store = await openStoreWhenFree(storePath, {readOnly: true});
    try {
      // Definitions and inputs (STSS tasks, InformativeBench schedules) are not episodes (loaders/queries/store-contents.ts).
      const [row] = await rows<StoreSummary>(
        store.conn,
        `SELECT coalesce(sum(episodes), 0)::INTEGER AS episodes, coalesce(sum(synthetic), 0)::INTEGER AS synthetic,
                coalesce(sum(inputs), 0)::INTEGER AS inputs, coalesce(sum(inputs_synthetic), 0)::INTEGER AS inputs_synthetic
         FROM (${BENCHMARK_COUNTS_SQL})`,
      );
      return row ?? null;
    } finally {
      store.close();
    }
  } catch {
    return null; // the loaders report a broken store with a clearer message
  }
}

interface StoreSummary {
  episodes: number;
  synthetic: number;
  inputs: number;
  inputs_synthetic: number;
}

function footer(summary: StoreSummary | null): string {
  const base = "Sociometer: a workbench for evaluations of LLM social agents.";
  if (!summary) return base;
  // Numbers and fixed words only: safe as HTML.
  const warning = syntheticNoteText([
    {count: summary.episodes, synthetic: summary.synthetic, what: "episodes loaded"},
    {count: summary.inputs, synthetic: summary.inputs_synthetic, what: "definitions and inputs"},
  ]);
  return warning === null ? `${base} ${summary.episodes} episodes loaded.` : `${base} <strong>${warning}</strong>`;
}

export default {
  root,
  title: "Sociometer",
  pages: [
    {name: "Overview", path: "/"},
    {name: "SOTOPIA", path: "/sotopia"},
    {name: "Evaluator agreement", path: "/agreement"},
    {name: "LIFELONG-SOTOPIA", path: "/lifelong"},
    {name: "HSII", path: "/hsii"},
    {name: "STSS", path: "/stss"},
    {name: "InformativeBench", path: "/informativebench"},
    {name: "Compare two runs", path: "/compare"},
    {name: "Episode viewer", path: "/episodes"},
    {name: "Table explorer", path: "/explorer"},
    {name: "Reported-table audit", path: "/audit"},
  ],
  // Links and files end in .html, so the built site works on any static web
  // server, not only on hosts that map /page to page.html.
  preserveExtension: true,
  // No favicon.ico to fetch: browsers would log a 404 on every page.
  head: '<link rel="icon" href="data:,">',
  // The default global stylesheet loads web fonts from a CDN.
  globalStylesheets: [],
  style: "style.css",
  // null skips an extension; false would still download it at build time.
  duckdb: {extensions: {json: null, parquet: null}},
  footer: footer(summary),
  dynamicPaths,
  search: false,
};
