import {describe, expect, it} from "vitest";
import {forestRows} from "../../src/client/compare.js";
import {forestPlot} from "../../src/components/compare-forest.js";
import {vegaWarnings} from "../helpers/vega-warnings.js";
import {forPage, PAGE_OPTIONS, parseSummary, sameRequest, summaryJson, unpairedLine, type CompareRequest, type PageComparison} from "../../src/client/compare-summary.js";
import {benchmarkChoices, type Comparison, type MetricComparison} from "../../src/lib/compare.js";
import {DEFAULT_RESAMPLES, DEFAULT_SEED} from "../../src/lib/resample.js";

describe("benchmarkChoices", () => {
  it("lists each key's values with their row counts and the CLI's default sides, by what pairs", () => {
    const g = (benchmark: string, model: string, rater: string | null, rows: number) => ({benchmark, model, rater, run: null, source: "f.jsonl", setting: null, memory: null, cot: null, rows});
    const choices = benchmarkChoices(
      [g("sotopia", "b", "judge", 10), g("sotopia", "a", "judge", 6), g("sotopia", "a", "person", 2), g("hsii", "m", null, 4)],
      [{benchmark: "sotopia", model: "a", n: 5}, {benchmark: "sotopia", model: "b", n: 5}, {benchmark: "hsii", model: "m", n: 4}],
      [{benchmark: "sotopia", rater: "judge", n: 16}, {benchmark: "sotopia", rater: "person", n: 2}],
      [{benchmark: "sotopia", model_a: "b", model_b: "a", rater: "person", pairs: 2}, {benchmark: "sotopia", model_a: "a", model_b: "b", rater: "judge", pairs: 1}],
      new Set(["person"]),
    );
    expect(choices.map((c) => c.benchmark)).toEqual(["sotopia", "hsii"]);
    expect(choices[0].values).toEqual({
      model: [{value: "a", rows: 8}, {value: "b", rows: 10}],
      rater: [{value: "judge", rows: 16}, {value: "person", rows: 2}],
      source: [{value: "f.jsonl", rows: 18}],
    });
    // judge scored more episodes than person (16 to 2), and a and b pair under it: judge, though person pairs more of their items.
    expect([choices[0].defaults.a, choices[0].defaults.b]).toEqual([{model: "a", rater: "judge"}, {model: "b", rater: "judge"}]);
    expect(choices[0].defaults.note).toBe("defaults: rated by judge, the rater that scored the most sotopia episodes (16); under it, the two models that pair on the most items (a: 5, b: 5 episodes): 1 item paired, summed over the metrics");
    expect(choices[1].defaults.note).toBe("hsii has 1 model: name the two sides (--a KEY=VALUE, --b KEY=VALUE)");
  });
});

describe("benchmarkChoices' run menu", () => {
  it("leaves out runs that only human raters use (one per annotation response), and counts every row of a run an LLM also uses", () => {
    const g = (rater: string, run: string, rows: number) => ({benchmark: "sotopia", model: "m", rater, run, source: null, setting: null, memory: null, cot: null, rows});
    const groups = [g("judge", "v1", 10), g("judge", "imported", 4), g("ann-1", "imported", 3), g("ann-1", "response-1", 2), g("ann-2", "response-2", 2), g("ann-2", "response-1", 1)];
    const [choice] = benchmarkChoices(groups, [{benchmark: "sotopia", model: "m", n: 3}], [], [], new Set(["ann-1", "ann-2"]));
    expect(choice.values.run).toEqual([{value: "imported", rows: 7}, {value: "v1", rows: 10}]);
    expect(choice.values.rater).toEqual([{value: "ann-1", rows: 5}, {value: "ann-2", rows: 3}, {value: "judge", rows: 14}]);
    // Without kinds known, every run is listed.
    expect(benchmarkChoices(groups, [], [], [], new Set())[0].values.run!.map((v) => v.value)).toEqual(["imported", "response-1", "response-2", "v1"]);
  });
});

describe("the first view's summary", () => {
  it("is computed with the library's default resamples and seed, as the CLI's default is", () => {
    expect([PAGE_OPTIONS.resamples, PAGE_OPTIONS.seed]).toEqual([DEFAULT_RESAMPLES, DEFAULT_SEED]);
  });


  const first: CompareRequest = {benchmark: "sotopia", a: {model: "a", rater: "judge"}, b: {model: "b", rater: "judge"}, options: {...PAGE_OPTIONS}};

  it("answers only the request it was computed for: same sides in any key order, every option equal", () => {
    expect(sameRequest({...first, a: {rater: "judge", model: "a"}}, first)).toBe(true);
    expect(sameRequest({...first, options: {...PAGE_OPTIONS, seed: 2}}, first)).toBe(false);
    expect(sameRequest({...first, b: {model: "b"}}, first)).toBe(false);
    expect(sameRequest({...first, benchmark: "hsii"}, first)).toBe(false);
    // An option left unset is not the same as its default given: the page always gives all six.
    const {seed: _, ...noSeed} = PAGE_OPTIONS;
    expect(sameRequest({...first, options: noSeed}, first)).toBe(false);
  });

  it("keeps NaN and infinities through JSON, which would turn them into null", () => {
    const metric = {metric: "win", bootLo: NaN, pWilcoxon: NaN, hi: Infinity, lo: -Infinity, p: 0.03125} as unknown as MetricComparison;
    const back = parseSummary(summaryJson({choices: [], first: {request: first, comparison: {metrics: [metric]} as unknown as PageComparison}}));
    const m = back.first!.comparison.metrics[0];
    expect([m.bootLo, m.pWilcoxon, m.hi, m.lo, m.p]).toEqual([NaN, NaN, Infinity, -Infinity, 0.03125]);
    expect(back.first!.request).toEqual(first);
  });
});

describe("forPage", () => {
  it("lists the first 1,000 unpaired items, keeps their number and says the list is cut", () => {
    const unpaired = Array.from({length: 1001}, (_, i) => ({metric: "goal", side: "A" as const, item: `t${i}`, episode: `e${i}`}));
    const page = forPage({metrics: [], unpaired} as unknown as Comparison);
    expect(page.unpaired).toHaveLength(1000);
    expect(page.unpaired[999].item).toBe("t999");
    expect(page.unpairedTotal).toBe(1001);
    expect(unpairedLine(page)).toBe("1001 unpaired items (the first 1000 listed; sociometer compare --format csv lists every one)");
    expect(unpairedLine(forPage({metrics: [], unpaired: unpaired.slice(0, 2)} as unknown as Comparison))).toBe("2 unpaired items");
  });
});

describe("forestRows", () => {
  it("takes the chosen interval, marks adjusted p < 0.05 and leaves out metrics with no interval", () => {
    const m = (metric: string, lo: number, bootLo: number, pAdjusted: number, nPaired = 20) =>
      ({metric, kind: "continuous", nPaired, test: `paired t (df ${nPaired - 1})`, difference: 1, lo, hi: 2, bootLo, bootHi: 3, pAdjusted} as MetricComparison);
    const c = {metrics: [m("goal", 0.5, 0.6, 0.01), m("rel", -1, -0.9, 0.2), m("none", NaN, NaN, NaN), m("few", -20, -3, 0.9, 2)]} as Comparison;
    // "few" rests on df 1: its point is drawn, its interval is not (no ends).
    expect(forestRows(c, "t")).toEqual([
      {metric: "goal", difference: 1, lo: 0.5, hi: 2, significant: "adjusted p < 0.05"},
      {metric: "rel", difference: 1, lo: -1, hi: 2, significant: "adjusted p ≥ 0.05"},
      {metric: "few", difference: 1, lo: NaN, hi: NaN, significant: "adjusted p ≥ 0.05"},
    ]);
    expect(forestRows(c, "bootstrap").map((r) => [r.lo, r.hi])).toEqual([[0.6, 3], [-0.9, 3], [NaN, NaN]]);
  });
});

describe("forestPlot", () => {
  const row = (metric: string, difference: number, lo: number, hi: number) => ({metric, difference, lo, hi, significant: "adjusted p ≥ 0.05"});

  it("draws with no Vega warning, with rows and with none (no metric with a finite interval)", async () => {
    expect(await vegaWarnings(forestPlot([row("goal", 0.5, -0.2, 1.2), row("bel", -1, -3, 0.5)], {width: 800, interval: "t"}))).toEqual([]);
    expect(await vegaWarnings(forestPlot([], {width: 800, interval: "t"}))).toEqual([]);
    // A metric whose interval rests on df ≤ 2 comes with no ends: its point alone, and still no warning.
    expect(await vegaWarnings(forestPlot([row("goal", 0.5, -0.2, 1.2), row("few", 3, NaN, NaN)], {width: 800, interval: "t"}))).toEqual([]);
  });

  it("spans the intervals and zero on its x axis", () => {
    const x = (rows: ReturnType<typeof row>[]) => (forestPlot(rows, {width: 800, interval: "t"}) as unknown as {layer: {encoding: {x: {scale?: {domain: number[]}}}}[]}).layer.map((l) => l.encoding.x.scale?.domain);
    expect(x([row("goal", 0.5, 0.2, 1.2), row("bel", 1, 0.4, 2.5)])).toEqual(Array(3).fill([0, 2.5]));
    expect(x([row("goal", -0.5, -1.5, -0.25)])).toEqual(Array(3).fill([-1.5, 0]));
    // Nothing to span: an axis around zero.
    expect(x([])).toEqual(Array(3).fill([-1, 1]));
  });
});
