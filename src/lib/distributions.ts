// Probability distributions for the agreement, reliability and comparison
// statistics. Thin, typed wrappers over the @stdlib packages, so every tail
// and quantile comes from one well-tested library; the names say which side
// of the distribution each returns, since a p-value taken from the wrong tail
// is the easiest way to publish a wrong number.

import betainc from "@stdlib/math-base-special-betainc";
import binomialCdf from "@stdlib/stats-base-dists-binomial-cdf";
import chisquareCdf from "@stdlib/stats-base-dists-chisquare-cdf";
import fCdf from "@stdlib/stats-base-dists-f-cdf";
import fQuantileOf from "@stdlib/stats-base-dists-f-quantile";
import normalCdfOf from "@stdlib/stats-base-dists-normal-cdf";
import normalQuantileOf from "@stdlib/stats-base-dists-normal-quantile";
import signrankCdf from "@stdlib/stats-base-dists-signrank-cdf";
import tQuantileOf from "@stdlib/stats-base-dists-t-quantile";

/** Regularised incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return betainc(x, a, b, true, false);
}

/** Two-sided p-value of a Student's t statistic with `df` degrees of freedom: P(|T| ≥ |t|). */
export function studentTTwoSided(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  if (!(df > 0)) return NaN;
  // I_{df/(df+t²)}(df/2, 1/2) is the two-sided tail itself, with no 1 − cdf cancellation far out.
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** Quantile of Student's t with `df` degrees of freedom (df may be fractional, as in Welch's test). */
export function studentTQuantile(p: number, df: number): number {
  if (!(df > 0)) return NaN;
  return tQuantileOf(p, df);
}

/** Standard normal distribution function Φ(z). */
export function normalCdf(z: number): number {
  return normalCdfOf(z, 0, 1);
}

/** Standard normal quantile Φ⁻¹(p). */
export function normalQuantile(p: number): number {
  return normalQuantileOf(p, 0, 1);
}

/** Two-sided p-value of a standard normal statistic: P(|Z| ≥ |z|). */
export function normalTwoSided(z: number): number {
  if (Number.isNaN(z)) return NaN;
  return 2 * normalCdfOf(-Math.abs(z), 0, 1);
}

/** Upper tail P(F ≥ f) of the F distribution with (d1, d2) degrees of freedom. */
export function fUpperTail(f: number, d1: number, d2: number): number {
  if (Number.isNaN(f) || !(d1 > 0) || !(d2 > 0)) return NaN;
  if (f <= 0) return 1;
  if (f === Infinity) return 0;
  // P(F ≥ f) = I_{d2/(d2+d1·f)}(d2/2, d1/2): computed directly, it keeps its digits when tiny.
  return incompleteBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

/** Lower tail P(F ≤ f) of the F distribution. */
export function fCdfOf(f: number, d1: number, d2: number): number {
  return fCdf(f, d1, d2);
}

/** Quantile of the F distribution with (d1, d2) degrees of freedom. */
export function fQuantile(p: number, d1: number, d2: number): number {
  if (!(d1 > 0) || !(d2 > 0)) return NaN;
  return fQuantileOf(p, d1, d2);
}

/** Upper tail P(X ≥ x) of the χ² distribution with k degrees of freedom. */
export function chiSquareUpperTail(x: number, k: number): number {
  if (Number.isNaN(x) || !(k > 0)) return NaN;
  if (x <= 0) return 1;
  return 1 - chisquareCdf(x, k);
}

/** P(X ≤ k) for X ~ Binomial(n, p). */
export function binomialCdfOf(k: number, n: number, p: number): number {
  return binomialCdf(k, n, p);
}

/** P(W ≤ w) for the Wilcoxon signed-rank statistic W of n untied, non-zero differences (exact). */
export function signedRankCdf(w: number, n: number): number {
  return signrankCdf(w, n);
}
