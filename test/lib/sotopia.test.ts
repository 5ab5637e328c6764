import {describe, expect, it} from "vitest";
import {SOTOPIA_DIMENSIONS, scoreProblem, sotopiaDimension} from "../../src/lib/dimensions.js";
import {defaultRater, modelAggregates, overallScore, type SotopiaStatRow} from "../../src/lib/sotopia.js";
import {moments} from "../../src/lib/stats.js";

describe("overallScore (METRICS.md § SOTOPIA-EVAL)", () => {
  it("reproduces SOTOPIA Table G.3's overall row from its seven dimension rows", () => {
    // Table G.3, human annotators: SOC, SEC, FIN, REL, KNO, GOAL, BEL per model; overall reported 2.81, 2.18, 1.48.
    const table = {
      "GPT-4": {social_rules: -0.36, secret: -0.27, financial_and_material_benefits: 0.42, relationship: 1.86, knowledge: 3.11, goal: 7.3, believability: 7.63},
      "GPT-3.5": {social_rules: -0.59, secret: -0.18, financial_and_material_benefits: 0.27, relationship: 1.32, knowledge: 2.45, goal: 5.19, believability: 6.8},
      "Llama-2": {social_rules: -0.67, secret: -0.37, financial_and_material_benefits: 0.12, relationship: 0.96, knowledge: 1.78, goal: 4.27, believability: 4.28},
    };
    const overall = Object.fromEntries(Object.entries(table).map(([m, s]) => [m, overallScore(s).toFixed(2)]));
    expect(overall).toEqual({"GPT-4": "2.81", "GPT-3.5": "2.18", "Llama-2": "1.48"});
  });

  it("refuses an incomplete set of dimensions instead of averaging fewer", () => {
    expect(() => overallScore({goal: 5})).toThrow(/believability is missing/);
  });
});

describe("dimension ranges", () => {
  it("match METRICS.md and reject out-of-range or fractional scores", () => {
    expect(SOTOPIA_DIMENSIONS.map((d) => `${d.abbrev}[${d.lo},${d.hi}]`).join(" ")).toBe(
      "BEL[0,10] REL[-5,5] KNO[0,10] SEC[-10,0] SOC[-10,0] FIN[-5,5] GOAL[0,10]",
    );
    const goal = sotopiaDimension("goal")!;
    expect(scoreProblem(goal, 10)).toBeNull();
    expect(scoreProblem(goal, 0)).toBeNull();
    expect(scoreProblem(goal, 11)).toBe("11 is outside GOAL's range [0, 10]");
    expect(scoreProblem(sotopiaDimension("secret")!, 2)).toBe("2 is outside SEC's range [-10, 0]");
    expect(scoreProblem(goal, 7.5)).toContain("not a whole number");
    expect(scoreProblem(goal, "7")).toContain("expected a number");
  });
});

const stat = (rater: string, model: string, partner: string, dimension: string, values: number[], rater_kind = "llm"): SotopiaStatRow => {
  const m = moments(values);
  return {rater, rater_kind, task_id: "t", model, partner, dimension, n: m.n, sum: m.sum, sum_sq: m.sumSq};
};

describe("modelAggregates (SOTOPIA Table 2)", () => {
  const rows = [
    stat("judge", "A", "A", "goal", [8, 6]),
    stat("judge", "A", "B", "goal", [10]),
    stat("judge", "B", "A", "goal", [2, 4, 6]),
    stat("human", "A", "B", "goal", [1], "human"),
  ];

  it("pools a model's scores over partners, for the chosen rater only", () => {
    expect(modelAggregates(rows, {rater: "judge"})).toEqual([
      {model: "A", dimension: "goal", n: 3, mean: 8, sd: 2},
      {model: "B", dimension: "goal", n: 3, mean: 4, sd: 2},
    ]);
    expect(modelAggregates(rows, {rater: "human"})).toEqual([{model: "A", dimension: "goal", n: 1, mean: 1, sd: NaN}]);
  });

  it("filters models", () => {
    expect(modelAggregates(rows, {rater: "judge", models: ["B"]}).map((a) => a.model)).toEqual(["B"]);
  });

  it("picks the LLM rater with the most scores by default", () => {
    expect(defaultRater(rows)).toBe("judge");
    expect(defaultRater([stat("h1", "A", "A", "goal", [1, 2, 3], "human"), stat("small-llm", "A", "A", "goal", [1])])).toBe("small-llm");
    expect(defaultRater([])).toBeUndefined();
  });
});
