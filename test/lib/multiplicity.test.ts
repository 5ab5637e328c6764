import {describe, expect, it} from "vitest";
import {adjustPValues, multiplicityMethod} from "../../src/lib/multiplicity.js";

// Hand-worked family of four: sorted p = 0.01, 0.02, 0.03, 0.04 (given out of order).
const ps = [0.03, 0.01, 0.04, 0.02];

describe("Holm", () => {
  it("multiplies the i-th smallest by m − i + 1 and keeps the sequence non-decreasing", () => {
    // 4·0.01 = 0.04, 3·0.02 = 0.06, 2·0.03 = 0.06, 1·0.04 = 0.04 → running max 0.04, 0.06, 0.06, 0.06.
    const adjusted = adjustPValues(ps, "holm");
    [0.06, 0.04, 0.06, 0.06].forEach((v, i) => expect(adjusted[i]).toBeCloseTo(v, 15));
  });

  it("caps at 1 and leaves NaN out of the family", () => {
    // Family of two (NaN excluded): 2·0.3 = 0.6, 1·0.7 = 0.7.
    const adjusted = adjustPValues([0.7, NaN, 0.3], "holm");
    expect(adjusted[0]).toBeCloseTo(0.7, 15);
    expect(adjusted[1]).toBeNaN();
    expect(adjusted[2]).toBeCloseTo(0.6, 15);
    expect(adjustPValues([0.6, 0.9], "holm")).toEqual([1, 1]);
  });
});

describe("Benjamini–Hochberg", () => {
  it("multiplies the i-th smallest by m / i and keeps the sequence non-decreasing from the top", () => {
    // 0.01·4/1 = 0.04, 0.02·4/2 = 0.04, 0.03·4/3 = 0.04, 0.04·4/4 = 0.04.
    adjustPValues(ps, "bh").forEach((v) => expect(v).toBeCloseTo(0.04, 15));
    // 0.001·3 = 0.003, 0.04·3/2 = 0.06, 0.05·3/3 = 0.05 → min from the top: 0.003, 0.05, 0.05.
    const adjusted = adjustPValues([0.05, 0.001, 0.04], "bh");
    [0.05, 0.003, 0.05].forEach((v, i) => expect(adjusted[i]).toBeCloseTo(v, 15));
  });
});

describe("options", () => {
  it("none returns the p-values as given", () => {
    expect(adjustPValues(ps, "none")).toEqual(ps);
  });

  it("refuses a p outside [0, 1] and an unknown method name", () => {
    expect(() => adjustPValues([0.5, 1.2], "holm")).toThrow("a p-value must lie in [0, 1]: got 1.2");
    expect(multiplicityMethod("BH")).toBe("bh");
    expect(() => multiplicityMethod("bonferroni")).toThrow('unknown multiplicity adjustment "bonferroni": choose one of holm, bh, none');
  });
});
