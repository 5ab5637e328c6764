// An exact running sum of doubles: the correctly rounded value of the exact
// sum of the terms (Shewchuk's partials, as Python's math.fsum), so the same
// in any order. A module of its own with no imports, so the first-view pages'
// light modules (kappa.ts) can use it without reaching the statistics
// distributions that agreement-sums.ts brings in.

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
