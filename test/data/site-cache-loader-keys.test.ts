// A cached loader output is used only while its loader, everything the loader
// imports, its parameters, the installed packages and the output-changing
// environment options are those it was made with. Framework alone would ship
// the old output ("[using stale]") after any of them changed with the store
// unchanged.

import {appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {dropStaleLoaderOutputs, loaderKeys, runLoadersOnce, staleLoaderOutputs} from "../../src/data/site-cache.js";
import {localImportClosure} from "../../src/data/build-inputs.js";
import {tempDir} from "../helpers/store.js";

const OUTPUTS = ["data/a.txt", "data/b.txt", "data/tables/episodes.txt", "data/tables/ratings.txt"];

/**
 * A project whose loaders import: a.txt.ts → src/lib/shared.ts → loaders/q.ts;
 * b.txt.ts → src/data/helper.ts (by a dynamic import); tables/[table].txt.ts →
 * nothing local. Every output cached and its key recorded.
 */
function project(): {dir: string; root: string; cacheDir: string; write(path: string, text: string): void} {
  const dir = tempDir();
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, ".."), {recursive: true});
    writeFileSync(join(dir, path), text);
  };
  write("package.json", '{"type": "module"}\n');
  write("package-lock.json", '{"lockfileVersion": 3}\n');
  write("src/data/a.txt.ts", 'import {shared} from "../lib/shared.js";\nprocess.stdout.write(shared);\n');
  write("src/lib/shared.ts", 'import type {Q} from "../../loaders/q.js";\nexport const shared = "a";\n');
  write("loaders/q.ts", "export type Q = number;\n");
  write("src/data/b.txt.ts", 'const {helper} = await import("./helper.js");\nprocess.stdout.write(helper);\n');
  write("src/data/helper.ts", 'export const helper = "b";\n');
  write("src/data/tables/[table].txt.ts", "process.stdout.write(process.argv.slice(2).join());\n");
  const root = join(dir, "src");
  const cacheDir = join(root, ".observablehq", "cache");
  // Keys recorded, then the outputs made, as a build does.
  dropStaleLoaderOutputs(cacheDir, loaderKeys(root, OUTPUTS, {}));
  for (const output of OUTPUTS) write(join("src", ".observablehq", "cache", output), "cached");
  return {dir, root, cacheDir, write};
}

const stale = (site: ReturnType<typeof project>, env: NodeJS.ProcessEnv = {}) => staleLoaderOutputs(site.cacheDir, loaderKeys(site.root, OUTPUTS, env));

describe("loader output keys", () => {
  it("follow static, type and literal dynamic imports through .js specifiers to .ts files", () => {
    const site = project();
    expect(localImportClosure(join(site.root, "data", "a.txt.ts")).map((f) => f.slice(site.dir.length + 1))).toEqual([
      "loaders/q.ts",
      "src/data/a.txt.ts",
      "src/lib/shared.ts",
    ]);
    expect(localImportClosure(join(site.root, "data", "b.txt.ts")).map((f) => f.slice(site.dir.length + 1))).toEqual(["src/data/b.txt.ts", "src/data/helper.ts"]);
  });

  it("leave every output current when nothing changed", () => {
    expect(stale(project())).toEqual([]);
  });

  it("make stale only the outputs whose loader imports a changed module, however deep", () => {
    const site = project();
    appendFileSync(join(site.dir, "loaders", "q.ts"), "// changed\n");
    expect(stale(site)).toEqual(["data/a.txt"]);
  });

  it("leave every output current when a page or a client module no loader imports changed", () => {
    const site = project();
    site.write("src/index.md", "# Overview, edited\n");
    site.write("src/client/overview.ts", "export const drawn = true;\n");
    expect(stale(site)).toEqual([]);
  });

  it("make stale the output whose loader changed, and the one whose dynamic import changed", () => {
    const site = project();
    appendFileSync(join(site.root, "data", "helper.ts"), "// changed\n");
    expect(stale(site)).toEqual(["data/b.txt"]);
    const other = project();
    appendFileSync(join(other.root, "data", "a.txt.ts"), "// changed\n");
    expect(stale(other)).toEqual(["data/a.txt"]);
  });

  it("give a parameterised loader one key per parameter value", () => {
    const keys = loaderKeys(project().root, OUTPUTS, {});
    expect(keys.get("data/tables/episodes.txt")).not.toBe(keys.get("data/tables/ratings.txt"));
    expect(keys.size).toBe(4);
  });

  it("make everything stale when the lock file or an output-changing option changes, and nothing for a build-only option", () => {
    expect(stale(project(), {SOCIOMETER_EXPLORER_ROWS: "10"})).toEqual(OUTPUTS);
    expect(stale(project(), {SOCIOMETER_SHARED_LOADERS: "0", SOCIOMETER_DB: "/elsewhere.duckdb", OPENAI_API_KEY: "sk-x"})).toEqual([]);
    const site = project();
    site.write("package-lock.json", '{"lockfileVersion": 3, "packages": {}}\n');
    expect(stale(site)).toEqual(OUTPUTS);
  });

  it("count a missing output as stale, and dropping removes only the stale outputs", () => {
    const site = project();
    appendFileSync(join(site.root, "data", "helper.ts"), "// changed\n");
    expect(dropStaleLoaderOutputs(site.cacheDir, loaderKeys(site.root, OUTPUTS, {}))).toEqual(["data/b.txt"]);
    expect(existsSync(join(site.cacheDir, "data", "b.txt"))).toBe(false);
    expect(readFileSync(join(site.cacheDir, "data", "a.txt"), "utf8")).toBe("cached");
    // Recorded as made by the current code: once it is made again, it is current.
    expect(stale(site)).toEqual(["data/b.txt"]);
    writeFileSync(join(site.cacheDir, "data", "b.txt"), "made again");
    expect(stale(site)).toEqual([]);
  });
});

describe("a build with the store unchanged", () => {
  it("runs again the loader whose imported module changed, and only that one", async () => {
    const site = project();
    const store = join(site.dir, "store.duckdb");
    writeFileSync(store, "");
    // No SOCIOMETER_ or OBSERVABLE_ option of this shell: the keys were recorded without any.
    const env = {PATH: process.env.PATH ?? ""};
    const dynamic = ["/data/tables/episodes.txt", "/data/tables/ratings.txt"];
    expect(await runLoadersOnce(site.root, store, dynamic, env)).toEqual([]);
    writeFileSync(join(site.root, "data", "helper.ts"), 'export const helper = "b, changed";\n');
    expect(await runLoadersOnce(site.root, store, dynamic, env)).toEqual(["data/b.txt"]);
    expect(readFileSync(join(site.cacheDir, "data", "b.txt"), "utf8")).toBe("b, changed");
    expect(readFileSync(join(site.cacheDir, "data", "a.txt"), "utf8")).toBe("cached");
  });
});
