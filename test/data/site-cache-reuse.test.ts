// A rebuild with the store unchanged and every loader output cached reads the
// live store for the config's facts and takes no snapshot (reuseCachedBuild);
// a changed store, a missing output, or an import landing while the facts are
// read sends the build back to a snapshot.

import {appendFileSync, mkdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {dropStaleLoaderOutputs, invalidateLoaderCache, loaderKeys, reuseCachedBuild} from "../../src/data/site-cache.js";
import {tempDir} from "../helpers/store.js";

/** A site root with two loaders and a store file whose fingerprint the cache has recorded, with both outputs cached. */
function builtSite(): {root: string; cacheDir: string; store: string; facts: () => Promise<{dynamicPaths: string[]}>; reads: () => number} {
  const root = tempDir();
  mkdirSync(join(root, "data", "tables"), {recursive: true});
  writeFileSync(join(root, "data", "one.json.ts"), "");
  writeFileSync(join(root, "data", "tables", "[table].parquet.ts"), "");
  const cacheDir = join(root, ".observablehq", "cache");
  const store = join(root, "store.duckdb");
  writeFileSync(store, "state 1");
  invalidateLoaderCache(cacheDir, store);
  const outputs = ["data/one.json", "data/tables/episodes.parquet"];
  dropStaleLoaderOutputs(cacheDir, loaderKeys(root, outputs));
  mkdirSync(join(cacheDir, "data", "tables"), {recursive: true});
  for (const output of outputs) writeFileSync(join(cacheDir, output), "cached");
  let reads = 0;
  const facts = async () => {
    reads++;
    return {dynamicPaths: ["/data/tables/episodes.parquet"]};
  };
  return {root, cacheDir, store, facts, reads: () => reads};
}

describe("reusing the last build's cache", () => {
  it("reads the facts from the live store when it is unchanged and every output is cached", async () => {
    const site = builtSite();
    expect(await reuseCachedBuild(site.root, site.cacheDir, site.store, site.facts)).toEqual({dynamicPaths: ["/data/tables/episodes.parquet"]});
    expect(site.reads()).toBe(1);
  });

  it("refuses, reading nothing, when the store changed since the last build", async () => {
    const site = builtSite();
    appendFileSync(site.store, ", then an import");
    expect(await reuseCachedBuild(site.root, site.cacheDir, site.store, site.facts)).toBeNull();
    expect(site.reads()).toBe(0);
  });

  it("refuses when a loader output is missing, parameterised ones included", async () => {
    const site = builtSite();
    const facts = async () => ({dynamicPaths: ["/data/tables/episodes.parquet", "/data/tables/ratings.parquet"]});
    expect(await reuseCachedBuild(site.root, site.cacheDir, site.store, facts)).toBeNull();
  });

  it("refuses when a loader changed since its output was made, the store unchanged", async () => {
    const site = builtSite();
    writeFileSync(join(site.root, "data", "one.json.ts"), "process.stdout.write('{}');\n");
    expect(await reuseCachedBuild(site.root, site.cacheDir, site.store, site.facts)).toBeNull();
  });

  it("refuses when an import lands while the facts are read", async () => {
    const site = builtSite();
    const facts = async () => {
      appendFileSync(site.store, ", an import meanwhile");
      return site.facts();
    };
    expect(await reuseCachedBuild(site.root, site.cacheDir, site.store, facts)).toBeNull();
  });
});
