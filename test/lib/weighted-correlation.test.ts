import {describe, expect, it} from "vitest";
import {pearson, spearman} from "../../src/lib/inference.js";
import {SeededRandom} from "../../src/lib/resample.js";
import {weightedPearson, weightedSpearman} from "../../src/lib/weighted-correlation.js";

describe("weighted correlations", () => {
  it("with every weight 1 equal pearson() and spearman() to 1e-12, ties included", () => {
    const random = new SeededRandom(21);
    const xs = Array.from({length: 400}, () => random.nextIndex(11));
    const ys = xs.map((x) => x + random.nextIndex(5) - 2);
    const ones = new Float64Array(400).fill(1);
    expect(Math.abs(weightedPearson(xs, ys)(ones) - pearson(xs, ys).r)).toBeLessThan(1e-12);
    expect(Math.abs(weightedSpearman(xs, ys)(ones) - spearman(xs, ys).r)).toBeLessThan(1e-12);
  });

  it("count an item of weight 3 as three copies, through unitOf", () => {
    const xs = [1, 2, 2, 5, 7];
    const ys = [2, 1, 4, 4, 9];
    // Items 0 and 1 are episode 0, items 2–4 episodes 1–3.
    const unitOf = [0, 0, 1, 2, 3];
    const weights = Float64Array.of(3, 1, 0, 2);
    const cx = [1, 1, 1, 2, 2, 2, 2, 7, 7];
    const cy = [2, 2, 2, 1, 1, 1, 4, 9, 9];
    expect(weightedPearson(xs, ys, unitOf)(weights)).toBeCloseTo(pearson(cx, cy).r, 14);
    expect(weightedSpearman(xs, ys, unitOf)(weights)).toBeCloseTo(spearman(cx, cy).r, 14);
  });
});
