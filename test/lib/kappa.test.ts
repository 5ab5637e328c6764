import {describe, expect, it} from "vitest";
import {randolphKappa} from "../../src/lib/agreement.js";
import {cohenKappa, multiRaterAgreement, weightedCohenKappa, weightedMultiRater, type KappaWeighting} from "../../src/lib/kappa.js";
import {SeededRandom} from "../../src/lib/resample.js";

// Ten items, three bins. Confusion table (A rows, B columns): [3 1 0; 0 2 1; 1 0 2];
// both margins (4, 3, 3).
const A = [0, 0, 0, 1, 1, 1, 2, 2, 2, 0];
const B = [0, 0, 1, 1, 1, 2, 2, 2, 0, 0];

/** Cohen's weighted kappa written out from its definition, p_o and p_e over the n × n pairs of items. */
function kappaByPairs(a: readonly number[], b: readonly number[], bins: number, weighting: KappaWeighting): number {
  const w = (i: number, j: number) => weighting === "unweighted" ? Number(i === j) : weighting === "linear" ? 1 - Math.abs(i - j) / (bins - 1) : 1 - ((i - j) / (bins - 1)) ** 2;
  const n = a.length;
  let po = 0;
  let pe = 0;
  for (let i = 0; i < n; i++) {
    po += w(a[i], b[i]) / n;
    for (let j = 0; j < n; j++) pe += w(a[i], b[j]) / (n * n);
  }
  return (po - pe) / (1 - pe);
}

describe("cohenKappa", () => {
  it("matches the hand-computed values on a 3-bin table, for each weighting", () => {
    // Unweighted: p_o = 7/10, p_e = (16 + 9 + 9)/100 = 0.34, κ = 0.36/0.66 = 6/11.
    // Linear (adjacent 1/2): p_o = 0.8, p_e = (34 + 42/2)/100 = 0.55, κ = 0.25/0.45 = 5/9.
    // Quadratic (adjacent 3/4): p_o = 0.85, p_e = (34 + 31.5)/100 = 0.655, κ = 0.195/0.345 = 13/23.
    expect(cohenKappa(A, B, 3, "unweighted").kappa).toBeCloseTo(6 / 11, 14);
    expect(cohenKappa(A, B, 3, "linear").kappa).toBeCloseTo(5 / 9, 14);
    expect(cohenKappa(A, B, 3, "quadratic").kappa).toBeCloseTo(13 / 23, 14);
    expect(cohenKappa(A, B, 3, "quadratic")).toMatchObject({n: 10, observed: expect.closeTo(0.85, 14), expected: expect.closeTo(0.655, 14)});
  });

  it("equals the definition written over pairs of items on random data", () => {
    const random = new SeededRandom(3);
    for (let trial = 0; trial < 20; trial++) {
      const n = 20 + random.nextIndex(50);
      const a = Array.from({length: n}, () => random.nextIndex(5));
      const b = a.map((x) => (random.nextDouble() < 0.6 ? x : random.nextIndex(5)));
      for (const weighting of ["unweighted", "linear", "quadratic"] as const) {
        expect(cohenKappa(a, b, 5, weighting).kappa, `${weighting}, trial ${trial}`).toBeCloseTo(kappaByPairs(a, b, 5, weighting), 12);
        expect(Math.abs(weightedCohenKappa(a, b, 5, weighting)(new Float64Array(n).fill(1)) - cohenKappa(a, b, 5, weighting).kappa)).toBeLessThan(1e-12);
      }
    }
  });

  it("names the item whose bin is out of range", () => {
    expect(() => cohenKappa([0, 3], [0, 1], 3)).toThrow("rater A, item 1: bin 3 is not one of 0…2");
  });
});

describe("multiRaterAgreement", () => {
  it("gives Fleiss' kappa, Gwet's AC1 and Randolph's kappa by hand on two raters", () => {
    // P_o = 0.7; π = (0.4, 0.3, 0.3): Fleiss chance 0.34 → 6/11; AC1 chance (0.24 + 0.21 + 0.21)/2 = 0.33 → 0.37/0.67.
    const m = multiRaterAgreement(A.map((a, i) => [a, B[i]]), 3);
    expect(m.items).toBe(10);
    expect(m.pairwiseAgreement).toBeCloseTo(0.7, 14);
    expect(m.fleissKappa).toBeCloseTo(6 / 11, 14);
    expect(m.gwetAc1).toBeCloseTo(37 / 67, 14);
    expect(m.randolphKappa).toBeCloseTo(0.55, 14);
  });

  it("handles items with different numbers of raters, by hand", () => {
    // P_i = 1, 0, 1/3, 1 → P_o = 7/12; π = (3/8, 7/24, 1/3), Σπ² = 97/288:
    // Fleiss (7/12 − 97/288)/(191/288) = 71/191; AC1 chance 191/576 → 145/385 = 29/77; Randolph (7/12 − 1/3)/(2/3) = 3/8.
    const items = [[0, 0, 0], [0, 1], [1, 1, 2], [2, 2], [1]];
    const m = multiRaterAgreement(items, 3);
    expect(m.items).toBe(4);
    expect(m.pairwiseAgreement).toBeCloseTo(7 / 12, 14);
    expect(m.fleissKappa).toBeCloseTo(71 / 191, 14);
    expect(m.gwetAc1).toBeCloseTo(29 / 77, 14);
    expect(m.randolphKappa).toBeCloseTo(3 / 8, 14);
    // The same P_o and Randolph's kappa as src/lib/agreement.ts, on scores binned over [0, 3).
    const r = randolphKappa(items.map((scores) => ({scores: scores.map((s) => s + 0.5), lo: 0, hi: 3})), 3);
    expect([r.pairwiseAgreement, r.kappa]).toEqual([m.pairwiseAgreement, m.randolphKappa]);
  });

  it("weighted AC1 and Fleiss with every weight 1 equal the plain ones to 1e-12, and weight 2 counts an item twice", () => {
    const random = new SeededRandom(9);
    const items = Array.from({length: 300}, () => Array.from({length: random.nextIndex(5)}, () => random.nextIndex(4)));
    const plain = multiRaterAgreement(items, 4);
    const ones = new Float64Array(300).fill(1);
    expect(Math.abs(weightedMultiRater(items, 4, "ac1")(ones) - plain.gwetAc1)).toBeLessThan(1e-12);
    expect(Math.abs(weightedMultiRater(items, 4, "fleiss")(ones) - plain.fleissKappa)).toBeLessThan(1e-12);
    const small = [[0, 0, 0], [0, 1], [1, 1, 2], [2, 2]];
    const doubled = multiRaterAgreement([...small, [0, 1]], 3);
    expect(weightedMultiRater(small, 3, "ac1")(Float64Array.of(1, 2, 1, 1))).toBeCloseTo(doubled.gwetAc1, 14);
  });
});
