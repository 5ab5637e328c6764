// Sums for the agreement table that are exact and so independent of order:
// the correctly rounded value of the exact sum of the terms (Shewchuk's
// partials, as Python's math.fsum). Summed in order, a mean or a correlation
// over 1.4M instances changes in its last bits with the order of the
// instances; summed exactly, the page's worker may tally equal terms per
// cell in any order (count × term) and still give the library's numbers to
// the last bit.

import {correlationP, averageRanks, fisherInterval, type Correlation} from "./inference.js";

/** Splits a double into two halves of at most 26 significant bits each (Dekker): a count below 2^26 times either is exact. */
const SPLITTER = 134217729;
/** Counts at or above this are not split exactly: added one term at a time instead. */
const MAX_TIMES = 2 ** 26;

/** An exact running sum of doubles. */
export class ExactSum {
  /** Non-overlapping partials, smallest magnitude first, whose exact sum is the sum so far. */
  private readonly partials: number[] = [];
  /** Infinities and NaN, added as plain addition does (NaN, or ±Infinity, or their clash: the same in any order). */
  private special = 0;

  add(x: number): void {
    if (!Number.isFinite(x)) {
      this.special += x;
      return;
    }
    const p = this.partials;
    let i = 0;
    for (let j = 0; j < p.length; j++) {
      let y = p[j]!;
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      // Past the largest double the partials cannot hold the sum (the low part would be −∞ and the value NaN): say so.
      if (!Number.isFinite(hi)) throw new RangeError(`exact sum: an intermediate sum of finite terms passed the largest double (${x} + ${y})`);
      const lo = y - (hi - x);
      if (lo !== 0) p[i++] = lo;
      x = hi;
    }
    // Most adds keep the number of partials: setting an array's length is slow, so only when it shrinks.
    p[i] = x;
    if (p.length > i + 1) p.length = i + 1;
  }

  /** Adds `count` copies of x (a whole count ≥ 0), as exactly as adding them one by one. */
  addTimes(x: number, count: number): void {
    if (count === 0) return;
    // Copies of a zero add up to that zero (−0 only when every term is −0), as one of them does.
    if (count === 1 || x === 0) return this.add(x);
    if (!(Math.abs(x) < 1e300) || count >= MAX_TIMES) {
      for (let c = 0; c < count; c++) this.add(x);
      return;
    }
    const s = SPLITTER * x;
    const hi = s - (s - x);
    this.add(count * hi);
    this.add(count * (x - hi));
  }

  /** Adds everything another sum holds. */
  addSum(other: ExactSum): void {
    for (const x of other.partials) this.add(x);
    this.special += other.special;
  }

  /** The exact sum rounded once, to nearest, ties to even. */
  value(): number {
    if (this.special !== 0 || Number.isNaN(this.special)) return this.special;
    const p = this.partials;
    let n = p.length;
    if (n === 0) return 0;
    let hi = p[--n]!;
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = p[--n]!;
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    // hi + lo is exact; when lo is half an ulp of hi, the partials below say which way the rest leans.
    if (n > 0 && ((lo < 0 && p[n - 1]! < 0) || (lo > 0 && p[n - 1]! > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }
}

/** Σ values, exact and rounded once: the same in any order. */
export function exactSum(values: Iterable<number>): number {
  const sum = new ExactSum();
  for (const v of values) sum.add(v);
  return sum.value();
}

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

/** A correlation from n and the sums Σ dx·dy, Σ dx², Σ dy² about the means, as pearson() finishes it. */
export function correlationFromSums(n: number, sxy: number, sxx: number, syy: number): Correlation {
  const r = n < 2 || sxx === 0 || syy === 0 ? NaN : Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
  return {n, r, p: correlationP(r, n), ci: fisherInterval(r, n)};
}

/** Pearson's r as pearson() computes it (means, then products about them), every sum exact. */
export function exactPearson(xs: ArrayLike<number>, ys: ArrayLike<number>): Correlation {
  if (xs.length !== ys.length) throw new Error(`pearson needs paired values: ${xs.length} x and ${ys.length} y`);
  const n = xs.length;
  const sumX = new ExactSum();
  const sumY = new ExactSum();
  for (let i = 0; i < n; i++) {
    sumX.add(xs[i]!);
    sumY.add(ys[i]!);
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
  return correlationFromSums(n, sxy.value(), sxx.value(), syy.value());
}

/** Spearman's rho: exactPearson over the average ranks. */
export function exactSpearman(xs: readonly number[], ys: readonly number[]): Correlation {
  return exactPearson(averageRanks(xs), averageRanks(ys));
}
