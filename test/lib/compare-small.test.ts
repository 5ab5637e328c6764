import {describe, expect, it} from "vitest";
import {intervalDf, sampleCaution, sampleFlags} from "../../src/lib/compare-small.js";

describe("small samples", () => {
  it("flags fewer than 10 pairs, and intervals on df ≤ 2 (a rate: on 3 pairs or fewer)", () => {
    expect(sampleFlags({test: "paired t (df 9); Wilcoxon signed-rank, exact (n 10)", nPaired: 10, kind: "continuous"})).toEqual({small: null, weak: null});
    expect(sampleFlags({test: "paired t (df 8); Wilcoxon", nPaired: 9, kind: "continuous"})).toEqual({small: "only 9 paired (fewer than 10)", weak: null});
    expect(sampleFlags({test: "paired t (df 2); Wilcoxon", nPaired: 3, kind: "continuous"}).weak).toBe("df 2");
    expect(sampleFlags({test: "paired t (df 3); Wilcoxon", nPaired: 4, kind: "continuous"}).weak).toBeNull();
    expect(sampleFlags({test: "exact McNemar (1 discordant pair); Newcombe hybrid score interval", nPaired: 3, kind: "binary"}).weak).toBe("3 pairs");
    expect(sampleFlags({test: "exact McNemar (1 discordant pair); Newcombe hybrid score interval", nPaired: 4, kind: "binary"}).weak).toBeNull();
    // Independent samples: n paired is not their n, and Welch's df is read from the test.
    expect(sampleFlags({test: "unpaired: Welch t (df 1.6)", nPaired: 0, kind: "continuous"})).toEqual({small: null, weak: "df 1.6"});
    expect(intervalDf({test: "exact McNemar"})).toBeNull();
    expect(sampleCaution({test: "paired t (df 1); Wilcoxon", nPaired: 2, kind: "continuous"})).toBe("SMALL SAMPLE: only 2 paired (fewer than 10); intervals on df 1: not informative");
  });
});
