// One pairing of rater A with rater B over the engine's columns, and the
// agreement table's parts over it, each computed once and kept.

import {binIndex, type AgreementRow, type Kappa, type PerceivedRangeGroup, type PerceivedRanges, type SpreadBasis} from "../lib/agreement.js";
import {correlationP, fisherInterval, type Correlation} from "../lib/inference.js";
import type {DifferenceCounts} from "../components/histogram.js";
import type {AgreementEngine, AgreementView} from "./agreement-engine.js";
import type {HumanScores} from "./agreement-humans.js";
import type {Side} from "./agreement-ranks.js";

export const ALL = "all";
export const PLAYED = [ALL, "model", "human"] as const;

/**
 * The instances both raters scored (pairInstances, in its order), and the
 * table's parts over them, each computed once: the per-cell counts,
 * correlations and ranges on the first table, kappa per k, the within-one-sd
 * counts per basis. A cell is (dimension, played by): dimension index d of the
 * table's dimensions (d = L for every dimension pooled) times 3, plus 0 for
 * all agents, 1 for agents played by models, 2 by people.
 */
export class Pairing {
  readonly n: number;
  readonly episodes: number;
  private readonly instance: Int32Array;
  private readonly judge: Float64Array;
  private readonly other: Float64Array;
  private readonly judgeId: Int32Array;
  private readonly otherId: Int32Array;
  private readonly judgeOrder: Int32Array;
  private readonly otherOrder: Int32Array;
  /** Per paired instance: its own cell (its dimension, who played); the pooled cells L·3 + played if its dimension is not listed. */
  private readonly cellOf: Int32Array;
  private readonly cells: number;
  private readonly L: number;
  private base?: BaseStats;
  private sums?: {n: Float64Array; diffSum: Float64Array; mixed: Uint8Array};
  private correlated?: {pearsons: (Correlation | null)[]; spearmans: (Correlation | null)[]};
  private ranged?: PerceivedRanges[];
  private spreads?: Float64Array;
  private histograms?: DifferenceCounts[];
  /** A's distinct scores, by id: the judge's bin comes per (dimension, id), not per instance. */
  private readonly judgeValues: readonly number[];
  /** Per cell, the instances kappa counts among the annotators (two or more of them) and with A (one or more): the same for every k. */
  private kappaItems?: {humans: Float64Array; withJudge: Float64Array};
  private readonly kappas = new Map<number, {humans: Kappa[]; withJudge: Kappa[]}>();
  private readonly withins = new Map<SpreadBasis, {within: Float64Array; used: Float64Array}>();

  constructor(private readonly engine: AgreementEngine, judgeSide: Side, otherSide: Side, private readonly humans: HumanScores) {
    const c = engine.columns;
    const judgeValues = judgeSide.values;
    const otherValues = otherSide.values;
    this.judgeOrder = judgeSide.order;
    this.judgeValues = judgeSide.distinct.values;
    this.otherOrder = otherSide.order;
    const instances = judgeValues.length;
    this.L = engine.dimensionKeys.length;
    this.cells = (this.L + 1) * 3;
    // Only the smaller side's instances can pair: the work follows the raters' instances, not the store's.
    const candidates = judgeSide.present.length <= otherSide.present.length ? judgeSide.present : otherSide.present;
    const sides = {judgeValues, otherValues, judgeIds: judgeSide.ids, otherIds: otherSide.ids};
    // Room for every candidate, so one pass fills it; the columns are the filled part.
    const m = candidates.length;
    const out = {instance: new Int32Array(m), judge: new Float64Array(m), other: new Float64Array(m), judgeId: new Int32Array(m), otherId: new Int32Array(m), cellOf: new Int32Array(m)};
    const {dimension, playedByHuman, episode} = c;
    const filled = fillPaired(candidates, sides, out, {dimension, playedByHuman, episode, listed: engine.listed}, new Uint8Array(instances));
    const n = (this.n = filled.paired);
    this.episodes = filled.episodes;
    this.instance = out.instance.subarray(0, n);
    this.judge = out.judge.subarray(0, n);
    this.other = out.other.subarray(0, n);
    this.judgeId = out.judgeId.subarray(0, n);
    this.otherId = out.otherId.subarray(0, n);
    this.cellOf = out.cellOf.subarray(0, n);
  }

  /** The table for k bins and a basis. */
  table(bins: number, basis: SpreadBasis): AgreementRow[] {
    const base = (this.base ??= this.baseStats());
    const kappa = this.kappa(bins);
    const within = this.within(basis);
    const L = this.L;
    const rows: AgreementRow[] = [];
    for (let d = 0; d <= L; d++) {
      for (let p = 0; p < 3; p++) {
        const cell = d * 3 + p;
        const n = base.n[cell]!;
        if (n === 0 && p !== 0) continue;
        // The spread is a dimension's own: a pooled row adds up its dimensions' counts, as the library does.
        let w = 0;
        let counted = 0;
        for (let part = d === L ? 0 : d; part < (d === L ? L : d + 1); part++) {
          const used = within.used[part * 3 + p]!;
          if (used) {
            w += (within.within[part * 3 + p]! / used) * used;
            counted += used;
          }
        }
        rows.push({
          dimension: d === L ? ALL : this.engine.dimensionKeys[d]!, played_by: PLAYED[p]!, n,
          pearson: base.pearson[cell]!, spearman: base.spearman[cell]!,
          bias: base.diffSum[cell]! / n, withinOneSd: counted ? w / counted : NaN,
          ranges: base.ranges[cell]!, kappaHumans: kappa.humans[cell]!, kappaWithJudge: kappa.withJudge[cell]!,
        });
      }
    }
    return rows;
  }

  hasKappa(bins: number): boolean {
    return this.kappas.has(bins);
  }

  hasWithin(basis: SpreadBasis): boolean {
    return this.withins.has(basis);
  }

  /**
   * The table's parts for k bins and a basis, one per step, each kept: the
   * worker computes ahead a step at a time (tens of milliseconds at 100k),
   * so a request that comes meanwhile waits for one step at most.
   */
  *steps(bins: number, basis: SpreadBasis): Generator<void, void> {
    const sums = (this.sums ??= this.countsAndSums());
    yield;
    this.correlated ??= this.correlations(sums.n, sums.mixed);
    yield;
    this.ranged ??= this.perceivedRanges();
    yield;
    this.kappa(bins);
    yield;
    this.within(basis);
    yield;
    this.histograms ??= this.differenceCounts();
  }

  private baseStats(): BaseStats {
    const {n, diffSum, mixed} = (this.sums ??= this.countsAndSums());
    const {pearsons, spearmans} = (this.correlated ??= this.correlations(n, mixed));
    return {n, diffSum, pearson: pearsons, spearman: spearmans, ranges: (this.ranged ??= this.perceivedRanges())};
  }

  /** Per cell, the instances and the sum of A − B; per pooled cell, whether it holds more than one dimension. */
  private countsAndSums(): {n: Float64Array; diffSum: Float64Array; mixed: Uint8Array} {
    const {cells, L, n: count, cellOf, judge, other} = this;
    const pooled = L * 3;
    const n = new Float64Array(cells);
    const diffSum = new Float64Array(cells);
    // Per pooled cell: the first dimension seen in it, and whether a second one came.
    const firstDimension = new Int32Array(3).fill(-1);
    const mixed = new Uint8Array(3);
    const dimension = this.engine.columns.dimension;
    for (let k = 0; k < count; k++) {
      const own = cellOf[k]!;
      const p = own % 3;
      const diff = judge[k]! - other[k]!;
      if (own < pooled) {
        n[own - p]++;
        diffSum[own - p] += diff;
        n[own]++;
        diffSum[own] += diff;
      }
      n[pooled]++;
      diffSum[pooled] += diff;
      n[pooled + p]++;
      diffSum[pooled + p] += diff;
      const d = dimension[this.instance[k]!]!;
      if (firstDimension[0] === -1) firstDimension[0] = d;
      else if (firstDimension[0] !== d) mixed[0] = 1;
      if (firstDimension[p] === -1) firstDimension[p] = d;
      else if (firstDimension[p] !== d) mixed[p] = 1;
    }
    return {n, diffSum, mixed};
  }

  /**
   * Pearson's r and Spearman's rho per cell (null on a pooled row with
   * several dimensions), as the library's pearson gives them over the cell's
   * values and over their average ranks, in two passes over the pairing:
   * the first sums the values and tallies them per distinct value (from
   * which come the ranks), the second sums the products about the means.
   * Each sum runs over the cell's instances in pairing order, as pearson
   * runs over the gathered values, so the numbers are the same to the bit;
   * a mean rank may be summed from the tallies instead, as ranks are whole
   * or half numbers whose sums are exact in any order.
   */
  private correlations(n: Float64Array, mixed: Uint8Array): {pearsons: (Correlation | null)[]; spearmans: (Correlation | null)[]} {
    const {cells, L, cellOf, judge, other, judgeId, otherId, n: paired} = this;
    const pooled = L * 3;
    const xPlace = this.judgeOrder;
    const yPlace = this.otherOrder;
    const X = xPlace.length;
    const Y = yPlace.length;
    const sumX = new Float64Array(cells);
    const sumY = new Float64Array(cells);
    const tallyX = new Int32Array(cells * X);
    const tallyY = new Int32Array(cells * Y);
    // Per pooled cell (all, model, human): the cell while it holds one dimension, else −1 (rarely one; never counted then).
    const pooledCells = Int32Array.from([0, 1, 2], (p) => (mixed[p] === 0 ? pooled + p : -1));
    const pairs: PairColumns = {paired, cellOf, judge, other, judgeId, otherId, xPlace, yPlace, pooled, pooledCells};
    tallyCells(pairs, sumX, sumY, tallyX, tallyY, X, Y);
    const meanX = sumX.map((s, cell) => s / n[cell]!);
    const meanY = sumY.map((s, cell) => s / n[cell]!);
    const rankX = averageRankTable(tallyX, cells, X);
    const rankY = averageRankTable(tallyY, cells, Y);
    const meanRankX = meanRanks(tallyX, rankX, n, X);
    const meanRankY = meanRanks(tallyY, rankY, n, Y);
    const products = new Float64Array(cells * 6);
    addProducts(pairs, meanX, meanY, rankX, rankY, meanRankX, meanRankY, X, Y, products);
    const pearsons: (Correlation | null)[] = [];
    const spearmans: (Correlation | null)[] = [];
    for (let cell = 0; cell < cells; cell++) {
      // Pooling dimensions with different ranges and levels makes r meaningless (POOLED_CORRELATION_REASON).
      const none = cell >= pooled && mixed[cell - pooled] === 1;
      const at = cell * 6;
      pearsons.push(none ? null : correlation(n[cell]!, products[at]!, products[at + 1]!, products[at + 2]!));
      spearmans.push(none ? null : correlation(n[cell]!, products[at + 3]!, products[at + 4]!, products[at + 5]!));
    }
    return {pearsons, spearmans};
  }

  /** perceivedRanges per cell: instances with two or more annotators, grouped by [min, max] of their scores. */
  private perceivedRanges(): PerceivedRanges[] {
    const {cells, L, cellOf} = this;
    const pooled = L * 3;
    const {range, ranges} = this.humans;
    const R = ranges.length;
    const counted = new Float64Array(cells);
    const inside = new Float64Array(cells);
    const above = new Float64Array(cells);
    const below = new Float64Array(cells);
    const groupN = new Float64Array(cells * R);
    const groupSum = new Float64Array(cells * R);
    const mins = Float64Array.from(ranges, (g) => g.min);
    const maxes = Float64Array.from(ranges, (g) => g.max);
    const tallies = {counted, inside, above, below, groupN, groupSum};
    if (halfPoints(this.judgeValues)) {
      // A's scores are whole or half points: every tally and sum is exact in any order, so the pass counts each instance in its own cell only.
      const own = {counted: new Float64Array(cells), inside: new Float64Array(cells), above: new Float64Array(cells), below: new Float64Array(cells), groupN: new Float64Array(cells * R), groupSum: new Float64Array(cells * R)};
      tallyRangesOwn(this.n, this.instance, this.judge, cellOf, range, mins, maxes, own);
      for (const key of ["counted", "inside", "above", "below", "groupN", "groupSum"] as const) rollUp(own[key], tallies[key], key.startsWith("group") ? R : 1, L);
    } else tallyRanges(this.n, this.instance, this.judge, cellOf, pooled, range, mins, maxes, tallies);
    return Array.from({length: cells}, (_, cell): PerceivedRanges => {
      const c = counted[cell]!;
      const list: PerceivedRangeGroup[] = [];
      for (let r = 0; r < R; r++) {
        const g = groupN[cell * R + r]!;
        if (g) list.push({min: ranges[r]!.min, max: ranges[r]!.max, n: g, meanJudge: groupSum[cell * R + r]! / g});
      }
      list.sort((x, y) => x.min - y.min || x.max - y.max);
      return {groups: list, n: c, inside: c ? inside[cell]! / c : NaN, above: c ? above[cell]! / c : NaN, below: c ? below[cell]! / c : NaN};
    });
  }

  /**
   * Randolph's kappa per cell, among the annotators and with A as one more
   * rater, summed as randolphKappa sums, in pairing order. The annotators'
   * bins come per pattern of scores (HumanScores.binned), so a change of k
   * costs one light pass over the paired instances.
   */
  kappa(bins: number): {humans: Kappa[]; withJudge: Kappa[]} {
    const known = this.kappas.get(bins);
    if (known) return known;
    if (!(Number.isInteger(bins) && bins >= 2)) throw new Error(`kappa needs at least 2 bins, got ${bins}`);
    const {cells, L, cellOf, instance, judge, n: paired} = this;
    const pooled = L * 3;
    const {dimension, dimensions} = this.engine.columns;
    const pattern = this.humans.pattern;
    const judgeId = this.judgeId;
    const {agreeing, counts, size} = this.humans.binned(bins);
    const P = size.length;
    // Per pattern, its term among the annotators; per pattern and A's bin, its term with A: the same divisions the library makes, once each.
    const termH = new Float64Array(P);
    const termJ = new Float64Array(P * bins);
    for (let pat = 0; pat < P; pat++) {
      const m = size[pat]!;
      termH[pat] = m >= 2 ? agreeing[pat]! / (m * (m - 1)) : 0;
      // A's score joins its bin: that bin's c(c − 1) becomes (c + 1)c.
      for (let b = 0; b < bins; b++) termJ[pat * bins + b] = (agreeing[pat]! + 2 * counts[pat * bins + b]!) / ((m + 1) * m);
    }
    // A's bin per (dimension, score id); −1 out of the dimension's range, where binIndex throws its message when met.
    const X = this.judgeValues.length;
    const judgeBin = new Int32Array(dimensions.length * X);
    dimensions.forEach(({lo, hi}, d) => {
      for (let x = 0; x < X; x++) {
        const v = this.judgeValues[x]!;
        judgeBin[d * X + x] = v < lo || v > hi ? -1 : binIndex(v, lo, hi, bins);
      }
    });
    const sumH = new Float64Array(cells);
    const sumJ = new Float64Array(cells);
    for (let k = 0; k < paired; k++) {
      const i = instance[k]!;
      const pat = pattern[i]!;
      if (pat < 0) continue;
      const d = dimension[i]!;
      let bin = judgeBin[d * X + judgeId[k]!]!;
      if (bin < 0) bin = binIndex(judge[k]!, dimensions[d]!.lo, dimensions[d]!.hi, bins);
      const h = termH[pat]!;
      const j = termJ[pat * bins + bin]!;
      const own = cellOf[k]!;
      const p = own % 3;
      // Adding 0 changes no sum: an instance with one annotator adds nothing among them, as randolphKappa skips it.
      if (own < pooled) {
        sumH[own - p] += h;
        sumJ[own - p] += j;
        sumH[own] += h;
        sumJ[own] += j;
      }
      sumH[pooled] += h;
      sumJ[pooled] += j;
      sumH[pooled + p] += h;
      sumJ[pooled + p] += j;
    }
    const {humans: usedH, withJudge: usedJ} = (this.kappaItems ??= this.countKappaItems());
    const kappaOf = (sum: number, used: number): Kappa => {
      const po = used ? sum / used : NaN;
      return {bins, items: used, pairwiseAgreement: po, kappa: (po - 1 / bins) / (1 - 1 / bins)};
    };
    const result = {
      humans: Array.from({length: cells}, (_, cell) => kappaOf(sumH[cell]!, usedH[cell]!)),
      withJudge: Array.from({length: cells}, (_, cell) => kappaOf(sumJ[cell]!, usedJ[cell]!)),
    };
    this.kappas.set(bins, result);
    return result;
  }

  /** Per cell, the instances with two or more annotators and with one or more: counted in each instance's own cell, then added up (counts are exact in any order). */
  private countKappaItems(): {humans: Float64Array; withJudge: Float64Array} {
    const {cells, L, cellOf, instance, n: paired} = this;
    const count = this.humans.count;
    const ownHumans = new Float64Array(cells);
    const ownWithJudge = new Float64Array(cells);
    countItemsOwn(paired, instance, cellOf, count, ownHumans, ownWithJudge);
    const humans = new Float64Array(cells);
    const withJudge = new Float64Array(cells);
    rollUp(ownHumans, humans, 1, L);
    rollUp(ownWithJudge, withJudge, 1, L);
    return {humans, withJudge};
  }

  /** Per dimension cell: instances within one sd and instances used, as differences() counts them. */
  private within(basis: SpreadBasis): {within: Float64Array; used: Float64Array} {
    const known = this.withins.get(basis);
    if (known) return known;
    const pooled = this.L * 3;
    const within = new Float64Array(pooled);
    const used = new Float64Array(pooled);
    const spread = basis === "dimension" ? this.spreadOfOther() : null;
    const sds = basis === "annotators" ? this.humans.sd() : null;
    for (let k = 0; k < this.n; k++) {
      const own = this.cellOf[k]!;
      if (own >= pooled) continue;
      const dimensionCell = own - (own % 3);
      const diff = Math.abs(this.judge[k]! - this.other[k]!);
      if (spread) {
        used[dimensionCell]++;
        used[own]++;
        if (diff <= spread[dimensionCell]!) within[dimensionCell]++;
        if (diff <= spread[own]!) within[own]++;
        continue;
      }
      const i = this.instance[k]!;
      if (this.humans.count[i]! < 2) continue;
      used[dimensionCell]++;
      used[own]++;
      if (diff <= sds![i]!) {
        within[dimensionCell]++;
        within[own]++;
      }
    }
    const result = {within, used};
    this.withins.set(basis, result);
    return result;
  }

  /** The sample sd of B's scores per dimension cell, two-pass as sd() does; NaN under two instances. */
  private spreadOfOther(): Float64Array {
    if (this.spreads) return this.spreads;
    const pooled = this.L * 3;
    const n = new Float64Array(pooled);
    const sum = new Float64Array(pooled);
    const ss = new Float64Array(pooled);
    for (let k = 0; k < this.n; k++) {
      const own = this.cellOf[k]!;
      if (own >= pooled) continue;
      const v = this.other[k]!;
      n[own - (own % 3)]++;
      sum[own - (own % 3)] += v;
      n[own]++;
      sum[own] += v;
    }
    const mean = sum.map((s, cell) => s / n[cell]!);
    for (let k = 0; k < this.n; k++) {
      const own = this.cellOf[k]!;
      if (own >= pooled) continue;
      const v = this.other[k]!;
      const top = own - (own % 3);
      ss[top] += (v - mean[top]!) * (v - mean[top]!);
      ss[own] += (v - mean[own]!) * (v - mean[own]!);
    }
    return (this.spreads = ss.map((s, cell) => (n[cell]! - 1 <= 0 ? NaN : Math.sqrt(s / (n[cell]! - 1)))));
  }

  /** differenceView per dimension key and "all": A − B counted in half-point bins, and the ±1 sd band for the basis. */
  differences(basis: SpreadBasis): AgreementView["differences"] {
    const keys = this.engine.dimensionKeys;
    const L = this.L;
    this.histograms ??= this.differenceCounts();
    const spread = basis === "dimension" ? this.spreadOfOther() : null;
    const out: AgreementView["differences"] = {};
    keys.forEach((key, d) => {
      const s = spread?.[d * 3];
      out[key] = {...this.histograms![d]!, spread: s !== undefined && Number.isFinite(s) ? s : null};
    });
    out[ALL] = {...this.histograms[L]!, spread: null};
    return out;
  }

  /** Half-point bins of A − B (halfPointBins) per listed dimension, then over all of them. */
  private differenceCounts(): DifferenceCounts[] {
    const L = this.L;
    let lowest = 0;
    let highest = 0;
    for (let k = 0; k < this.n; k++) {
      const bin = Math.floor((this.judge[k]! - this.other[k]!) * 2 + 0.5);
      if (bin < lowest) lowest = bin;
      if (bin > highest) highest = bin;
    }
    const width = highest - lowest + 1;
    const counts = new Float64Array((L + 1) * width);
    const reach = new Float64Array(L + 1);
    for (let k = 0; k < this.n; k++) {
      const d = Math.floor(this.cellOf[k]! / 3);
      if (d >= L) continue;
      const diff = this.judge[k]! - this.other[k]!;
      const at = Math.floor(diff * 2 + 0.5) - lowest;
      counts[d * width + at]++;
      counts[L * width + at]++;
      const r = Math.ceil(Math.abs(diff) + 0.25);
      if (r > reach[d]!) reach[d] = r;
      if (r > reach[L]!) reach[L] = r;
    }
    return Array.from({length: L + 1}, (_, d) => {
      const bins: DifferenceCounts["bins"] = [];
      for (let at = 0; at < width; at++) {
        const instances = counts[d * width + at]!;
        const bin = at + lowest;
        if (instances) bins.push({from: bin / 2 - 0.25, to: bin / 2 + 0.25, instances});
      }
      return {bins, reach: reach[d]!};
    });
  }
}

/** Whether every value is a whole or half point small enough that sums of millions of them stay exact (in any order). */
function halfPoints(values: readonly number[]): boolean {
  for (const v of values) if (!Number.isInteger(v * 2) || Math.abs(v) > 2 ** 30) return false;
  return true;
}

/**
 * Totals per cell from tallies per instance's own cell (width entries each):
 * an own cell (d, played) adds to (d, all) and itself when d is listed, and
 * to (pooled, all) and (pooled, played). Only for counts and sums that are
 * exact in any order.
 */
function rollUp(own: Float64Array, out: Float64Array, width: number, L: number): void {
  const pooled = L * 3;
  for (let cell = 0; cell < own.length / width; cell++) {
    const p = cell % 3;
    const targets = cell < pooled ? [cell - p, cell, pooled, pooled + p] : [pooled, cell];
    for (const target of targets) for (let w = 0; w < width; w++) out[target * width + w] += own[cell * width + w]!;
  }
}

/** countKappaItems' pass: per own cell, instances with two or more annotators and with one or more. */
function countItemsOwn(paired: number, instance: Int32Array, cellOf: Int32Array, count: Int32Array, humans: Float64Array, withJudge: Float64Array): void {
  for (let k = 0; k < paired; k++) {
    const m = count[instance[k]!]!;
    if (m === 0) continue;
    const own = cellOf[k]!;
    if (m >= 2) humans[own]++;
    withJudge[own]++;
  }
}

/** tallyRanges counting each instance in its own cell only (A's scores whole or half points: see perceivedRanges). */
function tallyRangesOwn(
  paired: number, instance: Int32Array, judge: Float64Array, cellOf: Int32Array,
  range: Int32Array, mins: Float64Array, maxes: Float64Array,
  out: {counted: Float64Array; inside: Float64Array; above: Float64Array; below: Float64Array; groupN: Float64Array; groupSum: Float64Array},
): void {
  const {counted, inside, above, below, groupN, groupSum} = out;
  const R = mins.length;
  for (let k = 0; k < paired; k++) {
    const r = range[instance[k]!]!;
    if (r < 0) continue;
    const a = judge[k]!;
    const cell = cellOf[k]!;
    counted[cell]++;
    if (a > maxes[r]!) above[cell]++;
    else if (a < mins[r]!) below[cell]++;
    else inside[cell]++;
    groupN[cell * R + r]++;
    groupSum[cell * R + r] += a;
  }
}

/** perceivedRanges' pass: per cell, the instances with a range, A inside / above / below it, and per range A's count and sum, in pairing order. */
function tallyRanges(
  paired: number, instance: Int32Array, judge: Float64Array, cellOf: Int32Array, pooled: number,
  range: Int32Array, mins: Float64Array, maxes: Float64Array,
  out: {counted: Float64Array; inside: Float64Array; above: Float64Array; below: Float64Array; groupN: Float64Array; groupSum: Float64Array},
): void {
  const {counted, inside, above, below, groupN, groupSum} = out;
  const R = mins.length;
  for (let k = 0; k < paired; k++) {
    const r = range[instance[k]!]!;
    if (r < 0) continue;
    const a = judge[k]!;
    // 0 inside, 1 above, 2 below: as the library tests max first, then min.
    const where = a > maxes[r]! ? 1 : a < mins[r]! ? 2 : 0;
    const own = cellOf[k]!;
    const p = own % 3;
    for (let j = own < pooled ? 0 : 2; j < 4; j++) {
      const cell = j === 0 ? own - p : j === 1 ? own : j === 2 ? pooled : pooled + p;
      counted[cell]++;
      if (where === 0) inside[cell]++;
      else if (where === 1) above[cell]++;
      else below[cell]++;
      groupN[cell * R + r]++;
      groupSum[cell * R + r] += a;
    }
  }
}

/** Fills the pairing's columns from the candidates both sides scored (NaN: no score), in their order; returns how many and the episodes they span (seen: one flag per instance, zeroed). */
function fillPaired(
  candidates: Int32Array,
  sides: {judgeValues: Float64Array; otherValues: Float64Array; judgeIds: Int32Array; otherIds: Int32Array},
  out: {instance: Int32Array; judge: Float64Array; other: Float64Array; judgeId: Int32Array; otherId: Int32Array; cellOf: Int32Array},
  at: {dimension: Int32Array; playedByHuman: Uint8Array; episode: Int32Array; listed: Int32Array},
  seen: Uint8Array,
): {paired: number; episodes: number} {
  const {judgeValues, otherValues, judgeIds, otherIds} = sides;
  const {instance, judge, other, judgeId, otherId, cellOf} = out;
  const {dimension, playedByHuman, episode, listed} = at;
  let episodes = 0;
  let k = 0;
  for (let x = 0; x < candidates.length; x++) {
    const i = candidates[x]!;
    const j = judgeValues[i]!;
    const o = otherValues[i]!;
    if (j !== j || o !== o) continue;
    instance[k] = i;
    judge[k] = j;
    other[k] = o;
    judgeId[k] = judgeIds[i]!;
    otherId[k] = otherIds[i]!;
    cellOf[k] = listed[dimension[i]!]! * 3 + 1 + playedByHuman[i]!;
    k++;
    const e = episode[i]!;
    if (seen[e] === 0) {
      seen[e] = 1;
      episodes++;
    }
  }
  return {paired: k, episodes};
}

/** A pairing's columns as the correlations' passes read them: plain arguments, so the passes are top-level functions the JIT keeps optimized. */
interface PairColumns {
  paired: number;
  cellOf: Int32Array;
  judge: Float64Array;
  other: Float64Array;
  judgeId: Int32Array;
  otherId: Int32Array;
  xPlace: Int32Array;
  yPlace: Int32Array;
  pooled: number;
  /** Per pooled cell (all, model, human): the cell, or −1 while it holds several dimensions. */
  pooledCells: Int32Array;
}

/** The correlations' first pass: per cell, the sums of A and of B and the tallies of their places, in pairing order. */
function tallyCells(c: PairColumns, sumX: Float64Array, sumY: Float64Array, tallyX: Int32Array, tallyY: Int32Array, X: number, Y: number): void {
  const {paired, cellOf, judge, other, judgeId, otherId, xPlace, yPlace, pooled, pooledCells} = c;
  const pooledToo = pooledCells[0]! >= 0 || pooledCells[1]! >= 0 || pooledCells[2]! >= 0;
  for (let k = 0; k < paired; k++) {
    const own = cellOf[k]!;
    const x = judge[k]!;
    const y = other[k]!;
    const px = xPlace[judgeId[k]!]!;
    const py = yPlace[otherId[k]!]!;
    if (own < pooled) {
      const top = own - (own % 3);
      sumX[top] += x;
      sumY[top] += y;
      tallyX[top * X + px]++;
      tallyY[top * Y + py]++;
      sumX[own] += x;
      sumY[own] += y;
      tallyX[own * X + px]++;
      tallyY[own * Y + py]++;
    }
    if (!pooledToo) continue;
    // An instance of a listed dimension joins "all", and its played-by cell unless it is already that (own ≥ pooled).
    const p = own % 3;
    for (let j = 0; j < 2; j++) {
      const cell = j === 0 ? pooledCells[0]! : p !== 0 ? pooledCells[p]! : -1;
      if (cell < 0) continue;
      sumX[cell] += x;
      sumY[cell] += y;
      tallyX[cell * X + px]++;
      tallyY[cell * Y + py]++;
    }
  }
}

/** The correlations' second pass: per cell, Σ dx·dy, Σ dx², Σ dy² of the values and then of the ranks about their means (six per cell), in pairing order. */
function addProducts(c: PairColumns, meanX: Float64Array, meanY: Float64Array, rankX: Float64Array, rankY: Float64Array, meanRankX: Float64Array, meanRankY: Float64Array, X: number, Y: number, out: Float64Array): void {
  const {paired, cellOf, judge, other, judgeId, otherId, xPlace, yPlace, pooled, pooledCells} = c;
  const pooledToo = pooledCells[0]! >= 0 || pooledCells[1]! >= 0 || pooledCells[2]! >= 0;
  for (let k = 0; k < paired; k++) {
    const own = cellOf[k]!;
    const x = judge[k]!;
    const y = other[k]!;
    const px = xPlace[judgeId[k]!]!;
    const py = yPlace[otherId[k]!]!;
    const p = own % 3;
    // The dimension's cell first, then the instance's own, then the pooled ones: each cell's sums run in pairing order.
    for (let j = own < pooled ? 0 : 2; j < 4; j++) {
      const cell = j === 0 ? own - p : j === 1 ? own : !pooledToo ? -1 : j === 2 ? pooledCells[0]! : p !== 0 ? pooledCells[p]! : -1;
      if (cell < 0) continue;
      const dx = x - meanX[cell]!;
      const dy = y - meanY[cell]!;
      const rx = rankX[cell * X + px]! - meanRankX[cell]!;
      const ry = rankY[cell * Y + py]! - meanRankY[cell]!;
      const at = cell * 6;
      out[at] += dx * dy;
      out[at + 1] += dx * dx;
      out[at + 2] += dy * dy;
      out[at + 3] += rx * ry;
      out[at + 4] += rx * rx;
      out[at + 5] += ry * ry;
    }
  }
}

interface BaseStats {
  n: Float64Array;
  diffSum: Float64Array;
  pearson: (Correlation | null)[];
  spearman: (Correlation | null)[];
  ranges: PerceivedRanges[];
}

/** pearson's result from its sums: n, Σ dx·dy, Σ dx², Σ dy² about the means. */
function correlation(n: number, sxy: number, sxx: number, syy: number): Correlation {
  const r = n < 2 || sxx === 0 || syy === 0 ? NaN : Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
  return {n, r, p: correlationP(r, n), ci: fisherInterval(r, n)};
}

/** Per cell and place in ascending order, the average rank of that value among the cell's (averageRanks, from the tallies). */
function averageRankTable(tally: Int32Array, cells: number, places: number): Float64Array {
  const rank = new Float64Array(cells * places);
  for (let cell = 0; cell < cells; cell++) {
    let less = 0;
    for (let p = cell * places; p < (cell + 1) * places; p++) {
      const c = tally[p]!;
      if (c) rank[p] = (less + (less + c - 1)) / 2 + 1;
      less += c;
    }
  }
  return rank;
}

/** Per cell, the mean of its instances' ranks: summed per value, exact as the ranks are halves. */
function meanRanks(tally: Int32Array, rank: Float64Array, n: Float64Array, places: number): Float64Array {
  return n.map((count, cell) => {
    let sum = 0;
    for (let p = cell * places; p < (cell + 1) * places; p++) sum += tally[p]! * rank[p]!;
    return sum / count;
  });
}
