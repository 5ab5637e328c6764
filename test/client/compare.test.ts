import {describe, expect, it} from "vitest";
import {forestRows, loadChoices} from "../../src/client/compare.js";
import type {Database} from "../../src/client/duckdb.js";
import type {Comparison, MetricComparison} from "../../src/lib/compare.js";

/** A database that answers the page's three queries from fixed rows. */
function fakeDb(groups: Record<string, unknown>[], models: Record<string, unknown>[], raters: Record<string, unknown>[]): Database {
  return {
    tables: new Map(),
    close: async () => {},
    query: async <T>(sql: string) => (sql.includes("count(DISTINCT episode_id)") ? models : sql.includes("rater IS NOT NULL") ? raters : groups) as T[],
  };
}

describe("loadChoices", () => {
  it("lists each key's values with their row counts (arquero rollup) and the CLI's default sides", async () => {
    const g = (benchmark: string, model: string, rater: string | null, rows: number) => ({benchmark, model, rater, run: null, source: "f.jsonl", setting: null, memory: null, cot: null, rows});
    const db = fakeDb(
      [g("sotopia", "b", "judge", 10), g("sotopia", "a", "judge", 6), g("sotopia", "a", "person", 2), g("hsii", "m", null, 4)],
      [{benchmark: "sotopia", model: "a", n: 5}, {benchmark: "sotopia", model: "b", n: 5}, {benchmark: "hsii", model: "m", n: 4}],
      [{benchmark: "sotopia", rater: "judge", n: 16}, {benchmark: "sotopia", rater: "person", n: 2}],
    );
    const choices = await loadChoices(db);
    expect(choices.map((c) => c.benchmark)).toEqual(["sotopia", "hsii"]);
    expect(choices[0].values).toEqual({
      model: [{value: "a", rows: 8}, {value: "b", rows: 10}],
      rater: [{value: "judge", rows: 16}, {value: "person", rows: 2}],
      source: [{value: "f.jsonl", rows: 18}],
    });
    expect([choices[0].defaults.a, choices[0].defaults.b]).toEqual([{model: "a", rater: "judge"}, {model: "b", rater: "judge"}]);
    expect(choices[1].defaults.note).toBe("hsii has 1 model: name the two sides (--a KEY=VALUE, --b KEY=VALUE)");
  });
});

describe("forestRows", () => {
  it("takes the chosen interval, marks adjusted p < 0.05 and leaves out metrics with no interval", () => {
    const m = (metric: string, lo: number, bootLo: number, pAdjusted: number) =>
      ({metric, difference: 1, lo, hi: 2, bootLo, bootHi: 3, pAdjusted} as MetricComparison);
    const c = {metrics: [m("goal", 0.5, 0.6, 0.01), m("rel", -1, -0.9, 0.2), m("none", NaN, NaN, NaN)]} as Comparison;
    expect(forestRows(c, "t")).toEqual([
      {metric: "goal", difference: 1, lo: 0.5, hi: 2, significant: "adjusted p < 0.05"},
      {metric: "rel", difference: 1, lo: -1, hi: 2, significant: "adjusted p ≥ 0.05"},
    ]);
    expect(forestRows(c, "bootstrap").map((r) => [r.lo, r.hi])).toEqual([[0.6, 3], [-0.9, 3]]);
  });
});
