// npm postinstall, after parquet-wasm-version.mjs: has Framework bundle every
// npm package the pages import into its cache (src/.observablehq/cache/_node),
// once per install, so that neither the first `npm run dev` page nor the first
// build waits 10–20 s for it. The bundles depend on the installed packages
// alone; one already there is kept. Never fails an install: a package that
// cannot be bundled now is bundled by the first page or build that needs it.

import {warmNodeImports} from "../src/data/preview-warmup.js";

const start = performance.now();
try {
  const made = await warmNodeImports("src");
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  console.log(made ? `sociometer: bundled ${made} npm packages for the pages in ${seconds} s (src/.observablehq/cache/_node)` : "sociometer: the pages' npm packages are bundled already");
} catch (e) {
  console.log(`sociometer: the pages' npm packages were not bundled ahead (${e instanceof Error ? e.message : String(e)}); the first page or build bundles them`);
}
