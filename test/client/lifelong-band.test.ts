// LIFELONG-SOTOPIA's 95% band: the t quantile's values are kept per degrees of
// freedom and worked out in idle time after the first view, so the first band
// change reads kept values; the curves are the same numbers as without them.

import {describe, expect, it} from "vitest";
import {bandDegrees, curvesFromGroups, keepInIdle, keptTQuantile, type LifelongGroup} from "../../src/client/lifelong.js";
import {tQuantile} from "../../src/lib/t-quantile.js";

const group = (chain_index: number, bel_n: number, goal_n: number, penalised_n: number): LifelongGroup => ({
  rater: "gpt-4", model: "gpt-4o", memory_mode: "full", chain_index, harder: false, runs: bel_n,
  bel_n, bel_sum: 6 * bel_n + 1, bel_sum_sq: 37 * bel_n + 9,
  goal_n, goal_sum: 5 * goal_n, goal_sum_sq: 26 * goal_n + 4,
  penalised_n, penalised_sum: 4 * penalised_n, penalised_sum_sq: 17 * penalised_n + 2,
  // The checklisted instances are the penalised ones: the same n, so no degrees of freedom of their own.
  bel_checklisted_n: penalised_n, bel_checklisted_sum: 7 * penalised_n, bel_checklisted_sum_sq: 50 * penalised_n + 1,
});
// n − 1: 4 and 3 from the first group; the second adds 2 (its goal has n = 1, no band).
const GROUPS = [group(1, 5, 5, 4), group(2, 5, 1, 3)];

/** tQuantile, counting the calls that reach it. */
function counted(): {tq: typeof tQuantile; calls: [number, number][]} {
  const calls: [number, number][] = [];
  return {calls, tq: (p, df) => (calls.push([p, df]), tQuantile(p, df))};
}

describe("keptTQuantile", () => {
  it("gives tQuantile's own numbers and works each (p, df) out once", () => {
    const {tq, calls} = counted();
    const kept = keptTQuantile(tq);
    expect(kept(0.975, 4)).toBe(tQuantile(0.975, 4));
    expect(kept(0.975, 4)).toBe(tQuantile(0.975, 4));
    expect(kept(0.95, 4)).toBe(tQuantile(0.95, 4));
    // t_{0.975, 4} = 2.776445 (any t table).
    expect(kept(0.975, 4)).toBeCloseTo(2.776445, 5);
    expect(calls).toEqual([[0.975, 4], [0.95, 4]]);
  });

  it("leaves the 95% curves exactly as tQuantile alone gives them, asking it once per degrees of freedom", () => {
    const {tq, calls} = counted();
    const plain = curvesFromGroups(GROUPS, {rater: "gpt-4", band: "ci95", tQuantile});
    expect(curvesFromGroups(GROUPS, {rater: "gpt-4", band: "ci95", tQuantile: keptTQuantile(tq)})).toEqual(plain);
    // bel, goal, penalised of each group in turn: df 4, 4, 3, then 4, 0, 2.
    expect(calls.map(([, df]) => df)).toEqual([4, 3, 0, 2]);
    expect(plain[0]!.bel.high - plain[0]!.bel.low).toBeGreaterThan(0);
  });
});

describe("bandDegrees and keepInIdle", () => {
  it("lists each group's n − 1 once (n ≥ 2), and works them out before a band asks, so the band reaches tQuantile only for n = 1", async () => {
    expect(bandDegrees(GROUPS)).toEqual([4, 3, 2]);
    expect(bandDegrees([])).toEqual([]);
    const {tq, calls} = counted();
    const kept = keptTQuantile(tq);
    keepInIdle(bandDegrees(GROUPS), kept);
    // Node has no requestIdleCallback: one value per timer turn.
    for (let i = 0; i < 4; i++) await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([[0.975, 4], [0.975, 3], [0.975, 2]]);
    curvesFromGroups(GROUPS, {rater: "gpt-4", band: "ci95", tQuantile: kept});
    expect(calls.slice(3)).toEqual([[0.975, 0]]);
  });
});
