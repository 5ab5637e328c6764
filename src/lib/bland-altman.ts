// Bland–Altman agreement of two raters on one scale (issue 15;
// Bland & Altman 1986, 1999): the mean difference A − B, the 95%
// limits of agreement around it, and whether the difference grows with the
// score (least-squares regression of A − B on the mean of A and B).

import {normalQuantile, studentTTwoSided} from "./distributions.js";

export interface BlandAltman {
  n: number;
  /** Mean of A − B: positive when A scores higher. */
  bias: number;
  /** Sample sd (n − 1) of A − B. */
  sd: number;
  /** bias ∓ z·sd, z the normal quantile for `level` (1.96 at 95%). */
  lower: number;
  upper: number;
  level: number;
  /** Regression of A − B on (A + B)/2: slope, intercept, and the slope's two-sided p (Student's t, n − 2 df). */
  slope: number;
  intercept: number;
  slopeP: number;
}

export function blandAltman(a: readonly number[], b: readonly number[], level = 0.95): BlandAltman {
  if (a.length !== b.length) throw new RangeError(`Bland–Altman needs paired scores: ${a.length} from A and ${b.length} from B`);
  const n = a.length;
  let meanDiff = 0;
  let meanMean = 0;
  for (let i = 0; i < n; i++) {
    meanDiff += a[i] - b[i];
    meanMean += (a[i] + b[i]) / 2;
  }
  meanDiff /= n;
  meanMean /= n;
  let sdd = 0;
  let smm = 0;
  let smd = 0;
  for (let i = 0; i < n; i++) {
    const d = a[i] - b[i] - meanDiff;
    const m = (a[i] + b[i]) / 2 - meanMean;
    sdd += d * d;
    smm += m * m;
    smd += m * d;
  }
  const sd = n >= 2 ? Math.sqrt(sdd / (n - 1)) : NaN;
  const z = normalQuantile(0.5 + level / 2);
  const slope = smm === 0 ? NaN : smd / smm;
  const intercept = meanDiff - slope * meanMean;
  let slopeP = NaN;
  if (n > 2 && smm > 0) {
    const residual = Math.max(0, sdd - slope * smd);
    const se = Math.sqrt(residual / (n - 2) / smm);
    slopeP = se === 0 ? (slope === 0 ? NaN : 0) : studentTTwoSided(slope / se, n - 2);
  }
  return {n, bias: n ? meanDiff : NaN, sd, lower: meanDiff - z * sd, upper: meanDiff + z * sd, level, slope, intercept, slopeP};
}
