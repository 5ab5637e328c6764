// A tie for the highest mean crowns no model (issue 33, item 7: three models
// at 0.000 on SOTOPIA, one of them marked best with p n/a): the page and
// `report sotopia` read the same bestModels, so both mark none.

import {describe, expect, it} from "vitest";
import {bestModels} from "../../src/lib/sotopia-significance.js";
import {moments} from "../../src/lib/stats.js";
import type {ModelAggregate} from "../../src/lib/sotopia.js";

const agg = (model: string, values: number[]): ModelAggregate => {
  const m = moments(values);
  return {model, dimension: "secret", n: m.n, mean: m.sum / m.n, sd: 0, moments: m} as ModelAggregate;
};

describe("best model on a dimension", () => {
  it("is none when the highest mean is shared, naming the tied models", () => {
    const [b] = bestModels([agg("a", [0, 0]), agg("b", [0, 0, 0]), agg("c", [0]), agg("d", [-1, -2])]);
    expect(b).toEqual({dimension: "secret", best: "", tied: ["a", "b", "c"], second: null, test: null, significant: false});
  });

  it("is the leader when its mean is strictly highest, with no tie", () => {
    const [b] = bestModels([agg("a", [0, 0]), agg("b", [-1, -1, 0])]);
    expect(b).toMatchObject({best: "a", tied: [], second: "b"});
  });
});
