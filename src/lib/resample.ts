// Seeded bootstrap intervals over the units a study sampled (episodes, or
// scenarios when episodes of one scenario are not independent).
//
// A statistic is written once as a function of unit weights: weights[u] is how
// many times unit u appears in the sample at hand. All ones is the observed
// data, a bootstrap resample draws the units with replacement, and the
// jackknife (for BCa's acceleration) sets one unit, or one group of units, to
// zero. Every draw comes from one seeded generator in a fixed order, so the
// same data, seed and resample count give the same interval in a page, a
// worker and the CLI.

import {normalCdf, normalQuantile} from "./distributions.js";

export type IntervalMethod = "percentile" | "bca";

export const INTERVAL_METHODS: readonly IntervalMethod[] = ["percentile", "bca"];

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_SEED = 1;

/** Above this many units, BCa's acceleration comes from a grouped jackknife over this many groups. */
export const JACKKNIFE_GROUPS = 1000;

/** A statistic of the weighted sample; NaN (or ±∞) when it is undefined for that sample (e.g. no variance). */
export type WeightedStatistic = (weights: Float64Array) => number;

export interface ResampleUnits {
  /** Number of units (episodes). */
  count: number;
  /**
   * Optional cluster of each unit, numbered 0…C−1 (e.g. the scenario). When given, whole
   * clusters are drawn with replacement and the jackknife leaves out one cluster at a time.
   */
  clusterOf?: ArrayLike<number>;
}

export interface ResampleOptions {
  resamples?: number;
  seed?: number;
  /** Coverage of the interval, 0.95 by default. */
  level?: number;
  method?: IntervalMethod;
  /** Called now and then with the resamples done so far, for progress notes. */
  onProgress?: (done: number, total: number) => void;
}

export interface BootstrapInterval {
  /** The statistic on the observed data (all weights 1). */
  estimate: number;
  lo: number;
  hi: number;
  method: IntervalMethod;
  level: number;
  resamples: number;
  seed: number;
  /** What was drawn with replacement, and how many of them there were. */
  drawn: "episodes" | "clusters";
  drawnCount: number;
  /** Resamples on which the statistic was undefined (NaN or infinite); they are left out of the quantiles and counted here. */
  undefinedResamples: number;
  /** BCa only: bias correction z0 and acceleration a, and how the acceleration was found. */
  biasCorrection?: number;
  acceleration?: number;
  jackknife?: string;
  /** Why the bounds are NaN, when they are. */
  reason?: string;
}

/**
 * A small, fast, seedable generator (SplitMix32 to expand the seed, then
 * xoshiro128**). Math.random cannot be seeded, and the page and the CLI must
 * draw the same resamples.
 */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`a seed must be an integer from 0 to 4294967295: got ${seed}`);
    let x = seed >>> 0;
    const splitmix = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = splitmix();
    this.s1 = splitmix();
    this.s2 = splitmix();
    this.s3 = splitmix();
  }

  /** The next 32 random bits as an unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    this.s0 >>>= 0;
    this.s1 >>>= 0;
    this.s2 >>>= 0;
    return result;
  }

  /** A uniform double in [0, 1) with 53 random bits. */
  nextDouble(): number {
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * 67108864 + low) / 9007199254740992;
  }

  /** A uniform integer in [0, n). */
  nextIndex(n: number): number {
    return Math.floor(this.nextDouble() * n);
  }

  /**
   * Fills `out` with uniform integers in [0, n): the same numbers, in order,
   * as out.length calls of nextIndex(n), leaving the generator where they
   * would. The state lives in locals for the loop: a bootstrap draws 10⁸ of
   * these, and a method call and four field writes per 32 bits were most of
   * its time.
   */
  fillIndices(out: Int32Array, n: number): void {
    // Signed 32-bit locals hold the same bits as the fields; only the outputs are read as unsigned.
    let s0 = this.s0 | 0;
    let s1 = this.s1 | 0;
    let s2 = this.s2 | 0;
    let s3 = this.s3 | 0;
    for (let i = 0; i < out.length; i++) {
      let r = Math.imul(s1, 5);
      r = Math.imul((r << 7) | (r >>> 25), 9);
      let t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const high = r >>> 5;
      r = Math.imul(s1, 5);
      r = Math.imul((r << 7) | (r >>> 25), 9);
      t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const low = r >>> 6;
      out[i] = Math.floor(((high * 67108864 + low) / 9007199254740992) * n);
    }
    this.s0 = s0 >>> 0;
    this.s1 = s1 >>> 0;
    this.s2 = s2 >>> 0;
    this.s3 = s3 >>> 0;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** Quantile of sorted values with linear interpolation between order statistics (Hyndman–Fan type 7). */
export function sortedQuantile(sorted: Float64Array | readonly number[], p: number): number {
  const n = sorted.length;
  if (n === 0 || Number.isNaN(p)) return NaN;
  const h = (n - 1) * Math.min(1, Math.max(0, p));
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

interface Layout {
  drawn: "episodes" | "clusters";
  drawnCount: number;
  /**
   * The units of each drawn cluster, cluster after cluster (cluster k's are
   * members[starts[k]] up to members[starts[k + 1]]), or null when units are
   * drawn themselves.
   */
  members: Int32Array | null;
  starts: Int32Array | null;
}

function layoutOf(units: ResampleUnits): Layout {
  if (!(Number.isInteger(units.count) && units.count >= 0)) throw new RangeError(`unit count must be a whole number: got ${units.count}`);
  const clusterOf = units.clusterOf;
  if (!clusterOf) return {drawn: "episodes", drawnCount: units.count, members: null, starts: null};
  if (clusterOf.length !== units.count) throw new RangeError(`clusterOf has ${clusterOf.length} entries for ${units.count} units`);
  let clusters = 0;
  for (let u = 0; u < units.count; u++) {
    const c = clusterOf[u];
    if (!(Number.isInteger(c) && c >= 0)) throw new RangeError(`cluster of unit ${u} must be a whole number ≥ 0: got ${c}`);
    if (c + 1 > clusters) clusters = c + 1;
  }
  const sizes = new Int32Array(clusters);
  for (let u = 0; u < units.count; u++) sizes[clusterOf[u]]++;
  // Cluster numbers nobody uses would be drawn as empty clusters; they get no number here.
  const renumbered = new Int32Array(clusters).fill(-1);
  let used = 0;
  for (let c = 0; c < clusters; c++) if (sizes[c] > 0) renumbered[c] = used++;
  const starts = new Int32Array(used + 1);
  for (let c = 0; c < clusters; c++) if (sizes[c] > 0) starts[renumbered[c] + 1] = sizes[c];
  for (let k = 0; k < used; k++) starts[k + 1] += starts[k];
  const members = new Int32Array(units.count);
  const filled = starts.slice(0, used);
  for (let u = 0; u < units.count; u++) members[filled[renumbered[clusterOf[u]]]++] = u;
  return {drawn: "clusters", drawnCount: used, members, starts};
}

/** Fills `weights` with one bootstrap resample's counts, drawing into `draws` (drawnCount long). */
function drawResample(layout: Layout, random: SeededRandom, weights: Float64Array, draws: Int32Array): void {
  weights.fill(0);
  random.fillIndices(draws, layout.drawnCount);
  const {members, starts} = layout;
  if (!members || !starts) {
    for (let i = 0; i < draws.length; i++) weights[draws[i]]++;
    return;
  }
  for (let i = 0; i < draws.length; i++) {
    const k = draws[i];
    for (let j = starts[k]; j < starts[k + 1]; j++) weights[members[j]]++;
  }
}

/**
 * Bootstrap intervals for several statistics from one shared set of
 * resamples (so, for example, a table's α and κ are resampled together).
 */
export function bootstrapIntervals(units: ResampleUnits, statistics: readonly WeightedStatistic[], options: ResampleOptions = {}): BootstrapInterval[] {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  const level = options.level ?? 0.95;
  const method = options.method ?? "percentile";
  if (!(Number.isInteger(resamples) && resamples >= 1)) throw new RangeError(`resamples must be a whole number ≥ 1: got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must lie strictly between 0 and 1: got ${level}`);
  const layout = layoutOf(units);
  const weights = new Float64Array(units.count);
  weights.fill(1);
  const estimates = statistics.map((s) => s(weights));
  const replicates = statistics.map(() => new Float64Array(resamples));
  const random = new SeededRandom(seed);
  const every = Math.max(1, Math.floor(resamples / 50));
  const draws = new Int32Array(layout.drawnCount);
  for (let b = 0; b < resamples; b++) {
    drawResample(layout, random, weights, draws);
    for (let s = 0; s < statistics.length; s++) replicates[s][b] = statistics[s](weights);
    if (options.onProgress && ((b + 1) % every === 0 || b + 1 === resamples)) options.onProgress(b + 1, resamples);
  }
  const jackknife = method === "bca" ? jackknifeValues(units.count, layout, statistics) : null;
  return statistics.map((_, s) => {
    const base = {estimate: estimates[s], method, level, resamples, seed, drawn: layout.drawn, drawnCount: layout.drawnCount};
    // An infinite replicate would turn the quantiles' interpolation into ∞ − ∞.
    const defined = replicates[s].filter((v) => Number.isFinite(v)).sort();
    const undefinedResamples = resamples - defined.length;
    if (!Number.isFinite(estimates[s]) || defined.length === 0) {
      return {...base, lo: NaN, hi: NaN, undefinedResamples, reason: "the statistic is undefined on these data"};
    }
    const alpha = (1 - level) / 2;
    if (method === "percentile") {
      return {...base, lo: sortedQuantile(defined, alpha), hi: sortedQuantile(defined, 1 - alpha), undefinedResamples};
    }
    return {...base, ...bcaBounds(defined, estimates[s], jackknife!.values[s], alpha), jackknife: jackknife!.description, undefinedResamples};
  });
}

/** One statistic's bootstrap interval. */
export function bootstrapInterval(units: ResampleUnits, statistic: WeightedStatistic, options: ResampleOptions = {}): BootstrapInterval {
  return bootstrapIntervals(units, [statistic], options)[0];
}

/**
 * Leave-one-out values of each statistic: one unit (or cluster) at a time, or,
 * past JACKKNIFE_GROUPS of them, one of JACKKNIFE_GROUPS groups at a time
 * (group = position mod JACKKNIFE_GROUPS), since n leave-one-out fits of an
 * O(n) statistic would cost O(n²).
 */
function jackknifeValues(count: number, layout: Layout, statistics: readonly WeightedStatistic[]): {values: Float64Array[]; description: string} {
  const things = layout.drawnCount;
  const groups = Math.min(things, JACKKNIFE_GROUPS);
  const values = statistics.map(() => new Float64Array(groups));
  const weights = new Float64Array(count);
  for (let g = 0; g < groups; g++) {
    weights.fill(1);
    for (let t = g; t < things; t += groups) {
      if (layout.members && layout.starts) for (let j = layout.starts[t]; j < layout.starts[t + 1]; j++) weights[layout.members[j]] = 0;
      else weights[t] = 0;
    }
    for (let s = 0; s < statistics.length; s++) values[s][g] = statistics[s](weights);
  }
  const what = layout.drawn === "clusters" ? "cluster" : "episode";
  const description = groups === things ? `leave-one-${what}-out jackknife (${things})` : `grouped jackknife (${groups} groups of ${what}s)`;
  return {values, description};
}

/** BCa bounds from sorted replicates, the estimate and the jackknife values (Efron 1987). */
function bcaBounds(sorted: Float64Array, estimate: number, jackknife: Float64Array, alpha: number): Pick<BootstrapInterval, "lo" | "hi" | "biasCorrection" | "acceleration" | "reason"> {
  let below = 0;
  let equal = 0;
  for (const v of sorted) {
    if (v < estimate) below++;
    else if (v === estimate) equal++;
  }
  const z0 = normalQuantile((below + equal / 2) / sorted.length);
  let mean = 0;
  let defined = 0;
  for (const v of jackknife) {
    if (Number.isFinite(v)) {
      mean += v;
      defined++;
    }
  }
  mean /= defined;
  let num = 0;
  let den = 0;
  for (const v of jackknife) {
    if (!Number.isFinite(v)) continue;
    const d = mean - v;
    num += d * d * d;
    den += d * d;
  }
  // No spread among the jackknife values means no skew to correct for.
  const a = den === 0 ? 0 : num / (6 * Math.pow(den, 1.5));
  if (!Number.isFinite(z0)) {
    return {lo: NaN, hi: NaN, biasCorrection: z0, acceleration: a, reason: "every resample fell on one side of the estimate, so BCa's bias correction is infinite; use the percentile interval"};
  }
  const adjusted = (z: number) => normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)));
  return {
    lo: sortedQuantile(sorted, adjusted(normalQuantile(alpha))),
    hi: sortedQuantile(sorted, adjusted(normalQuantile(1 - alpha))),
    biasCorrection: z0,
    acceleration: a
  };
}

/** One line saying how an interval was made, for pages and CLI output alike. */
export function intervalNote(i: Pick<BootstrapInterval, "method" | "level" | "resamples" | "seed" | "drawn" | "undefinedResamples" | "jackknife">): string {
  const kind = i.method === "bca" ? "BCa" : "percentile";
  const over = i.drawn === "clusters" ? "scenarios (clustered)" : "episodes";
  const parts = [`${Math.round(i.level * 100)}% ${kind} bootstrap over ${over}, ${i.resamples.toLocaleString("en-US")} resamples, seed ${i.seed}`];
  if (i.jackknife) parts.push(`acceleration from a ${i.jackknife}`);
  if (i.undefinedResamples > 0) parts.push(`${i.undefinedResamples.toLocaleString("en-US")} resamples where the statistic was undefined left out`);
  return parts.join("; ");
}
