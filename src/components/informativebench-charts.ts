// InformativeBench charts: Table 3 as grouped bars, and the ablations as the
// change against each dataset's base (Figure 7). Data is inline; text is
// rendered by Vega as text.

import type {TopLevelSpec} from "vega-lite";
import {METRIC_LABEL, type AblationRow, type Table3} from "../lib/informativebench.js";

/** One bar per backend model within each dataset, the metric in the dataset's label. */
export function table3Chart(t: Table3, {width}: {width: number}): TopLevelSpec {
  const label = new Map(t.columns.map((c) => [c.dataset, `${c.dataset} (${METRIC_LABEL[c.metric]})`]));
  const values = t.cells.map((c) => ({dataset: label.get(c.dataset)!, model: c.model, value: c.value, n: c.n}));
  return {
    title: "Each dataset's metric per backend model",
    data: {values},
    width: Math.max(240, width - 220),
    height: {step: 12},
    mark: {type: "bar", tooltip: true},
    encoding: {
      y: {field: "dataset", type: "nominal", sort: t.columns.map((c) => label.get(c.dataset)!), title: null},
      yOffset: {field: "model", type: "nominal"},
      x: {field: "value", type: "quantitative", title: "Score", scale: {domain: [0, 1]}, axis: {format: ".0%"}},
      color: {field: "model", type: "nominal", title: "Backend"},
    },
  } as TopLevelSpec;
}

/** The change of each variant against its dataset's base, per backend. */
export function ablationChart(rows: readonly AblationRow[], {width}: {width: number}): TopLevelSpec {
  // In percentage points, as the title and the table give it: an axis formatted as a percentage read "−20%", a relative change.
  const values = rows.filter((r) => !Number.isNaN(r.delta)).map((r) => ({row: `${r.dataset} · ${r.model} · ${r.variant}`, points: r.delta * 100, dataset: r.dataset}));
  return {
    title: "Change against the base settings (percentage points of the dataset's metric)",
    data: {values},
    width: Math.max(200, width - 420),
    height: {step: 16},
    mark: {type: "bar"},
    encoding: {
      y: {field: "row", type: "nominal", sort: null, title: null, axis: {labelLimit: 400}},
      tooltip: [{field: "row", title: "dataset · backend · variant"}, {field: "points", title: "variant − base (pts)", format: "+.2f"}],
      x: {field: "points", type: "quantitative", title: "variant − base (percentage points)", axis: {format: "+~f"}},
      color: {field: "dataset", type: "nominal", title: "Dataset"},
    },
  } as TopLevelSpec;
}
