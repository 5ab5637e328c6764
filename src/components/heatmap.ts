// The SOTOPIA model × partner matrix (Figure 3 / G.4) as a Vega-Lite heatmap:
// one cell per (model, partner model), with the mean and n written in the
// cell. Colours span the cells' own min–max by default, so differences of a
// point show (means 2.07–3.61 on a [-4.3, 5.7] range would all be one blue),
// or the dimension's full range [lo, hi], where a colour means the same score
// on every dimension's map. A pure function of the cells and options.

import type {TopLevelSpec} from "vega-lite";
import type {PairCell} from "../lib/sotopia.js";

export interface PairHeatmapOptions {
  /** Row order (the rated model). */
  models: readonly string[];
  /** Column order (the partner model). */
  partners: readonly string[];
  /** The dimension's range. */
  lo: number;
  hi: number;
  /** What the colours span: the cells' min–max (`data`, default) or the dimension's range (`range`). */
  colour?: ColourSpan;
  /** Chart title: which dimension and rater. */
  title: string;
  width: number;
}

export type ColourSpan = "data" | "range";

/** The colour domain: the means' min–max (half a point either side when they are all equal), or [lo, hi]. */
export function colourDomain(cells: readonly PairCell[], {lo, hi, colour = "data"}: {lo: number; hi: number; colour?: ColourSpan}): [number, number] {
  const means = cells.map((c) => c.mean).filter(Number.isFinite);
  if (colour === "range" || means.length === 0) return [lo, hi];
  let min = Infinity;
  let max = -Infinity;
  for (const m of means) {
    min = Math.min(min, m);
    max = Math.max(max, m);
  }
  return min === max ? [min - 0.5, max + 0.5] : [min, max];
}

/** A heatmap spec: rows = model, columns = partner, colour = mean on colourDomain(), text = mean and n. */
export function pairHeatmap(cells: readonly PairCell[], options: PairHeatmapOptions): TopLevelSpec {
  const {models, partners, title, width} = options;
  const [lo, hi] = colourDomain(cells, options);
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
            field: "mean", type: "quantitative", title: options.colour === "range" ? "mean (full range)" : "mean (data min–max)",
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

/** The sentence part saying what the colours span: "the means shown, 2.07 to 3.61" or "the full range [0, 10]". */
export function colourSpanText(cells: readonly PairCell[], {lo, hi}: {lo: number; hi: number}, colour: ColourSpan): string {
  const [from, to] = colourDomain(cells, {lo, hi, colour});
  const r = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
  return colour === "range" ? `the dimension's full range [${r(lo)}, ${r(hi)}]` : `the means shown, ${r(from)} to ${r(to)} (the full range is [${r(lo)}, ${r(hi)}])`;
}
