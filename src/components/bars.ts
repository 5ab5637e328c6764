// A horizontal bar per category as a Vega-Lite spec, with the value written at
// the end of each bar (e.g. words per turn by speaker model, SOTOPIA §7).

import type {TopLevelSpec} from "vega-lite";

export interface BarsOptions {
  /** Axis title of the values. */
  title: string;
  /** Category order, top to bottom. */
  order: readonly string[];
  width: number;
  /** d3 format of the labels. */
  format?: string;
}

/** One bar per `{label, value}`. */
export function barChart(rows: readonly {label: string; value: number}[], options: BarsOptions): TopLevelSpec {
  const {title, order, width, format = ".1f"} = options;
  const labelWidth = 150;
  return {
    data: {values: rows.map((r) => ({label: r.label, value: r.value}))},
    width: Math.max(160, width - labelWidth - 60),
    height: {step: 22},
    config: {view: {stroke: null}, axis: {labelLimit: labelWidth}},
    encoding: {
      y: {field: "label", type: "nominal", sort: [...order], title: null},
      x: {field: "value", type: "quantitative", title},
    },
    layer: [
      {mark: {type: "bar", tooltip: true, color: "#4c78a8"}},
      {mark: {type: "text", align: "left", dx: 3}, encoding: {text: {field: "value", type: "quantitative", format}}},
    ],
  };
}
