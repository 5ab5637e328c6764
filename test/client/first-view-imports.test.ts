// A page's first view waits for every module its first cell imports, and each
// npm package is one request in the browser: @stdlib's distribution functions
// are some 160 of them (about 0.6 s of a 1.8 s first chart, measured on the
// baseline page). These modules draw first views and must not reach @stdlib;
// the t-tests load after the first chart (src/sotopia.md, afterFirstView), the
// t quantile only for a 95% band (src/lifelong.md).

import {readFileSync} from "node:fs";
import {dirname, join, relative, resolve} from "node:path";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";

/** Static imports of one source file (type-only imports are erased in the browser, so they do not count). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf-8");
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"([^"]+)";/gms)) if (!m[1]) out.push(m[2]!);
  for (const m of text.matchAll(/^import\s+"([^"]+)";/gm)) out.push(m[1]!);
  return out;
}

/** Every package a module reaches through static imports of local modules, with the chain that reaches it. */
function packagesReached(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith(".")) walk(resolve(dirname(file), spec.replace(/\.js$/, ".ts")), [...chain, relative(REPO, file)]);
      else if (!packages.has(spec)) packages.set(spec, [...chain, relative(REPO, file)]);
    }
  };
  walk(join(REPO, entry), []);
  return packages;
}

/** Pages whose static imports (Framework preloads them all, so the first view queues behind them) are checked; not the explorer, whose DuckDB needs parquet-wasm. */
const FIRST_VIEW_PAGES = [
  "src/bench-baseline.md", "src/index.md", "src/sotopia.md", "src/lifelong.md", "src/hsii.md", "src/stss.md",
  "src/informativebench.md", "src/episodes.md", "src/agreement.md", "src/compare.md",
];

describe("first-view pages", () => {
  it.each(FIRST_VIEW_PAGES)("%s reaches no @stdlib package and no parquet-wasm through its static imports", (entry) => {
    const reached = [...packagesReached(entry)].filter(([name]) => name.startsWith("@stdlib/") || name.startsWith("parquet-wasm"));
    expect(reached.map(([name, chain]) => `${name} via ${chain.join(" → ")}`)).toEqual([]);
  });

  it("the walker does find @stdlib where it is imported (the t-tests the page loads later)", () => {
    const reached = packagesReached("src/lib/sotopia-significance.ts");
    expect(reached.get("@stdlib/stats-base-dists-t-quantile")).toEqual(["src/lib/sotopia-significance.ts", "src/lib/inference.ts", "src/lib/distributions.ts"]);
  });
});
