// SOTOPIA-EVAL metrics (METRICS.md § SOTOPIA-EVAL). Pure functions over
// per-group sufficient statistics, so pages, the CLI and tests share them.

import {SOTOPIA_DIMENSIONS} from "./dimensions.js";
import {combineMoments, meanOf, sdOf, type Moments} from "./stats.js";

/** The pseudo-dimension holding each instance's overall score. */
export const OVERALL = "overall";

/** Overall score of one agent in one episode: plain mean of the seven dimensions (METRICS.md § SOTOPIA-EVAL). */
export function overallScore(scores: Readonly<Record<string, number>>): number {
  let sum = 0;
  for (const d of SOTOPIA_DIMENSIONS) {
    const v = scores[d.key];
    if (v === undefined) throw new Error(`overall needs all seven dimensions; ${d.key} is missing`);
    sum += v;
  }
  return sum / SOTOPIA_DIMENSIONS.length;
}

/**
 * One row of the SOTOPIA statistics table: the moments of one rater's scores on
 * one dimension for one model playing one task against one partner model. `dimension`
 * is one of the seven keys or `overall` (instances with all seven scored).
 */
export interface SotopiaStatRow {
  rater: string;
  rater_kind: string;
  /** Scenario and character pair (SOTOPIA §7's task). */
  task_id: string;
  model: string;
  partner: string;
  dimension: string;
  n: number;
  sum: number;
  sum_sq: number;
}

export interface ModelAggregate {
  model: string;
  dimension: string;
  n: number;
  mean: number;
  sd: number;
}

const toMoments = (r: SotopiaStatRow): Moments => ({n: r.n, sum: r.sum, sumSq: r.sum_sq});

/**
 * Model aggregates (SOTOPIA Table 2): a model's mean on each dimension over all
 * episodes it played, whatever its partner and seat, by one rater. Rows are
 * ordered by model, then by the paper's dimension order with overall last.
 */
export function modelAggregates(
  rows: readonly SotopiaStatRow[],
  {rater, models}: {rater: string; models?: readonly string[]},
): ModelAggregate[] {
  const groups = new Map<string, {model: string; dimension: string; parts: Moments[]}>();
  const keep = models ? new Set(models) : null;
  for (const r of rows) {
    if (r.rater !== rater || (keep && !keep.has(r.model))) continue;
    const key = `${r.model}\u0000${r.dimension}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = {model: r.model, dimension: r.dimension, parts: []}));
    g.parts.push(toMoments(r));
  }
  const order = new Map<string, number>([...SOTOPIA_DIMENSIONS.map((d, i) => [d.key, i] as const), [OVERALL, 99]]);
  return [...groups.values()]
    .map(({model, dimension, parts}) => {
      const m = combineMoments(parts);
      return {model, dimension, n: m.n, mean: meanOf(m), sd: sdOf(m)};
    })
    .sort((a, b) => a.model.localeCompare(b.model) || (order.get(a.dimension) ?? 50) - (order.get(b.dimension) ?? 50));
}

/** The rater a SOTOPIA view shows first: the LLM rater with the most scores, else any rater with the most. */
export function defaultRater(rows: readonly SotopiaStatRow[]): string | undefined {
  const totals = new Map<string, {n: number; llm: boolean}>();
  for (const r of rows) {
    const t = totals.get(r.rater) ?? {n: 0, llm: r.rater_kind === "llm"};
    t.n += r.n;
    totals.set(r.rater, t);
  }
  return [...totals.entries()].sort((a, b) => Number(b[1].llm) - Number(a[1].llm) || b[1].n - a[1].n || a[0].localeCompare(b[0]))[0]?.[0];
}
