// Correlation and significance tests (METRICS.md § Evaluator agreement, SOTOPIA-EVAL significance).

import {normalQuantile, studentTTwoSided} from "./distributions.js";
import {meanOf, varianceOf, type Moments} from "./stats.js";

export interface Correlation {
  n: number;
  /** The coefficient; NaN ("n/a") when either side has no variance or n < 2. */
  r: number;
  /** Two-sided p-value from Student's t with n − 2 degrees of freedom. */
  p: number;
  /** 95% confidence interval by Fisher's z (NaN bounds when n ≤ 3). */
  ci: [number, number];
}

/** Pearson's r of paired values (arrays or typed arrays), with its two-sided p-value and Fisher-z interval. */
export function pearson(xs: ArrayLike<number>, ys: ArrayLike<number>, level = 0.95): Correlation {
  if (xs.length !== ys.length) throw new Error(`pearson needs paired values: ${xs.length} x and ${ys.length} y`);
  const n = xs.length;
  let mx = 0;
  let my = 0;
  const spread = new Spread();
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    my += ys[i];
    spread.add(xs[i], ys[i]);
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx;
    const dy = ys[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  const r = correlationR(n, sxy, sxx, syy, spread.constant());
  return {n, r, p: correlationP(r, n), ci: fisherInterval(r, n, level)};
}

/**
 * Whether either side of paired values is constant, from their exact min and max.
 * The sums about a rounded mean are not zero for a constant non-integer side
 * (6.6 three times leaves Σdx² ≈ 1e-30, and r ≈ 1e-16 with p = 1), so a zero
 * variance is recognised from the values themselves, never from Σdx².
 */
export class Spread {
  private minX = Infinity;
  private maxX = -Infinity;
  private minY = Infinity;
  private maxY = -Infinity;

  add(x: number, y: number): void {
    if (x < this.minX) this.minX = x;
    if (x > this.maxX) this.maxX = x;
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
  }

  /** True when either side holds one value only (or none). */
  constant(): boolean {
    return !(this.minX < this.maxX) || !(this.minY < this.maxY);
  }
}

/**
 * Pearson's r from the sums about the means; NaN ("n/a", METRICS.md § Evaluator agreement)
 * under two pairs, or when a side has zero variance: `constant` says so exactly
 * (see Spread), and a zero sum of squares counts too.
 */
export function correlationR(n: number, sxy: number, sxx: number, syy: number, constant: boolean): number {
  if (n < 2 || constant || sxx === 0 || syy === 0) return NaN;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** Two-sided p-value of a correlation coefficient under H0: ρ = 0 (t = r√((n−2)/(1−r²)), n − 2 df). */
export function correlationP(r: number, n: number): number {
  if (Number.isNaN(r) || n < 3) return NaN;
  if (Math.abs(r) === 1) return 0;
  const df = n - 2;
  return studentTTwoSided(r * Math.sqrt(df / (1 - r * r)), df);
}

/** Confidence interval of a correlation by Fisher's z transform. */
export function fisherInterval(r: number, n: number, level = 0.95): [number, number] {
  if (Number.isNaN(r) || n <= 3) return [NaN, NaN];
  if (Math.abs(r) === 1) return [r, r];
  const z = Math.atanh(r);
  const half = normalQuantile(0.5 + level / 2) / Math.sqrt(n - 3);
  return [Math.tanh(z - half), Math.tanh(z + half)];
}

/** Ranks from 1, ties given the mean of the ranks they span. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k][1]] = rank;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's rho: Pearson's r of the average ranks; p from the same t approximation. */
export function spearman(xs: readonly number[], ys: readonly number[], level = 0.95): Correlation {
  return pearson(averageRanks(xs), averageRanks(ys), level);
}

export interface TTest {
  t: number;
  df: number;
  p: number;
}

/** Student's two-sample t-test with pooled variance, from each group's moments. */
export function studentTTest(a: Moments, b: Moments): TTest {
  const df = a.n + b.n - 2;
  if (a.n < 2 || b.n < 2) return {t: NaN, df, p: NaN};
  const pooled = ((a.n - 1) * varianceOf(a) + (b.n - 1) * varianceOf(b)) / df;
  const diff = meanOf(a) - meanOf(b);
  if (pooled === 0) return diff === 0 ? {t: NaN, df, p: NaN} : {t: Math.sign(diff) * Infinity, df, p: 0};
  const t = diff / Math.sqrt(pooled * (1 / a.n + 1 / b.n));
  return {t, df, p: studentTTwoSided(t, df)};
}
