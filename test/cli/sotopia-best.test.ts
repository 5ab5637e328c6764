// `report sotopia`'s best marks: the best model against the second best
// (METRICS.md § SOTOPIA-EVAL; Table 2 lists models), human players shown but
// not ranked unless --best-among all.

import {describe, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {importFiles} from "../../loaders/import/session.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

const SCORES = {believability: 8, relationship: 2, knowledge: 3, secret: 0, social_rules: 0, financial_and_material_benefits: 1};

/** An episode of `one` against `two`, with their GOAL scores. */
const played = (id: string, one: string, two: string, goalOne: number, goalTwo: number) => dumpRecord(id, {
  experiment_model_name_pairs: ["judge-x", one, two],
  raw_rewards: [[0, {...SCORES, goal: goalOne, overall_score: 0}], [0, {...SCORES, goal: goalTwo, overall_score: 0}]],
});

describe("report sotopia best marks", () => {
  it("rank models only by default, and human players too with --best-among all", async () => {
    const store = await tempStore();
    // GOAL: human 9, 9 (mean 9); model-a 8, 7, 9, 8 (mean 8); model-b 5, 6 (mean 5.5).
    await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl([
      played("e1", "human", "model-a", 9, 8), played("e2", "human", "model-a", 9, 7),
      played("e3", "model-a", "model-b", 9, 5), played("e4", "model-b", "model-a", 6, 8),
    ]))]);
    const report = getReport("sotopia");
    const bestOnGoal = (rows: Record<string, unknown>[]) => rows.filter((r) => r.dimension === "goal" && r.best !== "").map((r) => [r.model, r.mean, r.best]);
    const models = await report.run(store, {rater: "judge-x"});
    // model-a (mean 8, SS 2) against model-b (5.5, SS 0.5): pooled var 2.5 / 4, t = 2.5 / √(0.625 · (1/4 + 1/2)) = 3.651, 4 df, p = 0.022.
    expect(bestOnGoal(models.rows)).toEqual([["model-a", 8, "*"]]);
    expect(models.rows.find((r) => r.dimension === "goal" && r.model === "human")).toMatchObject({mean: 9, best: ""});
    expect(models.notes).toContain("best among (--best-among models): models only (human-played agents are shown but not ranked, as SOTOPIA Table 2 lists models)");
    // human (9, SS 0) against model-a: pooled var 2 / 4, t = 1 / √(0.5 · (1/2 + 1/4)) = 1.633, 4 df, p = 0.18.
    const all = await report.run(store, {rater: "judge-x", bestAmong: "all"});
    expect(bestOnGoal(all.rows)).toEqual([["human", 9, "yes"]]);
  });
});
