import {describe, expect, it} from "vitest";
import {combineMoments, extremes, mean, meanOf, moments, sd, sdOf, varianceOf} from "../../src/lib/stats.js";

describe("moments", () => {
  it("give the mean and the sample and population variance of a hand-worked list", () => {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum to 32.
    const m = moments([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(m).toEqual({n: 8, sum: 40, sumSq: 232});
    expect(meanOf(m)).toBe(5);
    expect(varianceOf(m, "population")).toBe(4);
    expect(varianceOf(m, "sample")).toBeCloseTo(32 / 7, 12);
    expect(sd([2, 4, 4, 4, 5, 5, 7, 9], "population")).toBe(2);
  });

  it("combine across groups to the moments of the union", () => {
    const all = [3, -1, 4, 1, -5, 9, 2, 6];
    const parts = [moments(all.slice(0, 3)), moments(all.slice(3, 4)), moments(all.slice(4))];
    const m = combineMoments(parts);
    expect(m).toEqual(moments(all));
    expect(sdOf(m)).toBeCloseTo(sd(all), 12);
  });

  it("are NaN, not zero, where undefined", () => {
    expect(mean([])).toBeNaN();
    expect(sd([4])).toBeNaN();
    expect(varianceOf(moments([4]), "population")).toBe(0);
  });
});

describe("extremes", () => {
  it("gives the smallest and largest value in one pass, as Math.min and Math.max do, for any number of values", () => {
    expect(extremes([3, -2, 7.5, 0])).toEqual({min: -2, max: 7.5});
    expect(extremes(new Map([["a", 4], ["b", 9]]).values())).toEqual({min: 4, max: 9});
    expect(extremes([])).toEqual({min: Infinity, max: -Infinity});
    // Past the call stack's reach: Math.max(...values) throws a RangeError here.
    const many = Array.from({length: 500_000}, (_, i) => (i * 7919) % 100_003);
    expect(() => Math.max(...many)).toThrow(RangeError);
    expect(extremes(many)).toEqual({min: 0, max: 100_002});
  });
});
