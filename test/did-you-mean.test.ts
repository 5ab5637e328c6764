import {describe, expect, it} from "vitest";
import {closest, editDistance} from "../loaders/did-you-mean.js";

describe("editDistance", () => {
  it.each([
    ["fromat", "format", 1], // two neighbours swapped: one typo
    ["kitten", "sitting", 3],
    ["", "abc", 3],
    ["abc", "abc", 0],
    ["sources", "soruces", 1],
    ["ca", "abc", 3], // optimal string alignment: a swapped pair is not edited again
  ])("%s → %s: %d", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("closest", () => {
  const options = ["db", "format", "rater", "sources", "quiet", "help", "base"];
  it("finds the option a typo meant", () => {
    expect(closest("fromat", options)).toBe("format");
    expect(closest("soruces", options)).toBe("sources");
    expect(closest("qiet", options)).toBe("quiet");
  });

  it("suggests nothing when no name is close, or the name is too short to tell", () => {
    expect(closest("verbose", options)).toBeUndefined();
    expect(closest("x", ["h"])).toBeUndefined();
    expect(closest("dv", options)).toBeUndefined();
  });

  it("lets a longer name be two edits away, a short one only one", () => {
    expect(closest("frmt", options)).toBeUndefined();
    expect(closest("fornat", options)).toBe("format");
    expect(closest("raterz", options)).toBe("rater");
    expect(closest("hepl", options)).toBe("help");
  });
});
