// The human annotators' scores per instance, one annotator possibly left
// out: what every pairing with the same A side shares (the humans' mean as B,
// perceived ranges, the annotators' bins for kappa, their sd for "within one sd").

import {binIndex} from "../lib/agreement.js";
import type {AgreementColumns} from "./agreement-columns.js";
import {NumberIds, sideOf, type Side} from "./agreement-ranks.js";

/**
 * The human annotators' scores of every instance, one annotator left out (A,
 * when A is one of them): the humans' mean, count and perceived range, and
 * per k their bins. Shared by every pairing with the same A side.
 */
export class HumanScores {
  readonly count: Int32Array;
  /** The mean as mean() takes it: the sum in row order over the count (NaN with none). */
  readonly mean: Float64Array;
  /** Index into `ranges` of [min, max] of the scores; −1 under two scores. */
  readonly range: Int32Array;
  readonly ranges: {min: number; max: number}[] = [];
  private sds?: Float64Array;
  private meanSide?: Side;
  private readonly bins = new Map<number, {agreeing: Int32Array; counts: Uint16Array}>();

  constructor(private readonly columns: AgreementColumns, private readonly excluded: number) {
    const c = columns;
    const instances = c.rowStart.length - 1;
    this.count = new Int32Array(instances);
    this.mean = new Float64Array(instances);
    this.range = new Int32Array(instances);
    // The library groups ranges by the text `${min}/${max}`: one group per pair of numbers (−0 prints as 0).
    const valueIds = new NumberIds();
    const rangeIds = new NumberIds();
    for (let i = 0; i < instances; i++) {
      let m = 0;
      let sum = 0;
      let min = Infinity;
      let max = -Infinity;
      for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
        if (c.human[r] !== 1 || c.rater[r] === excluded) continue;
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
        continue;
      }
      const id = rangeIds.id(valueIds.id(min) * 0x1000000 + valueIds.id(max));
      if (id === this.ranges.length) this.ranges.push({min, max});
      this.range[i] = id;
    }
  }

  /** The mean as a side of a pairing (B or A = the humans). */
  side(): Side {
    return (this.meanSide ??= sideOf(this.mean));
  }

  /** sd() of each instance's scores (NaN under two). */
  sd(): Float64Array {
    if (this.sds) return this.sds;
    const c = this.columns;
    const sds = new Float64Array(this.count.length);
    for (let i = 0; i < sds.length; i++) {
      const m = this.count[i]!;
      if (m < 2) {
        sds[i] = NaN;
        continue;
      }
      const mean = this.mean[i]!;
      let ss = 0;
      for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
        if (c.human[r] !== 1 || c.rater[r] === this.excluded) continue;
        ss += (c.value[r]! - mean) * (c.value[r]! - mean);
      }
      sds[i] = Math.sqrt(ss / (m - 1));
    }
    return (this.sds = sds);
  }

  /** Per instance, the scores' count in each of k bins (binIndex) and the agreeing ordered pairs, Σ c(c − 1). */
  binned(k: number): {agreeing: Int32Array; counts: Uint16Array} {
    const known = this.bins.get(k);
    if (known) return known;
    const c = this.columns;
    const instances = this.count.length;
    const agreeing = new Int32Array(instances);
    const counts = new Uint16Array(instances * k);
    for (let i = 0; i < instances; i++) {
      if (this.count[i] === 0) continue;
      const {lo, hi} = c.dimensions[c.dimension[i]!]!;
      for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
        if (c.human[r] !== 1 || c.rater[r] === this.excluded) continue;
        counts[i * k + binIndex(c.value[r]!, lo, hi, k)]++;
      }
      let a = 0;
      for (let b = i * k; b < (i + 1) * k; b++) a += counts[b]! * (counts[b]! - 1);
      agreeing[i] = a;
    }
    // Two values of k at a time: each takes instances × k counts.
    if (this.bins.size >= 2) this.bins.delete(this.bins.keys().next().value!);
    const result = {agreeing, counts};
    this.bins.set(k, result);
    return result;
  }
}
