// The Student t quantile behind LIFELONG-SOTOPIA's 95% bands (METRICS.md §
// LIFELONG-SOTOPIA). Apart from lifelong.ts because it loads the distribution
// functions (@stdlib, some 160 modules in the browser), which the page's
// default sd bands do not need.

import {studentTTwoSided} from "./distributions.js";

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
