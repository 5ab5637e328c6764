import {describe, expect, it} from "vitest";
import {cotRounds, cotSummary, hsiiScore, ordersDisagree, rates, stageCounts, successByRounds, winScore, type HsiiCase, type Verdict} from "../../src/lib/hsii.js";

// HSII Table 1: r1, r2, r3, r4 and the printed HSII score.
const TABLE_1: [string, number, number, number, number, number][] = [
  ["llama2-7b", 0.472, 0.51, 0.26, 0.27, 0.6],
  ["baichuan2-7b", 0.343, 0.624, 0.4, 0.44, 0.522],
  ["qwen2.5-7b", 0.677, 0.266, 0.47, 0.52, 0.855],
  ["llama3-8b", 0.554, 0.565, 0.55, 0.55, 0.898],
  ["mistral-7b", 0.496, 0.491, 0.41, 0.44, 0.703],
  ["GPT4", 0.701, 0.732, 0.67, 0.69, 1.399],
  ["human", 0.996, 0.804, 0.72, 0.72, 2.149],
];

describe("hsiiScore", () => {
  it("reproduces every HSII of Table 1 within 0.001 with the table1 form (its r values are themselves rounded)", () => {
    for (const [model, r1, r2, r3, r4, printed] of TABLE_1) {
      expect(Math.abs(hsiiScore({r1, r2, r3, r4}, "table1") - printed), model).toBeLessThan(0.001);
    }
  });

  it("gives Eq. 1's value, which the table does not print (GPT-4: 1.912 against 1.399)", () => {
    const gpt4 = {r1: 0.701, r2: 0.732, r3: 0.67, r4: 0.69};
    expect(hsiiScore(gpt4, "eq1")).toBeCloseTo(1.912, 3);
    expect(hsiiScore(gpt4)).toBe(hsiiScore(gpt4, "eq1"));
    // Weights enter Eq. 1 only: α = 0 leaves r1.
    expect(hsiiScore(gpt4, "eq1", {alpha: 0, beta: 1, gamma: 1})).toBe(0.701);
    expect(hsiiScore(gpt4, "eq1", {alpha: 1, beta: 2, gamma: 0.5})).toBeCloseTo(0.701 * (1 + 0.732 * (1 + 2 * (0.67 + 0.5 * 0.69))), 12);
  });
});

describe("winScore and ordersDisagree", () => {
  const c = (forward: Verdict | null, swapped: Verdict | null) => ({forward, swapped});
  it("scores each policy on orders that agree and that disagree", () => {
    expect([winScore(c("win", "win")), winScore(c("win", "win"), "strict"), winScore(c("win", "win"), "first")]).toEqual([1, 1, 1]);
    expect([winScore(c("win", "loss")), winScore(c("win", "loss"), "strict"), winScore(c("win", "loss"), "first")]).toEqual([0.5, 0, 1]);
    expect([winScore(c("tie", "win")), winScore(c("tie", "win"), "strict"), winScore(c("tie", "win"), "first")]).toEqual([0.75, 0, 0.5]);
    expect([winScore(c("loss", "win"), "first"), winScore(c(null, "win")), winScore(c(null, "win"), "strict"), winScore(c(null, "win"), "first")]).toEqual([0, null, null, null]);
    // One order judged: `first` reads it when it is the forward one; `mean` needs both and does not pass it off as a pair.
    expect([winScore(c("win", null)), winScore(c("win", null), "strict"), winScore(c("win", null), "first")]).toEqual([null, null, 1]);
    expect([ordersDisagree(c("win", "loss")), ordersDisagree(c("tie", "tie")), ordersDisagree(c("win", null))]).toEqual([true, false, null]);
  });
});

describe("stageCounts and rates (Definition 1)", () => {
  // 10 cases: 8 parse, 6 of those pick the right target. Stage 3 over those 6: orders (win, win) ×3,
  // (win, loss) ×2, (loss, loss) ×1. Stage 4: (win, win) ×4, (tie, tie) ×2.
  const make = (parsed: boolean, targetCorrect: boolean, s3: [Verdict, Verdict], s4: [Verdict, Verdict]): HsiiCase => ({
    parsed, targetCorrect, stage3: {forward: s3[0], swapped: s3[1]}, stage4: {forward: s4[0], swapped: s4[1]},
  });
  const ww: [Verdict, Verdict] = ["win", "win"];
  const cases = [
    make(false, false, ww, ww), make(false, false, ww, ww),
    make(true, false, ww, ww), make(true, false, ww, ww),
    make(true, true, ww, ww), make(true, true, ww, ww), make(true, true, ww, ww),
    make(true, true, ["win", "loss"], ww), make(true, true, ["win", "loss"], ["tie", "tie"]), make(true, true, ["loss", "loss"], ["tie", "tie"]),
  ];

  it("counts n, n1, n2 exactly and n3, n4 per policy", () => {
    expect(stageCounts(cases, "mean")).toMatchObject({n: 10, n1: 8, n2: 6, n3: 4, n4: 5});
    expect(stageCounts(cases, "strict")).toMatchObject({n3: 3, n4: 4});
    expect(stageCounts(cases, "first")).toMatchObject({n3: 5, n4: 5});
  });

  it("turns counts into r1..r4 and the absolute target rate", () => {
    expect(rates(stageCounts(cases, "mean"))).toEqual({r1: 0.8, r2: 0.75, r3: 4 / 6, r4: 5 / 6, absoluteTarget: 0.6});
    expect(rates(stageCounts([], "mean")).r1).toBeNaN();
  });

  it("takes r3 and r4 over the n2 cases judged under the policy, counting the others apart, not as losses", () => {
    // n2 = 5: stage 3 (win, win), (win, loss), (win, null), (null, null), (loss, loss); no stage-4 verdict at all.
    // mean: judged3 = 3 (two orders), n3 = 1 + 0.5 + 0 = 1.5, r3 = 1.5 / 3 = 0.5 (was 1.5 / 5 with misses as losses,
    // and 2.5 / 5 with (win, null) scored as a one-order win); first: judged3 = 4, n3 = 3, r3 = 0.75; strict: 1 / 3.
    const one = (s3: [Verdict | null, Verdict | null]): HsiiCase =>
      ({parsed: true, targetCorrect: true, stage3: {forward: s3[0], swapped: s3[1]}, stage4: {forward: null, swapped: null}});
    const partial = [one(["win", "win"]), one(["win", "loss"]), one(["win", null]), one([null, null]), one(["loss", "loss"])];
    expect(stageCounts(partial, "mean")).toEqual({n: 5, n1: 5, n2: 5, n3: 1.5, n4: 0, judged3: 3, judged4: 0, unjudged3: 2, unjudged4: 5});
    const mean = rates(stageCounts(partial, "mean"));
    expect(mean.r3).toBe(0.5);
    // No stage-4 verdict: r4 n/a, not 0, and so is the score in either form.
    expect(mean.r4).toBeNaN();
    expect(hsiiScore(mean, "eq1")).toBeNaN();
    expect(hsiiScore(mean, "table1")).toBeNaN();
    expect(stageCounts(partial, "first")).toMatchObject({n3: 3, judged3: 4, unjudged3: 1});
    expect(rates(stageCounts(partial, "first")).r3).toBe(0.75);
    expect(rates(stageCounts(partial, "strict")).r3).toBe(1 / 3);
  });
});

describe("COT complexity (Definition 2)", () => {
  const run = (...rounds: boolean[]) => ({rounds});

  it("counts rounds to the first correct answer, the cap when never", () => {
    expect(cotRounds(run(true))).toBe(0);
    expect(cotRounds(run(false, false, true))).toBe(2);
    expect(cotRounds(run(false, false))).toBe(128);
    expect(cotRounds(run(false, false, false, true), 2)).toBe(2);
  });

  it("summarises a hand-worked set: success without and with COT, complexity, rounds to 70%", () => {
    // k = 0, 0, 1, 3, 3, unsolved(→ 10 with cap 10), 2, 0, 5, unsolved. Solved within k: k=0: 3/10, 1: 4/10, 2: 5/10, 3: 7/10.
    const runs = [run(true), run(true), run(false, true), run(false, false, false, true), run(false, false, false, true), run(false, false),
      run(false, false, true), run(true), run(false, false, false, false, false, true), run(false)];
    const s = cotSummary(runs, {cap: 10, threshold: 0.7});
    expect(s).toEqual({runs: 10, successWithoutCot: 0.3, successWithCot: 0.8, complexity: (0 + 0 + 1 + 3 + 3 + 10 + 2 + 0 + 5 + 10) / 10, roundsToThreshold: 3, threshold: 0.7, cap: 10});
    expect(successByRounds(runs, 3, 10).map((p) => p.share)).toEqual([0.3, 0.4, 0.5, 0.7]);
  });

  it("handles all-unsolved and a threshold never reached", () => {
    const none = cotSummary([run(false), run(false, false)], {cap: 128});
    expect([none.successWithoutCot, none.successWithCot, none.complexity, none.roundsToThreshold]).toEqual([0, 0, 128, Infinity]);
    expect(cotSummary([run(true), run(false)], {threshold: 0.7}).roundsToThreshold).toBe(Infinity);
    expect(cotSummary([run(true), run(false, true)], {threshold: 1}).roundsToThreshold).toBe(1);
  });
});
