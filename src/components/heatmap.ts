// The SOTOPIA model × partner matrix (Figure 3 / G.4) as a Vega-Lite heatmap:
// one cell per (model, partner model), coloured on the dimension's own range
// [lo, hi] so colours mean the same on every page, with the mean and n written
// in the cell. A pure function of the cells and options.

import type {TopLevelSpec} from "vega-lite";
import type {PairCell} from "../lib/sotopia.js";

export interface PairHeatmapOptions {
  /** Row order (the rated model). */
  models: readonly string[];
  /** Column order (the partner model). */
  partners: readonly string[];
  /** The colour scale spans the dimension's range. */
  lo: number;
  hi: number;
  /** Chart title: which dimension and rater. */
  title: string;
  width: number;
}

/** A heatmap spec: rows = model, columns = partner, colour = mean on [lo, hi], text = mean and n. */
export function pairHeatmap(cells: readonly PairCell[], options: PairHeatmapOptions): TopLevelSpec {
  const {models, partners, lo, hi, title, width} = options;
  const labelWidth = 150;
  const step = Math.max(56, Math.min(120, Math.floor((width - labelWidth - 120) / Math.max(1, partners.length))));
  // Dark cells get light text: the upper 45% of the range is dark in this scheme.
  const darkFrom = lo + 0.55 * (hi - lo);
  const values = cells.map((c) => ({model: c.model, partner: c.partner, mean: c.mean, n: c.n, dark: c.mean >= darkFrom}));
  const encodeText = (field: string, dy: number, size: number) => ({
    mark: {type: "text" as const, dy, fontSize: size},
    encoding: {
      text: field === "mean" ? {field: "mean", type: "quantitative" as const, format: ".2f"} : {field: "nLabel", type: "nominal" as const},
      color: {condition: {test: "datum.dark", value: "white"}, value: "black"},
    },
  });
  return {
    title: {text: title, anchor: "start", fontSize: 12},
    data: {values},
    transform: [{calculate: "'n = ' + datum.n", as: "nLabel"}],
    width: {step},
    height: {step: 44},
    config: {view: {stroke: null}, axis: {labelLimit: labelWidth, domain: false, ticks: false}},
    encoding: {
      x: {field: "partner", type: "nominal", sort: [...partners], title: "partner model", axis: {orient: "top", labelAngle: 0}},
      y: {field: "model", type: "nominal", sort: [...models], title: "rated model"},
    },
    layer: [
      {
        mark: {type: "rect", tooltip: true},
        encoding: {
          color: {
            field: "mean", type: "quantitative", title: "mean",
            scale: {domain: [lo, hi], scheme: "yellowgreenblue", clamp: true, nice: false},
            legend: {orient: "right", gradientLength: Math.max(80, 44 * models.length - 20)},
          },
          tooltip: [
            {field: "model", type: "nominal", title: "model"},
            {field: "partner", type: "nominal", title: "partner"},
            {field: "mean", type: "quantitative", format: ".3f"},
            {field: "n", type: "quantitative"},
          ],
        },
      },
      encodeText("mean", -6, 12),
      encodeText("n", 9, 10),
    ],
  };
}
