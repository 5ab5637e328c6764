// The human annotators' scores per instance, one annotator possibly left
// out: what every pairing with the same A side shares (the humans' mean as B,
// perceived ranges, their sd for "within one sd"; kappa bins them per pairing).

import type {AgreementColumns} from "./agreement-columns.js";
import {binIndex} from "../lib/agreement.js";
import {NumberIds, PairIds} from "./agreement-ranks.js";

/** The annotators' rows alone, grouped by instance as the columns group them (row order kept): what every pass over their scores reads. */
export interface HumanRows {
  /** Per instance, its first annotator row; one more entry closes the last instance. */
  start: Int32Array;
  rater: Int32Array;
  value: Float64Array;
  /** Per instance, its dimension (the columns' own array), and per dimension its scale. */
  dimension: Int32Array;
  dimensions: readonly {lo: number; hi: number}[];
}

/** The annotators' rows of these columns, in one pass. */
export function humanRows(columns: AgreementColumns): HumanRows {
  const {rowStart, human, rater, value} = columns;
  const instances = rowStart.length - 1;
  let size = 0;
  for (let r = 0; r < human.length; r++) size += human[r] === 1 ? 1 : 0;
  const out: HumanRows = {start: new Int32Array(instances + 1), rater: new Int32Array(size), value: new Float64Array(size), dimension: columns.dimension, dimensions: columns.dimensions};
  let at = 0;
  for (let i = 0; i < instances; i++) {
    out.start[i] = at;
    for (let r = rowStart[i]!, end = rowStart[i + 1]!; r < end; r++) {
      if (human[r] !== 1) continue;
      out.rater[at] = rater[r]!;
      out.value[at++] = value[r]!;
    }
  }
  out.start[instances] = at;
  return out;
}

/**
 * The human annotators' scores of every instance, one annotator left out (A,
 * when A is one of them), by pattern: the humans' mean, count, perceived
 * range and sd. Shared by every pairing with the same A side. Leaving one
 * annotator out keeps every annotator's patterns and redoes only the
 * instances that annotator scored, in an overlay, so a change of A to an
 * annotator costs that annotator's instances, not the whole store; each
 * instance is computed by the same code either way, so the numbers are the same.
 */
export class HumanScores {
  /** Instances with at least one score, ascending (every annotator's: a left-out annotator's own are in `overlayAt`). */
  readonly present: Int32Array;
  /**
   * Per instance, its pattern with every annotator: the dimension and the
   * sequence of its scores in row order (−1 with none). Instances with one
   * pattern have the same count, mean, range, sd and bins, computed by the
   * same steps: they are worked out once per pattern (a few thousand on
   * SOTOPIA's scales) and looked up per instance, to the same bits.
   */
  readonly pattern: Int32Array;
  /** With an annotator left out: the instances it scored (ascending, once each), whose pattern without it is `overlayPattern`; else empty. */
  readonly overlayAt: Int32Array;
  readonly overlayPattern: Int32Array;
  readonly ranges: {min: number; max: number}[];
  // The library groups ranges by the text `${min}/${max}`: one group per pair of numbers (−0 prints as 0).
  private readonly valueIds: NumberIds;
  /** Range id per pair of value ids below RANGE_TABLE (−1: none yet); larger ids go through rangeIds. */
  private readonly rangeTable: Int32Array;
  private readonly rangeIds: NumberIds;
  private readonly patterns: Patterns;
  /** Per pattern, its range id (−1 under two scores): a pattern fixes its scores, so their range. */
  private readonly patternRange: number[];
  private byPattern?: PatternStats;
  private meanIds?: PatternMeans;
  private readonly bins = new Map<number, PatternBins>();

  /** Every annotator's scores (`excluded` −1), or `base`'s with `excluded` left out of `redo` (the instances it scored). */
  private constructor(readonly rows: HumanRows, readonly excluded: number, base: HumanScores | null, redo: Int32Array | null) {
    const instances = rows.start.length - 1;
    if (base && redo) {
      // Only the left-out annotator's instances change: their patterns go in an overlay, the rest is base's.
      this.present = base.present;
      this.pattern = base.pattern;
      this.ranges = base.ranges.slice();
      this.valueIds = base.valueIds.clone();
      this.rangeTable = base.rangeTable.slice();
      this.rangeIds = base.rangeIds.clone();
      this.patterns = base.patterns.clone();
      this.patternRange = base.patternRange.slice();
      let n = 0;
      for (let j = 0; j < redo.length; j++) if (j === 0 || redo[j] !== redo[j - 1]) n++;
      this.overlayAt = new Int32Array(n);
      this.overlayPattern = new Int32Array(n);
      for (let j = 0, at = 0; j < redo.length; j++) {
        if (j > 0 && redo[j] === redo[j - 1]) continue;
        this.overlayAt[at] = redo[j]!;
        this.overlayPattern[at++] = this.score(redo[j]!);
      }
      return;
    }
    this.overlayAt = new Int32Array(0);
    this.overlayPattern = this.overlayAt;
    this.ranges = [];
    this.valueIds = new NumberIds();
    this.rangeTable = new Int32Array(RANGE_TABLE * RANGE_TABLE).fill(-1);
    this.rangeIds = new NumberIds();
    this.pattern = new Int32Array(instances);
    this.patterns = new Patterns();
    this.patternRange = [];
    let n = 0;
    for (let i = 0; i < instances; i++) if ((this.pattern[i] = this.score(i)) >= 0) n++;
    this.present = new Int32Array(n);
    for (let i = 0, at = 0; i < instances; i++) if (this.pattern[i]! >= 0) this.present[at++] = i;
  }

  /** Every annotator's scores. */
  static all(rows: HumanRows): HumanScores {
    return new HumanScores(rows, -1, null, null);
  }

  /** These scores with annotator `excluded` left out; `scored` lists the instances it scored (ascending, repeats allowed). */
  without(excluded: number, scored: Int32Array): HumanScores {
    return new HumanScores(this.rows, excluded, this, scored);
  }

  /** The pattern of instance i's scores (−1 with none), its range kept per pattern. */
  private score(i: number): number {
    const {start, rater, value} = this.rows;
    const excluded = this.excluded;
    let m = 0;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    const patterns = this.patterns;
    let state = patterns.begin(this.rows.dimension[i]!);
    for (let r = start[i]!, end = start[i + 1]!; r < end; r++) {
      if (rater[r] === excluded) continue;
      const v = value[r]!;
      m++;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
      state = patterns.step(state, v);
    }
    if (m === 0) return -1;
    const pattern = patterns.end(state, this.rows.dimension[i]!, sum / m, this.rows, i, excluded);
    if (this.patternRange[pattern] === undefined) this.patternRange[pattern] = m < 2 ? -1 : this.rangeId(min, max);
    return pattern;
  }

  private rangeId(min: number, max: number): number {
    const low = this.valueIds.id(min);
    const high = this.valueIds.id(max);
    const inTable = low < RANGE_TABLE && high < RANGE_TABLE;
    if (inTable && this.rangeTable[low * RANGE_TABLE + high]! >= 0) return this.rangeTable[low * RANGE_TABLE + high]!;
    const id = this.rangeIds.id(low * 0x1000000 + high);
    if (id === this.ranges.length) this.ranges.push({min, max});
    if (inTable) this.rangeTable[low * RANGE_TABLE + high] = id;
    return id;
  }

  /** Per pattern: its dimension, number of scores, their sd() (NaN under two) and range id (−1 under two). */
  patternStats(): PatternStats {
    return (this.byPattern ??= {...this.patterns.shape(), sd: this.patterns.sds(), range: Int32Array.from(this.patternRange)});
  }

  /** The humans' mean as a side of a pairing (B or A = the humans): each pattern's mean numbered among the distinct means. */
  means(): PatternMeans {
    if (this.meanIds) return this.meanIds;
    const distinct = new NumberIds();
    const ids = Int32Array.from(this.patterns.means(), (mean) => distinct.id(mean));
    return (this.meanIds = {ids, distinct, order: distinct.order()});
  }

  /** Per pattern, for k bins: the agreeing ordered pairs Σ c(c − 1) and the count in each bin (binIndex). */
  binned(k: number): PatternBins {
    const known = this.bins.get(k);
    if (known) return known;
    const result = this.patterns.binned(k, this.rows.dimensions);
    if (this.bins.size >= 2) this.bins.delete(this.bins.keys().next().value!);
    this.bins.set(k, result);
    return result;
  }
}

/** The humans' mean per pattern as ids among its distinct values, and each id's place in ascending order. */
export interface PatternMeans {
  ids: Int32Array;
  distinct: NumberIds;
  order: Int32Array;
}

export interface PatternStats {
  dimension: Int32Array;
  size: Int32Array;
  sd: Float64Array;
  range: Int32Array;
}

export interface PatternBins {
  agreeing: Int32Array;
  /** Pattern p's count in bin b at p·k + b. */
  counts: Uint16Array;
  /** Scores per pattern. */
  size: Int32Array;
}

/** The patterns met so far: each a dimension and a sequence of scores, numbered as met, built one score at a time through a chain of states. */
class Patterns {
  /** States: (previous state, value id); a start is (−1 − dimension, 0), which no state reaches. */
  private chain = new PairIds();
  private valueIds = new NumberIds();
  /** Pattern of each chain state that ends one (−1: a state only passed through). */
  private ofState = new Int32Array(64).fill(-1);
  private dimension: number[] = [];
  private first: number[] = [];
  private size: number[] = [];
  private mean: number[] = [];
  private values: number[] = [];

  begin(dimension: number): number {
    return this.chain.id(-1 - dimension, 0);
  }

  step(state: number, value: number): number {
    return this.chain.id(state, this.valueIds.id(value));
  }

  /** The pattern a sequence ends in; a new one keeps its scores (instance i's rows without `excluded`) and mean. */
  end(state: number, dimension: number, mean: number, rows: HumanRows, i: number, excluded: number): number {
    if (state >= this.ofState.length) {
      const grown = new Int32Array(Math.max(state + 1, this.ofState.length * 2)).fill(-1);
      grown.set(this.ofState);
      this.ofState = grown;
    }
    const known = this.ofState[state]!;
    if (known >= 0) return known;
    const id = this.size.length;
    this.ofState[state] = id;
    this.dimension.push(dimension);
    this.first.push(this.values.length);
    this.mean.push(mean);
    for (let r = rows.start[i]!, end = rows.start[i + 1]!; r < end; r++) if (rows.rater[r] !== excluded) this.values.push(rows.value[r]!);
    this.size.push(this.values.length - this.first[id]!);
    return id;
  }

  /** Per pattern, the mean of its scores (the sum in row order over the count, as mean() takes it). */
  means(): readonly number[] {
    return this.mean;
  }

  /** Per pattern, its dimension and number of scores. */
  shape(): {dimension: Int32Array; size: Int32Array} {
    return {dimension: Int32Array.from(this.dimension), size: Int32Array.from(this.size)};
  }

  clone(): Patterns {
    const copy = new Patterns();
    copy.chain = this.chain.clone();
    copy.valueIds = this.valueIds.clone();
    copy.ofState = this.ofState.slice();
    copy.dimension = this.dimension.slice();
    copy.first = this.first.slice();
    copy.size = this.size.slice();
    copy.mean = this.mean.slice();
    copy.values = this.values.slice();
    return copy;
  }

  /** sd() of each pattern's scores, summed in their order about their mean, as sd() sums (NaN under two). */
  sds(): Float64Array {
    return Float64Array.from(this.size, (m, p) => {
      if (m < 2) return NaN;
      const mean = this.mean[p]!;
      let ss = 0;
      for (let x = this.first[p]!; x < this.first[p]! + m; x++) ss += (this.values[x]! - mean) * (this.values[x]! - mean);
      return Math.sqrt(ss / (m - 1));
    });
  }

  binned(k: number, dimensions: HumanRows["dimensions"]): PatternBins {
    const P = this.size.length;
    const out: PatternBins = {agreeing: new Int32Array(P), counts: new Uint16Array(P * k), size: Int32Array.from(this.size)};
    for (let p = 0; p < P; p++) {
      const {lo, hi} = dimensions[this.dimension[p]!]!;
      for (let x = this.first[p]!; x < this.first[p]! + this.size[p]!; x++) out.counts[p * k + binIndex(this.values[x]!, lo, hi, k)]++;
      let a = 0;
      for (let b = p * k; b < (p + 1) * k; b++) a += out.counts[b]! * (out.counts[b]! - 1);
      out.agreeing[p] = a;
    }
    return out;
  }
}

/** Value ids below this pair to a range id by table: every score on SOTOPIA's scales does. */
const RANGE_TABLE = 64;
