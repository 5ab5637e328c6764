// The distribution of differences between two raters (A − B) as a Vega-Lite
// histogram (SOTOPIA Figure 2): bins half a point wide centred on multiples of
// 0.5, a rule at 0, a rule at the mean difference (the bias) and, when the
// spread is one number, the ±1 sd band the "within one sd" share counts.

import type {TopLevelSpec} from "vega-lite";

export interface DifferenceHistogramOptions {
  title: string;
  /** Mean of the differences, drawn as a rule. */
  bias: number;
  /** One sd, drawn as a band around 0, or null when the spread differs per instance or dimension. */
  spread: number | null;
  width: number;
  xTitle: string;
}

/** Counts per bin half a point wide centred on a multiple of 0.5: [k/2 − 0.25, k/2 + 0.25), k an integer. */
export function halfPointBins(diffs: readonly number[]): {from: number; to: number; instances: number}[] {
  const counts = new Map<number, number>();
  for (const d of diffs) {
    const k = Math.floor(d * 2 + 0.5);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([k, instances]) => ({from: k / 2 - 0.25, to: k / 2 + 0.25, instances}));
}

/** Differences counted in half-point bins (halfPointBins), and how far the x axis must reach. */
export interface DifferenceCounts {
  bins: {from: number; to: number; instances: number}[];
  /** The largest ceil(|A − B| + 0.25): the extent that shows every bar whole (0 with no differences). */
  reach: number;
}

/** The counts differenceHistogram draws, from the differences themselves (one loop: no spread of 140k values into Math.max). */
export function differenceCounts(diffs: readonly number[]): DifferenceCounts {
  let reach = 0;
  for (const d of diffs) reach = Math.max(reach, Math.ceil(Math.abs(d) + 0.25));
  return {bins: halfPointBins(diffs), reach};
}

/** The histogram of pre-counted differences: the agreement page gets the counts from its worker, never the 1.4M differences. */
export function differenceHistogram(counts: DifferenceCounts, options: DifferenceHistogramOptions): TopLevelSpec {
  const {title, bias, spread, width, xTitle} = options;
  const extent = Math.max(spread !== null ? Math.max(1, Math.ceil(spread)) : 1, counts.reach);
  const tickStep = extent <= 6 ? 1 : extent <= 12 ? 2 : 5;
  const ticks: number[] = [];
  for (let t = -Math.floor(extent / tickStep) * tickStep; t <= extent; t += tickStep) ticks.push(t);
  // What changes with the raters and the dimension is in params and named datasets (the band and the bias rule
  // empty when absent), so that the page updates a drawn chart in place (agreement-chart.ts) instead of drawing anew.
  const x = {type: "quantitative" as const, scale: {domain: {expr: "[-extent, extent]"}, nice: false}, axis: {values: {expr: "ticks"}, format: "d"}};
  return {
    params: [{name: "heading", value: title}, {name: "extent", value: extent}, {name: "ticks", value: ticks}],
    title: {text: {expr: "heading"}, anchor: "start", fontSize: 12},
    width: Math.max(240, Math.min(width, 900) - 80),
    height: 180,
    // Laid out again on every update in place: new labels may need less room than the old ones.
    autosize: {type: "pad", resize: true},
    config: {view: {stroke: null}},
    layer: [
      {
        data: {name: "band", values: spread !== null ? [{lo: -spread, hi: spread}] : []},
        mark: {type: "rect", color: "#9ecae1", opacity: 0.35},
        encoding: {x: {field: "lo", ...x, title: xTitle}, x2: {field: "hi"}},
      },
      {
        // Binned here rather than by Vega's bin transform, which has no extent (and warns) when every difference is equal.
        data: {name: "bins", values: counts.bins},
        mark: {type: "bar", color: "#4c78a8", tooltip: true},
        encoding: {
          x: {field: "from", bin: "binned", ...x, title: xTitle},
          x2: {field: "to"},
          y: {field: "instances", type: "quantitative", title: "instances", axis: {format: "d", tickMinStep: 1}},
        },
      },
      {
        data: {values: [{at: 0}]},
        mark: {type: "rule", color: "#666"},
        encoding: {x: {field: "at", ...x}},
      },
      {
        data: {name: "bias", values: Number.isFinite(bias) ? [{at: bias, label: `bias ${bias >= 0 ? "+" : ""}${bias.toFixed(2)}`}] : []},
        layer: [
          {mark: {type: "rule", color: "#d62728", strokeDash: [4, 3], strokeWidth: 2}, encoding: {x: {field: "at", ...x}}},
          {
            mark: {type: "text", color: "#d62728", align: "left", dx: 4, y: 0, baseline: "top"},
            encoding: {x: {field: "at", ...x}, text: {field: "label"}},
          },
        ],
      },
    ],
  } as TopLevelSpec;
}
