import {describe, expect, it} from "vitest";
import {bootstrapSeconds, judgeChoices, pointOptions, progressText, type PageReliabilityOptions} from "../../src/client/reliability.js";
import type {ReliabilityReport} from "../../src/lib/reliability.js";
import {blandAltman} from "../../src/lib/bland-altman.js";
import {blandAltmanChart, MAX_POINTS} from "../../src/components/reliability-bland-altman.js";

type Layer = {data: {values: Record<string, number>[]}};

describe("blandAltmanChart", () => {
  it("draws one dot per instance, the bias and limits as rules, and the regression line over the range", () => {
    const a = [2, 4, 6, 8];
    const b = [1, 4, 5, 9];
    const stats = blandAltman(a, b);
    const spec = blandAltmanChart(a, b, stats, {title: "t", width: 600, lo: 0, hi: 10}) as unknown as {layer: Layer[]};
    expect(spec.layer[0].data.values).toEqual([{mean: 1.5, diff: 1, instances: 1}, {mean: 4, diff: 0, instances: 1}, {mean: 5.5, diff: 1, instances: 1}, {mean: 8.5, diff: -1, instances: 1}]);
    expect(spec.layer[1].data.values.map((r) => r.y)).toEqual([stats.bias, stats.lower, stats.upper]);
    expect(spec.layer[2].data.values).toEqual([{x: 0, y: stats.intercept}, {x: 10, y: stats.intercept + 10 * stats.slope}]);
  });

  it("counts instances in half-point cells past MAX_POINTS, so 100k instances make a few hundred marks", () => {
    const n = 100_000;
    const a = Array.from({length: n}, (_, i) => i % 11);
    const b = Array.from({length: n}, (_, i) => (i * 7) % 11);
    const spec = blandAltmanChart(a, b, blandAltman(a, b), {title: "t", width: 600, lo: 0, hi: 10}) as unknown as {layer: Layer[]};
    const cells = spec.layer[0].data.values;
    expect(n).toBeGreaterThan(MAX_POINTS);
    // i mod 11 fixes both scores: 11 distinct pairs, 9,091 or 9,090 instances each.
    expect(cells).toHaveLength(11);
    expect(cells.reduce((s, c) => s + c.instances, 0)).toBe(n);
    expect(cells.find((c) => c.mean === 0 && c.diff === 0)!.instances).toBe(9091);
  });
});

describe("the point estimates before the bootstrap", () => {
  it("asks the worker for one resample, percentile, unclustered, the page's other options kept", () => {
    const options: PageReliabilityOptions = {judges: ["gpt-4"], metric: "ordinal", iccForm: "3,1", weighting: "linear", bins: 5, resamples: 5000, seed: 7, method: "bca", cluster: true, adjust: "bh"};
    expect(pointOptions(options)).toEqual({...options, resamples: 1, method: "percentile", cluster: false});
  });

  it("labels the button with the bootstrap's seconds: the point run's time again, then 0.23 µs per resample and item, items being the judge rows' n and the annotator rows' items, at least 1", () => {
    const report = (n: number[], items: number[]) => ({judges: n.map((x) => ({n: x})), annotators: items.map((x) => ({items: x}))}) as unknown as ReliabilityReport;
    // 195 s of reading and point estimates, then (150,000 + 50,000 + 200,000) items × 1,000 resamples × 0.23 µs = 92 s.
    expect(bootstrapSeconds(report([150_000, 50_000], [200_000]), 1000, 195)).toBe(287);
    expect(bootstrapSeconds(report([10], [10]), 200, 0.1)).toBe(1);
  });
});

describe("progressText", () => {
  it("says how far the worker is, then that it is done", () => {
    expect(progressText(4500, 63000)).toBe("Bootstrap running in a background worker: 4,500 of 63,000 statistic resamples (7%).");
    expect(progressText(63000, 63000)).toBe("Bootstrap done: 63,000 statistic resamples.");
  });
});

describe("judgeChoices", () => {
  it("offers the LLM raters that met a human, most such scores first, and starts on the busiest LLM rater if it is one of them", () => {
    const raters = [
      {rater: "b-judge", on_annotated: 40, total: 90},
      {rater: "a-judge", on_annotated: 40, total: 50},
      {rater: "solo", on_annotated: 0, total: 500},
      {rater: "c-judge", on_annotated: 70, total: 70}
    ];
    // "solo" has the most scores but never met a human: the start falls back to the first choice.
    expect(judgeChoices(raters)).toEqual({llmRaters: ["c-judge", "a-judge", "b-judge"], firstJudge: "c-judge"});
    expect(judgeChoices(raters.filter((r) => r.rater !== "solo"))).toEqual({llmRaters: ["c-judge", "a-judge", "b-judge"], firstJudge: "b-judge"});
    expect(judgeChoices([])).toEqual({llmRaters: [], firstJudge: undefined});
  });
});
