// The human annotators' scores per instance, one annotator possibly left
// out: what every pairing with the same A side shares (the humans' mean as B,
// perceived ranges, their sd for "within one sd"; kappa bins them per pairing).

import type {AgreementColumns} from "./agreement-columns.js";
import {binIndex} from "../lib/agreement.js";
import {NumberIds, PairIds, sideFrom, sideOf, type Side} from "./agreement-ranks.js";

/**
 * The human annotators' scores of every instance, one annotator left out (A,
 * when A is one of them): the humans' mean, count, perceived range and sd.
 * Shared by every pairing with the same A side. Leaving one
 * annotator out starts from every annotator's numbers and redoes only the
 * instances that annotator scored, so a change of A to an annotator costs
 * that annotator's instances, not the whole store; each instance is
 * computed by the same code either way, so the numbers are the same.
 */
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

export class HumanScores {
  readonly count: Int32Array;
  /** The mean as mean() takes it: the sum in row order over the count (NaN with none). */
  readonly mean: Float64Array;
  /** Index into `ranges` of [min, max] of the scores; −1 under two scores. */
  readonly range: Int32Array;
  readonly ranges: {min: number; max: number}[];
  /** Instances with at least one score, ascending. */
  readonly present: Int32Array;
  // The library groups ranges by the text `${min}/${max}`: one group per pair of numbers (−0 prints as 0).
  private readonly valueIds: NumberIds;
  /** Range id per pair of value ids below RANGE_TABLE (−1: none yet); larger ids go through rangeIds. */
  private readonly rangeTable: Int32Array;
  private readonly rangeIds: NumberIds;
  /**
   * Per instance, its pattern: the dimension and the sequence of its scores
   * in row order (−1 with none). Instances with one pattern have the same
   * mean, sd and bins, computed by the same steps: kappa and the sd are
   * worked out once per pattern (a few thousand on SOTOPIA's scales) and
   * looked up per instance, to the same bits.
   */
  readonly pattern: Int32Array;
  private readonly patterns: Patterns;
  /** Per pattern, its range id (−1 under two scores): a pattern fixes its scores, so their range. */
  private readonly patternRange: number[];
  private byPattern?: PatternStats;
  private meanSide?: Side;
  private readonly bins = new Map<number, PatternBins>();

  /** Every annotator's scores (`excluded` −1), or `base`'s with `excluded` left out, redoing only `redo` (the instances `excluded` scored). */
  private constructor(readonly rows: HumanRows, readonly excluded: number, private readonly base: HumanScores | null, private readonly redo: Int32Array | null) {
    const instances = rows.start.length - 1;
    if (base && redo) {
      this.count = base.count.slice();
      this.mean = base.mean.slice();
      this.range = base.range.slice();
      this.ranges = base.ranges.slice();
      this.valueIds = base.valueIds.clone();
      this.rangeTable = base.rangeTable.slice();
      this.rangeIds = base.rangeIds.clone();
      this.pattern = base.pattern.slice();
      this.patterns = base.patterns.clone();
      this.patternRange = base.patternRange.slice();
      let emptied = false;
      for (let j = 0; j < redo.length; j++) if (this.score(redo[j]!) === 0) emptied = true;
      // Only an instance the left-out annotator scored alone drops out of the present ones.
      if (!emptied) {
        this.present = base.present;
        return;
      }
      let n = 0;
      for (let j = 0; j < base.present.length; j++) if (this.count[base.present[j]!]! > 0) n++;
      this.present = new Int32Array(n);
      for (let j = 0, at = 0; j < base.present.length; j++) if (this.count[base.present[j]!]! > 0) this.present[at++] = base.present[j]!;
      return;
    }
    this.count = new Int32Array(instances);
    this.mean = new Float64Array(instances);
    this.range = new Int32Array(instances);
    this.ranges = [];
    this.valueIds = new NumberIds();
    this.rangeTable = new Int32Array(RANGE_TABLE * RANGE_TABLE).fill(-1);
    this.rangeIds = new NumberIds();
    this.pattern = new Int32Array(instances);
    this.patterns = new Patterns();
    this.patternRange = [];
    let n = 0;
    for (let i = 0; i < instances; i++) if (this.score(i) > 0) n++;
    this.present = new Int32Array(n);
    for (let i = 0, at = 0; i < instances; i++) if (this.count[i]! > 0) this.present[at++] = i;
  }

  /** Every annotator's scores. */
  static all(rows: HumanRows): HumanScores {
    return new HumanScores(rows, -1, null, null);
  }

  /** These scores with annotator `excluded` left out; `scored` lists the instances it scored (ascending, repeats allowed). */
  without(excluded: number, scored: Int32Array): HumanScores {
    return new HumanScores(this.rows, excluded, this, scored);
  }

  /** Count, mean and range of instance i's scores; returns the count. */
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
    this.count[i] = m;
    this.mean[i] = sum / m;
    const pattern = (this.pattern[i] = m === 0 ? -1 : patterns.end(state, this.rows.dimension[i]!, sum / m, this.rows, i, excluded));
    this.range[i] = m < 2 ? -1 : this.rangeId(min, max);
    if (pattern >= 0) this.patternRange[pattern] = this.range[i]!;
    return m;
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

  /** The mean as a side of a pairing (B or A = the humans). */
  side(): Side {
    if (this.meanSide) return this.meanSide;
    return (this.meanSide = this.base && this.redo ? sideFrom(this.base.side(), this.mean, this.present, this.redo) : sideOf(this.mean, this.present));
  }

  /** Per pattern: its dimension, number of scores, their sd() (NaN under two) and range id (−1 under two). */
  patternStats(): PatternStats {
    return (this.byPattern ??= {...this.patterns.shape(), sd: this.patterns.sds(), range: Int32Array.from(this.patternRange)});
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
