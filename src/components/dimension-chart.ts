// SOTOPIA model means per dimension as a Vega-Lite spec: one panel per
// dimension, each on its own scale spanning the dimension's range (SOTOPIA
// Table 2 as bars). A pure function of the aggregates and options.

import type {TopLevelSpec} from "vega-lite";
import type {Dimension} from "../lib/dimensions.js";
import type {ModelAggregate} from "../lib/sotopia.js";

export interface DimensionChartOptions {
  /** Dimensions to draw, in order; an `overall` panel is added when the aggregates have one. */
  dimensions: readonly Pick<Dimension, "key" | "abbrev" | "name" | "lo" | "hi">[];
  /** Models in legend order. */
  models: readonly string[];
  /** Width of the chart in pixels. */
  width: number;
}

/** A Vega-Lite spec with one horizontal bar per model in each dimension's panel. */
export function dimensionMeansChart(rows: readonly ModelAggregate[], options: DimensionChartOptions): TopLevelSpec {
  const {dimensions, models, width} = options;
  const panels = [...dimensions.map((d) => ({key: d.key, title: `${d.name} (${d.abbrev}) [${d.lo}, ${d.hi}]`, lo: d.lo, hi: d.hi}))];
  if (rows.some((r) => r.dimension === "overall")) {
    // Overall is the mean of the dimensions, so its range is the mean of their ranges.
    const lo = dimensions.reduce((s, d) => s + d.lo, 0) / dimensions.length;
    const hi = dimensions.reduce((s, d) => s + d.hi, 0) / dimensions.length;
    panels.push({key: "overall", title: `Overall (mean of the dimensions) [${lo.toFixed(2)}, ${hi.toFixed(2)}]`, lo, hi});
  }
  const labelWidth = 120;
  const panelWidth = Math.max(120, width - labelWidth - 40);
  const barHeight = 14;
  return {
    data: {values: rows.filter((r) => models.includes(r.model)).map(({model, dimension, n, mean, sd}) => ({model, dimension, n, mean, sd}))},
    config: {view: {stroke: null}, axis: {labelLimit: labelWidth}},
    vconcat: panels.map((p) => ({
      title: {text: p.title, anchor: "start", fontSize: 12},
      width: panelWidth,
      height: {step: barHeight},
      transform: [{filter: {field: "dimension", equal: p.key}}],
      mark: {type: "bar", tooltip: true},
      encoding: {
        y: {field: "model", type: "nominal", sort: [...models], title: null},
        x: {field: "mean", type: "quantitative", scale: {domain: [p.lo, p.hi], nice: false}, title: null},
        color: {field: "model", type: "nominal", scale: {domain: [...models]}, legend: null},
        tooltip: [
          {field: "model", type: "nominal"},
          {field: "mean", type: "quantitative", format: ".2f"},
          {field: "sd", type: "quantitative", format: ".2f"},
          {field: "n", type: "quantitative"},
        ],
      },
    })),
    resolve: {scale: {x: "independent"}},
  };
}
