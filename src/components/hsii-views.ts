// HSII tables and charts: Table 1 per model, the position-bias audit, COT
// complexity (Table 2), the per-cluster breakdown, the stage counts and the
// success-by-rounds curve. Tables use DOM calls and textContent only; every
// number keeps its exact value in data-value and has a data-testid.

import type {TopLevelSpec} from "vega-lite";
import type {CotSummary, HsiiModelRow} from "../lib/hsii.js";
import {el, fixed, numCell, percent} from "./dom.js";

function cell(value: number, testId: string | undefined, digits = 3): HTMLTableCellElement {
  const td = numCell(fixed(value, digits), undefined, testId);
  td.dataset.value = Number.isNaN(value) ? "NaN" : String(value);
  return td;
}

/**
 * Decimals that show every count of a column exactly, the same for the whole
 * column: 0 for whole numbers, 2 for the quarter points of the mean policy
 * (at most 2: finer fractions are rounded there).
 */
export function countDigits(values: readonly number[]): number {
  const exactAt = (d: number) => values.every((v) => !Number.isFinite(v) || Math.abs(v * 10 ** d - Math.round(v * 10 ** d)) < 1e-9);
  return [0, 1, 2].find(exactAt) ?? 2;
}

/** HSII Table 1: n, r1, r2, absolute target rate, r3, r4, HSII per model (and cluster). */
export function hsiiTable(rows: readonly (HsiiModelRow & {cluster?: string | null})[], {testIdPrefix = "hsii", byCluster = false} = {}): HTMLTableElement {
  const table = el("table", undefined, "numeric hsii-table");
  table.setAttribute("data-testid", `${testIdPrefix}-table`);
  const head = table.createTHead().insertRow();
  head.append(el("th", "Model"));
  if (byCluster) head.append(el("th", "Cluster"));
  for (const h of ["n", "n1", "n2", "n3", "n4", "n2 without a stage-3 verdict", "n2 without a stage-4 verdict", "r1 (format)", "r2 (target)", "absolute target rate",
    "r3 (first utterance, over judged)", "r4 (continuation, over judged)", "HSII"]) head.append(el("th", h, "num"));
  const body = table.createTBody();
  const digits = Object.fromEntries((["n", "n1", "n2", "n3", "n4"] as const).map((k) => [k, countDigits(rows.map((r) => r[k]))]));
  for (const r of rows) {
    const id = byCluster ? undefined : `${testIdPrefix}-${r.model}`;
    const tid = (k: string) => (id ? `${id}-${k}` : undefined);
    const tr = body.insertRow();
    tr.append(el("th", r.model, "dim"));
    if (byCluster) tr.append(el("td", r.cluster ?? "(none)"));
    for (const k of ["n", "n1", "n2", "n3", "n4"] as const) tr.append(numCell(r[k].toFixed(digits[k]), r[k], tid(k)));
    tr.append(numCell(String(r.unjudged3), r.unjudged3, tid("unjudged3")), numCell(String(r.unjudged4), r.unjudged4, tid("unjudged4")));
    tr.append(cell(r.r1, tid("r1")), cell(r.r2, tid("r2")), cell(r.absoluteTarget, tid("abs-target")), cell(r.r3, tid("r3")), cell(r.r4, tid("r4")), cell(r.score, tid("score")));
  }
  return table;
}

/** The position-bias audit: how often the two orders of a comparison disagree, and stage-3 win rate per order. */
export function biasTable(rows: readonly HsiiModelRow[]): HTMLTableElement {
  const table = el("table", undefined, "numeric hsii-bias");
  table.setAttribute("data-testid", "bias-table");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Model"));
  for (const h of ["stage 3: orders disagree", "stage 4: orders disagree", "r3, forward order", "r3, swapped order", "unjudged at stage 3", "unjudged at stage 4", "parser ≠ log (stage 1)"]) head.append(el("th", h, "num"));
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    tr.append(el("th", r.model, "dim"));
    for (const [k, v] of [["disagree3", r.disagree3], ["disagree4", r.disagree4]] as const) {
      const td = numCell(percent(v), undefined, `bias-${r.model}-${k}`);
      td.dataset.value = String(v);
      tr.append(td);
    }
    tr.append(cell(r.r3Forward, `bias-${r.model}-r3-forward`), cell(r.r3Swapped, `bias-${r.model}-r3-swapped`),
      numCell(String(r.unjudged3), r.unjudged3), numCell(String(r.unjudged4), r.unjudged4), numCell(String(r.parserDisagreements), r.parserDisagreements));
  }
  return table;
}

/** HSII Table 2: per model, success without and with COT, rounds to the threshold, complexity. */
export function cotTable(rows: readonly (CotSummary & {model: string})[], {threshold, cap}: {threshold: number; cap: number}): HTMLTableElement {
  const table = el("table", undefined, "numeric cot-table");
  table.setAttribute("data-testid", "cot-table");
  const head = table.createTHead().insertRow();
  head.append(el("th", "Model"));
  for (const h of ["runs (episode, COT variant)", "success without COT", `success with COT (within ${cap})`, `rounds to reach ${threshold}`, `complexity (cap ${cap})`]) head.append(el("th", h, "num"));
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    tr.append(el("th", r.model, "dim"), numCell(String(r.runs), r.runs, `cot-${r.model}-runs`),
      cell(r.successWithoutCot, `cot-${r.model}-without`), cell(r.successWithCot, `cot-${r.model}-with`));
    const steps = numCell(r.roundsToThreshold === Infinity ? "∞" : fixed(r.roundsToThreshold, 0), undefined, `cot-${r.model}-rounds`);
    steps.dataset.value = String(r.roundsToThreshold);
    tr.append(steps, cell(r.complexity, `cot-${r.model}-complexity`));
  }
  return table;
}

/** The two parts of the stage chart: counts that only shrink, then win scores that share one base. */
export const STAGE_PARTS = {
  passing: "Stages 1–2: cases passing",
  wins: "Stages 3–4: win score out of the n2 cases judged",
} as const;

/**
 * Stage counts per model, in two parts. Stages 1 and 2 narrow down: n cases,
 * n1 of them parsed, n2 of those with the right target. Stages 3 and 4 are
 * not further steps of that narrowing: each is a win score over the same n2
 * cases, so n4 may exceed n3; they are drawn beside n2, their common base,
 * never as a continuation of the funnel.
 */
export function stageChart(rows: readonly HsiiModelRow[], {width, policy}: {width: number; policy: string}): TopLevelSpec {
  const values = rows.flatMap((r) => [
    {part: STAGE_PARTS.passing, stage: "n: cases", value: r.n},
    {part: STAGE_PARTS.passing, stage: "n1: parsed", value: r.n1},
    {part: STAGE_PARTS.passing, stage: "n2: right target", value: r.n2},
    {part: STAGE_PARTS.wins, stage: "n2: right target", value: r.n2},
    {part: STAGE_PARTS.wins, stage: "judged at stage 3", value: r.judged3},
    {part: STAGE_PARTS.wins, stage: "n3: stage-3 wins", value: r.n3},
    {part: STAGE_PARTS.wins, stage: "judged at stage 4", value: r.judged4},
    {part: STAGE_PARTS.wins, stage: "n4: stage-4 wins", value: r.n4},
  ].map((b) => ({model: r.model, ...b, share: r.n ? b.value / r.n : NaN})));
  // The first three are the funnel; the rest, each stage's judged cases and its win score, share n2 as their base.
  const stages = ["n: cases", "n1: parsed", "n2: right target", "judged at stage 3", "n3: stage-3 wins", "judged at stage 4", "n4: stage-4 wins"];
  const passing = stages.slice(0, 3);
  const wins = stages.slice(2);
  // Room for the model names at the left, each part's stage labels and its numbers past the bars (about
  // 490 px in all: the 410 reserved before drew the chart 832 px wide in an 800 px window), then the two
  // parts side by side; below 120 px a part the chart is wider than the page and scrolls in its box.
  const partWidth = Math.max(120, Math.floor((width - 490) / 2));
  // Both parts' rows as tall as the taller part's (five stages), so a model's two rows line up across the chart.
  const rowHeight = wins.length * 16;
  // One faceted chart per part, side by side, each with its own three stages as its y domain: one facet
  // with independent y scales made Vega-Lite union each cell's stages across its layers' sources, and warn.
  const part = (name: string, first: boolean) => ({
    title: {text: name, fontSize: 11, fontWeight: "normal" as const},
    transform: [{filter: {field: "part", equal: name}}],
    facet: {row: {field: "model", type: "nominal", title: null, header: first ? {labelAngle: 0, labelAlign: "left", labelLimit: 160} : {labels: false}}},
    spec: {
      width: partWidth,
      height: rowHeight,
      encoding: {
        y: {field: "stage", type: "nominal", sort: stages, title: null, scale: {domain: name === STAGE_PARTS.passing ? passing : wins}},
        x: {field: "value", type: "quantitative", title: "Cases"},
      },
      layer: [
        {mark: {type: "bar", tooltip: true}, encoding: {color: {field: "stage", type: "nominal", sort: stages, legend: null, scale: {domain: stages, range: ["#4c78a8", "#72b7b2", "#54a24b", "#bab0ac", "#f58518", "#9d755d", "#e45756"]}}}},
        {mark: {type: "text", align: "left", dx: 3}, encoding: {text: {field: "value", type: "quantitative", format: ".4~f"}}},
      ],
    },
  });
  return {
    title: `Stage counts per model: cases passing stages 1–2; of the n2, those judged at stages 3 and 4 and their win scores (${policy} policy)`,
    data: {values},
    hconcat: [part(STAGE_PARTS.passing, true), part(STAGE_PARTS.wins, false)],
    // One case axis for both parts, as the facet had: n2 reads the same length on each side.
    resolve: {scale: {x: "shared", color: "shared"}},
  } as TopLevelSpec;
}

/** The share of runs (episode, COT variant) solved within k rounds, one line per model, with the threshold as a rule. */
export function successCurve(points: readonly {model: string; k: number; share: number}[], {width, threshold, cap}: {width: number; threshold: number; cap: number}): TopLevelSpec {
  return {
    title: `Share solved within k rounds (cap ${cap}); dashed: the threshold ${threshold}`,
    width: Math.max(240, width - 200),
    height: 240,
    layer: [
      {
        data: {values: points.map((p) => ({...p}))},
        mark: {type: "line", point: {size: 16}, tooltip: true, interpolate: "step-after"},
        encoding: {
          x: {field: "k", type: "quantitative", title: "Rounds k", axis: {tickMinStep: 1}},
          y: {field: "share", type: "quantitative", title: "Solved within k", axis: {format: ".0%"}, scale: {domain: [0, 1]}},
          color: {field: "model", type: "nominal", title: "Model"},
        },
      },
      {data: {values: [{threshold}]}, mark: {type: "rule", strokeDash: [4, 3], color: "#888"}, encoding: {y: {field: "threshold", type: "quantitative"}}},
    ],
  } as TopLevelSpec;
}
