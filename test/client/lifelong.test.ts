import {describe, expect, it} from "vitest";
import {failureRates, type CheckpointFailures} from "../../src/client/lifelong.js";
import * as vega from "vega";
import {compile, type TopLevelSpec} from "vega-lite";
import {curvesChart, drawnBand, failureChart, harderRules, SCORE_DOMAIN} from "../../src/components/lifelong-charts.js";
import {vegaWarnings} from "../helpers/vega-warnings.js";

/**
 * The width a spec draws at, laid out by Vega itself in Node. Without a canvas
 * Vega estimates text widths generously, so a chart that fits here fits a browser.
 */
async function drawnWidth(spec: TopLevelSpec): Promise<number> {
  const view = new vega.View(vega.parse(compile(spec).spec), {renderer: "none"});
  await view.runAsync();
  const svg = await view.toSVG();
  view.finalize();
  return Number(/<svg[^>]* width="(\d+(?:\.\d+)?)"/.exec(svg)?.[1]);
}

describe("harderRules", () => {
  // Three models whose harder scenarios all begin at 41 under full memory; under summary one begins at 39.
  const harder = new Map([
    ["gemini-1.5\u0000full", 41], ["gpt-4o\u0000full", 41], ["llama-3.1\u0000full", 41],
    ["gemini-1.5\u0000summary", 41], ["gpt-4o\u0000summary", 39], ["llama-3.1\u0000summary", 41],
  ]);
  const models = ["gemini-1.5", "gpt-4o", "llama-3.1"];

  it("draws one rule per memory mode and index, named after the models that share it", () => {
    expect(harderRules(harder, {memories: ["full", "summary"], models, rows: "series"})).toEqual([
      {memory: "full", index: 41, model: null, label: "harder from 41: all models"},
      {memory: "summary", index: 39, model: null, label: "harder from 39: gpt-4o"},
      {memory: "summary", index: 41, model: null, label: "harder from 41: gemini-1.5, llama-3.1"},
    ]);
  });

  it("gives each model's row its own rule when rows are models, and leaves out models not shown", () => {
    expect(harderRules(harder, {memories: ["summary"], models: ["gpt-4o"], rows: "model"})).toEqual([
      {memory: "summary", index: 39, model: "gpt-4o", label: "harder from 39"},
    ]);
    expect(harderRules(harder, {memories: ["full"], models: ["gpt-4o"], rows: "series"})).toEqual([
      {memory: "full", index: 41, model: null, label: "harder from 41: gpt-4o"},
    ]);
  });

  it("puts the rules in the curve chart with their labels and a neutral colour, one per facet row", () => {
    const point = {n: 2, mean: 5, low: 4, high: 6, sd: 1};
    const rows = models.flatMap((model) => [40, 41].map((chain_index) => ({model, memory_mode: "full", chain_index, harder: chain_index === 41, bel: point, goal: point, penalised: point})));
    const spec = curvesChart(rows as never, {series: [{key: "bel", label: "BEL"}, {key: "goal", label: "GOAL"}], harder, bandLabel: "± sd", width: 800, rows: "series", title: "t"}) as unknown as
      {data: {values: {layer: string; series?: string; label?: string}[]}; spec: {layer: {layer: {mark: {type: string; color?: string}}[]}[]}};
    const rules = spec.data.values.filter((v) => v.layer === "rule");
    expect(rules.map((r) => [r.series, r.label])).toEqual([["BEL", "harder from 41: all models"], ["GOAL", "harder from 41: all models"]]);
    const marks = spec.spec.layer.flatMap((l) => l.layer.map((m) => m.mark));
    // The rule, and its label's two placements (right of the rule in the chart's left half, left of it in the right half).
    expect(marks.filter((m) => m.type === "rule" || m.type === "text").map((m) => m.color)).toEqual(["#555", "#555", "#555"]);
  });
});

describe("failureRates over windows of chain indices", () => {
  const f = (chain_index: number, n: number, failed: number, model = "m", memory_mode = "full"): CheckpointFailures =>
    ({dimension: "checkpoint:paper:no_stalling", rater: "r", model, memory_mode, chain_index, n, runs: n, failed});
  const rows = [f(1, 4, 1), f(2, 4, 0), f(5, 2, 2), f(6, 4, 1), f(7, 4, 3, "other")];

  it("pools Σ failed / Σ n per window of indices starting at 1", () => {
    const w5 = failureRates(rows, {rater: "r", model: null, window: 5});
    // 1–5: (1 + 0 + 2) / (4 + 4 + 2) = 0.3; 6–10: (1 + 3) / (4 + 4) = 0.5.
    expect(w5.map((p) => [p.from, p.to, p.failed, p.n, p.rate])).toEqual([[1, 5, 3, 10, 0.3], [6, 7, 4, 8, 0.5]]);
    expect(failureRates(rows, {rater: "r", model: "m", window: 5}).map((p) => p.rate)).toEqual([0.3, 0.25]);
    expect(failureRates(rows, {rater: "r", model: null}).map((p) => [p.from, p.to, p.rate])).toEqual([[1, 1, 0.25], [2, 2, 0], [5, 5, 1], [6, 6, 0.25], [7, 7, 0.75]]);
    expect(() => failureRates(rows, {rater: "r", model: null, window: 0})).toThrow("whole number");
  });

  it("charts one facet per checkpoint, points at the window's middle, a rule per harder index", () => {
    const points = failureRates(rows, {rater: "r", model: null, window: 5});
    const spec = failureChart(points, {width: 900, title: "t", harder: [{memory: "full", index: 6, model: null, label: "harder from 6: all models"}]}) as unknown as
      {facet: {field: string}; columns: number; data: {values: {layer: string; index: number; indices?: string; label?: string}[]}};
    expect(spec.facet.field).toBe("checkpoint");
    expect(spec.columns).toBe(1);
    expect(spec.data.values.filter((v) => v.layer === "point").map((v) => [v.index, v.indices])).toEqual([[3, "1–5"], [6.5, "6–7"]]);
    expect(spec.data.values.filter((v) => v.layer === "rule").map((v) => [v.index, v.label])).toEqual([[6, "full: harder from 6: all models"]]);
  });
});

describe("curve chart layout", () => {
  const point = (mean: number, sd: number) => ({n: 3, mean, low: mean - sd, high: mean + sd, sd});
  // Names as long as real ones ("unnamed (baseline backend)"), two memory modes, a penalised BEL near 0 with a wide band.
  const models = ["unnamed (baseline backend)", "gpt-4o-2024-05-13 with a long suffix"];
  const rows = models.flatMap((model) => ["full", "summary"].flatMap((memory_mode) => Array.from({length: 45}, (_, i) => ({
    model, memory_mode, chain_index: i + 1, harder: i + 1 >= 41, bel: point(7, 1), goal: point(8, 1), penalised: point(0.4, 1.1),
  }))));
  const harder = new Map(models.flatMap((m) => [[`${m}\u0000full`, 41], [`${m}\u0000summary`, 2]] as [string, number][]));
  const options = (width: number, chartRows: "series" | "model") => ({
    series: [{key: "bel" as const, label: "BEL"}, {key: "penalised" as const, label: "Penalised BEL"}], harder, bandLabel: "± sd", width, rows: chartRows, title: "BEL and penalised BEL",
  });

  it("fits the width it is given, legend and row headers included", async () => {
    for (const width of [1072, 700]) {
      for (const chartRows of ["series", "model"] as const) {
        expect(await drawnWidth(curvesChart(rows as never, options(width, chartRows))), `${chartRows} at ${width}`).toBeLessThanOrEqual(width);
      }
    }
    const checkpoints = ["a", "b", "c", "d", "e", "f"].map((c) => `checkpoint ${c} (no_${c})`);
    const points = checkpoints.flatMap((checkpoint) => [1, 6].map((from) => ({checkpoint, memory_mode: "full", from, to: from + 4, n: 10, runs: 10, failed: 3, rate: 0.3})));
    expect(await drawnWidth(failureChart(points, {width: 1072, title: "t"}))).toBeLessThanOrEqual(1072);
  });

  it("shows the legend above the charts with the lines' full colours, not the pale band's", () => {
    const spec = curvesChart(rows as never, options(1072, "series")) as unknown as {spec: {layer: {layer: {mark: {type: string}; encoding: {color: {legend: Record<string, unknown>}}}[]}[]}};
    const line = spec.spec.layer[0].layer.find((l) => l.mark.type === "line")!;
    expect(line.encoding.color.legend).toMatchObject({orient: "top", symbolType: "stroke", symbolOpacity: 1});
  });

  it("cuts a band at the score scale's ends for drawing, and keeps its own ends for the tooltip", () => {
    expect(drawnBand(-0.7, 1.5, SCORE_DOMAIN)).toEqual({low: 0, high: 1.5});
    expect(drawnBand(9.2, 11.4, SCORE_DOMAIN)).toEqual({low: 9.2, high: 10});
    expect(drawnBand(null, null, SCORE_DOMAIN)).toEqual({low: null, high: null});
    const spec = curvesChart(rows as never, options(1072, "series")) as unknown as {data: {values: {layer: string; series?: string; low?: number; drawnLow?: number}[]}};
    const penalised = spec.data.values.find((v) => v.layer === "curve" && v.series === "Penalised BEL")!;
    expect(penalised.low).toBeCloseTo(-0.7, 12);
    expect(penalised.drawnLow).toBe(0);
  });

  it("labels a harder rule on the side with room: right of a rule in the chart's left half, left of one in the right half", () => {
    const spec = curvesChart(rows as never, options(1072, "series")) as unknown as {data: {values: {layer: string; index: number; side?: string}[]}};
    const sides = new Map(spec.data.values.filter((v) => v.layer === "rule").map((v) => [v.index, v.side]));
    expect(Object.fromEntries(sides)).toEqual({2: "right", 41: "left"});
  });

  it("draws with no Vega warning when some layer has no rows: no harder rule, or rules on one side only", async () => {
    // An empty layer once gave Vega an x extent of [Infinity, -Infinity] ("Infinite extent for field index").
    const none = new Map<string, number>();
    const oneSide = new Map(models.map((m) => [`${m}\u0000full`, 41] as [string, number]));
    for (const chartRows of ["series", "model"] as const) {
      for (const harderAt of [none, oneSide, harder]) {
        expect(await vegaWarnings(curvesChart(rows as never, {...options(1072, chartRows), harder: harderAt})), `${chartRows}, ${harderAt.size} rules`).toEqual([]);
      }
    }
    const points = ["a", "b"].flatMap((checkpoint) => [1, 6].map((from) => ({checkpoint, memory_mode: "full", from, to: from + 4, n: 10, runs: 10, failed: 3, rate: 0.3})));
    expect(await vegaWarnings(failureChart(points, {width: 1072, title: "t"}))).toEqual([]);
    expect(await vegaWarnings(failureChart(points, {width: 1072, title: "t", harder: [{memory: "full", index: 6, model: null, label: "harder from 6"}]}))).toEqual([]);
  });

  it("sets the chain index axis to the data's indices, rules included", () => {
    const spec = curvesChart(rows as never, options(1072, "series")) as unknown as {spec: {layer: {layer: {encoding: {x: {scale?: {domain: number[]}}}}[]}[]}};
    for (const group of spec.spec.layer) for (const l of group.layer) expect(l.encoding.x.scale?.domain).toEqual([1, 45]);
    const points = [{checkpoint: "a", memory_mode: "full", from: 3, to: 7, n: 10, runs: 10, failed: 3, rate: 0.3}];
    const failures = failureChart(points, {width: 900, title: "t", harder: [{memory: "full", index: 9, model: null, label: "h"}]}) as unknown as {spec: {layer: {encoding: {x: {scale?: {domain: number[]}}}}[]}};
    // The point at the window's middle (5) and the rule at 9.
    for (const l of failures.spec.layer) expect(l.encoding.x.scale?.domain).toEqual([5, 9]);
  });
});
