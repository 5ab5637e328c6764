import {describe, expect, it} from "vitest";
import {roundingVerdict} from "../../src/lib/audit.js";
import {checkpointValidation, combineLabels, confusion, curvePoint, curves, meanSd, penalisedBel, validation, type CheckpointPair, type LifelongInstance} from "../../src/lib/lifelong.js";
import {tQuantile} from "../../src/lib/t-quantile.js";
import {moments} from "../../src/lib/stats.js";

describe("penalisedBel (Eq. 1)", () => {
  it("takes 5 points per failed checkpoint and never goes below 0", () => {
    expect(penalisedBel(9, 0)).toBe(9);
    expect(penalisedBel(9, 1)).toBe(4);
    expect(penalisedBel(8, 2)).toBe(0);
    expect(penalisedBel(10, 8)).toBe(0);
    expect(() => penalisedBel(9, 1.5)).toThrow("count");
  });
});

describe("curvePoint", () => {
  it("gives mean ± sd, or mean ± t·sd/√n for a 95% interval (hand-worked)", () => {
    // 6, 8, 10: mean 8, sample sd 2, population sd √(8/3); t(0.975, 2) = 4.302652729749462 (SciPy t.ppf).
    const m = moments([6, 8, 10]);
    expect(curvePoint(m, "sd")).toEqual({n: 3, mean: 8, low: 6, high: 10});
    expect(curvePoint(m, "sd", "population").high).toBeCloseTo(8 + Math.sqrt(8 / 3), 12);
    const ci = curvePoint(m, "ci95", "sample", tQuantile);
    expect(ci.high - 8).toBeCloseTo((4.302652729749462 * 2) / Math.sqrt(3), 9);
    expect(curvePoint(moments([7]), "ci95", "sample", tQuantile).low).toBeNaN();
    expect(() => curvePoint(m, "ci95")).toThrow("a 95% confidence band needs tQuantile (src/lib/t-quantile.ts)");
  });

  it("finds t quantiles like SciPy's t.ppf", () => {
    expect(tQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 9);
    expect(tQuantile(0.975, 1000)).toBeCloseTo(1.9623390808264083, 9);
  });
});

describe("combineLabels and splits (several runs of a rater)", () => {
  it("takes the majority of the runs, a tie a split; unanimous needs every run", () => {
    // (runs, passes): 1 run passing; 3 runs, 2 pass; 3 runs, 1 passes; 2 runs, 1 passes (a tie); 2 runs, none pass.
    expect([combineLabels(1, 1), combineLabels(3, 2), combineLabels(3, 1), combineLabels(2, 1), combineLabels(2, 0)]).toEqual([1, 1, 0, null, 0]);
    expect([combineLabels(1, 1, "unanimous"), combineLabels(3, 2, "unanimous"), combineLabels(3, 0, "unanimous"), combineLabels(2, 2, "unanimous")]).toEqual([1, null, 0, 1]);
    expect(() => combineLabels(2, 3)).toThrow("3 passes out of 2 runs is not a count");
    expect(() => combineLabels(0, 0)).toThrow("not a count");
  });

  it("counts a split apart, in no cell, and refuses a label that is not 0 or 1 (no 0.5 counted as a class)", () => {
    // An averaged 0.5 was counted as the negative class whatever the positive was: under "fail" a TN, under "pass" a FN.
    expect(confusion([{llm: null, human: 0}, {llm: 0, human: 0}, {llm: 1, human: null}])).toEqual({tp: 1, fp: 0, tn: 0, fn: 0, split: 2});
    expect(() => confusion([{llm: 0.5, human: 0}])).toThrow("a checkpoint label is 0 (fails) or 1 (passes), not 0.5");
  });

  it("makes one label per side from the runs' counts before the confusion counts", () => {
    const pair = (episode_id: string, llm_runs: number, llm_passes: number, human_passes: number): CheckpointPair =>
      ({episode_id, agent: 1, dimension: "checkpoint:paper:no_repeated_sentences", llm_rater: "j", human_rater: "h", llm_runs, llm_passes, human_runs: 1, human_passes});
    // e1: runs fail, pass (split) vs human fail; e2: fail, fail vs fail (TP under fail); e3: 2 of 3 pass vs pass (TN); e4: 1 of 3 pass vs pass (FP).
    const pairs = [pair("e1", 2, 1, 0), pair("e2", 2, 0, 0), pair("e3", 3, 2, 1), pair("e4", 3, 1, 1), {...pair("x", 1, 1, 1), llm_rater: "other"}];
    const [row] = checkpointValidation(pairs, {rater: "j"});
    expect(row).toMatchObject({dimension: "checkpoint:paper:no_repeated_sentences", n: 4, tp: 1, fp: 1, tn: 1, fn: 0, split: 1, precision: 0.5, recall: 1});
    // Unanimous: e3 and e4 split as well, leaving e2 alone (TP).
    expect(checkpointValidation(pairs, {rater: "j", labelRuns: "unanimous"})[0]).toMatchObject({n: 4, tp: 1, fp: 0, tn: 0, fn: 0, split: 3});
    // Passing as positive: e3 TP, e4 FN, e2 TN.
    expect(checkpointValidation(pairs, {rater: "j", positive: "pass"})[0]).toMatchObject({tp: 1, fp: 0, tn: 1, fn: 1, split: 1});
  });
});

describe("confusion and validation", () => {
  it("counts with failing as the positive class by default, or passing", () => {
    const pairs = [
      {llm: 0, human: 0}, {llm: 0, human: 0}, // both say fail
      {llm: 0, human: 1}, // LLM says fail, human pass
      {llm: 1, human: 0}, // LLM pass, human fail
      {llm: 1, human: 1}, {llm: 1, human: 1}, {llm: 1, human: 1},
    ];
    expect(confusion(pairs)).toEqual({tp: 2, fp: 1, tn: 3, fn: 1, split: 0});
    expect(confusion(pairs, "pass")).toEqual({tp: 3, fp: 1, tn: 2, fn: 1, split: 0});
    const v = validation(confusion(pairs));
    expect([v.precision, v.recall]).toEqual([2 / 3, 2 / 3]);
    expect(v.f1).toBeCloseTo(2 / 3, 14);
  });

  it("says n/a (NaN) rather than 0 where a ratio is undefined", () => {
    const v = validation({tp: 0, fp: 0, tn: 5, fn: 0});
    expect([v.precision, v.recall, v.f1]).toEqual([NaN, NaN, NaN]);
    expect(validation({tp: 0, fp: 2, tn: 1, fn: 3}).f1).toBeNaN();
  });
});

// LIFELONG-SOTOPIA Table 1: confusion counts and the precision, recall and F1 the paper prints.
const TABLE_1 = [
  {checkpoint: "Repetition of Sentences", tp: 48, fp: 2, tn: 42, fn: 8, reported: ["0.96", "0.85", "0.90"]},
  {checkpoint: "Consistency with Character Traits", tp: 43, fp: 7, tn: 44, fn: 6, reported: ["0.86", "0.87", "0.86"]},
  {checkpoint: "Consistency with Environment Goals", tp: 48, fp: 2, tn: 37, fn: 13, reported: ["0.96", "0.78", "0.86"]},
  {checkpoint: "Agent Leaves Promptly After Goal Resolution", tp: 36, fp: 14, tn: 42, fn: 8, reported: ["0.72", "0.81", "0.76"]},
  {checkpoint: "Repetition of Exact Goal", tp: 33, fp: 17, tn: 48, fn: 2, reported: ["0.66", "0.94", "0.77"]},
  {checkpoint: "Stalling in a Conversation", tp: 39, fp: 11, tn: 45, fn: 5, reported: ["0.78", "0.88", "0.82"]},
  {checkpoint: "Character Responses", tp: 49, fp: 1, tn: 37, fn: 13, reported: ["0.98", "0.79", "0.87"]},
  {checkpoint: "Episode Beginning", tp: 47, fp: 3, tn: 33, fn: 17, reported: ["0.94", "0.78", "0.85"]},
];

describe("LIFELONG-SOTOPIA Table 1 from its confusion counts", () => {
  it("counts passing as positive: the LLM predicts 50 of its 100 labels positive in every row", () => {
    // TP + FP = 50 in every row (and TP + FP + TN + FN = 100): the predicted-positive side is a fixed half, the passes.
    // So compare the workbench's counts with Table 1 under positive class "pass", not the default "fail".
    expect(TABLE_1.map((r) => [r.tp + r.fp, r.tp + r.fp + r.tn + r.fn])).toEqual(TABLE_1.map(() => [50, 100]));
  });

  const verdicts = TABLE_1.map((row) => {
    const v = validation(row);
    return [row.checkpoint, ...[v.precision, v.recall, v.f1].map((x, i) => roundingVerdict(x, row.reported[i]!))];
  });

  it("reproduces Repetition of Sentences: precision 0.96, recall 0.857, F1 0.906", () => {
    const v = validation(TABLE_1[0]!);
    expect(v.precision).toBeCloseTo(0.96, 12);
    expect(v.recall).toBeCloseTo(0.857, 3);
    expect(v.f1).toBeCloseTo(0.906, 3);
  });

  it("finds the printed recall and F1 truncated, not rounded, in most rows, and one row its counts do not reproduce", () => {
    // Every precision is exact. Recall and F1 are mostly truncated to two digits (0.857 printed 0.85,
    // 0.8776 printed 0.87, …); where rounding and truncation agree the verdict says so. Episode
    // Beginning's counts give recall 47/64 = 0.734 and F1 0.825, not the printed 0.78 and 0.85: the
    // printed pair fits FN = 13 (47/60 = 0.783, F1 0.854), so one count in that row is likely misprinted.
    expect(verdicts).toEqual([
      ["Repetition of Sentences", "exact", "truncated", "truncated"],
      ["Consistency with Character Traits", "exact", "truncated", "truncated"],
      ["Consistency with Environment Goals", "exact", "truncated", "rounded-or-truncated"],
      ["Agent Leaves Promptly After Goal Resolution", "exact", "truncated", "truncated"],
      ["Repetition of Exact Goal", "exact", "rounded-or-truncated", "truncated"],
      ["Stalling in a Conversation", "exact", "truncated", "truncated"],
      ["Character Responses", "exact", "rounded-or-truncated", "truncated"],
      ["Episode Beginning", "exact", "mismatch", "mismatch"],
    ]);
    const fixed = validation({...TABLE_1[7]!, tn: 37, fn: 13});
    expect([roundingVerdict(fixed.recall, "0.78"), roundingVerdict(fixed.f1, "0.85")]).toEqual(["rounded-or-truncated", "rounded-or-truncated"]);
  });
});

describe("meanSd", () => {
  it("says which sd it used", () => {
    expect(meanSd(moments([8, 10]))).toEqual({n: 2, mean: 9, sd: Math.SQRT2, variance: "sample"});
    expect(meanSd(moments([8, 10]), "population").sd).toBe(1);
  });
});

describe("curves", () => {
  // One run: penalised BEL is that run's Eq. 1 (LIFELONG_INSTANCES_SQL averages several runs' values).
  const inst = (chain_index: number, bel: number, goal: number, failed: number, extra: Partial<LifelongInstance> = {}): LifelongInstance => ({
    episode_id: `e${chain_index}-${bel}`, agent: 1, model: "m", memory_mode: "full", chain_id: "c", chain_index, harder: false,
    checkpoint_set: "paper", rater: "j", rater_kind: "llm", runs: 1, bel, goal, checkpoints: 8, failed, penalised_bel: penalisedBel(bel, failed),
    bel_checklisted: bel, logged_bel_extended: null, ...extra,
  });

  it("averages BEL, GOAL and penalised BEL per chain index (hand-worked)", () => {
    // Index 1: BEL 9 and 7, one failure on the second → penalised 9 and 2. Index 2: BEL 6, harder.
    const rows = curves([inst(1, 9, 8, 0), inst(1, 7, 6, 1), inst(2, 6, 3, 0, {harder: true}), inst(2, 1, 1, 0, {rater: "other"})], {rater: "j"});
    expect(rows.map((r) => [r.chain_index, r.harder, r.bel.mean, r.goal.mean, r.penalised.mean, r.bel.n])).toEqual([
      [1, false, 8, 7, 5.5, 2],
      [2, true, 6, 3, 6, 1],
    ]);
    expect(rows[0]!.bel.low).toBeCloseTo(8 - Math.SQRT2, 12);
  });

  it("adds up the runs combined into each point's instances", () => {
    const rows = curves([inst(1, 9, 8, 0, {runs: 2}), inst(1, 7, 6, 1, {runs: 3}), inst(2, 6, 3, 0)], {rater: "j"});
    expect(rows.map((r) => [r.chain_index, r.bel.n, r.runs])).toEqual([[1, 2, 5], [2, 1, 1]]);
  });
});
