// LIFELONG-SOTOPIA charts as Vega-Lite specs (LIFELONG-SOTOPIA Figures 3, 4):
// scores against the chain index, one line per model, a band around each, a
// facet per memory mode, and a dashed vertical rule where the harder scenarios
// begin. Data goes inline; nothing is fetched.

import type {TopLevelSpec} from "vega-lite";
import type {CurveRow} from "../lib/lifelong.js";

/** Which curves of a CurveRow a chart draws, and what it calls them. */
export interface Series {
  key: "bel" | "goal" | "penalised";
  label: string;
}

export interface CurveChartOptions {
  series: readonly Series[];
  /** First harder index per "model\u0000memory" (harderStarts). */
  harder: ReadonlyMap<string, number>;
  /** How the band was made, for the legend title. */
  bandLabel: string;
  width: number;
  /** Draw the series as rows of facets (true) or on one chart with dashed lines per series (false). */
  seriesAsRows: boolean;
  title: string;
}

/** Mean curves with bands, faceted by memory mode (columns) and, if asked, by series (rows). */
export function curvesChart(rows: readonly CurveRow[], o: CurveChartOptions): TopLevelSpec {
  const memories = [...new Set(rows.map((r) => r.memory_mode))].sort();
  const points = rows.flatMap((r) => o.series.map((s) => {
    const p = r[s.key];
    const ok = (x: number) => (Number.isFinite(x) ? x : null);
    return {layer: "curve", model: r.model, memory: r.memory_mode, index: r.chain_index, series: s.label, n: p.n, mean: ok(p.mean), low: ok(p.low) ?? ok(p.mean), high: ok(p.high) ?? ok(p.mean)};
  })).filter((p) => p.mean !== null);
  const rules = [...o.harder.entries()].flatMap(([key, index]) => {
    const [model, memory] = key.split("\u0000");
    return memories.includes(memory!) ? o.series.map((s) => ({layer: "rule", model, memory, index, series: s.label})) : [];
  });
  const columns = Math.max(1, memories.length);
  const facetWidth = Math.max(160, Math.floor((o.width - 180) / columns) - 20);
  const color = {field: "model", type: "nominal" as const, title: "Model"};
  const x = {field: "index", type: "quantitative" as const, title: "Chain index", axis: {tickMinStep: 1}};
  return {
    title: o.title,
    data: {values: [...points, ...rules]},
    facet: {
      column: {field: "memory", type: "nominal", title: "Memory mode", sort: memories},
      ...(o.seriesAsRows ? {row: {field: "series", type: "nominal", title: null, sort: o.series.map((s) => s.label)}} : {}),
    },
    spec: {
      width: facetWidth,
      height: 180,
      layer: [
        {
          transform: [{filter: "datum.layer === 'curve'"}],
          mark: {type: "area", opacity: 0.15},
          encoding: {x, y: {field: "low", type: "quantitative", title: "Score", scale: {domain: [0, 10]}}, y2: {field: "high"}, color, detail: {field: "series"}},
        },
        {
          transform: [{filter: "datum.layer === 'curve'"}],
          mark: {type: "line", point: {size: 18}, tooltip: true},
          encoding: {
            x, y: {field: "mean", type: "quantitative"}, color,
            ...(o.seriesAsRows ? {} : {strokeDash: {field: "series", type: "nominal", title: "Series", sort: o.series.map((s) => s.label)}}),
            tooltip: [{field: "model"}, {field: "memory"}, {field: "series"}, {field: "index"}, {field: "n"},
              {field: "mean", format: ".2f"}, {field: "low", format: ".2f", title: `low (${o.bandLabel})`}, {field: "high", format: ".2f", title: `high (${o.bandLabel})`}],
          },
        },
        {
          transform: [{filter: "datum.layer === 'rule'"}],
          mark: {type: "rule", strokeDash: [4, 3], strokeWidth: 1.5},
          encoding: {x, color, tooltip: [{field: "model"}, {field: "index", title: "harder scenarios from index"}]},
        },
      ],
    },
    resolve: {scale: {x: "shared", y: "shared"}},
  } as TopLevelSpec;
}

/** Failure rate per checkpoint against the chain index, one line per checkpoint, a facet per memory mode. */
export function failureChart(rows: readonly {checkpoint: string; memory_mode: string; chain_index: number; n: number; failed: number; rate: number}[], {width, title}: {width: number; title: string}): TopLevelSpec {
  const memories = [...new Set(rows.map((r) => r.memory_mode))].sort();
  const facetWidth = Math.max(160, Math.floor((width - 320) / Math.max(1, memories.length)) - 20);
  return {
    title,
    data: {values: rows.map((r) => ({checkpoint: r.checkpoint, memory: r.memory_mode, index: r.chain_index, n: r.n, failed: r.failed, rate: r.rate}))},
    facet: {column: {field: "memory", type: "nominal", title: "Memory mode", sort: memories}},
    spec: {
      width: facetWidth,
      height: 200,
      mark: {type: "line", point: {size: 14}, tooltip: true},
      encoding: {
        x: {field: "index", type: "quantitative", title: "Chain index", axis: {tickMinStep: 1}},
        y: {field: "rate", type: "quantitative", title: "Failure rate", axis: {format: ".0%"}, scale: {domain: [0, 1]}},
        color: {field: "checkpoint", type: "nominal", title: "Checkpoint", legend: {labelLimit: 300}},
        tooltip: [{field: "checkpoint"}, {field: "memory"}, {field: "index"}, {field: "failed"}, {field: "n"}, {field: "rate", format: ".1%"}],
      },
    },
  } as TopLevelSpec;
}
