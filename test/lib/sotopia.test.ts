import {describe, expect, it} from "vitest";
import {SOTOPIA_DIMENSIONS, scoreProblem, sotopiaDimension} from "../../src/lib/dimensions.js";
import {bestModels, compareWithReference} from "../../src/lib/sotopia-significance.js";
import {defaultRater, hardSelectionNotes, modelAggregates, overallScore, pairwiseMatrix, sotopiaHard, taskLabel, wordsPerTurn, type SotopiaStatRow} from "../../src/lib/sotopia.js";
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

const stat = (rater: string, model: string, partner: string, dimension: string, values: number[], rater_kind = "llm", task_id = "t"): SotopiaStatRow => {
  const m = moments(values);
  return {rater, rater_kind, task_id, model, partner, dimension, n: m.n, sum: m.sum, sum_sq: m.sumSq};
};

describe("modelAggregates (SOTOPIA Table 2)", () => {
  const rows = [
    stat("judge", "A", "A", "goal", [8, 6]),
    stat("judge", "A", "B", "goal", [10]),
    stat("judge", "B", "A", "goal", [2, 4, 6]),
    stat("human", "A", "B", "goal", [1], "human"),
  ];

  it("pools a model's scores over partners, for the chosen rater only", () => {
    expect(modelAggregates(rows, {rater: "judge"})).toMatchObject([
      {model: "A", dimension: "goal", n: 3, mean: 8, sd: 2},
      {model: "B", dimension: "goal", n: 3, mean: 4, sd: 2},
    ]);
    expect(modelAggregates(rows, {rater: "human"})).toMatchObject([{model: "A", dimension: "goal", n: 1, mean: 1, sd: NaN}]);
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

describe("bestModels (Table 2 significance marks)", () => {
  it("marks the best model when Student's t against the second best gives p < 0.05", () => {
    // A: 9 8 9 8 9 (mean 8.6), B: 5 6 5 6 5 (mean 5.4): pooled var 0.3, t = 3.2/√(0.3·0.4) = 9.2376, 8 df.
    const aggs = modelAggregates([stat("j", "A", "A", "goal", [9, 8, 9, 8, 9]), stat("j", "B", "A", "goal", [5, 6, 5, 6, 5]),
      stat("j", "A", "A", "secret", [-1, -2]), stat("j", "B", "A", "secret", [-2, -1])], {rater: "j"});
    const [goal] = bestModels(aggs).filter((b) => b.dimension === "goal");
    expect(goal).toMatchObject({best: "A", second: "B", significant: true});
    expect(goal.test!.t).toBeCloseTo(3.2 / Math.sqrt(0.12), 10);
    const [secret] = bestModels(aggs).filter((b) => b.dimension === "secret");
    expect(secret.significant).toBe(false);
  });

  it("ranks models only by default: a human player with the highest mean is shown, not ranked best", () => {
    // human: 9 9 10 9 (mean 9.25); A: 9 8 9 8 9 (8.6); B: 5 6 5 6 5 (5.4). Models only: A against B, t = 9.2376.
    // With human players: human against A, pooled var (0.75 + 1.2) / 7 = 0.27857, t = 0.65 / √(0.27857·(1/4 + 1/5)) = 1.8357, 7 df.
    const aggs = modelAggregates([stat("j", "human", "A", "goal", [9, 9, 10, 9]), stat("j", "A", "A", "goal", [9, 8, 9, 8, 9]),
      stat("j", "B", "A", "goal", [5, 6, 5, 6, 5])], {rater: "j"});
    expect(aggs.map((a) => a.model)).toContain("human");
    const [models] = bestModels(aggs).filter((b) => b.dimension === "goal");
    expect(models).toMatchObject({best: "A", second: "B", significant: true});
    expect(models.test!.t).toBeCloseTo(3.2 / Math.sqrt(0.12), 10);
    const [all] = bestModels(aggs, {among: "all"}).filter((b) => b.dimension === "goal");
    expect(all).toMatchObject({best: "human", second: "A", significant: false});
    expect(all.test!.t).toBeCloseTo(0.65 / Math.sqrt((1.95 / 7) * 0.45), 10);
  });
});

describe("pairwiseMatrix and compareWithReference (Figure 3, Table 3)", () => {
  it("pools a model's scores per partner across tasks and tests cells against a reference cell", () => {
    const rows = [
      stat("j", "gpt-4", "human", "goal", [8, 9], "llm", "t1"),
      stat("j", "gpt-4", "human", "goal", [7], "llm", "t2"),
      stat("j", "human", "gpt-4", "goal", [6, 5, 7], "llm", "t1"),
      stat("j", "human", "human", "goal", [6, 6], "llm", "t1"),
    ];
    const cells = pairwiseMatrix(rows, {rater: "j", dimension: "goal"});
    expect(cells.map((c) => [c.model, c.partner, c.n, c.mean])).toEqual([
      ["gpt-4", "human", 3, 8], ["human", "gpt-4", 3, 6], ["human", "human", 2, 6],
    ]);
    const compared = compareWithReference(cells, {model: "gpt-4", partner: "human"});
    expect(compared[0]).toMatchObject({isReference: true, test: null});
    // gpt-4 w H: 8 9 7 vs human w G: 6 5 7 → means 8 and 6, both sample variances 1: t = −2/√(1·2/3).
    expect(compared[1].test!.t).toBeCloseTo(-2 / Math.sqrt(2 / 3), 10);
    expect(pairwiseMatrix(rows, {rater: "j", dimension: "goal", tasks: new Set(["t2"])}).map((c) => c.n)).toEqual([1]);
  });
});

describe("sotopiaHard (SOTOPIA §7)", () => {
  const goal = sotopiaDimension("goal")!;
  // Task t1: target T scores 2, 4 (mean 3, sd √2); other model O scores 8, 10 (mean 9, sd √2).
  // Task t2: T scores 6, 6 (sd 0), O scores 7, 7.
  const rows = [
    stat("j", "T", "O", "goal", [2, 4], "llm", "t1"), stat("j", "O", "T", "goal", [8, 10], "llm", "t1"),
    stat("j", "T", "O", "goal", [6, 6], "llm", "t2"), stat("j", "O", "T", "goal", [7, 7], "llm", "t2"),
    stat("j", "T", "O", "goal", [5], "llm", "t3"), stat("j", "O", "T", "goal", [5, 6], "llm", "t3"),
  ];

  it("max rule: clamp(max of mean + 3 sd) − clamp(target mean − 3 sd), hardest first, tasks without a target sd skipped", () => {
    const s = sotopiaHard(rows, {rater: "j", target: "T", dimension: goal});
    // t1: upper = clamp(max(3 + 3√2, 9 + 3√2)) = 10; lower = clamp(3 − 3√2) = 0 → 10.
    // t2: upper = max(6, 7) = 7; lower = 6 → 1.
    expect(s.tasks.map((t) => [t.task_id, t.difficulty])).toEqual([["t1", 10], ["t2", 1]]);
    expect(s.skipped).toEqual(["t3"]);
    expect(sotopiaHard(rows, {rater: "j", target: "T", dimension: goal, n: 1}).tasks).toHaveLength(1);
    // Two tasks qualify, whatever N asks for; t1 reaches the bound (the whole range, 10).
    expect([s.eligible, s.bound, s.saturated, s.tieAtCut]).toEqual([2, 10, 1, null]);
  });

  it("counts tasks tied at the bound and a cut at N that falls inside a tie", () => {
    // t4 is a copy of t1 under another id: both reach 10; with N = 1 the cut splits the tie (order by task id).
    const tied = [...rows, stat("j", "T", "O", "goal", [2, 4], "llm", "t4"), stat("j", "O", "T", "goal", [8, 10], "llm", "t4")];
    const s = sotopiaHard(tied, {rater: "j", target: "T", dimension: goal, n: 1});
    expect(s.tasks.map((t) => t.task_id)).toEqual(["t1"]);
    expect([s.eligible, s.saturated]).toEqual([3, 2]);
    expect(s.tieAtCut).toEqual({difficulty: 10, selected: 1, left: 1});
    expect(sotopiaHard(tied, {rater: "j", target: "T", dimension: goal, n: 2}).tieAtCut).toBeNull();
  });

  it("pooled rule: mean + 3 sd over every model's episodes at once", () => {
    // t2 pooled: 6 6 7 7 → mean 6.5, sample sd √(1/3); upper = 6.5 + √3 = 8.232…; lower 6.
    const t2 = sotopiaHard(rows, {rater: "j", target: "T", dimension: goal, rule: "pooled"}).tasks.find((t) => t.task_id === "t2")!;
    expect(t2.difficulty).toBeCloseTo(6.5 + Math.sqrt(3) - 6, 12);
  });
});

describe("taskLabel", () => {
  it("names a task by codename and characters, falling back to its id", () => {
    expect(taskLabel({task_id: "s | a & b", codename: "carpool_route", characters: "Ana & Ben"}, "s | a & b")).toBe("carpool_route: Ana & Ben");
    expect(taskLabel({task_id: "x", codename: null, characters: "Ana & Ben"}, "x")).toBe("Ana & Ben");
    expect(taskLabel(undefined, "x")).toBe("x");
  });
});

describe("wordsPerTurn", () => {
  it("divides words by spoken turns", () => {
    expect(wordsPerTurn({turns: 4, words: 67})).toBe(16.75);
    expect(wordsPerTurn({turns: 0, words: 0})).toBeNaN();
  });
});

describe("hardSelectionNotes", () => {
  const goal = sotopiaDimension("goal")!;
  it("says why fewer than N tasks are listed, how many tie at the bound, and when the cut splits a tie", () => {
    const rows = [
      stat("j", "T", "O", "goal", [2, 4], "llm", "t1"), stat("j", "O", "T", "goal", [8, 10], "llm", "t1"),
      stat("j", "T", "O", "goal", [2, 4], "llm", "t4"), stat("j", "O", "T", "goal", [8, 10], "llm", "t4"),
      stat("j", "T", "O", "goal", [5], "llm", "t3"), stat("j", "O", "T", "goal", [5, 6], "llm", "t3"),
    ];
    expect(hardSelectionNotes(sotopiaHard(rows, {rater: "j", target: "T", dimension: goal, n: 20}), {n: 20, dimension: goal})).toEqual([
      "only 2 task(s) of the target have a difficulty; the other 1 lack two or more scored episodes (an sd needs two), so 2 are selected, not 20",
      "2 task(s) tie at the bound: difficulty 10, the whole range [0, 10] (upper bound clamped to 10, the target's mean − 3 sd clamped to 0); " +
        "the 3 sd bounds saturate on so few episodes, and tied tasks are ordered by task id only",
    ]);
    expect(hardSelectionNotes(sotopiaHard(rows, {rater: "j", target: "T", dimension: goal, n: 1}), {n: 1, dimension: goal})[1])
      .toBe("the cut at N = 1 falls inside a tie: 1 selected and 1 left out at difficulty 10 (by task id)");
  });
});
