// The forest plot of a comparison as a Vega-Lite spec: one row per metric,
// its difference B − A as a point and its interval as a rule, a zero line,
// and the metrics whose adjusted p is below 0.05 marked. A pure function of
// the forest rows (src/client/compare.ts forestRows) and the width.

import type {TopLevelSpec} from "vega-lite";

export interface ForestRow {
  metric: string;
  difference: number;
  lo: number;
  hi: number;
  significant: string;
}

export function forestPlot(rows: readonly ForestRow[], {width, interval}: {width: number; interval: string}): TopLevelSpec {
  const y = {field: "metric", type: "nominal" as const, sort: null, title: null};
  // The x domain given, from zero and every interval's ends: with no rows (no metric with a finite
  // interval) Vega took the extent of nothing, [∞, −∞], and warned once per field.
  let lo = 0;
  let hi = 0;
  for (const r of rows) {
    // A metric whose interval is not drawn (df ≤ 2, src/lib/compare-small.ts) has no ends: its point alone sets the domain.
    const drawn = Number.isFinite(r.lo) && Number.isFinite(r.hi);
    lo = Math.min(lo, drawn ? r.lo : r.difference, r.difference);
    hi = Math.max(hi, drawn ? r.hi : r.difference, r.difference);
  }
  const scale = lo < hi ? {domain: [lo, hi], nice: true} : {domain: [-1, 1]};
  const color = {field: "significant", type: "nominal" as const, title: null,
    scale: {domain: ["adjusted p < 0.05", "adjusted p ≥ 0.05"], range: ["#c0392b", "#7f8c8d"]}};
  return {
    width: Math.max(200, width - 260),
    height: {step: 26},
    data: {values: rows.map((r) => (Number.isFinite(r.lo) && Number.isFinite(r.hi) ? {...r} : {...r, lo: null, hi: null, interval: "not drawn: too few pairs to be informative"}))},
    config: {view: {stroke: null}, axis: {labelLimit: 220}},
    layer: [
      {mark: {type: "rule", color: "#999", strokeDash: [4, 3]}, encoding: {x: {datum: 0, type: "quantitative", scale}}},
      {mark: {type: "rule", strokeWidth: 2}, transform: [{filter: "datum.lo != null && datum.hi != null"}], encoding: {y, x: {field: "lo", type: "quantitative", title: `difference B − A with its ${interval} interval`, scale}, x2: {field: "hi"}, color}},
      {mark: {type: "point", filled: true, size: 70, tooltip: true}, encoding: {y, x: {field: "difference", type: "quantitative", scale}, color}},
    ],
  };
}
