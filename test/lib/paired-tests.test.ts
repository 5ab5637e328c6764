import {describe, expect, it} from "vitest";
import {mcnemarExact, newcombePairedInterval, pairedBootstrap, pairedBootstraps, pairedProportions, pairedT, twoProportions, welchT, wilcoxonSignedRank} from "../../src/lib/paired-tests.js";

describe("wilcoxonSignedRank and floating-point noise", () => {
  it("ties differences equal on paper (0.1 + 0.2 and 0.3) and counts a 1e-17 difference as zero", () => {
    // |d| = 0.3, 0.3, 0.5, 1 with one tie: the exact table no longer applies.
    const tied = wilcoxonSignedRank([0.1 + 0.2, 0.3, -0.5, 1]);
    expect(tied.exact).toBe(false);
    expect(tied.wPlus).toBe(1.5 + 1.5 + 4);
    expect(tied.method).toContain("ties corrected");
    const zero = wilcoxonSignedRank([1e-17, 1, 2, -3]);
    expect(zero.zeros).toBe(1);
    expect(zero.n).toBe(3);
  });
});

describe("pairedT", () => {
  it("refuses to test differences that are all the same non-zero number (no spread), and gives p = 1 when all are zero", () => {
    const same = pairedT([1, 1]);
    expect(same.p).toBeNaN();
    expect(same.method).toBe("paired t (df 1): every difference is 1, so there is no spread to test against");
    expect(pairedT([0, 0, 0]).p).toBe(1);
  });

  it("gives the mean difference, its t interval and p (d = 1, 2, 0, 2, 1)", () => {
    // mean 1.2; ss 2.8, var 0.7, se √0.14 = 0.374166; t = 3.20713 on 4 df; t(0.975, 4) = 2.776445.
    const r = pairedT([1, 2, 0, 2, 1]);
    expect(r.n).toBe(5);
    expect(r.difference).toBeCloseTo(1.2, 12);
    expect(r.lo).toBeCloseTo(1.2 - 1.0388506336835677, 10);
    expect(r.hi).toBeCloseTo(1.2 + 1.0388506336835677, 10);
    expect(r.p).toBeCloseTo(0.03267792333680301, 10);
    expect(r.method).toBe("paired t (df 4)");
  });

  it("says why there is no test with one pair, and names no degrees of freedom", () => {
    const r = pairedT([3]);
    expect([r.n, r.difference, r.p]).toEqual([1, 3, NaN]);
    expect(r.method).toBe("paired t: one pair, and the test needs two");
  });

  it("says there are no pairs when there are none (no df −1, no mean)", () => {
    const r = pairedT([]);
    expect([r.n, r.difference, r.lo, r.hi, r.p]).toEqual([0, NaN, NaN, NaN, NaN]);
    expect(r.method).toBe("paired t: no pairs");
  });

  it("tests two pairs on one df, and says every difference is 0 when both are", () => {
    // d = 1, 3: mean 2, sd √2, se 1, t = 2 on 1 df: p = 1 − 2·atan(2)/π = 0.29516723530086.
    const r = pairedT([1, 3]);
    expect(r.method).toBe("paired t (df 1)");
    expect(r.p).toBeCloseTo(0.29516723530086, 12);
    expect(pairedT([0, 0]).method).toBe("paired t (df 1): every difference is 0");
  });

  it("names a constant difference as the scores give it, not with rounding noise", () => {
    // 0.3 − 0.1 is 0.19999999999999998 in floating point; on paper it is 0.2.
    expect(pairedT([0.3 - 0.1, 0.3 - 0.1]).method).toBe("paired t (df 1): every difference is 0.2, so there is no spread to test against");
  });

  it("does not test differences that are one number on paper but differ in their last bits (averages of runs)", () => {
    const differences = [7.1 - 6.8, 5.4 - 5.1, 2.3 - 2.0, 9.9 - 9.6];
    // In floating point these are four different numbers near 0.3, so their sd is about 1e-16, not 0.
    expect(new Set(differences).size).toBeGreaterThan(1);
    const test = pairedT(differences);
    expect(test.method).toBe("paired t (df 3): every difference is 0.3, so there is no spread to test against");
    expect(test.p).toBeNaN();
    expect([test.difference, test.lo, test.hi]).toEqual([0.3, 0.3, 0.3]);
    expect(pairedT([0.1 + 0.2 - 0.3, 0, 0]).method).toBe("paired t (df 2): every difference is 0");
  });
});

describe("wilcoxonSignedRank with nothing to rank", () => {
  it("says there are no pairs when there are none, not that every difference is zero", () => {
    const r = wilcoxonSignedRank([]);
    expect([r.n, r.zeros, r.p]).toEqual([0, 0, NaN]);
    expect(r.method).toBe("Wilcoxon signed-rank: no pairs");
  });

  it("says how many differences are zero when all are", () => {
    expect(wilcoxonSignedRank([0]).method).toBe("Wilcoxon signed-rank: the one difference is zero, nothing to rank");
    expect(wilcoxonSignedRank([0, 0, 0]).method).toBe("Wilcoxon signed-rank: all 3 differences are zero, nothing to rank");
  });

  it("ranks one non-zero difference exactly (p = 1) and names the zero dropped beside it", () => {
    const r = wilcoxonSignedRank([2, 0]);
    expect([r.n, r.zeros, r.wPlus, r.p]).toEqual([1, 1, 1, 1]);
    expect(r.method).toBe("Wilcoxon signed-rank, exact (n 1, 1 zero difference dropped)");
  });
});

describe("wilcoxonSignedRank", () => {
  it("is exact without ties: d = 1.5, −0.5, 2, 3, 4, −1 gives W+ = 18 and p = 2 · 5/64", () => {
    // Ranks of |d|: 0.5→1, 1→2, 1.5→3, 2→4, 3→5, 4→6; W− = 3; subsets of 1…6 summing to ≤ 3: {}, {1}, {2}, {3}, {1,2}.
    const r = wilcoxonSignedRank([1.5, -0.5, 2, 3, 4, -1]);
    expect(r.wPlus).toBe(18);
    expect(r.exact).toBe(true);
    expect(r.p).toBeCloseTo(10 / 64, 14);
    expect(r.method).toBe("Wilcoxon signed-rank, exact (n 6)");
  });

  it("uses the normal approximation with tie and zero corrections: d = 1, 2, 0, 2, 1, −1, 3", () => {
    // Zero dropped (n 6). |d| 1,1,1 → rank 2; 2,2 → 4.5; 3 → 6. W+ = 2 + 2 + 4.5 + 4.5 + 6 = 19.
    // mean 10.5; var 6·7·13/24 − ((3³ − 3) + (2³ − 2))/48 = 22.75 − 0.625 = 22.125; z = (8.5 − 0.5)/√22.125 = 1.70078.
    const r = wilcoxonSignedRank([1, 2, 0, 2, 1, -1, 3]);
    expect(r.n).toBe(6);
    expect(r.zeros).toBe(1);
    expect(r.wPlus).toBe(19);
    expect(r.exact).toBe(false);
    expect(r.p).toBeCloseTo(0.08898415384687434, 10);
    expect(r.method).toBe("Wilcoxon signed-rank, normal approximation (ties corrected, continuity corrected; n 6, 1 zero difference dropped)");
  });
});

describe("mcnemarExact", () => {
  it("is twice the binomial tail of the discordant pairs: b = 2, c = 9 gives 2 · (1 + 11 + 55)/2¹¹", () => {
    const r = mcnemarExact({a: 30, b: 2, c: 9, d: 5});
    expect(r.discordant).toBe(11);
    expect(r.p).toBeCloseTo(134 / 2048, 14);
    expect(r.method).toBe("exact McNemar (11 discordant pairs)");
  });

  it("caps p at 1 when the discordant pairs split evenly", () => {
    expect(mcnemarExact({a: 1, b: 3, c: 3, d: 1}).p).toBe(1);
  });

  it("gives p = 1 when pairs agree everywhere, and no p at all when there are no pairs", () => {
    expect(mcnemarExact({a: 2, b: 0, c: 0, d: 3})).toEqual({p: 1, discordant: 0, method: "exact McNemar (no discordant pairs)"});
    expect(mcnemarExact({a: 0, b: 0, c: 0, d: 0})).toEqual({p: NaN, discordant: 0, method: "exact McNemar: no pairs"});
    const none = pairedProportions({a: 0, b: 0, c: 0, d: 0});
    expect([none.n, none.difference, none.p, none.method]).toEqual([0, NaN, NaN, "exact McNemar: no pairs"]);
  });
});

describe("newcombePairedInterval", () => {
  it("reproduces the published paired example (Cavo et al. 2012 in Fagerland, Lydersen & Laake 2014): −0.0621 (−0.1186 to −0.0046)", () => {
    // 161 pairs: 59 both, 6 only in the first margin, 16 only in the second, 80 neither; θ = (6 − 16)/161.
    // Here B is the first margin: B only = c = 6, A only = b = 16.
    const r = newcombePairedInterval({a: 59, b: 16, c: 6, d: 80});
    expect(r.difference).toBeCloseTo(-10 / 161, 14);
    expect(r.lo.toFixed(4)).toBe("-0.1186");
    expect(r.hi.toFixed(4)).toBe("-0.0046");
  });

  it("pairs it with McNemar's exact p in pairedProportions", () => {
    const r = pairedProportions({a: 59, b: 16, c: 6, d: 80});
    // 22 discordant pairs, 6 on the smaller side: p = 2 · P(X ≤ 6 | 22, ½) = 2 · 35443/4194304.
    expect(r.p).toBeCloseTo((2 * (1 + 22 + 231 + 1540 + 7315 + 26334 + 74613)) / 4194304, 14);
    expect(r.n).toBe(161);
  });
});

describe("pairedBootstrap", () => {
  it("gives the same interval for the same seed, and another for another seed", () => {
    // 30 distinct differences 0.1², 0.2², …, 3²: mean (0.01 · 30 · 31 · 61 / 6) / 30 = 3.1 · 6.1 / 6.
    const d = Array.from({length: 30}, (_, i) => ((i + 1) / 10) ** 2);
    const one = pairedBootstrap(d, {seed: 7, resamples: 500});
    const again = pairedBootstrap(d, {seed: 7, resamples: 500});
    const other = pairedBootstrap(d, {seed: 8, resamples: 500});
    expect(one.estimate).toBeCloseTo((3.1 * 6.1) / 6, 12);
    expect([again.lo, again.hi]).toEqual([one.lo, one.hi]);
    expect([other.lo, other.hi]).not.toEqual([one.lo, one.hi]);
    expect(one.lo).toBeLessThan(one.estimate);
    expect(one.hi).toBeGreaterThan(one.estimate);
  });

  it("gives several metrics over the same pairs, from shared resamples, the intervals each would get alone", () => {
    const d1 = Array.from({length: 40}, (_, i) => Math.sin(i));
    const d2 = Array.from({length: 40}, (_, i) => (i % 7) - 3);
    const clusterOf = Array.from({length: 40}, (_, i) => i % 6);
    for (const options of [{seed: 4, resamples: 300}, {seed: 4, resamples: 300, clusterOf}, {seed: 9, resamples: 300, method: "bca" as const}]) {
      const shared = pairedBootstraps([d1, d2], options);
      const alone = [pairedBootstrap(d1, options), pairedBootstrap(d2, options)];
      expect(shared.map((b) => [b.lo, b.hi])).toEqual(alone.map((b) => [b.lo, b.hi]));
    }
  });

  it("keeps the intervals of seed 1 (the stream the page and the CLI share), plain and clustered with unused cluster numbers", () => {
    const goal = [1, -2, 0.5, 3, 0, 2, -1, 1.5, 4, 0, 2.5, -0.5];
    const believability = [0, 1, 0, -1, 2, 0, 1, 0, -2, 1, 0, 3];
    // Cluster numbers 1, 3, 4, 6 and 8 have no pairs: five clusters are drawn, not ten.
    const clusterOf = [0, 0, 2, 2, 2, 5, 5, 7, 7, 7, 7, 9];
    const bounds = (options: Parameters<typeof pairedBootstraps>[1]) => pairedBootstraps([goal, believability], {resamples: 200, seed: 1, ...options}).map((b) => [b.lo, b.hi, b.drawnCount]);
    // The bounds the bootstrap gave before its draws and sums were rewritten over typed arrays, to the bit.
    expect(bounds({})).toEqual([[0.04062500000000017, 1.8333333333333333, 12], [-0.3333333333333333, 1.0833333333333333, 12]]);
    expect(bounds({method: "bca"})).toEqual([[0.12756425485511969, 1.8333333333333333, 12], [-0.3952480826973035, 1, 12]]);
    expect(bounds({clusterOf})).toEqual([[-0.256249999999999, 1.7222222222222223, 5], [-0.0625, 1.230952380952383, 5]]);
    expect(bounds({clusterOf, method: "bca"})).toEqual([[-0.013985795570004851, 1.8468473525460944, 5], [-0.0625, 1.1517829191483655, 5]]);
  });

  it("resamples the other metrics as alone when one metric has an infinite difference (undrawn pairs add nothing, not 0 · ∞)", () => {
    const finite = [1, -2, 0.5, 3, 0, 2, -1, 1.5];
    const infinite = [0, 1, Infinity, -1, 2, 0, 1, 0];
    const [withInfinite, alongside] = pairedBootstraps([infinite, finite], {resamples: 100, seed: 2});
    const alone = pairedBootstrap(finite, {resamples: 100, seed: 2});
    expect([alongside.lo, alongside.hi]).toEqual([alone.lo, alone.hi]);
    // A resample that leaves out pair 3 has a finite mean (0 · ∞ would make it NaN); one that draws it, an infinite one: left out and counted.
    expect(withInfinite.undefinedResamples).toBeGreaterThan(0);
    expect(withInfinite.undefinedResamples).toBeLessThan(100);
  });

  it("draws whole scenarios when clustered", () => {
    const r = pairedBootstrap([1, 1, 5, 5], {seed: 1, resamples: 200, clusterOf: [0, 0, 1, 1]});
    expect(r.drawn).toBe("clusters");
    expect(r.drawnCount).toBe(2);
    // Two clusters with means 1 and 5: every resample's mean is 1, 3 or 5.
    expect(r.lo).toBeGreaterThanOrEqual(1);
    expect(r.hi).toBeLessThanOrEqual(5);
  });
});

describe("unpaired fallbacks", () => {
  it("Welch t: b − a with Welch–Satterthwaite df", () => {
    const r = welchT([3, 4, 5, 4, 6], [4, 6, 5, 6, 8, 9]);
    expect(r.difference).toBeCloseTo(38 / 6 - 22 / 5, 12);
    expect(r.p).toBeCloseTo(0.06604929103595365, 10);
    expect(r.method).toBe("unpaired: Welch t (df 8.4)");
  });

  it("two proportions: Newcombe 1998 (Stat Med 17:873) example (a), 56/70 − 48/80 = 0.2 with method 10's 0.0524 to 0.3339", () => {
    const r = twoProportions({x: 48, n: 80}, {x: 56, n: 70});
    expect(r.difference).toBeCloseTo(0.2, 14);
    expect(r.lo.toFixed(4)).toBe("0.0524");
    expect(r.hi.toFixed(4)).toBe("0.3339");
    expect(r.method).toMatch(/^unpaired: /);
  });

  it("say which side has too few values rather than test an empty side", () => {
    const t = welchT([], [1, 2]);
    expect([t.n, t.p]).toEqual([2, NaN]);
    expect(t.method).toBe("unpaired: Welch t (df n/a): needs two values with some spread on each side");
    const r = twoProportions({x: 1, n: 2}, {x: 0, n: 0});
    expect([r.n, r.difference, r.p]).toEqual([2, NaN, NaN]);
    expect(r.method).toBe("unpaired: two-proportion z test: side B has no values");
  });
});
