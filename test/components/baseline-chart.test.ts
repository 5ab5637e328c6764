// The benchmark baseline page with and without SOTOPIA scores: bars, or the
// sentence that says there is nothing to draw (an empty chart made Vega warn).

import {describe, expect, it} from "vitest";
import {baselineView, NO_SOTOPIA_SCORES} from "../../src/components/baseline-chart.js";

describe("baselineView", () => {
  it("says there are no SOTOPIA scores instead of drawing an empty chart", () => {
    expect(baselineView([], undefined)).toEqual({text: NO_SOTOPIA_SCORES});
    expect(baselineView([], "gpt-4")).toEqual({text: NO_SOTOPIA_SCORES});
    expect(NO_SOTOPIA_SCORES).toMatch(/^No SOTOPIA scores/);
  });

  it("draws one bar per model with its mean, in the given order, titled with the rater", () => {
    const view = baselineView([{model: "b", mean: 2.5}, {model: "a", mean: 3}], "gpt-4");
    if (!("chart" in view)) throw new Error("expected a chart");
    const spec = view.chart as {title?: unknown; data?: {values?: unknown}};
    expect(JSON.stringify(spec.title ?? spec)).toContain("overall mean (gpt-4)");
    expect(JSON.stringify(spec)).toContain('"label":"b","value":2.5');
    expect(JSON.stringify(spec)).toContain('"label":"a","value":3');
  });
});
