import {describe, expect, it} from "vitest";
import {alphaMetric, krippendorffAlpha, weightedAlpha, type AlphaMetric} from "../../src/lib/krippendorff.js";
import {SeededRandom} from "../../src/lib/resample.js";

// Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C:
// four coders, twelve units, missing values; a unit lists the values it got.
const RELIABILITY_DATA = [
  [1, 1, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
  [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [5, 5, 5], [1, 1], [3],
];

/**
 * Alpha in its pairwise form, written apart from the library: D_o averages δ²
 * over the ordered pairs within units (each unit's pairs weighted 1/(m − 1)),
 * D_e over every ordered pair of pairable values. Nominal, interval and ratio only.
 */
function pairwiseAlpha(units: readonly (readonly number[])[], metric: Exclude<AlphaMetric, "ordinal">): number {
  const delta = (a: number, b: number) =>
    metric === "nominal" ? (a === b ? 0 : 1) : metric === "interval" ? (a - b) ** 2 : a + b === 0 ? 0 : ((a - b) / (a + b)) ** 2;
  const pooled = units.filter((u) => u.length >= 2).flat();
  const n = pooled.length;
  let within = 0;
  for (const u of units) {
    if (u.length < 2) continue;
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j) within += delta(u[i], u[j]) / (u.length - 1);
  }
  let between = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) between += delta(pooled[i], pooled[j]);
  return 1 - (within / n) / (between / (n * (n - 1)));
}

const ones = (n: number) => new Float64Array(n).fill(1);

describe("krippendorffAlpha", () => {
  it("reproduces Krippendorff's published values on his 4 coders × 12 units with missing values", () => {
    const got = (["nominal", "ordinal", "interval", "ratio"] as const).map((m) => Number(krippendorffAlpha(RELIABILITY_DATA, m).alpha.toFixed(3)));
    expect(got).toEqual([0.743, 0.815, 0.849, 0.797]);
    // Unit 12 has one value: 11 pairable units, 40 pairable values.
    const nominal = krippendorffAlpha(RELIABILITY_DATA, "nominal");
    expect([nominal.units, nominal.values]).toEqual([11, 40]);
    // Nominal D_o: mismatched ordered pairs over m − 1 in units 2 (6/3), 6 (12/3) and 8 (6/3), 8 of 40 values.
    expect(nominal.observed).toBeCloseTo(8 / 40, 14);
  });

  it("equals an independent pairwise computation on random data with missing ratings", () => {
    const random = new SeededRandom(7);
    for (let trial = 0; trial < 20; trial++) {
      const units = Array.from({length: 30 + random.nextIndex(40)}, () =>
        Array.from({length: random.nextIndex(5)}, () => 1 + random.nextIndex(6)));
      for (const metric of ["nominal", "interval", "ratio"] as const) {
        expect(krippendorffAlpha(units, metric).alpha, `${metric}, trial ${trial}`).toBeCloseTo(pairwiseAlpha(units, metric), 12);
      }
    }
  });

  it("is NaN with a reason when nothing varies, and refuses the ratio metric below zero", () => {
    expect(krippendorffAlpha([[3, 3], [3, 3]], "interval")).toMatchObject({alpha: NaN, reason: "every pairable value is the same, so there is no disagreement to expect"});
    expect(krippendorffAlpha([[-2, 0], [-1, -1]], "ratio").reason).toBe("the ratio metric needs values ≥ 0 (a scale with a true zero); found -2");
    expect(() => alphaMetric("cosine")).toThrow('unknown alpha metric "cosine": choose one of nominal, ordinal, interval, ratio');
  });
});

describe("weightedAlpha", () => {
  it("with every weight 1 equals the coincidence-matrix alpha to 1e-12, for every metric", () => {
    const random = new SeededRandom(11);
    const units = Array.from({length: 200}, () => Array.from({length: random.nextIndex(4)}, () => random.nextIndex(11) / 2));
    for (const metric of ["nominal", "ordinal", "interval", "ratio"] as const) {
      expect(Math.abs(weightedAlpha(units, metric)(ones(units.length)) - krippendorffAlpha(units, metric).alpha), metric).toBeLessThan(1e-12);
      expect(Math.abs(weightedAlpha(RELIABILITY_DATA, metric)(ones(12)) - krippendorffAlpha(RELIABILITY_DATA, metric).alpha), metric).toBeLessThan(1e-12);
    }
  });

  it("counts a unit of weight 2 as two copies and a unit of weight 0 as absent, through unitOf", () => {
    // Units 0 and 1 belong to episode 0, unit 2 to episode 1, unit 3 to episode 2.
    const units = [[1, 2], [3, 3, 4], [2, 5], [1, 1]];
    const unitOf = [0, 0, 1, 2];
    const weights = Float64Array.of(2, 0, 1);
    const copies = [[1, 2], [3, 3, 4], [1, 2], [3, 3, 4], [1, 1]];
    for (const metric of ["nominal", "ordinal", "interval", "ratio"] as const) {
      expect(weightedAlpha(units, metric, unitOf)(weights), metric).toBeCloseTo(krippendorffAlpha(copies, metric).alpha, 12);
    }
  });
});

describe("weightedAlpha when a resample keeps only agreeing units", () => {
  it("is n/a (NaN), as for the same units copied, not 1 from a rounding residue", () => {
    // Eight units where both raters said 1, and two that disagree; a resample of only the agreeing units.
    const units = [...Array.from({length: 8}, () => [1, 1]), [2, 4], [1, 4]];
    const weights = new Float64Array(10);
    weights[0] = 5;
    weights[3] = 5;
    const copies = Array.from({length: 10}, () => [1, 1]);
    for (const metric of ["interval", "ordinal", "nominal", "ratio"] as const) {
      expect(krippendorffAlpha(copies, metric).alpha, metric).toBeNaN();
      expect(weightedAlpha(units, metric)(weights), metric).toBeNaN();
    }
  });
});
