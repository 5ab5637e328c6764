import {describe, expect, it} from "vitest";
import {parse, View} from "vega";
import {compile, type TopLevelSpec} from "vega-lite";
import {chartShape, namedData, updateInPlace} from "../../src/components/agreement-chart.js";
import {differenceCounts, differenceHistogram} from "../../src/components/histogram.js";
import {perceivedRangesChart} from "../../src/components/perceived-ranges.js";

const xTitle = "A − B (bins of 0.5 points centred on multiples of 0.5)";
/** The histogram of gpt-4 against the humans on all dimensions, and of llama against one annotator on goal (band and wider extent). */
const histogramGpt4 = (width = 1000) => differenceHistogram(differenceCounts([0, 0.5, -1, 2]), {title: "A − B: gpt-4 − mean of human annotators, all dimensions", bias: 0.375, spread: null, width, xTitle});
const histogramLlama = differenceHistogram(differenceCounts([-7, 3, 3, 0]), {title: "A − B: llama-3-70b − annotator-07, Goal", bias: -0.25, spread: 1.4, width: 1000, xTitle});

const groups = [{min: 2, max: 4, n: 3, meanJudge: 5}, {min: 6, max: 8, n: 1, meanJudge: 7}];
const rangesGpt4 = perceivedRangesChart(groups, {title: "Perceived ranges of Goal and the mean score of gpt-4", lo: 0, hi: 10, width: 1000, judge: "gpt-4"});
const rangesAnnotator = perceivedRangesChart([{min: 1, max: 9, n: 5, meanJudge: 0.5}, ...groups], {title: "Perceived ranges of Goal and the mean score of annotator-07", lo: 0, hi: 10, width: 1000, judge: "annotator-07"});

/**
 * An SVG's elements inside its outer padding, sorted, numbers to 6 decimals: a view updated in place
 * may list an axis's new ticks after its kept ones, and place the title 1e-14 px apart, which
 * rounds the outer padding (the SVG's size and first translate) one pixel up.
 */
const elements = (svg: string): string[] =>
  (svg.match(/<[^>]*>[^<]*/g) ?? []).filter((e) => !/^<svg |^<rect width=|^<g fill="none" stroke-miterlimit/.test(e))
    .map((e) => e.replace(/-?\d+\.\d+/g, (n) => String(Number(Number(n).toFixed(6))))).sort();

/** The SVG's width. */
const svgWidth = (svg: string): number => Number(svg.match(/^<svg [^>]*width="(\d+)"/)?.[1]);

/** The vertical position of the axis label `text`. */
const labelY = (svg: string, text: string): number => Number(svg.match(new RegExp(`translate\\(-7,([\\d.]+)\\)"[^>]*>${text.replace(/[[\]]/g, "\\$&")}<`))?.[1]);

/** A headless Vega view of a Vega-Lite spec, as vega-embed builds it on the page. */
async function drawn(spec: TopLevelSpec): Promise<View> {
  const view = new View(parse(compile(spec).spec), {renderer: "none"});
  await view.runAsync();
  return view;
}

describe("chartShape", () => {
  it("is the same for two raters' histograms (other title, bias, band, extent and bars) and differs with the width", () => {
    expect(chartShape(histogramLlama)).toBe(chartShape(histogramGpt4()));
    expect(chartShape(histogramGpt4(600))).not.toBe(chartShape(histogramGpt4()));
    expect(namedData(histogramGpt4()).map((d) => [d.name, d.values.length])).toEqual([["band", 0], ["bins", 4], ["bias", 1]]);
    expect(namedData(histogramLlama).map((d) => [d.name, d.values.length])).toEqual([["band", 1], ["bins", 3], ["bias", 1]]);
  });

  it("is the same for two raters' perceived ranges over other groups", () => {
    expect(chartShape(rangesAnnotator)).toBe(chartShape(rangesGpt4));
  });
});

describe("updateInPlace", () => {
  it("draws the histogram of another rater as a chart drawn afresh from its spec", async () => {
    const fresh = await drawn(histogramLlama);
    const updated = await drawn(histogramGpt4());
    await updateInPlace(updated, histogramLlama);
    const svg = await updated.toSVG();
    expect(elements(svg)).toEqual(elements(await fresh.toSVG()));
    // The new rater's title, bias and band, and the axis out to the larger extent (7.25 → 8).
    expect(svg).toContain("A − B: llama-3-70b − annotator-07, Goal");
    expect(svg).toContain("bias -0.25");
    expect(svg).not.toContain("gpt-4");
    expect(svg).toContain(">−8<");
  });

  it("draws the perceived ranges of another rater as a chart drawn afresh, lines in the groups' order", async () => {
    const fresh = await drawn(rangesAnnotator);
    const updated = await drawn(rangesGpt4);
    await updateInPlace(updated, rangesAnnotator);
    const svg = await updated.toSVG();
    const freshSvg = await fresh.toSVG();
    expect(elements(svg)).toEqual(elements(freshSvg));
    expect(Math.abs(svgWidth(svg) - svgWidth(freshSvg))).toBeLessThanOrEqual(1);
    expect(svg).toContain("Perceived ranges of Goal and the mean score of annotator-07");
    expect(svg).toContain("rater A: annotator-07");
    expect([labelY(svg, "[1, 9]"), labelY(svg, "[2, 4]"), labelY(svg, "[6, 8]")]).toEqual([10.5, 26.5, 42.5]);
  });
});
