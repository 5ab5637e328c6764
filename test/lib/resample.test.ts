import {describe, expect, it} from "vitest";
import {bootstrapInterval, bootstrapIntervals, intervalNote, SeededRandom, sortedQuantile, type WeightedStatistic} from "../../src/lib/resample.js";

/** xoshiro128** seeded by SplitMix32, written again with BigInt arithmetic as an independent check. */
function referenceStream(seed: number, count: number): number[] {
  const M = 0xffffffffn;
  let x = BigInt(seed);
  const splitmix = () => {
    x = (x + 0x9e3779b9n) & M;
    let z = x;
    z = ((z ^ (z >> 16n)) * 0x85ebca6bn) & M;
    z = ((z ^ (z >> 13n)) * 0xc2b2ae35n) & M;
    return z ^ (z >> 16n);
  };
  const s = [splitmix(), splitmix(), splitmix(), splitmix()];
  const rotl = (v: bigint, k: bigint) => ((v << k) | (v >> (32n - k))) & M;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    out.push(Number((rotl((s[1] * 5n) & M, 7n) * 9n) & M));
    const t = (s[1] << 9n) & M;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11n);
  }
  return out;
}

/** The weighted mean of `xs`, as a statistic of unit weights. */
const weightedMean = (xs: readonly number[]): WeightedStatistic => (w) => {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < xs.length; i++) {
    sum += w[i] * xs[i];
    n += w[i];
  }
  return sum / n;
};

describe("SeededRandom", () => {
  it("matches an independent BigInt implementation of xoshiro128** seeded by SplitMix32", () => {
    for (const seed of [0, 1, 42, 4294967295]) {
      const random = new SeededRandom(seed);
      expect(Array.from({length: 50}, () => random.nextUint32())).toEqual(referenceStream(seed, 50));
    }
  });

  it("fills indices with the numbers nextIndex gives, one by one, and leaves the generator where nextIndex would", () => {
    for (const n of [1, 7, 450, 100_000]) {
      const byCall = new SeededRandom(3);
      const byFill = new SeededRandom(3);
      const expected = Array.from({length: 1000}, () => byCall.nextIndex(n));
      const filled = new Int32Array(1000);
      byFill.fillIndices(filled, n);
      expect(Array.from(filled)).toEqual(expected);
      expect(byFill.nextUint32()).toBe(byCall.nextUint32());
    }
  });

  it("gives doubles in [0, 1) with mean near 1/2, and refuses a bad seed", () => {
    const random = new SeededRandom(7);
    let sum = 0;
    let min = 1;
    let max = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = random.nextDouble();
      sum += u;
      min = Math.min(min, u);
      max = Math.max(max, u);
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    // The standard error of the mean of 100,000 uniforms is 0.0009; 0.005 is more than five of them.
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.005);
    expect(() => new SeededRandom(1.5)).toThrow("a seed must be an integer from 0 to 4294967295: got 1.5");
  });
});

describe("sortedQuantile (type 7)", () => {
  it("interpolates between order statistics", () => {
    expect(sortedQuantile([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 15);
    expect(sortedQuantile([1, 2, 3, 4], 0)).toBe(1);
    expect(sortedQuantile([1, 2, 3, 4], 1)).toBe(4);
    expect(sortedQuantile([5], 0.3)).toBe(5);
  });
});

const data = Array.from({length: 200}, (_, i) => Math.sin(i * 12.9898) * 3 + (i % 7));

describe("percentile bootstrap", () => {
  it("is the same for the same seed, and differs for another", () => {
    const a = bootstrapInterval({count: data.length}, weightedMean(data), {seed: 9, resamples: 300});
    const b = bootstrapInterval({count: data.length}, weightedMean(data), {seed: 9, resamples: 300});
    const c = bootstrapInterval({count: data.length}, weightedMean(data), {seed: 10, resamples: 300});
    expect(a).toEqual(b);
    expect(c.lo).not.toBe(a.lo);
    expect(a.estimate).toBeCloseTo(data.reduce((s, v) => s + v, 0) / data.length, 12);
  });

  it("is close to the normal-theory interval of a mean", () => {
    const n = data.length;
    const m = data.reduce((s, v) => s + v, 0) / n;
    const se = Math.sqrt(data.reduce((s, v) => s + (v - m) ** 2, 0) / (n - 1) / n);
    const i = bootstrapInterval({count: n}, weightedMean(data), {seed: 3, resamples: 4000});
    // The bootstrap half-width estimates 1.96·se; with 4,000 resamples it lands within 10%.
    expect(Math.abs((i.hi - i.lo) / 2 / (1.96 * se) - 1)).toBeLessThan(0.1);
    expect(i.lo).toBeLessThan(m);
    expect(i.hi).toBeGreaterThan(m);
  });

  it("draws the same resamples for one-episode clusters as for episodes", () => {
    const clusterOf = data.map((_, i) => i);
    const plain = bootstrapInterval({count: data.length}, weightedMean(data), {seed: 5, resamples: 200});
    const clustered = bootstrapInterval({count: data.length, clusterOf}, weightedMean(data), {seed: 5, resamples: 200});
    expect([clustered.lo, clustered.hi]).toEqual([plain.lo, plain.hi]);
    expect(clustered.drawn).toBe("clusters");
  });

  it("is wider when episodes of a scenario repeat one another and are resampled as clusters", () => {
    // 40 scenarios, 5 identical episodes each: the clustered interval is about √5 times wider.
    const values = Array.from({length: 200}, (_, i) => data[Math.floor(i / 5)]);
    const clusterOf = values.map((_, i) => Math.floor(i / 5));
    const plain = bootstrapInterval({count: 200}, weightedMean(values), {seed: 2, resamples: 2000});
    const clustered = bootstrapInterval({count: 200, clusterOf}, weightedMean(values), {seed: 2, resamples: 2000});
    const ratio = (clustered.hi - clustered.lo) / (plain.hi - plain.lo);
    expect(ratio).toBeGreaterThan(1.8);
    expect(ratio).toBeLessThan(2.7);
    expect(clustered.drawnCount).toBe(40);
  });

  it("counts resamples where the statistic is undefined instead of hiding them", () => {
    // NaN whenever unit 0 is drawn more than once.
    const statistic: WeightedStatistic = (w) => (w[0] > 1 ? NaN : weightedMean(data)(w));
    const i = bootstrapInterval({count: data.length}, statistic, {seed: 1, resamples: 500});
    expect(i.undefinedResamples).toBeGreaterThan(0);
    expect(i.undefinedResamples).toBeLessThan(500);
    expect(Number.isFinite(i.lo)).toBe(true);
    expect(intervalNote(i)).toContain(`${i.undefinedResamples} resamples where the statistic was undefined left out`);
  });
});

describe("BCa bootstrap", () => {
  it("takes the acceleration of a mean from the leave-one-out jackknife: Σd³ / (6 (Σd²)^1.5)", () => {
    // x = 1, 2, 3, 10: deviations −3, −2, −1, 6; Σd³ = 180, Σd² = 50; a = 180 / (6 · 50^1.5).
    const i = bootstrapInterval({count: 4}, weightedMean([1, 2, 3, 10]), {seed: 1, resamples: 2000, method: "bca"});
    expect(i.acceleration).toBeCloseTo(180 / (6 * Math.pow(50, 1.5)), 12);
    expect(i.jackknife).toBe("leave-one-episode-out jackknife (4)");
    expect(i.lo).toBeLessThanOrEqual(i.hi);
  });

  it("shifts a skewed statistic's interval the way the skew points", () => {
    // Exponential-like data: the mean's sampling distribution is right-skewed, so BCa moves both bounds up.
    const skewed = Array.from({length: 60}, (_, i) => -Math.log(1 - (i + 0.5) / 60));
    const [p, bca] = (["percentile", "bca"] as const).map((method) => bootstrapInterval({count: 60}, weightedMean(skewed), {seed: 4, resamples: 3000, method}));
    expect(bca.acceleration!).toBeGreaterThan(0);
    expect(bca.lo).toBeGreaterThan(p.lo);
    expect(bca.hi).toBeGreaterThan(p.hi);
  });

  it("uses a grouped jackknife past 1,000 units, and says so", () => {
    const many = Array.from({length: 2500}, (_, i) => (i * 7919) % 101);
    const i = bootstrapInterval({count: many.length}, weightedMean(many), {seed: 1, resamples: 50, method: "bca"});
    expect(i.jackknife).toBe("grouped jackknife (1000 groups of episodes)");
    expect(intervalNote(i)).toBe("95% BCa bootstrap over episodes, 50 resamples, seed 1; acceleration from a grouped jackknife (1000 groups of episodes)");
  });
});

describe("several statistics on one set of resamples", () => {
  it("gives each the interval it would get alone", () => {
    const other = data.map((v) => v * v);
    const [a, b] = bootstrapIntervals({count: data.length}, [weightedMean(data), weightedMean(other)], {seed: 8, resamples: 200});
    expect(a).toEqual(bootstrapInterval({count: data.length}, weightedMean(data), {seed: 8, resamples: 200}));
    expect(b).toEqual(bootstrapInterval({count: data.length}, weightedMean(other), {seed: 8, resamples: 200}));
  });
});

describe("infinite replicates", () => {
  it("are counted as undefined and left out, so neither bound becomes NaN", () => {
    // −∞ whenever unit 0 is left out of a resample.
    const statistic: WeightedStatistic = (w) => (w[0] === 0 ? -Infinity : weightedMean(data)(w));
    for (const method of ["percentile", "bca"] as const) {
      const i = bootstrapInterval({count: data.length}, statistic, {seed: 3, resamples: 400, method});
      expect(i.undefinedResamples, method).toBeGreaterThan(0);
      expect(Number.isFinite(i.lo) && Number.isFinite(i.hi), method).toBe(true);
    }
  });
});
