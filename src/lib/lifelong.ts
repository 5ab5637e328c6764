// LIFELONG-SOTOPIA metrics (METRICS.md § LIFELONG-SOTOPIA): penalised BEL,
// curves over the chain, and the validation of checkpoint labels.

import {studentTTwoSided} from "./distributions.js";
import {meanOf, sdOf, type Moments, type VarianceKind} from "./stats.js";

/** Points a failed checkpoint costs (Eq. 1). */
export const BELEXT_PENALTY = 5;

/** Penalised BEL, Eq. 1: max(BEL − 5 × failed checkpoints, 0). */
export function penalisedBel(bel: number, failedCheckpoints: number): number {
  if (!Number.isInteger(failedCheckpoints) || failedCheckpoints < 0) throw new Error(`failed checkpoints must be a count, got ${failedCheckpoints}`);
  return Math.max(bel - BELEXT_PENALTY * failedCheckpoints, 0);
}

/** The t quantile t_{p, df} (found by bisection on the Student t tail; p in (0.5, 1)). */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0.5 && p < 1) || !(df > 0)) return NaN;
  const tail = 2 * (1 - p); // two-sided tail beyond ±t
  let lo = 0;
  let hi = 1;
  while (studentTTwoSided(hi, df) > tail) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTTwoSided(mid, df) > tail) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** How wide a curve's band is: ± one sd, or a 95% confidence interval of the mean (t with n − 1 df). */
export type BandKind = "sd" | "ci95";

export interface CurvePoint {
  n: number;
  mean: number;
  low: number;
  high: number;
}

/** A curve's point at one chain index, from the moments of the scores there. Bands are NaN where undefined (n < 2). */
export function curvePoint(m: Moments, band: BandKind = "sd", variance: VarianceKind = "sample"): CurvePoint {
  const mean = meanOf(m);
  const sd = sdOf(m, variance);
  const half = band === "sd" ? sd : tQuantile(0.975, m.n - 1) * (sdOf(m, "sample") / Math.sqrt(m.n));
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
