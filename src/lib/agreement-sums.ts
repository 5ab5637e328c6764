// Means, sds and correlations for the agreement table from exact sums
// (exact-sum.ts), so independent of order. Summed in order, a mean or a correlation
// over 1.4M instances changes in its last bits with the order of the
// instances; summed exactly, the page's worker may tally equal terms per
// cell in any order (count × term) and still give the library's numbers to
// the last bit.

import {correlationP, correlationR, averageRanks, fisherInterval, Spread, type Correlation} from "./inference.js";
import {ExactSum, exactSum} from "./exact-sum.js";

export {ExactSum, exactSum};

/** The mean from the exact sum (NaN with no values, as mean() gives). */
export function exactMean(values: readonly number[]): number {
  return values.length ? exactSum(values) / values.length : NaN;
}

/** The sample sd, two-pass as sd() computes it, with exact sums; NaN under two values. */
export function exactSd(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return NaN;
  const m = exactMean(values);
  const ss = new ExactSum();
  for (const v of values) ss.add((v - m) * (v - m));
  return Math.sqrt(ss.value() / (n - 1));
}

/**
 * A correlation from n and the sums Σ dx·dy, Σ dx², Σ dy² about the means, as pearson() finishes it.
 * `constant` says whether either side held one value only (Spread, or the
 * worker's tallies): the sums alone cannot tell a constant non-integer side
 * from a tiny variance, so every caller must say.
 */
export function correlationFromSums(n: number, sxy: number, sxx: number, syy: number, constant: boolean): Correlation {
  const r = correlationR(n, sxy, sxx, syy, constant);
  return {n, r, p: correlationP(r, n), ci: fisherInterval(r, n)};
}

/** Pearson's r as pearson() computes it (means, then products about them), every sum exact. */
export function exactPearson(xs: ArrayLike<number>, ys: ArrayLike<number>): Correlation {
  if (xs.length !== ys.length) throw new Error(`pearson needs paired values: ${xs.length} x and ${ys.length} y`);
  const n = xs.length;
  const sumX = new ExactSum();
  const sumY = new ExactSum();
  const spread = new Spread();
  for (let i = 0; i < n; i++) {
    sumX.add(xs[i]!);
    sumY.add(ys[i]!);
    spread.add(xs[i]!, ys[i]!);
  }
  const mx = sumX.value() / n;
  const my = sumY.value() / n;
  const sxy = new ExactSum();
  const sxx = new ExactSum();
  const syy = new ExactSum();
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy.add(dx * dy);
    sxx.add(dx * dx);
    syy.add(dy * dy);
  }
  return correlationFromSums(n, sxy.value(), sxx.value(), syy.value(), spread.constant());
}

/** Spearman's rho: exactPearson over the average ranks. */
export function exactSpearman(xs: readonly number[], ys: readonly number[]): Correlation {
  return exactPearson(averageRanks(xs), averageRanks(ys));
}
