// Evaluator agreement (METRICS.md § Evaluator agreement; SOTOPIA §5, Appendix E, G.3).
// An instance is one (episode, agent) on one dimension.

import {mean, sd} from "./stats.js";

/**
 * Equal-width bin of a score: k bins over [lo, hi], each of width (hi − lo)/k,
 * bin j holding [lo + j·w, lo + (j+1)·w); the top bin also holds hi itself.
 */
export function binIndex(value: number, lo: number, hi: number, bins: number): number {
  if (value < lo || value > hi) throw new Error(`${value} is outside [${lo}, ${hi}]`);
  const j = Math.floor(((value - lo) * bins) / (hi - lo));
  return Math.min(j, bins - 1);
}

export interface KappaItem {
  /** Every rater's score for the item (one score per rater). */
  scores: readonly number[];
  lo: number;
  hi: number;
}

export interface Kappa {
  bins: number;
  /** Items with at least two raters, the only ones that count. */
  items: number;
  /** P_o: the mean share of agreeing rater pairs, reported as pairwise agreement. */
  pairwiseAgreement: number;
  /** Randolph's free-marginal multi-rater kappa: (P_o − 1/k) / (1 − 1/k). */
  kappa: number;
}

/** Randolph's free-marginal multi-rater kappa over binned scores (METRICS.md; SOTOPIA Appendix E.1). */
export function randolphKappa(items: readonly KappaItem[], bins = 5): Kappa {
  if (!(Number.isInteger(bins) && bins >= 2)) throw new Error(`kappa needs at least 2 bins, got ${bins}`);
  let sum = 0;
  let used = 0;
  for (const item of items) {
    const m = item.scores.length;
    if (m < 2) continue;
    const counts = new Array<number>(bins).fill(0);
    for (const s of item.scores) counts[binIndex(s, item.lo, item.hi, bins)]++;
    let agreeing = 0;
    for (const c of counts) agreeing += c * (c - 1);
    sum += agreeing / (m * (m - 1));
    used++;
  }
  const po = used ? sum / used : NaN;
  return {bins, items: used, pairwiseAgreement: po, kappa: (po - 1 / bins) / (1 - 1 / bins)};
}

/** One instance seen by an LLM judge and by human annotators. */
export interface JudgedInstance {
  judge: number;
  /** One score per human annotator (an annotator's repeated responses already averaged). */
  humans: readonly number[];
}

/** The human score of an instance: the mean over its annotators. */
export const humanScore = (i: JudgedInstance): number => mean(i.humans);

export interface PerceivedRangeGroup {
  min: number;
  max: number;
  n: number;
  meanJudge: number;
}

export interface PerceivedRanges {
  groups: PerceivedRangeGroup[];
  /** Instances with at least two human scores. */
  n: number;
  inside: number;
  above: number;
  below: number;
}

/**
 * Perceived ranges (SOTOPIA Appendix G.3): for each instance with ≥ 2 human
 * scores, [min, max] of those scores; instances with the same range are grouped
 * with the mean judge score, and the shares of judge scores inside, above and
 * below their instance's range are counted.
 */
export function perceivedRanges(instances: readonly JudgedInstance[]): PerceivedRanges {
  const groups = new Map<string, {min: number; max: number; judges: number[]}>();
  let n = 0;
  let inside = 0;
  let above = 0;
  let below = 0;
  for (const i of instances) {
    if (i.humans.length < 2) continue;
    const min = Math.min(...i.humans);
    const max = Math.max(...i.humans);
    n++;
    if (i.judge > max) above++;
    else if (i.judge < min) below++;
    else inside++;
    const key = `${min}/${max}`;
    const g = groups.get(key) ?? {min, max, judges: []};
    g.judges.push(i.judge);
    groups.set(key, g);
  }
  return {
    groups: [...groups.values()]
      .map((g) => ({min: g.min, max: g.max, n: g.judges.length, meanJudge: mean(g.judges)}))
      .sort((a, b) => a.min - b.min || a.max - b.max),
    n, inside: n ? inside / n : NaN, above: n ? above / n : NaN, below: n ? below / n : NaN,
  };
}

/**
 * What "within one standard deviation of the human scores" measures against:
 * `dimension` (default): the sample sd of the human scores over all instances of the dimension;
 * `annotators`: the sample sd of the instance's own annotators (instances with ≥ 2 only).
 */
export type SpreadBasis = "dimension" | "annotators";

export interface Differences {
  n: number;
  /** judge − human score, per instance. */
  diffs: number[];
  /** Mean difference: positive means the judge rates higher than humans. */
  bias: number;
  /** Share of instances with |judge − human| ≤ one sd (see SpreadBasis). */
  withinOneSd: number;
  basis: SpreadBasis;
}

export function differences(instances: readonly JudgedInstance[], basis: SpreadBasis = "dimension"): Differences {
  const used = basis === "annotators" ? instances.filter((i) => i.humans.length >= 2) : instances;
  const diffs = used.map((i) => i.judge - humanScore(i));
  const spread = basis === "dimension" ? sd(used.map(humanScore)) : NaN;
  let within = 0;
  used.forEach((i, k) => {
    const s = basis === "dimension" ? spread : sd(i.humans);
    if (Math.abs(diffs[k]) <= s) within++;
  });
  return {n: used.length, diffs, bias: mean(diffs), withinOneSd: used.length ? within / used.length : NaN, basis};
}
