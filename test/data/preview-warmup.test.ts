// `npm run dev` bundles the pages' npm packages ahead of their first open
// (src/data/preview-warmup.ts): its list must be every npm module that a page
// or a client module imports or resolves, and nothing else.

import {readdirSync, readFileSync} from "node:fs";
import {join, relative} from "node:path";
import {describe, expect, it} from "vitest";
import {BROWSER_IMPORTS} from "../../src/data/preview-warmup.js";
import {REPO} from "../helpers/fixtures.js";

const SRC = join(REPO, "src");
/** Node-side code (loaders, types), never sent to a browser. */
const NODE_SIDE = new Set(["data", "types", ".observablehq"]);

function browserFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return dir === SRC && NODE_SIDE.has(entry.name) ? [] : browserFiles(path);
    return /\.(md|ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Every bare specifier in `text`: `from "x"`, `import("x")`, `import.meta.resolve("x")`. */
function bareSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|import\.meta\.resolve\(\s*)"([@a-z0-9][\w@./-]*)"/g)) {
    const spec = m[1]!;
    if (!spec.startsWith(".") && !spec.startsWith("/") && !spec.startsWith("node:")) out.push(spec);
  }
  return out;
}

describe("the packages dev bundles ahead", () => {
  it("are every npm module the pages and client modules import or resolve, and nothing else", () => {
    const used = new Map<string, string>();
    for (const file of browserFiles(SRC)) for (const spec of bareSpecifiers(readFileSync(file, "utf8"))) used.set(spec, relative(REPO, file));
    // The scan finds what it should: a page's import and a client module's resolved file.
    expect(used.get("vega-embed")).toBeDefined();
    expect(used.get("@duckdb/duckdb-wasm/dist/duckdb-eh.wasm")).toBe("src/client/duckdb.ts");
    const missing = [...used.keys()].filter((spec) => !BROWSER_IMPORTS.includes(spec)).map((spec) => `${spec} (${used.get(spec)})`);
    expect(missing).toEqual([]);
    expect(BROWSER_IMPORTS.filter((spec) => !used.has(spec))).toEqual([]);
  });
});
