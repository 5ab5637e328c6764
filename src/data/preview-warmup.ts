// What `npm run dev` prepares in the background once the server listens, so
// that a page's first open finds it ready instead of making it then (issue
// 31: 8–29 s per page when each open ran its loaders and bundled its packages):
// every data loader's output, from the live store, into the cache a build
// fills (site-cache.ts, once per store version and code), and Framework's
// bundle of each npm package the pages import (its cache's _node folder, once
// per install: `npm install` makes them, scripts/bundle-page-packages.ts, and
// this only makes what is missing).

import {resolveNodeImport} from "@observablehq/framework/dist/node.js";
import {runLoadersOnce} from "./site-cache.js";

/**
 * Every npm module the pages and their client modules import, and the files
 * they resolve with import.meta.resolve, as Framework resolves them. Kept
 * complete by test/data/preview-warmup.test.ts; one left out is bundled on
 * the first open of a page that imports it, as before.
 */
export const BROWSER_IMPORTS = [
  "@observablehq/inputs",
  "vega",
  "vega-lite",
  "vega-embed",
  "@uwdata/flechette",
  "apache-arrow",
  "arquero/dist/arquero.min.js",
  "parquet-wasm/esm",
  "parquet-wasm/esm/parquet_wasm_bg.wasm",
  "@duckdb/duckdb-wasm",
  "@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js",
  "@duckdb/duckdb-wasm/dist/duckdb-eh.wasm",
  "@stdlib/math-base-special-betainc",
  "@stdlib/stats-base-dists-binomial-cdf",
  "@stdlib/stats-base-dists-chisquare-cdf",
  "@stdlib/stats-base-dists-f-cdf",
  "@stdlib/stats-base-dists-f-quantile",
  "@stdlib/stats-base-dists-normal-cdf",
  "@stdlib/stats-base-dists-normal-quantile",
  "@stdlib/stats-base-dists-signrank-cdf",
  "@stdlib/stats-base-dists-t-quantile",
];

/**
 * Bundles each of BROWSER_IMPORTS into Framework's cache, one after another,
 * in this process: the preview server's own bundler, so a page that asks for
 * one meanwhile waits for the same bundle instead of making another. A
 * package already cached costs a file check. Resolves with those it made.
 */
export async function warmNodeImports(root: string, specs: readonly string[] = BROWSER_IMPORTS): Promise<number> {
  let made = 0;
  for (const spec of specs) {
    const before = Date.now();
    await resolveNodeImport(root, spec);
    if (Date.now() - before > 50) made++;
  }
  return made;
}

/** Whether a loader output is a page's first view (a pack or summary the page draws before anything else). */
const isFirstView = (output: string): boolean => /-first-view\.bin$|^data\/(compare|agreement)-summary\.json$|^data\/(viewer-list\.bin|explorer-manifest\.json|audits\.json)$/.test(output);

/**
 * Started by the site config under `observable preview`, not awaited: the
 * loaders' outputs (in their own processes) and the package bundles (here),
 * side by side. Says what it did on stderr; a failure is said and left to the
 * page that needs it, which makes it on open as Framework always did.
 */
export function warmPreview(root: string, storePath: string, dynamicPaths: readonly string[]): Promise<void> {
  const start = performance.now();
  const said = (message: string) => process.stderr.write(`dev: ${message} (${((performance.now() - start) / 1000).toFixed(1)} s)\n`);
  const why = (e: unknown) => (e instanceof Error ? e.message : String(e));
  // The packs each page draws its first view from come first: a page opened meanwhile needs those before anything else.
  const makeOutputs = async () => {
    const first = await runLoadersOnce(root, storePath, dynamicPaths, process.env, isFirstView);
    const rest = await runLoadersOnce(root, storePath, dynamicPaths, process.env, (o) => !isFirstView(o));
    return first.length + rest.length;
  };
  const loaders = makeOutputs().then(
    (made) => said(made ? `${made} loader outputs made` : "every loader output was cached"),
    (e: unknown) => said(`the loaders did not all run ahead (${why(e)}); each page runs its own on open`),
  );
  const bundles = warmNodeImports(root).then(
    (made) => said(made ? `${made} npm packages bundled for the pages` : "the pages' npm packages were bundled already"),
    (e: unknown) => said(`npm packages not bundled ahead (${why(e)}); each page bundles its own on open`),
  );
  return Promise.all([loaders, bundles]).then(() => undefined);
}
