// Tests and intervals for a difference between two runs (README § Comparing
// two runs). Differences are always B − A. Paired forms take the two sides'
// values item by item; the unpaired forms exist for when nothing pairs, and
// their results say so in `method`.

import {binomialCdfOf, normalQuantile, normalTwoSided, signedRankCdf, studentTQuantile, studentTTwoSided} from "./distributions.js";
import {bootstrapIntervals, type BootstrapInterval, type ResampleOptions} from "./resample.js";

export interface DifferenceTest {
  n: number;
  /** B − A (mean of differences, or difference of rates). */
  difference: number;
  lo: number;
  hi: number;
  p: number;
  /** The test and interval in words, e.g. "paired t (df 9)". */
  method: string;
}

/** Paired t: mean of d = b − a with a Student t interval (df n − 1) and two-sided p. */
export function pairedT(differences: ArrayLike<number>, level = 0.95): DifferenceTest {
  const n = differences.length;
  // Below two pairs there are no degrees of freedom to name.
  if (n === 0) return {n, difference: NaN, lo: NaN, hi: NaN, p: NaN, method: "paired t: no pairs"};
  if (n === 1) return {n, difference: differences[0], lo: NaN, hi: NaN, p: NaN, method: "paired t: one pair, and the test needs two"};
  let sum = 0;
  for (let i = 0; i < n; i++) sum += differences[i];
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (differences[i] - mean) ** 2;
  const se = Math.sqrt(ss / (n - 1) / n);
  const df = n - 1;
  const method = `paired t (df ${df})`;
  if (se === 0 || constantOnTieGrid(differences)) {
    // Every pair moved by the same amount: no spread to test against. Decided on the tie grid, because
    // differences of averages (7.1 − 6.8 and 5.4 − 5.1) differ in their last bits, and their tiny spread
    // would give a p near 0. p = 0 would read as significant on two pairs; like R, refuse to test
    // constant data (a NaN p also leaves the family).
    const constant = onTieGrid(differences[0]);
    return constant === 0
      ? {n, difference: 0, lo: 0, hi: 0, p: 1, method: `${method}: every difference is 0`}
      : {n, difference: constant, lo: constant, hi: constant, p: NaN, method: `${method}: every difference is ${constant}, so there is no spread to test against`};
  }
  const half = studentTQuantile(1 - (1 - level) / 2, df) * se;
  return {n, difference: mean, lo: mean - half, hi: mean + half, p: studentTTwoSided(mean / se, df), method};
}

export interface SignedRankTest {
  /** Pairs with a non-zero difference (zeros are dropped, Wilcoxon's own rule). */
  n: number;
  zeros: number;
  /** Sum of the ranks of the positive differences (midranks for ties). */
  wPlus: number;
  p: number;
  exact: boolean;
  method: string;
}

/** Below this many non-zero differences, without ties, the exact null distribution is used. */
export const SIGNED_RANK_EXACT_BELOW = 50;

/**
 * Wilcoxon signed-rank test of d = b − a, two-sided. Zero differences are
 * dropped and counted. Exact (the signed-rank distribution) when fewer than
 * 50 non-zero differences remain and no two |d| tie; otherwise the normal
 * approximation with the tie correction of the variance and a continuity
 * correction of ½ (as R's wilcox.test does).
 */
export function wilcoxonSignedRank(differences: ArrayLike<number>): SignedRankTest {
  const nonzero: number[] = [];
  for (let i = 0; i < differences.length; i++) {
    const d = onTieGrid(differences[i]);
    if (d !== 0) nonzero.push(d);
  }
  const zeros = differences.length - nonzero.length;
  const n = nonzero.length;
  const zeroNote = zeros ? `, ${zeros} zero difference${zeros === 1 ? "" : "s"} dropped` : "";
  if (n === 0) {
    const why = zeros === 0 ? "no pairs" : zeros === 1 ? "the one difference is zero, nothing to rank" : `all ${zeros} differences are zero, nothing to rank`;
    return {n, zeros, wPlus: 0, p: NaN, exact: false, method: `Wilcoxon signed-rank: ${why}`};
  }
  const order = nonzero.map((_, i) => i).sort((i, j) => Math.abs(nonzero[i]) - Math.abs(nonzero[j]));
  let wPlus = 0;
  let tieTerm = 0;
  for (let start = 0; start < n;) {
    let end = start;
    while (end + 1 < n && Math.abs(nonzero[order[end + 1]]) === Math.abs(nonzero[order[start]])) end++;
    const rank = (start + end + 2) / 2;
    const t = end - start + 1;
    tieTerm += t * t * t - t;
    for (let k = start; k <= end; k++) if (nonzero[order[k]] > 0) wPlus += rank;
    start = end + 1;
  }
  if (n < SIGNED_RANK_EXACT_BELOW && tieTerm === 0) {
    const lower = signedRankCdf(wPlus, n);
    const upper = 1 - signedRankCdf(wPlus - 1, n);
    return {n, zeros, wPlus, p: Math.min(1, 2 * Math.min(lower, upper)), exact: true, method: `Wilcoxon signed-rank, exact (n ${n}${zeroNote})`};
  }
  const mean = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  const shift = wPlus - mean;
  const z = variance > 0 ? (shift - Math.sign(shift) * 0.5) / Math.sqrt(variance) : NaN;
  const ties = tieTerm > 0 ? "ties corrected, " : "";
  return {n, zeros, wPlus, p: normalTwoSided(z), exact: false, method: `Wilcoxon signed-rank, normal approximation (${ties}continuity corrected; n ${n}${zeroNote})`};
}

/**
 * A difference on a grid of 1e-9, so that differences equal on paper are
 * equal here: 0.1 + 0.2 and 0.3 must tie, and a difference of 1e-17 must count
 * as zero, or the test would rank rounding noise. Scores carry far fewer
 * decimals than nine.
 */
function onTieGrid(d: number): number {
  return Math.round(d * 1e9) / 1e9;
}

function constantOnTieGrid(differences: ArrayLike<number>): boolean {
  const first = onTieGrid(differences[0]);
  for (let i = 1; i < differences.length; i++) if (onTieGrid(differences[i]) !== first) return false;
  return true;
}

/** Seeded bootstrap interval of the mean difference, drawing pairs (or, with clusterOf, whole scenarios). */
export function pairedBootstrap(differences: ArrayLike<number>, options: ResampleOptions & {clusterOf?: ArrayLike<number>} = {}): BootstrapInterval {
  return pairedBootstraps([differences], options)[0];
}

/**
 * Bootstrap intervals of several mean differences over the same pairs, from
 * one shared set of resamples: the same intervals as one pairedBootstrap call
 * each (the draws depend only on the seed and the pairs), for a fraction of
 * the random draws.
 */
export function pairedBootstraps(differences: readonly ArrayLike<number>[], options: ResampleOptions & {clusterOf?: ArrayLike<number>} = {}): BootstrapInterval[] {
  const n = differences[0]?.length ?? 0;
  for (const d of differences) if (d.length !== n) throw new RangeError(`paired bootstraps share their pairs: got ${d.length} and ${n} differences`);
  // Each metric's resampled mean sums weight × difference over the pairs in
  // pair order, so one metric's mean has the same bits alone or with others.
  // An undrawn pair adds 0 × d = ±0, which leaves a sum started at +0 as it
  // was, so the sums need no test per pair unless some difference is not
  // finite (0 × ∞ is NaN): then undrawn pairs are skipped. bootstrapIntervals
  // asks every statistic, in order, about the same weights: the first sums
  // every metric, four at a time (four independent additions per pair keep
  // the processor busy where one sum waits on the last), and the others read
  // theirs.
  const columns = differences.map((d) => Float64Array.from(d));
  const metrics = columns.length;
  const finite = columns.every((d) => d.every(Number.isFinite));
  const sums = new Float64Array(metrics);
  let total = 0;
  const sumAll = (w: Float64Array): void => {
    total = 0;
    for (let i = 0; i < n; i++) total += w[i];
    let m = 0;
    if (finite) {
      for (; m + 4 <= metrics; m += 4) {
        const d0 = columns[m];
        const d1 = columns[m + 1];
        const d2 = columns[m + 2];
        const d3 = columns[m + 3];
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let i = 0; i < n; i++) {
          const wi = w[i];
          s0 += wi * d0[i];
          s1 += wi * d1[i];
          s2 += wi * d2[i];
          s3 += wi * d3[i];
        }
        sums[m] = s0;
        sums[m + 1] = s1;
        sums[m + 2] = s2;
        sums[m + 3] = s3;
      }
    }
    for (; m < metrics; m++) {
      const d = columns[m];
      let sum = 0;
      if (finite) {
        for (let i = 0; i < n; i++) sum += w[i] * d[i];
      } else {
        for (let i = 0; i < n; i++) if (w[i] !== 0) sum += w[i] * d[i];
      }
      sums[m] = sum;
    }
  };
  const meanAt = (m: number) => (w: Float64Array): number => {
    if (m === 0) sumAll(w);
    return total > 0 ? sums[m] / total : NaN;
  };
  return bootstrapIntervals({count: n, clusterOf: options.clusterOf}, differences.map((_, m) => meanAt(m)), options);
}

/** The 2 × 2 table of paired binary outcomes: a both 1, b A only, c B only, d both 0. */
export interface PairedTable {
  a: number;
  b: number;
  c: number;
  d: number;
}

/** Exact McNemar test: the discordant pairs split as Binomial(b + c, ½); two-sided p is twice the smaller tail, at most 1. */
export function mcnemarExact(t: PairedTable): {p: number; discordant: number; method: string} {
  const discordant = t.b + t.c;
  // With no pairs at all, p = 1 would claim a test that never ran.
  if (t.a + t.d + discordant === 0) return {p: NaN, discordant, method: "exact McNemar: no pairs"};
  if (discordant === 0) return {p: 1, discordant, method: "exact McNemar (no discordant pairs)"};
  const p = Math.min(1, 2 * binomialCdfOf(Math.min(t.b, t.c), discordant, 0.5));
  return {p, discordant, method: `exact McNemar (${discordant} discordant pairs)`};
}

/** Wilson score interval for x successes in n. */
export function wilsonInterval(x: number, n: number, level = 0.95): {lo: number; hi: number} {
  if (n === 0) return {lo: NaN, hi: NaN};
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = x / n;
  const centre = p + (z * z) / (2 * n);
  const half = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const den = 1 + (z * z) / n;
  return {lo: (centre - half) / den, hi: (centre + half) / den};
}

/**
 * Newcombe's hybrid score interval for the paired difference of rates
 * B − A (Newcombe 1998, Stat Med 17:2635, method 10): the two marginal Wilson
 * intervals combined with the φ correction for the pairs' correlation.
 */
export function newcombePairedInterval(t: PairedTable, level = 0.95): {difference: number; lo: number; hi: number} {
  const n = t.a + t.b + t.c + t.d;
  if (n === 0) return {difference: NaN, lo: NaN, hi: NaN};
  // Newcombe writes θ = p1 − p2 with p1 the first margin; B − A puts B first.
  const p1 = (t.a + t.c) / n;
  const p2 = (t.a + t.b) / n;
  const w1 = wilsonInterval(t.a + t.c, n, level);
  const w2 = wilsonInterval(t.a + t.b, n, level);
  const margins = (t.a + t.c) * (t.b + t.d) * (t.a + t.b) * (t.c + t.d);
  const cross = t.a * t.d - t.c * t.b;
  const corrected = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  const phi = margins === 0 ? 0 : corrected / Math.sqrt(margins);
  const difference = p1 - p2;
  const dl1 = p1 - w1.lo;
  const du1 = w1.hi - p1;
  const dl2 = p2 - w2.lo;
  const du2 = w2.hi - p2;
  return {
    difference,
    lo: difference - Math.sqrt(Math.max(0, dl1 * dl1 - 2 * phi * dl1 * du2 + du2 * du2)),
    hi: difference + Math.sqrt(Math.max(0, du1 * du1 - 2 * phi * du1 * dl2 + dl2 * dl2)),
  };
}

/** Paired binary outcomes: difference of rates B − A, Newcombe interval, exact McNemar p. */
export function pairedProportions(t: PairedTable, level = 0.95): DifferenceTest & {table: PairedTable} {
  const interval = newcombePairedInterval(t, level);
  const test = mcnemarExact(t);
  const n = t.a + t.b + t.c + t.d;
  return {n, difference: interval.difference, lo: interval.lo, hi: interval.hi, p: test.p, method: n ? `${test.method}; Newcombe hybrid score interval (1998, method 10)` : test.method, table: t};
}

/** Unpaired: Welch's t for mean B − mean A. Only when asked for; the method says it ignores pairing. */
export function welchT(a: ArrayLike<number>, b: ArrayLike<number>, level = 0.95): DifferenceTest {
  const sa = summary(a);
  const sb = summary(b);
  const va = sa.variance / sa.n;
  const vb = sb.variance / sb.n;
  const se = Math.sqrt(va + vb);
  const df = (va + vb) ** 2 / ((va * va) / (sa.n - 1) + (vb * vb) / (sb.n - 1));
  const difference = sb.mean - sa.mean;
  const method = `unpaired: Welch t (df ${Number.isFinite(df) ? df.toFixed(1) : "n/a"})`;
  if (sa.n < 2 || sb.n < 2 || !(se > 0)) return {n: sa.n + sb.n, difference, lo: NaN, hi: NaN, p: NaN, method: `${method}: needs two values with some spread on each side`};
  const half = studentTQuantile(1 - (1 - level) / 2, df) * se;
  return {n: sa.n + sb.n, difference, lo: difference - half, hi: difference + half, p: studentTTwoSided(difference / se, df), method};
}

/**
 * Unpaired binary outcomes: rate B − rate A with Newcombe's hybrid score
 * interval for independent proportions (Newcombe 1998, Stat Med 17:873,
 * method 10) and the pooled two-proportion z test.
 */
export function twoProportions(a: {x: number; n: number}, b: {x: number; n: number}, level = 0.95): DifferenceTest {
  if (a.n === 0 || b.n === 0) {
    return {n: a.n + b.n, difference: NaN, lo: NaN, hi: NaN, p: NaN, method: `unpaired: two-proportion z test: ${a.n === 0 && b.n === 0 ? "neither side has" : `side ${a.n === 0 ? "A" : "B"} has no`} values`};
  }
  const pa = a.x / a.n;
  const pb = b.x / b.n;
  const wa = wilsonInterval(a.x, a.n, level);
  const wb = wilsonInterval(b.x, b.n, level);
  const difference = pb - pa;
  const pooled = (a.x + b.x) / (a.n + b.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n));
  return {
    n: a.n + b.n,
    difference,
    lo: difference - Math.sqrt((pb - wb.lo) ** 2 + (wa.hi - pa) ** 2),
    hi: difference + Math.sqrt((wb.hi - pb) ** 2 + (pa - wa.lo) ** 2),
    p: se > 0 ? normalTwoSided(difference / se) : difference === 0 ? 1 : NaN,
    method: "unpaired: two-proportion z test (pooled); Newcombe hybrid score interval for independent rates",
  };
}

function summary(values: ArrayLike<number>): {n: number; mean: number; variance: number} {
  const n = values.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - mean) ** 2;
  return {n, mean, variance: ss / (n - 1)};
}
