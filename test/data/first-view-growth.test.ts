// A page's first view must not grow with the episodes of its benchmark (issue
// 18): a store with ten times the LIFELONG-SOTOPIA, HSII, STSS and
// InformativeBench sample episodes in the same groups (scripts/samples/
// replicate.ts) gives first-view packs of the same size, give or take the
// digits of larger counts, while the row packs each page reads after its first
// view grow with them. The overview's list of files grows with imports and its
// grouped table does not.

import {join} from "node:path";
import {beforeAll, describe, expect, it} from "vitest";
import {decodePack} from "../../src/client/tables.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";
import {tempDir} from "../helpers/store.js";
import {copySamplesStore} from "../helpers/shared-stores.js";

/** Runs a pack loader as Framework does and returns what it wrote. */
const runLoader = (pack: string, storePath: string): Promise<Buffer> => runLoaderInProcess(join("src", "data", `${pack}.ts`), {store: storePath});

/** Packs that must not grow with the episodes: the first views (HSII's holds its whole page), and LIFELONG's later sections (failure counts and per-rater views). */
const FIRST_VIEWS = ["lifelong-first-view.bin", "hsii-first-view.bin", "stss-first-view.bin", "informativebench-first-view.bin", "overview-first-view.bin", "lifelong-rows.bin"];
const ROWS = ["stss-rows.bin", "informativebench-rows.bin"];

/** Pack bytes by name, on the samples (×1) and on the samples with nine more copies (×10). */
const sizes: Record<"x1" | "x10", Map<string, Buffer>> = {x1: new Map(), x10: new Map()};

beforeAll(async () => {
  const dir = tempDir();
  for (const [key, copies] of [["x1", 0], ["x10", 9]] as const) {
    const store = join(dir, `${key}.duckdb`);
    await copySamplesStore(store, copies);
    const packs = [...FIRST_VIEWS, ...ROWS, "overview-sources.bin"];
    // Two at a time: each loader is a process of its own.
    for (let i = 0; i < packs.length; i += 2) {
      await Promise.all(packs.slice(i, i + 2).map(async (p) => sizes[key].set(p, await runLoader(p, store))));
    }
  }
}, 900_000);

describe("first-view packs against ten times the episodes of their benchmark", () => {
  it("stay the same size (within 2%: counts gain a digit), while the rows read after the first view grow more than fivefold", () => {
    for (const pack of FIRST_VIEWS) {
      const x1 = sizes.x1.get(pack)!.byteLength, x10 = sizes.x10.get(pack)!.byteLength;
      expect(x10, `${pack}: ${x1} → ${x10} bytes`).toBeLessThanOrEqual(Math.ceil(x1 * 1.02));
      expect(x10, pack).toBeGreaterThanOrEqual(x1);
    }
    for (const pack of ROWS) {
      const x1 = sizes.x1.get(pack)!.byteLength, x10 = sizes.x10.get(pack)!.byteLength;
      // Repeated names compress in Arrow dictionaries, so tenfold rows take 6.8× (LIFELONG) to 10.6× the bytes.
      expect(x10 / x1, `${pack}: ${x1} → ${x10} bytes`).toBeGreaterThan(5);
    }
  });

  it("hold the same groups and defaults: tenfold counts, the same means", () => {
    const lifelong = (key: "x1" | "x10") => decodePack(new Uint8Array(sizes[key].get("lifelong-first-view.bin")!)).lifelong_groups!;
    expect(lifelong("x10")).toHaveLength(lifelong("x1").length);
    expect(lifelong("x10").map((g) => [g.bel_n, g.bel_sum])).toEqual(lifelong("x1").map((g) => [Number(g.bel_n) * 10, Number(g.bel_sum) * 10]));
    const hsii = (key: "x1" | "x10") => JSON.parse(String(decodePack(new Uint8Array(sizes[key].get("hsii-first-view.bin")!)).hsii_first![0]!.view)) as {cases: number; table: {n: number; r1: number}[]};
    expect([hsii("x1").cases, hsii("x10").cases]).toEqual([480, 4800]);
    expect(hsii("x10").table.map((r) => [r.n, r.r1])).toEqual(hsii("x1").table.map((r) => [r.n * 10, r.r1]));
  });

  it("the overview groups the files: one more file per format in the same 9 groups, while the list of files grows by 5", () => {
    const groups = (key: "x1" | "x10") => decodePack(new Uint8Array(sizes[key].get("overview-first-view.bin")!)).source_groups!;
    expect(groups("x10")).toHaveLength(groups("x1").length);
    expect(groups("x1")).toHaveLength(9);
    expect(groups("x10").reduce((n, g) => n + Number(g.files), 0) - groups("x1").reduce((n, g) => n + Number(g.files), 0)).toBe(5);
    const files = (key: "x1" | "x10") => decodePack(new Uint8Array(sizes[key].get("overview-sources.bin")!)).sources!.length;
    expect([files("x1"), files("x10")]).toEqual([10, 15]);
  });
});
