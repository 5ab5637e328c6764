import {describe, expect, it} from "vitest";
import {agreementTable, HUMANS, pairInstances, type RaterScore} from "../../src/lib/agreement.js";
import {ExactSum, exactSd, exactSum} from "../../src/lib/agreement-sums.js";

// A judge's GOAL scores against the mean of three annotators, five instances.
const JUDGE = [1, 2, 1, 10, 6];
const HUMAN = [[10, 9, 3], [3, 3, 5], [6, 6, 2], [7, 9, 1], [6, 2, 6]];
// A − B as doubles: 1 − 22/3, 2 − 11/3, 1 − 14/3, 10 − 17/3, 6 − 14/3 (true sum 20 − 78/3 = −6).
const DIFFS = JUDGE.map((j, i) => j - (HUMAN[i]![0]! + HUMAN[i]![1]! + HUMAN[i]![2]!) / 3);

/** Every order of a short list. */
function permutations<T>(list: readonly T[]): T[][] {
  if (list.length <= 1) return [list.slice()];
  const out: T[][] = [];
  list.forEach((head, i) => {
    for (const rest of permutations([...list.slice(0, i), ...list.slice(i + 1)])) out.push([head, ...rest]);
  });
  return out;
}

describe("exactSum (hand-worked)", () => {
  it("rounds the exact sum once, where adding in order drifts, and gives the same in every order", () => {
    expect(DIFFS).toEqual([-6.333333333333333, -1.6666666666666665, -3.666666666666667, 4.333333333333333, 1.333333333333333]);
    // Each third is rounded: the doubles are off from the true differences by +4, +2, −4, −4, −4 units of 2^−52 / 3,
    // −6 units in all, so their exact sum is −6 − 2^−51: half-way between −6 and the double below it (the spacing
    // there is 2^−50); ties go to the even one, −6.
    let inOrder = 0;
    for (const d of DIFFS) inOrder += d;
    expect(inOrder).toBe(-6.000000000000002);
    expect(exactSum(DIFFS)).toBe(-6);
    const sums = new Set(permutations(DIFFS).map((order) => exactSum(order)));
    expect([...sums]).toEqual([-6]);
  });

  it("adds count copies of a term as exactly as adding them one by one", () => {
    const once = new ExactSum();
    for (let c = 0; c < 1000; c++) once.add(0.1);
    const times = new ExactSum();
    times.addTimes(0.1, 1000);
    // 1000 × the double 0.1 (0.1000000000000000055511…) is 100.0000000000000055511…, which rounds to 100.
    expect(times.value()).toBe(100);
    expect(once.value()).toBe(100);
    let inOrder = 0;
    for (let c = 0; c < 1000; c++) inOrder += 0.1;
    expect(inOrder).toBe(99.9999999999986);
  });

  it("keeps a sum of zeros −0 only when every term is −0, and NaN and infinities as plain addition gives them", () => {
    const zeros = new ExactSum();
    zeros.addTimes(-0, 3);
    expect(Object.is(zeros.value(), -0)).toBe(true);
    zeros.add(0);
    expect(Object.is(zeros.value(), 0)).toBe(true);
    expect(exactSum([1, Infinity, 2])).toBe(Infinity);
    expect(exactSum([Infinity, -Infinity])).toBeNaN();
    expect(exactSum([])).toBe(0);
  });

  it("refuses a sum whose running total passes the largest double, rather than giving NaN", () => {
    const max = Number.MAX_VALUE;
    expect(() => exactSum([max, max, -max])).toThrow(RangeError);
    expect(() => exactSum([max, max])).toThrow("exact sum: an intermediate sum of finite terms passed the largest double");
    const times = new ExactSum();
    expect(() => times.addTimes(max / 2, 3)).toThrow(RangeError);
    // Up to the largest double it is exact: max − max/2 + max/2.
    expect(exactSum([max, -max / 2, max / 2 - max / 2])).toBe(max / 2);
  });

  it("gives the two-pass sample sd, NaN under two values", () => {
    // Mean 5; squares 9, 1, 1, 9 → 20 / 3.
    expect(exactSd([2, 4, 6, 8])).toBe(Math.sqrt(20 / 3));
    expect(exactSd([3])).toBeNaN();
  });
});

describe("agreementTable with exact sums", () => {
  it("gives the bias as the exact mean of A − B, where the sum in instance order was off in the last bits", () => {
    const rows: RaterScore[] = JUDGE.flatMap((judge, i) => {
      const score = (rater: string, rater_kind: string, value: number): RaterScore =>
        ({episode_id: `e${i}`, agent: 1, dimension: "goal", rater, rater_kind, value, lo: 0, hi: 10, played_by: "model"});
      return [score("a1", "human", HUMAN[i]![0]!), score("a2", "human", HUMAN[i]![1]!), score("a3", "human", HUMAN[i]![2]!), score("judge", "llm", judge)];
    });
    const goal = agreementTable(pairInstances(rows, {rater: "judge"}, HUMANS), ["goal"]).find((r) => r.dimension === "goal" && r.played_by === "all")!;
    // Exact sum −6 over 5 instances: −1.2 (in instance order: −6.000000000000002 / 5 = −1.2000000000000004).
    expect(goal.bias).toBe(-1.2);
    expect(-6.000000000000002 / 5).toBe(-1.2000000000000004);
  });
});
