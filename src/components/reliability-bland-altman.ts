// A Bland–Altman chart (Bland & Altman 1986) as a Vega-Lite spec: the
// difference A − B against the mean of A and B per instance, the mean
// difference and its 95% limits of agreement as rules, and the regression
// line of the difference on the mean. Past MAX_POINTS instances the points
// become counts in half-point cells, so a chart at 100k instances stays light.

import type {TopLevelSpec} from "vega-lite";
import type {BlandAltman} from "../lib/bland-altman.js";

export const MAX_POINTS = 3000;

export interface BlandAltmanOptions {
  title: string;
  width: number;
  lo: number;
  hi: number;
}

/** The points of one dimension, A's and B's scores paired; counted per cell when there are many. */
export function blandAltmanChart(a: readonly number[], b: readonly number[], stats: BlandAltman, options: BlandAltmanOptions): TopLevelSpec {
  const {title, width, lo, hi} = options;
  const cells = new Map<string, {mean: number; diff: number; instances: number}>();
  for (let i = 0; i < a.length; i++) {
    const mean = (a[i] + b[i]) / 2;
    const diff = a[i] - b[i];
    // Exact values while few; rounded to the half point when counted.
    const key = a.length <= MAX_POINTS ? `${i}` : `${Math.round(mean * 2) / 2}/${Math.round(diff * 2) / 2}`;
    const cell = cells.get(key);
    if (cell) cell.instances++;
    else cells.set(key, a.length <= MAX_POINTS ? {mean, diff, instances: 1} : {mean: Math.round(mean * 2) / 2, diff: Math.round(diff * 2) / 2, instances: 1});
  }
  const rules = [
    {y: stats.bias, what: `mean difference ${stats.bias.toFixed(2)}`},
    {y: stats.lower, what: `lower 95% limit ${stats.lower.toFixed(2)}`},
    {y: stats.upper, what: `upper 95% limit ${stats.upper.toFixed(2)}`},
  ].filter((r) => Number.isFinite(r.y));
  const line = Number.isFinite(stats.slope) ? [{x: lo, y: stats.intercept + stats.slope * lo}, {x: hi, y: stats.intercept + stats.slope * hi}] : [];
  const x = {scale: {domain: [lo, hi], nice: false}};
  return {
    title: {text: title, subtitle: a.length <= MAX_POINTS ? "one dot per instance" : "instances counted in half-point cells", anchor: "start", fontSize: 12},
    width: Math.max(240, Math.min(width, 700) - 120),
    height: 220,
    layer: [
      {
        data: {values: Array.from(cells.values())},
        mark: {type: "circle", opacity: 0.5, tooltip: true},
        encoding: {
          x: {field: "mean", type: "quantitative", title: "mean of A and B", ...x},
          y: {field: "diff", type: "quantitative", title: "A − B"},
          size: a.length <= MAX_POINTS ? {value: 30} : {field: "instances", type: "quantitative", title: "instances"},
        },
      },
      {
        data: {values: rules},
        mark: {type: "rule", strokeDash: [4, 3], color: "#d62728"},
        encoding: {y: {field: "y", type: "quantitative"}, tooltip: {field: "what", type: "nominal"}},
      },
      {
        data: {values: line},
        mark: {type: "line", color: "#2b6cb0"},
        encoding: {x: {field: "x", type: "quantitative", ...x}, y: {field: "y", type: "quantitative"}},
      },
    ],
  } as TopLevelSpec;
}
