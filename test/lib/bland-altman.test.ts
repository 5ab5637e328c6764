import {describe, expect, it} from "vitest";
import {blandAltman} from "../../src/lib/bland-altman.js";

describe("blandAltman", () => {
  it("gives the bias, limits and slope computed by hand (slope's p from SciPy's linregress)", () => {
    // A − B = 1, 0, 1, −1: bias 0.25, sd √(2.75/3); means 1.5, 4, 5.5, 8.5: slope −6.375/25.6875.
    const ba = blandAltman([2, 4, 6, 8], [1, 4, 5, 9]);
    const sd = Math.sqrt(2.75 / 3);
    expect(ba.n).toBe(4);
    expect(ba.bias).toBeCloseTo(0.25, 14);
    expect(ba.sd).toBeCloseTo(sd, 14);
    expect(ba.lower).toBeCloseTo(0.25 - 1.959963984540054 * sd, 12);
    expect(ba.upper).toBeCloseTo(0.25 + 1.959963984540054 * sd, 12);
    expect(ba.slope).toBeCloseTo(-0.24817518248175183, 14);
    expect(ba.intercept).toBeCloseTo(1.4598540145985401, 13);
    expect(ba.slopeP).toBeCloseTo(0.24150465014401576, 12);
  });

  it("has no slope when every pair has the same mean", () => {
    const ba = blandAltman([1, 2, 3], [3, 2, 1]);
    expect([ba.bias, ba.slope, ba.slopeP]).toEqual([0, NaN, NaN]);
  });
});
