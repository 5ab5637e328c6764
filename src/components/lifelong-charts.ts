// LIFELONG-SOTOPIA charts as Vega-Lite specs (LIFELONG-SOTOPIA Figures 3, 4):
// scores against the chain index as small multiples (a facet per memory mode
// and per series or per model), a band around each line, and a labelled
// dashed rule where the harder scenarios begin; checkpoint failure rates as a
// small multiple per checkpoint. Data goes inline; nothing is fetched.

import type {TopLevelSpec} from "vega-lite";
import type {CurveRow} from "../lib/lifelong.js";

/** Which curves of a CurveRow a chart draws, and what it calls them. */
export interface Series {
  key: "bel" | "goal" | "penalised" | "bel_checklisted";
  label: string;
}

export interface CurveChartOptions {
  series: readonly Series[];
  /** First harder index per "model\u0000memory" (harderStarts). */
  harder: ReadonlyMap<string, number>;
  /** How the band was made, for the tooltip. */
  bandLabel: string;
  width: number;
  /**
   * What a row of facets holds: one series with a line per model (`series`),
   * or one model with a line per series (`model`, for comparing series of the same instances).
   */
  rows: "series" | "model";
  title: string;
}

export interface HarderRule {
  memory: string;
  index: number;
  /** The facet row the rule belongs to (a model's, under rows = "model"); null: every row. */
  model: string | null;
  label: string;
}

/**
 * The dashed rules of a chart: one per memory mode and first harder index.
 * Models whose harder scenarios start at the same index share one rule named
 * after all of them ("harder from 41: all models"), so rules never hide each
 * other; under rows = "model" each model's row gets its own.
 */
export function harderRules(harder: ReadonlyMap<string, number>, {memories, models, rows}: {memories: readonly string[]; models: readonly string[]; rows: "series" | "model"}): HarderRule[] {
  const starts = [...harder.entries()]
    .map(([key, index]) => {
      const [model = "", memory = ""] = key.split("\u0000");
      return {model, memory, index};
    })
    .filter((s) => memories.includes(s.memory) && models.includes(s.model));
  if (rows === "model") return starts.map((s) => ({memory: s.memory, index: s.index, model: s.model, label: `harder from ${s.index}`}));
  const shared = new Map<string, {memory: string; index: number; models: string[]}>();
  for (const s of starts) {
    const key = `${s.memory}\u0000${s.index}`;
    const g = shared.get(key) ?? {memory: s.memory, index: s.index, models: []};
    g.models.push(s.model);
    shared.set(key, g);
  }
  return [...shared.values()]
    .sort((a, b) => a.memory.localeCompare(b.memory) || a.index - b.index)
    .map((g) => {
      const inMemory = new Set(starts.filter((s) => s.memory === g.memory).map((s) => s.model));
      const who = g.models.length === inMemory.size && inMemory.size > 1 ? "all models" : [...g.models].sort().join(", ");
      return {memory: g.memory, index: g.index, model: null, label: `harder from ${g.index}: ${who}`};
    });
}

const RULE_COLOUR = "#555";

/** Room the y axis and its titles take left of the first facet. */
const AXIS_ROOM = 80;
/** Room a facet row's header (a model name, under rows = "model") takes, at most. */
const ROW_HEADER_ROOM = 150;
/** Vega-Lite's default gap between facets. */
const FACET_GAP = 20;

/**
 * A colour legend above the charts, in as many columns as fit: at the right it
 * took room the facets had been given and was cut at the page's edge. Its
 * swatches are the lines' (full colour, a stroke), not the pale bands'.
 */
function legendAbove(width: number): Record<string, unknown> {
  return {orient: "top", direction: "horizontal", columns: Math.max(1, Math.floor(width / 240)), labelLimit: 220, symbolType: "stroke", symbolStrokeWidth: 2, symbolOpacity: 1};
}

/**
 * The band as drawn: cut at the score scale's ends, because a band past them
 * (a penalised BEL of 0.4 ± 1.1, say) would draw below the axis for scores
 * that cannot be below 0. The tooltip keeps the band's own ends.
 */
export function drawnBand(low: number | null, high: number | null, [lo, hi]: readonly [number, number]): {low: number | null; high: number | null} {
  const cut = (x: number | null) => (x === null ? null : Math.min(hi, Math.max(lo, x)));
  return {low: cut(low), high: cut(high)};
}

/**
 * The chain index axis with its domain given, from the first to the last
 * index of any point or rule: a layer with no rows (no harder rule, or none
 * labelled on one side) left Vega to take the extent of nothing, [∞, −∞],
 * and warn. An empty chart keeps Vega's own domain.
 */
function chainIndexAxis(drawn: readonly {index: number}[]): Record<string, unknown> {
  let first = Infinity;
  let last = -Infinity;
  for (const d of drawn) {
    first = Math.min(first, d.index);
    last = Math.max(last, d.index);
  }
  const axis = {field: "index", type: "quantitative", title: "Chain index", axis: {tickMinStep: 1}};
  // nice, as Vega-Lite makes a domain it computes: the last tick label stays inside the chart.
  return first <= last ? {...axis, scale: {domain: [first, last], nice: true}} : axis;
}

/** The score scale of every curve chart (BEL, GOAL and penalised BEL are all on 0..10). */
export const SCORE_DOMAIN: readonly [number, number] = [0, 10];

/** Mean curves with bands: columns = memory mode, rows = series (a line per model) or model (a line per series). */
export function curvesChart(rows: readonly CurveRow[], o: CurveChartOptions): TopLevelSpec {
  const memories = [...new Set(rows.map((r) => r.memory_mode))].sort();
  const models = [...new Set(rows.map((r) => r.model))].sort();
  const ok = (x: number) => (Number.isFinite(x) ? x : null);
  let firstIndex = Infinity;
  let lastIndex = -Infinity;
  const points = rows.flatMap((r) => o.series.map((s) => {
    const p = r[s.key];
    const mean = ok(p.mean);
    const low = ok(p.low) ?? mean;
    const high = ok(p.high) ?? mean;
    const drawn = drawnBand(low, high, SCORE_DOMAIN);
    return {layer: "curve", model: r.model, memory: r.memory_mode, index: r.chain_index, series: s.label, n: p.n, mean, low, high, drawnLow: drawn.low, drawnHigh: drawn.high};
  })).filter((p) => p.mean !== null);
  for (const p of points) {
    firstIndex = Math.min(firstIndex, p.index);
    lastIndex = Math.max(lastIndex, p.index);
  }
  const byModel = o.rows === "model";
  // A rule's label goes on the side of the rule with more room: right of a rule in
  // the chart's left half (left of it, it ran over the y axis), left of one in the right half.
  const middle = (firstIndex + lastIndex) / 2;
  const side = (index: number) => (index <= middle ? "right" : "left");
  // A rule shared by every row is repeated in each row's data (a facet only shows its own rows).
  const rules = harderRules(o.harder, {memories, models, rows: o.rows}).flatMap((rule): Record<string, unknown>[] =>
    byModel
      ? [{layer: "rule", memory: rule.memory, index: rule.index, model: rule.model, label: rule.label, side: side(rule.index)}]
      : o.series.map((s) => ({layer: "rule", memory: rule.memory, index: rule.index, series: s.label, label: rule.label, side: side(rule.index)})));
  const columns = Math.max(1, memories.length);
  const room = o.width - AXIS_ROOM - (byModel ? ROW_HEADER_ROOM : 0) - FACET_GAP * (columns - 1);
  const facetWidth = Math.max(160, Math.floor(room / columns));
  const seriesOrder = o.series.map((s) => s.label);
  const legend = legendAbove(o.width);
  const color = byModel
    ? {field: "series", type: "nominal" as const, title: "Series", sort: seriesOrder, legend}
    : {field: "model", type: "nominal" as const, title: "Model", legend};
  const x = chainIndexAxis(points.concat(rules as never[]));
  const label = (align: "left" | "right") => ({
    transform: [{filter: `datum.side === '${align === "left" ? "right" : "left"}'`}],
    mark: {type: "text", align, baseline: "top", dx: align === "left" ? 3 : -3, y: 2, fontSize: 10, color: RULE_COLOUR},
    encoding: {x, text: {field: "label"}},
  });
  return {
    title: o.title,
    data: {values: (points as Record<string, unknown>[]).concat(rules)},
    facet: {
      column: {field: "memory", type: "nominal", title: "Memory mode", sort: memories},
      row: byModel
        ? {field: "model", type: "nominal", title: null, sort: models, header: {labelAngle: 0, labelAlign: "left", labelLimit: ROW_HEADER_ROOM - 10}}
        : {field: "series", type: "nominal", title: null, sort: seriesOrder},
    },
    spec: {
      width: facetWidth,
      height: byModel ? 140 : 180,
      // One filter per kind of datum, shared by its marks: fewer data nodes for Vega-Lite's optimiser.
      layer: [
        {
          transform: [{filter: "datum.layer === 'curve'"}],
          layer: [
            {
              mark: {type: "area", opacity: 0.15},
              encoding: {x, y: {field: "drawnLow", type: "quantitative", title: "Score", scale: {domain: [...SCORE_DOMAIN]}}, y2: {field: "drawnHigh"}, color, detail: {field: byModel ? "series" : "model"}},
            },
            {
              mark: {type: "line", point: {size: 14}, tooltip: true, strokeWidth: 1.5},
              encoding: {
                x, y: {field: "mean", type: "quantitative"}, color,
                tooltip: [{field: "model"}, {field: "memory"}, {field: "series"}, {field: "index"}, {field: "n"},
                  {field: "mean", format: ".2f"}, {field: "low", format: ".2f", title: `low (${o.bandLabel})`}, {field: "high", format: ".2f", title: `high (${o.bandLabel})`}],
              },
            },
          ],
        },
        {
          transform: [{filter: "datum.layer === 'rule'"}],
          layer: [
            {mark: {type: "rule", strokeDash: [4, 3], strokeWidth: 1.5, color: RULE_COLOUR}, encoding: {x, tooltip: [{field: "label", title: "harder scenarios"}]}},
            label("left"),
            label("right"),
          ],
        },
      ],
    },
    resolve: {scale: {x: "shared", y: "shared"}},
  } as TopLevelSpec;
}

/** One point of the failure chart: a checkpoint's failure rate over a window of chain indices. */
export interface FailurePoint {
  checkpoint: string;
  memory_mode: string;
  /** The window of chain indices the point pools, first and last. */
  from: number;
  to: number;
  /** Agent-episodes pooled, and the rater's runs combined into them. */
  n: number;
  runs: number;
  /** Σ over the agent-episodes of the share of their runs that failed. */
  failed: number;
  rate: number;
}

/**
 * Failure rate against the chain index as small multiples, one per checkpoint
 * (four to a row), a line per memory mode, and the harder scenarios' first
 * index as a labelled rule.
 */
export function failureChart(points: readonly FailurePoint[], {width, title, harder = []}: {width: number; title: string; harder?: readonly HarderRule[]}): TopLevelSpec {
  const checkpoints = [...new Set(points.map((p) => p.checkpoint))].sort();
  const memories = [...new Set(points.map((p) => p.memory_mode))].sort();
  // Four small charts to a row where each gets about 190 px, fewer on a narrow page.
  // The percentage axis takes a little more room than the score axis.
  const axisRoom = AXIS_ROOM + 15;
  const perRow = Math.min(Math.max(1, Math.floor((width - axisRoom) / 214)), 4, Math.max(1, checkpoints.length));
  const facetWidth = Math.max(150, Math.floor((width - axisRoom - FACET_GAP * (perRow - 1)) / perRow));
  let top = 0.05;
  for (const p of points) if (Number.isFinite(p.rate)) top = Math.max(top, p.rate);
  // Memory modes whose harder scenarios start at the same index share one rule, its tooltip naming each.
  const byIndex = new Map<number, string[]>();
  for (const h of harder) {
    const labels = byIndex.get(h.index);
    if (labels) labels.push(`${h.memory}: ${h.label}`);
    else byIndex.set(h.index, [`${h.memory}: ${h.label}`]);
  }
  const rules = checkpoints.flatMap((checkpoint) => [...byIndex.entries()].map(([index, labels]) => ({layer: "rule", checkpoint, index, label: labels.join("; ")})));
  const drawn: Record<string, unknown>[] = points.map((p) => ({layer: "point", checkpoint: p.checkpoint, memory: p.memory_mode, index: (p.from + p.to) / 2,
    indices: p.from === p.to ? String(p.from) : `${p.from}–${p.to}`, n: p.n, runs: p.runs, failed: p.failed, rate: p.rate}));
  const x = chainIndexAxis((drawn as {index: number}[]).concat(rules));
  return {
    title,
    data: {values: drawn.concat(rules)},
    // "Character responses (responds_to_partner)" on two lines: the name, then the key.
    facet: {field: "checkpoint", type: "nominal", title: null, sort: checkpoints, header: {
      labelLimit: facetWidth, labelFontSize: 10,
      labelExpr: "indexof(datum.label, ' (') > 0 ? [slice(datum.label, 0, indexof(datum.label, ' (')), slice(datum.label, indexof(datum.label, ' (') + 1)] : datum.label",
    }},
    columns: perRow,
    spec: {
      width: facetWidth,
      height: 120,
      layer: [
        {
          transform: [{filter: "datum.layer === 'point'"}],
          mark: {type: "line", point: {size: 12}, tooltip: true, strokeWidth: 1.5},
          encoding: {
            x,
            y: {field: "rate", type: "quantitative", title: "Failure rate", axis: {format: ".0%"}, scale: {domain: [0, Math.min(1, Math.ceil(top * 10) / 10)]}},
            color: {field: "memory", type: "nominal", title: "Memory mode", sort: memories, legend: legendAbove(width)},
            tooltip: [{field: "checkpoint"}, {field: "memory"}, {field: "indices", title: "chain indices"},
              {field: "failed", format: ".2f", title: "failed (agent-episodes, runs averaged)"}, {field: "n", title: "agent-episodes"}, {field: "runs", title: "runs combined"}, {field: "rate", format: ".1%"}],
          },
        },
        {
          transform: [{filter: "datum.layer === 'rule'"}],
          mark: {type: "rule", strokeDash: [4, 3], color: RULE_COLOUR},
          encoding: {x, strokeOpacity: {value: 0.8}, tooltip: [{field: "label", title: "harder scenarios"}]},
        },
      ],
    },
    resolve: {scale: {x: "shared", y: "shared"}},
  } as TopLevelSpec;
}
