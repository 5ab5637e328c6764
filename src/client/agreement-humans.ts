// The human annotators' scores per instance, one annotator possibly left
// out: what every pairing with the same A side shares (the humans' mean as B,
// perceived ranges, the annotators' bins for kappa, their sd for "within one sd").

import {binIndex} from "../lib/agreement.js";
import type {AgreementColumns} from "./agreement-columns.js";
import {NumberIds, sideFrom, sideOf, type Side} from "./agreement-ranks.js";

/**
 * The human annotators' scores of every instance, one annotator left out (A,
 * when A is one of them): the humans' mean, count and perceived range, and
 * per k their bins. Shared by every pairing with the same A side. Leaving one
 * annotator out starts from every annotator's numbers and redoes only the
 * instances that annotator scored, so a change of A to an annotator costs
 * that annotator's instances, not the whole store; each instance is
 * computed by the same code either way, so the numbers are the same.
 */
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
  private readonly rangeIds: NumberIds;
  private sds?: Float64Array;
  private meanSide?: Side;
  private readonly bins = new Map<number, {agreeing: Int32Array; counts: Uint16Array}>();

  /** Every annotator's scores (`excluded` −1), or `base`'s with `excluded` left out, redoing only `redo` (the instances `excluded` scored). */
  private constructor(private readonly columns: AgreementColumns, private readonly excluded: number, private readonly base: HumanScores | null, private readonly redo: Int32Array | null) {
    const instances = columns.rowStart.length - 1;
    if (base && redo) {
      this.count = base.count.slice();
      this.mean = base.mean.slice();
      this.range = base.range.slice();
      this.ranges = base.ranges.slice();
      this.valueIds = base.valueIds.clone();
      this.rangeIds = base.rangeIds.clone();
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
    this.rangeIds = new NumberIds();
    let n = 0;
    for (let i = 0; i < instances; i++) if (this.score(i) > 0) n++;
    this.present = new Int32Array(n);
    for (let i = 0, at = 0; i < instances; i++) if (this.count[i]! > 0) this.present[at++] = i;
  }

  /** Every annotator's scores. */
  static all(columns: AgreementColumns): HumanScores {
    return new HumanScores(columns, -1, null, null);
  }

  /** These scores with annotator `excluded` left out; `scored` lists the instances it scored (ascending, repeats allowed). */
  without(excluded: number, scored: Int32Array): HumanScores {
    return new HumanScores(this.columns, excluded, this, scored);
  }

  /** Count, mean and range of instance i's scores; returns the count. */
  private score(i: number): number {
    const c = this.columns;
    let m = 0;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
      if (c.human[r] !== 1 || c.rater[r] === this.excluded) continue;
      const v = c.value[r]!;
      m++;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    this.count[i] = m;
    this.mean[i] = sum / m;
    if (m < 2) {
      this.range[i] = -1;
      return m;
    }
    const id = this.rangeIds.id(this.valueIds.id(min) * 0x1000000 + this.valueIds.id(max));
    if (id === this.ranges.length) this.ranges.push({min, max});
    this.range[i] = id;
    return m;
  }

  /** The mean as a side of a pairing (B or A = the humans). */
  side(): Side {
    if (this.meanSide) return this.meanSide;
    return (this.meanSide = this.base && this.redo ? sideFrom(this.base.side(), this.mean, this.present, this.redo) : sideOf(this.mean, this.present));
  }

  /** sd() of each instance's scores (NaN under two). */
  sd(): Float64Array {
    if (this.sds) return this.sds;
    let sds: Float64Array;
    if (this.base && this.redo) {
      sds = this.base.sd().slice();
      for (let j = 0; j < this.redo.length; j++) sds[this.redo[j]!] = this.sdOf(this.redo[j]!);
    } else {
      sds = new Float64Array(this.count.length);
      for (let i = 0; i < sds.length; i++) sds[i] = this.sdOf(i);
    }
    return (this.sds = sds);
  }

  private sdOf(i: number): number {
    const c = this.columns;
    const m = this.count[i]!;
    if (m < 2) return NaN;
    const mean = this.mean[i]!;
    let ss = 0;
    for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
      if (c.human[r] !== 1 || c.rater[r] === this.excluded) continue;
      ss += (c.value[r]! - mean) * (c.value[r]! - mean);
    }
    return Math.sqrt(ss / (m - 1));
  }

  /** Per instance, the scores' count in each of k bins (binIndex) and the agreeing ordered pairs, Σ c(c − 1). */
  binned(k: number): {agreeing: Int32Array; counts: Uint16Array} {
    const known = this.bins.get(k);
    if (known) return known;
    let result: {agreeing: Int32Array; counts: Uint16Array};
    if (this.base && this.redo) {
      const from = this.base.binned(k);
      result = {agreeing: from.agreeing.slice(), counts: from.counts.slice()};
      for (let j = 0; j < this.redo.length; j++) this.bin(this.redo[j]!, k, result);
    } else {
      result = {agreeing: new Int32Array(this.count.length), counts: new Uint16Array(this.count.length * k)};
      for (let j = 0; j < this.present.length; j++) this.bin(this.present[j]!, k, result);
    }
    // Two values of k at a time: each takes instances × k counts.
    if (this.bins.size >= 2) this.bins.delete(this.bins.keys().next().value!);
    this.bins.set(k, result);
    return result;
  }

  private bin(i: number, k: number, {agreeing, counts}: {agreeing: Int32Array; counts: Uint16Array}): void {
    const c = this.columns;
    counts.fill(0, i * k, (i + 1) * k);
    const {lo, hi} = c.dimensions[c.dimension[i]!]!;
    for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
      if (c.human[r] !== 1 || c.rater[r] === this.excluded) continue;
      counts[i * k + binIndex(c.value[r]!, lo, hi, k)]++;
    }
    let a = 0;
    for (let b = i * k; b < (i + 1) * k; b++) a += counts[b]! * (counts[b]! - 1);
    agreeing[i] = a;
  }
}
