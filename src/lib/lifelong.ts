// LIFELONG-SOTOPIA metrics (METRICS.md § LIFELONG-SOTOPIA): penalised BEL,
// curves over the chain, and the validation of checkpoint labels.

import {meanOf, moments, sdOf, type Moments, type VarianceKind} from "./stats.js";

/** Points a failed checkpoint costs (Eq. 1). */
export const BELEXT_PENALTY = 5;

/** Penalised BEL, Eq. 1: max(BEL − 5 × failed checkpoints, 0). */
export function penalisedBel(bel: number, failedCheckpoints: number): number {
  if (!Number.isInteger(failedCheckpoints) || failedCheckpoints < 0) throw new Error(`failed checkpoints must be a count, got ${failedCheckpoints}`);
  return Math.max(bel - BELEXT_PENALTY * failedCheckpoints, 0);
}

/** How wide a curve's band is: ± one sd, or a 95% confidence interval of the mean (t with n − 1 df). */
export type BandKind = "sd" | "ci95";

export interface CurvePoint {
  n: number;
  mean: number;
  low: number;
  high: number;
}

/** The t quantile function a 95% band needs (t-quantile.ts); passed in so that sd bands load no distribution functions. */
export type TQuantile = (p: number, df: number) => number;

/** A curve's point at one chain index, from the moments of the scores there. Bands are NaN where undefined (n < 2). */
export function curvePoint(m: Moments, band: BandKind = "sd", variance: VarianceKind = "sample", tQuantile?: TQuantile): CurvePoint {
  const mean = meanOf(m);
  const sd = sdOf(m, variance);
  if (band === "ci95" && !tQuantile) throw new Error("a 95% confidence band needs tQuantile (src/lib/t-quantile.ts)");
  const half = band === "sd" ? sd : tQuantile!(0.975, m.n - 1) * (sdOf(m, "sample") / Math.sqrt(m.n));
  return {n: m.n, mean, low: mean - half, high: mean + half};
}

export type PositiveClass = "fail" | "pass";

export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export interface Validation extends Confusion {
  /** TP / (TP + FP); NaN ("n/a") when nothing was predicted positive. */
  precision: number;
  /** TP / (TP + FN); NaN when no item is positive. */
  recall: number;
  /** 2PR / (P + R); NaN when either is undefined or both are 0. */
  f1: number;
}

/**
 * Confusion counts of an LLM rater's checkpoint labels against a human's
 * (1 = passes, 0 = fails), with `positive` the class counted as positive
 * (default: failing the checkpoint, METRICS.md § LIFELONG-SOTOPIA).
 */
export function confusion(pairs: readonly {llm: number; human: number}[], positive: PositiveClass = "fail"): Confusion {
  const pos = positive === "fail" ? 0 : 1;
  const c = {tp: 0, fp: 0, tn: 0, fn: 0};
  for (const {llm, human} of pairs) {
    if (llm === pos && human === pos) c.tp++;
    else if (llm === pos) c.fp++;
    else if (human === pos) c.fn++;
    else c.tn++;
  }
  return c;
}

/** Precision, recall and F1 from confusion counts (LIFELONG-SOTOPIA Table 1). */
export function validation(c: Confusion): Validation {
  const precision = c.tp + c.fp > 0 ? c.tp / (c.tp + c.fp) : NaN;
  const recall = c.tp + c.fn > 0 ? c.tp / (c.tp + c.fn) : NaN;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : NaN;
  return {...c, precision, recall, f1};
}

/** Mean ± sd as Appendix G Table 2 prints it, saying which sd. */
export function meanSd(m: Moments, variance: VarianceKind = "sample"): {n: number; mean: number; sd: number; variance: VarianceKind} {
  return {n: m.n, mean: meanOf(m), sd: sdOf(m, variance), variance};
}

/** One agent's scores in one episode by one rater, as LIFELONG_INSTANCES_SQL ships them. */
export interface LifelongInstance {
  episode_id: string;
  agent: number;
  model: string;
  memory_mode: string;
  chain_id: string;
  chain_index: number;
  harder: boolean;
  checkpoint_set: string;
  rater: string;
  rater_kind: string;
  bel: number | null;
  goal: number | null;
  checkpoints: number;
  failed: number;
  logged_bel_extended: number | null;
}

/** Penalised BEL of an instance, or null without a BEL or a full eight-label checklist. */
export const instancePenalisedBel = (i: LifelongInstance): number | null =>
  i.bel === null || i.checkpoints !== 8 ? null : penalisedBel(i.bel, i.failed);

export interface CurveRow {
  model: string;
  memory_mode: string;
  chain_index: number;
  harder: boolean;
  bel: CurvePoint;
  goal: CurvePoint;
  penalised: CurvePoint;
}

/** BEL, GOAL and penalised BEL per (model, memory mode, chain index), with bands (LIFELONG-SOTOPIA Figures 3, 4). */
export function curves(
  instances: readonly LifelongInstance[],
  {rater, band = "sd", variance = "sample", tQuantile}: {rater: string; band?: BandKind; variance?: VarianceKind; tQuantile?: TQuantile},
): CurveRow[] {
  const groups = new Map<string, {model: string; memory_mode: string; chain_index: number; harder: boolean; bel: number[]; goal: number[]; penalised: number[]}>();
  for (const i of instances) {
    if (i.rater !== rater) continue;
    const key = `${i.model}\u0000${i.memory_mode}\u0000${i.chain_index}`;
    const g = groups.get(key) ?? {model: i.model, memory_mode: i.memory_mode, chain_index: i.chain_index, harder: false, bel: [], goal: [], penalised: []};
    g.harder ||= i.harder;
    if (i.bel !== null) g.bel.push(i.bel);
    if (i.goal !== null) g.goal.push(i.goal);
    const p = instancePenalisedBel(i);
    if (p !== null) g.penalised.push(p);
    groups.set(key, g);
  }
  const point = (values: number[]) => curvePoint(moments(values), band, variance, tQuantile);
  return [...groups.values()]
    .map((g) => ({model: g.model, memory_mode: g.memory_mode, chain_index: g.chain_index, harder: g.harder, bel: point(g.bel), goal: point(g.goal), penalised: point(g.penalised)}))
    .sort((a, b) => a.model.localeCompare(b.model) || a.memory_mode.localeCompare(b.memory_mode) || a.chain_index - b.chain_index);
}

/** The first chain index of the harder scenarios, per (model, memory mode): where the curves get their vertical rule. */
export function harderStarts(instances: readonly LifelongInstance[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const i of instances) {
    if (!i.harder) continue;
    const key = `${i.model}\u0000${i.memory_mode}`;
    out.set(key, Math.min(out.get(key) ?? Infinity, i.chain_index));
  }
  return out;
}
