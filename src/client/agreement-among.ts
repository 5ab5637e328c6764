// kappaAmongAllAnnotators over the engine's columns: Randolph's kappa among
// every annotator, per cell, straight from their scores by pattern, without
// pairing the humans with themselves (which copied six arrays of every
// instance for a table that needs one sum and two counts per cell).

import type {Kappa} from "../lib/agreement.js";
import {ExactSum} from "../lib/agreement-sums.js";
import type {HumanScores, PatternStats} from "./agreement-humans.js";

/** Per instance of the columns, its cell as a Pairing numbers cells: listed dimension × 3, plus 1 + whether a person played the agent. */
export interface InstanceCells {
  dimension: Int32Array;
  playedByHuman: Uint8Array;
  listed: Int32Array;
  /** The table's dimensions: cells run to (L + 1) · 3, the last three pooled. */
  L: number;
}

/**
 * Kappa among every annotator per cell, on the instances two or more of
 * them scored: instances counted once per (pattern, who played), then count ×
 * each pattern's term added exactly, as randolphKappa sums (exactly), so the
 * numbers are kappaAmongAllAnnotators's to the last bit.
 */
export class AmongAnnotators {
  private readonly cells: number;
  /** Per cell: the instances any annotator scored (the cell is shown when it has one), and those two or more scored. */
  private readonly scored: Float64Array;
  private readonly items: Float64Array;
  /** Per pattern · 2 + who played (1: a person): the instances with it. */
  private readonly byPattern: Float64Array;
  private readonly kappas = new Map<number, Kappa[]>();
  /** How many of the annotators' instances are counted so far: the worker counts them a slice per step (countSome). */
  private counted = 0;

  constructor(private readonly humans: HumanScores, private readonly at: InstanceCells) {
    this.cells = (at.L + 1) * 3;
    this.scored = new Float64Array(this.cells);
    this.items = new Float64Array(this.cells);
    this.byPattern = new Float64Array(humans.patternStats().size.length * 2);
  }

  /**
   * Counts up to `most` more of the annotators' instances; returns whether
   * every one is counted. The counts are whole numbers, so slices add up to
   * the one pass's counts exactly.
   */
  countSome(most: number): boolean {
    const {present, pattern} = this.humans;
    if (this.counted === present.length) return true;
    const to = Math.min(present.length, this.counted + most);
    countByPattern(present, this.counted, to, pattern, this.at.playedByHuman, this.byPattern);
    this.counted = to;
    if (to < present.length) return false;
    cellCounts(this.byPattern, this.humans.patternStats(), this.at, this.scored, this.items);
    return true;
  }

  /** Whether every instance is counted and kappa for k bins is kept: a view with an annotator as A then costs its pairing only. */
  ready(bins: number): boolean {
    return this.counted === this.humans.present.length && this.kappas.has(bins);
  }

  /** Whether a cell has an instance any annotator scored: the library leaves out empty model / human rows. */
  has(cell: number): boolean {
    this.countSome(Infinity);
    return this.scored[cell]! > 0;
  }

  /** Kappa per cell for k bins, kept. */
  kappa(bins: number): Kappa[] {
    const known = this.kappas.get(bins);
    if (known) return known;
    if (!(Number.isInteger(bins) && bins >= 2)) throw new Error(`kappa needs at least 2 bins, got ${bins}`);
    this.countSome(Infinity);
    const {agreeing, size} = this.humans.binned(bins);
    const {dimension} = this.humans.patternStats();
    const {listed, L} = this.at;
    const pooled = L * 3;
    const sums = Array.from({length: this.cells}, () => new ExactSum());
    for (let pat = 0; pat < size.length; pat++) {
      const m = size[pat]!;
      // One annotator adds nothing (randolphKappa skips the item).
      if (m < 2) continue;
      // The same division per pattern as Pairing.kappa.
      const term = agreeing[pat]! / (m * (m - 1));
      const d = listed[dimension[pat]!]!;
      for (let h = 0; h < 2; h++) {
        const count = this.byPattern[pat * 2 + h]!;
        if (count === 0) continue;
        const p = 1 + h;
        for (const cell of d < L ? [d * 3, d * 3 + p, pooled, pooled + p] : [pooled, pooled + p]) sums[cell]!.addTimes(term, count);
      }
    }
    const result = Array.from({length: this.cells}, (_, cell): Kappa => {
      const used = this.items[cell]!;
      const po = used ? sums[cell]!.value() / used : NaN;
      return {bins, items: used, pairwiseAgreement: po, kappa: (po - 1 / bins) / (1 - 1 / bins)};
    });
    this.kappas.set(bins, result);
    return result;
  }
}

/** Over present[from … to): the instances per (pattern, who played), the one count a cell's counts follow from. */
function countByPattern(present: Int32Array, from: number, to: number, pattern: Int32Array, playedByHuman: Uint8Array, byPattern: Float64Array): void {
  for (let j = from; j < to; j++) {
    const i = present[j]!;
    byPattern[pattern[i]! * 2 + playedByHuman[i]!]++;
  }
}

/**
 * Per cell, the instances with a score and those with two or more (the
 * pattern's size), from the counts per (pattern, who played): a pattern
 * holds one dimension, so each count goes to that dimension's cells and the
 * pooled ones. Whole numbers, so the same as counting instance by instance.
 */
function cellCounts(byPattern: Float64Array, {dimension, size}: PatternStats, at: InstanceCells, scored: Float64Array, items: Float64Array): void {
  const {listed, L} = at;
  const pooled = L * 3;
  for (let pat = 0; pat < size.length; pat++) {
    const two = size[pat]! >= 2;
    for (let h = 0; h < 2; h++) {
      const count = byPattern[pat * 2 + h]!;
      if (count === 0) continue;
      const p = 1 + h;
      const many = two ? count : 0;
      const own = listed[dimension[pat]!]! * 3 + p;
      if (own < pooled) {
        scored[own - p] += count;
        items[own - p] += many;
        scored[own] += count;
        items[own] += many;
      }
      scored[pooled] += count;
      items[pooled] += many;
      scored[pooled + p] += count;
      items[pooled + p] += many;
    }
  }
}
