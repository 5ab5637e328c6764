// Descriptive statistics shared by every benchmark. Pure functions; no I/O.

/** Count, sum and sum of squares of a group: enough for its mean and variance. */
export interface Moments {
  n: number;
  sum: number;
  sumSq: number;
}

export const emptyMoments = (): Moments => ({n: 0, sum: 0, sumSq: 0});

/** Moments of a list of values. */
export function moments(values: readonly number[]): Moments {
  let sum = 0;
  let sumSq = 0;
  for (const v of values) {
    sum += v;
    sumSq += v * v;
  }
  return {n: values.length, sum, sumSq};
}

/** Moments of the union of disjoint groups. */
export function combineMoments(parts: Iterable<Moments>): Moments {
  const total = emptyMoments();
  for (const p of parts) {
    total.n += p.n;
    total.sum += p.sum;
    total.sumSq += p.sumSq;
  }
  return total;
}

/** Mean, or NaN for an empty group. */
export function meanOf(m: Moments): number {
  return m.n > 0 ? m.sum / m.n : NaN;
}

export type VarianceKind = "sample" | "population";

/**
 * Variance from moments. Sample variance divides by n − 1 (NaN for n < 2),
 * population variance by n. The shifted form keeps rounding error small for
 * scores on the scales used here (|x| ≤ 10).
 */
export function varianceOf(m: Moments, kind: VarianceKind = "sample"): number {
  const denominator = kind === "sample" ? m.n - 1 : m.n;
  if (denominator <= 0) return NaN;
  const centred = m.sumSq - (m.sum * m.sum) / m.n;
  return Math.max(centred, 0) / denominator;
}

export function sdOf(m: Moments, kind: VarianceKind = "sample"): number {
  return Math.sqrt(varianceOf(m, kind));
}

export function mean(values: readonly number[]): number {
  return meanOf(moments(values));
}

export function sd(values: readonly number[], kind: VarianceKind = "sample"): number {
  // Two-pass for exactness on raw values.
  const n = values.length;
  const denominator = kind === "sample" ? n - 1 : n;
  if (denominator <= 0) return NaN;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / denominator);
}

/**
 * The smallest and largest of `values` in one pass ({Infinity, -Infinity} when
 * there are none, as Math.min() and Math.max() give). Never Math.min(...values):
 * spreading a list of rows into arguments overflows the call stack past ~100k.
 */
export function extremes(values: Iterable<number>): {min: number; max: number} {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return {min, max};
}
