// One pairing of rater A with rater B over the engine's columns, and the
// agreement table's parts over it, each computed once and kept.
//
// The library's sums are exact (lib/agreement-sums.ts), so they do not depend
// on the order of the instances: one pass over the instances both raters
// scored tallies them into classes of equal terms (who played, dimension, A's
// score, B's score; and the annotators' pattern with A's score), and every
// sum is then count × term per class, added exactly. The numbers are the
// library's to the last bit, and a change of rater costs one light pass.

import {binIndex, type AgreementRow, type Kappa, type PerceivedRangeGroup, type PerceivedRanges, type SpreadBasis} from "../lib/agreement.js";
import {correlationFromSums, ExactSum} from "../lib/agreement-sums.js";
import type {Correlation} from "../lib/inference.js";
import type {DifferenceCounts} from "../components/histogram.js";
import type {AgreementColumns} from "./agreement-columns.js";
import type {HumanScores, PatternStats} from "./agreement-humans.js";
import type {Side} from "./agreement-ranks.js";

export const ALL = "all";
export const PLAYED = [ALL, "model", "human"] as const;

/**
 * What a pairing reads of the engine that makes it (AgreementEngine, which
 * implements this): declared here so that this file does not import the
 * engine, which imports it.
 */
export interface PairingSource {
  readonly columns: AgreementColumns;
  /** The table's dimensions, in its order. */
  readonly dimensionKeys: readonly string[];
  /** Per dimension of the columns: its index among dimensionKeys, or dimensionKeys.length for one the table does not list. */
  readonly listed: Int32Array;
  /** Whether each episode's instances come together, so a pass counts episodes as they change. */
  readonly episodesInOrder: boolean;
}

/** Per dimension key and "all": the histogram of A − B and its ±1 sd band (null unless basis is "dimension" on one dimension). */
export type ViewDifferences = Record<string, DifferenceCounts & {spread: number | null}>;

/** Dense tallies up to this many classes; past it (scores on no small grid), a map. */
const DENSE_LIMIT = 1 << 21;

/**
 * Equal terms counted together. A group is (dimension of the columns, who
 * played): dimension · 2 + 1 when a person played the rated agent.
 */
interface Classes {
  /** The pairs: group, then A's and B's score ids. The rated: pattern · 2 + who played, then A's score id (y unused). */
  key: Int32Array;
  x: Int32Array;
  y: Int32Array;
  count: Float64Array;
}

/**
 * The instances both raters scored (pairInstances), as classes of equal
 * terms, and the table's parts over them, each computed once: the per-cell
 * counts, correlations and ranges on the first table, kappa per k, the
 * within-one-sd counts per basis. A cell is (dimension, played by):
 * dimension index d of the table's dimensions (d = L for every dimension
 * pooled) times 3, plus 0 for all agents, 1 for agents played by models, 2
 * by people.
 */
export class Pairing {
  readonly n: number;
  readonly episodes: number;
  private readonly cells: number;
  private readonly L: number;
  /** Groups: dimensions of the columns × 2. */
  private readonly G: number;
  /** Per group, the four cells it counts in (its dimension's all and own, the pooled all and own); −1 where none. */
  private readonly targets: Int32Array;
  private readonly pairs: Classes;
  private readonly rated: Classes;
  /** Per group: paired instances with two or more annotators, and those with |A − B| within the annotators' sd. */
  private readonly annotatorsUsed: Float64Array;
  private readonly annotatorsWithin: Float64Array;
  private readonly xValues: readonly number[];
  private readonly yValues: readonly number[];
  private readonly xPlace: Int32Array;
  private readonly yPlace: Int32Array;
  private readonly byPattern: PatternStats;
  private base?: BaseStats;
  private sums?: {n: Float64Array; diffSum: Float64Array; mixed: Uint8Array};
  private correlated?: {pearsons: (Correlation | null)[]; spearmans: (Correlation | null)[]};
  private ranged?: PerceivedRanges[];
  private spreads?: Float64Array;
  private histograms?: DifferenceCounts[];
  private readonly kappas = new Map<number, {humans: Kappa[]; withJudge: Kappa[]}>();
  private readonly withins = new Map<SpreadBasis, {within: Float64Array; used: Float64Array}>();

  private readonly humans: HumanScores;

  /** Made from its pass (PairingPass), finished here if the steps ahead did not finish it. */
  constructor(private readonly engine: PairingSource, pass: PairingPass) {
    pass.advance(Infinity);
    this.humans = pass.humans;
    this.L = engine.dimensionKeys.length;
    this.cells = (this.L + 1) * 3;
    this.G = engine.columns.dimensions.length * 2;
    this.targets = groupTargets(engine.listed, this.L);
    const {walk, tally, X, Y} = pass;
    ({xValues: this.xValues, yValues: this.yValues, xPlace: this.xPlace, yPlace: this.yPlace, byPattern: this.byPattern} = pass);
    this.annotatorsUsed = tally.used;
    this.annotatorsWithin = tally.within;
    this.n = pass.paired;
    this.episodes = pass.episodes;
    this.rated = classesOf(tally.rated, X, 1);
    if (walk.otherByPattern) addPairsByPattern(this.rated, walk, this.byPattern, X, Y, tally);
    this.pairs = classesOf(tally.pairs, X * Y, Y);
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
   * worker computes ahead a step at a time, so a request that comes
   * meanwhile waits for one step at most.
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

  /** Per cell, the instances and the exact sum of A − B; per pooled cell, whether it holds more than one dimension. */
  private countsAndSums(): {n: Float64Array; diffSum: Float64Array; mixed: Uint8Array} {
    const {cells, G, pairs, xValues, yValues} = this;
    const groupN = new Float64Array(G);
    const groupDiff = Array.from({length: G}, () => new ExactSum());
    for (let k = 0; k < pairs.key.length; k++) {
      const g = pairs.key[k]!;
      const count = pairs.count[k]!;
      groupN[g] += count;
      groupDiff[g]!.addTimes(xValues[pairs.x[k]!]! - yValues[pairs.y[k]!]!, count);
    }
    const n = new Float64Array(cells);
    const diff = Array.from({length: cells}, () => new ExactSum());
    // Per pooled cell (all, model, human): how many dimensions of the columns it holds (a group is one dimension played one way).
    const dimensions = [0, 0, 0];
    for (let g = 0; g < G; g++) {
      if (groupN[g] === 0) continue;
      this.eachTarget(g, (cell) => {
        n[cell] += groupN[g]!;
        diff[cell]!.addSum(groupDiff[g]!);
      });
      // A dimension played both ways counts once in "all": at its second group (h = 1), only if the first had none.
      if ((g & 1) === 0 || groupN[g - 1] === 0) dimensions[0]++;
      dimensions[1 + (g & 1)]++;
    }
    const mixed = Uint8Array.from(dimensions, (count) => (count > 1 ? 1 : 0));
    return {n, diffSum: Float64Array.from(diff, (s) => s.value()), mixed};
  }

  /** The cells group g counts in. */
  private eachTarget(g: number, visit: (cell: number) => void): void {
    for (let t = g * 4; t < g * 4 + 4; t++) if (this.targets[t]! >= 0) visit(this.targets[t]!);
  }

  /**
   * Pearson's r and Spearman's rho per cell (null on a pooled row with
   * several dimensions), as the library's exactPearson gives them over the
   * cell's values and over their average ranks: the sums and the value
   * tallies per group, added up per cell, give the means and the ranks; then
   * each class adds count × its products about its cell's means.
   */
  private correlations(n: Float64Array, mixed: Uint8Array): {pearsons: (Correlation | null)[]; spearmans: (Correlation | null)[]} {
    const {cells, G, pairs, xValues, yValues, xPlace, yPlace} = this;
    const pooled = this.L * 3;
    const X = xPlace.length;
    const Y = yPlace.length;
    const none = new Uint8Array(cells);
    for (let p = 0; p < 3; p++) none[pooled + p] = mixed[p]!;
    const groupX = Array.from({length: G}, () => new ExactSum());
    const groupY = Array.from({length: G}, () => new ExactSum());
    const tallyX = new Int32Array(cells * X);
    const tallyY = new Int32Array(cells * Y);
    for (let k = 0; k < pairs.key.length; k++) {
      const g = pairs.key[k]!;
      const count = pairs.count[k]!;
      groupX[g]!.addTimes(xValues[pairs.x[k]!]!, count);
      groupY[g]!.addTimes(yValues[pairs.y[k]!]!, count);
      const px = xPlace[pairs.x[k]!]!;
      const py = yPlace[pairs.y[k]!]!;
      for (let t = g * 4; t < g * 4 + 4; t++) {
        const cell = this.targets[t]!;
        if (cell < 0) continue;
        tallyX[cell * X + px] += count;
        tallyY[cell * Y + py] += count;
      }
    }
    const sumX = Array.from({length: cells}, () => new ExactSum());
    const sumY = Array.from({length: cells}, () => new ExactSum());
    for (let g = 0; g < G; g++) {
      this.eachTarget(g, (cell) => {
        sumX[cell]!.addSum(groupX[g]!);
        sumY[cell]!.addSum(groupY[g]!);
      });
    }
    const meanX = Float64Array.from(sumX, (s, cell) => s.value() / n[cell]!);
    const meanY = Float64Array.from(sumY, (s, cell) => s.value() / n[cell]!);
    const rankX = averageRankTable(tallyX, cells, X);
    const rankY = averageRankTable(tallyY, cells, Y);
    const meanRankX = meanRanks(tallyX, rankX, n, X);
    const meanRankY = meanRanks(tallyY, rankY, n, Y);
    const products = Array.from({length: cells * 6}, () => new ExactSum());
    for (let k = 0; k < pairs.key.length; k++) {
      const g = pairs.key[k]!;
      const count = pairs.count[k]!;
      const x = xValues[pairs.x[k]!]!;
      const y = yValues[pairs.y[k]!]!;
      const px = xPlace[pairs.x[k]!]!;
      const py = yPlace[pairs.y[k]!]!;
      for (let t = g * 4; t < g * 4 + 4; t++) {
        const cell = this.targets[t]!;
        if (cell < 0 || none[cell] === 1) continue;
        const dx = x - meanX[cell]!;
        const dy = y - meanY[cell]!;
        const rx = rankX[cell * X + px]! - meanRankX[cell]!;
        const ry = rankY[cell * Y + py]! - meanRankY[cell]!;
        const at = cell * 6;
        products[at]!.addTimes(dx * dy, count);
        products[at + 1]!.addTimes(dx * dx, count);
        products[at + 2]!.addTimes(dy * dy, count);
        products[at + 3]!.addTimes(rx * ry, count);
        products[at + 4]!.addTimes(rx * rx, count);
        products[at + 5]!.addTimes(ry * ry, count);
      }
    }
    const pearsons: (Correlation | null)[] = [];
    const spearmans: (Correlation | null)[] = [];
    for (let cell = 0; cell < cells; cell++) {
      // Pooling dimensions with different ranges and levels makes r meaningless (POOLED_CORRELATION_REASON).
      const at = cell * 6;
      const sum = (j: number) => products[at + j]!.value();
      // A side is constant when one value holds all its pairs: its ranks are then constant too, and
      // its Σdx² may still be a rounding residue (a mean of 6.6 over five 6.6s), not 0.
      const constant = oneValue(tallyX, cell * X, X) || oneValue(tallyY, cell * Y, Y);
      pearsons.push(none[cell] ? null : correlationFromSums(n[cell]!, sum(0), sum(1), sum(2), constant));
      spearmans.push(none[cell] ? null : correlationFromSums(n[cell]!, sum(3), sum(4), sum(5), constant));
    }
    return {pearsons, spearmans};
  }

  /** perceivedRanges per cell: instances with two or more annotators, grouped by [min, max] of their scores. */
  private perceivedRanges(): PerceivedRanges[] {
    const {cells, G, rated, xValues, byPattern} = this;
    const {ranges} = this.humans;
    const R = ranges.length;
    const own = {counted: new Float64Array(G), inside: new Float64Array(G), above: new Float64Array(G), below: new Float64Array(G), groupN: new Float64Array(G * R)};
    const ownSum: (ExactSum | undefined)[] = new Array(G * R);
    for (let k = 0; k < rated.key.length; k++) {
      const pat = rated.key[k]! >> 1;
      const r = byPattern.range[pat]!;
      if (r < 0) continue;
      const g = byPattern.dimension[pat]! * 2 + (rated.key[k]! & 1);
      const count = rated.count[k]!;
      const a = xValues[rated.x[k]!]!;
      own.counted[g] += count;
      // As the library tests max first, then min.
      if (a > ranges[r]!.max) own.above[g] += count;
      else if (a < ranges[r]!.min) own.below[g] += count;
      else own.inside[g] += count;
      own.groupN[g * R + r] += count;
      (ownSum[g * R + r] ??= new ExactSum()).addTimes(a, count);
    }
    const counted = new Float64Array(cells);
    const inside = new Float64Array(cells);
    const above = new Float64Array(cells);
    const below = new Float64Array(cells);
    const groupN = new Float64Array(cells * R);
    const groupSum: (ExactSum | undefined)[] = new Array(cells * R);
    for (let g = 0; g < G; g++) {
      if (own.counted[g] === 0) continue;
      this.eachTarget(g, (cell) => {
        counted[cell] += own.counted[g]!;
        inside[cell] += own.inside[g]!;
        above[cell] += own.above[g]!;
        below[cell] += own.below[g]!;
        for (let r = 0; r < R; r++) {
          const sum = ownSum[g * R + r];
          if (!sum) continue;
          groupN[cell * R + r] += own.groupN[g * R + r]!;
          (groupSum[cell * R + r] ??= new ExactSum()).addSum(sum);
        }
      });
    }
    return Array.from({length: cells}, (_, cell): PerceivedRanges => {
      const c = counted[cell]!;
      const list: PerceivedRangeGroup[] = [];
      for (let r = 0; r < R; r++) {
        const g = groupN[cell * R + r]!;
        if (g) list.push({min: ranges[r]!.min, max: ranges[r]!.max, n: g, meanJudge: groupSum[cell * R + r]!.value() / g});
      }
      list.sort((x, y) => x.min - y.min || x.max - y.max);
      return {groups: list, n: c, inside: c ? inside[cell]! / c : NaN, above: c ? above[cell]! / c : NaN, below: c ? below[cell]! / c : NaN};
    });
  }

  /**
   * Randolph's kappa per cell, among the annotators and with A as one more
   * rater: each term worked out once per pattern (and A's bin) by the
   * library's own division, then count × term per class, added exactly.
   */
  kappa(bins: number): {humans: Kappa[]; withJudge: Kappa[]} {
    const known = this.kappas.get(bins);
    if (known) return known;
    if (!(Number.isInteger(bins) && bins >= 2)) throw new Error(`kappa needs at least 2 bins, got ${bins}`);
    const {cells, G, rated, xValues, byPattern} = this;
    const {dimensions} = this.engine.columns;
    const {agreeing, counts, size} = this.humans.binned(bins);
    const P = size.length;
    const termH = new Float64Array(P);
    const termJ = new Float64Array(P * bins);
    for (let pat = 0; pat < P; pat++) {
      const m = size[pat]!;
      termH[pat] = m >= 2 ? agreeing[pat]! / (m * (m - 1)) : 0;
      // A's score joins its bin: that bin's c(c − 1) becomes (c + 1)c.
      for (let b = 0; b < bins; b++) termJ[pat * bins + b] = (agreeing[pat]! + 2 * counts[pat * bins + b]!) / ((m + 1) * m);
    }
    // A's bin per (dimension, score id); −1 out of the dimension's range, where binIndex throws its message when met.
    const X = xValues.length;
    const judgeBin = new Int32Array(dimensions.length * X);
    dimensions.forEach(({lo, hi}, d) => {
      for (let x = 0; x < X; x++) {
        const v = xValues[x]!;
        judgeBin[d * X + x] = v < lo || v > hi ? -1 : binIndex(v, lo, hi, bins);
      }
    });
    const ownH = Array.from({length: G}, () => new ExactSum());
    const ownJ = Array.from({length: G}, () => new ExactSum());
    const ownUsedH = new Float64Array(G);
    const ownUsedJ = new Float64Array(G);
    for (let k = 0; k < rated.key.length; k++) {
      const pat = rated.key[k]! >> 1;
      const d = byPattern.dimension[pat]!;
      const g = d * 2 + (rated.key[k]! & 1);
      const count = rated.count[k]!;
      let bin = judgeBin[d * X + rated.x[k]!]!;
      if (bin < 0) bin = binIndex(xValues[rated.x[k]!]!, dimensions[d]!.lo, dimensions[d]!.hi, bins);
      // One annotator adds nothing among them (randolphKappa skips it); a term of 0 changes no sum of terms ≥ 0.
      if (size[pat]! >= 2) {
        ownH[g]!.addTimes(termH[pat]!, count);
        ownUsedH[g] += count;
      }
      ownJ[g]!.addTimes(termJ[pat * bins + bin]!, count);
      ownUsedJ[g] += count;
    }
    const sumH = Array.from({length: cells}, () => new ExactSum());
    const sumJ = Array.from({length: cells}, () => new ExactSum());
    const usedH = new Float64Array(cells);
    const usedJ = new Float64Array(cells);
    for (let g = 0; g < G; g++) {
      if (ownUsedJ[g] === 0) continue;
      this.eachTarget(g, (cell) => {
        sumH[cell]!.addSum(ownH[g]!);
        sumJ[cell]!.addSum(ownJ[g]!);
        usedH[cell] += ownUsedH[g]!;
        usedJ[cell] += ownUsedJ[g]!;
      });
    }
    const kappaOf = (sum: ExactSum, used: number): Kappa => {
      const po = used ? sum.value() / used : NaN;
      return {bins, items: used, pairwiseAgreement: po, kappa: (po - 1 / bins) / (1 - 1 / bins)};
    };
    const result = {
      humans: Array.from({length: cells}, (_, cell) => kappaOf(sumH[cell]!, usedH[cell]!)),
      withJudge: Array.from({length: cells}, (_, cell) => kappaOf(sumJ[cell]!, usedJ[cell]!)),
    };
    this.kappas.set(bins, result);
    return result;
  }

  /** Per dimension cell: instances within one sd and instances used, as differences() counts them. */
  private within(basis: SpreadBasis): {within: Float64Array; used: Float64Array} {
    const known = this.withins.get(basis);
    if (known) return known;
    const pooled = this.L * 3;
    const within = new Float64Array(pooled);
    const used = new Float64Array(pooled);
    if (basis === "dimension") {
      const spread = this.spreadOfOther();
      const {pairs, xValues, yValues} = this;
      for (let k = 0; k < pairs.key.length; k++) {
        const g = pairs.key[k]!;
        const count = pairs.count[k]!;
        const diff = Math.abs(xValues[pairs.x[k]!]! - yValues[pairs.y[k]!]!);
        for (let t = g * 4; t < g * 4 + 2; t++) {
          const cell = this.targets[t]!;
          if (cell < 0 || cell >= pooled) continue;
          used[cell] += count;
          if (diff <= spread[cell]!) within[cell] += count;
        }
      }
    } else {
      for (let g = 0; g < this.G; g++) {
        for (let t = g * 4; t < g * 4 + 2; t++) {
          const cell = this.targets[t]!;
          if (cell < 0 || cell >= pooled) continue;
          used[cell] += this.annotatorsUsed[g]!;
          within[cell] += this.annotatorsWithin[g]!;
        }
      }
    }
    const result = {within, used};
    this.withins.set(basis, result);
    return result;
  }

  /** The sample sd of B's scores per dimension cell, two-pass as exactSd() does; NaN under two instances. */
  private spreadOfOther(): Float64Array {
    if (this.spreads) return this.spreads;
    const pooled = this.L * 3;
    const {pairs, yValues} = this;
    const n = new Float64Array(pooled);
    const sum = Array.from({length: pooled}, () => new ExactSum());
    const ss = Array.from({length: pooled}, () => new ExactSum());
    const dimensionCells = (g: number, visit: (cell: number) => void) => {
      for (let t = g * 4; t < g * 4 + 2; t++) if (this.targets[t]! >= 0 && this.targets[t]! < pooled) visit(this.targets[t]!);
    };
    for (let k = 0; k < pairs.key.length; k++) {
      const y = yValues[pairs.y[k]!]!;
      const count = pairs.count[k]!;
      dimensionCells(pairs.key[k]!, (cell) => {
        n[cell] += count;
        sum[cell]!.addTimes(y, count);
      });
    }
    const mean = Float64Array.from(sum, (s, cell) => s.value() / n[cell]!);
    for (let k = 0; k < pairs.key.length; k++) {
      const y = yValues[pairs.y[k]!]!;
      const count = pairs.count[k]!;
      dimensionCells(pairs.key[k]!, (cell) => ss[cell]!.addTimes((y - mean[cell]!) * (y - mean[cell]!), count));
    }
    return (this.spreads = Float64Array.from(ss, (s, cell) => (n[cell]! < 2 ? NaN : Math.sqrt(s.value() / (n[cell]! - 1)))));
  }

  /** differenceView per dimension key and "all": A − B counted in half-point bins, and the ±1 sd band for the basis. */
  differences(basis: SpreadBasis): ViewDifferences {
    const keys = this.engine.dimensionKeys;
    const L = this.L;
    this.histograms ??= this.differenceCounts();
    const spread = basis === "dimension" ? this.spreadOfOther() : null;
    const out: ViewDifferences = {};
    keys.forEach((key, d) => {
      const s = spread?.[d * 3];
      out[key] = {...this.histograms![d]!, spread: s !== undefined && Number.isFinite(s) ? s : null};
    });
    out[ALL] = {...this.histograms[L]!, spread: null};
    return out;
  }

  /** Half-point bins of A − B (halfPointBins) per listed dimension, then over all of them. */
  private differenceCounts(): DifferenceCounts[] {
    const {L, pairs, xValues, yValues} = this;
    const listed = this.engine.listed;
    const bins = Array.from({length: L + 1}, () => new Map<number, number>());
    const reach = new Float64Array(L + 1);
    for (let k = 0; k < pairs.key.length; k++) {
      const d = listed[pairs.key[k]! >> 1]!;
      if (d >= L) continue;
      const count = pairs.count[k]!;
      const diff = xValues[pairs.x[k]!]! - yValues[pairs.y[k]!]!;
      const bin = Math.floor(diff * 2 + 0.5);
      const r = Math.ceil(Math.abs(diff) + 0.25);
      for (const at of [d, L]) {
        bins[at]!.set(bin, (bins[at]!.get(bin) ?? 0) + count);
        if (r > reach[at]!) reach[at] = r;
      }
    }
    return bins.map((counts, d) => ({
      bins: Array.from(counts.keys()).sort((x, y) => x - y).map((bin) => ({from: bin / 2 - 0.25, to: bin / 2 + 0.25, instances: counts.get(bin)!})),
      reach: reach[d]!,
    }));
  }
}

/** How many candidates one step of a pairing's pass walks ahead: ~15 ms cold at 100k under load, ~3 ms warm. */
export const PASS_SLICE = 1 << 17;

/** Where a pass stands between slices: the candidate next, each list's cursor, and the counts so far. */
interface Cursor {
  c: number;
  atJudge: number;
  atOther: number;
  atOverlay: number;
  lastEpisode: number;
  paired: number;
  episodes: number;
}

/**
 * The pairing's one pass over the instances that can pair, a slice at a
 * time (advance), so that the worker computing a pairing ahead takes short
 * steps and a request waits for one slice; Pairing finishes it and builds
 * the classes. The tallies are counts, so slices give the one pass's exactly.
 */
export class PairingPass {
  readonly xValues: readonly number[];
  readonly yValues: readonly number[];
  readonly xPlace: Int32Array;
  readonly yPlace: Int32Array;
  readonly byPattern: PatternStats;
  readonly walk: Walk;
  readonly tally: Tally;
  readonly X: number;
  readonly Y: number;
  private readonly seen: Uint8Array | null;
  /** Whether the pass is a named A against the annotators' mean with episodes in order: tallyAgainstAnnotators. */
  private readonly againstAnnotators: boolean;
  private readonly cursor: Cursor = {c: 0, atJudge: 0, atOther: 0, atOverlay: 0, lastEpisode: -1, paired: 0, episodes: 0};
  private readonly columns: AgreementColumns;

  /** A and B: a named rater's side, or null for the annotators' mean (from `humans`, by pattern). */
  constructor(engine: PairingSource, judge: Side | null, other: Side | null, readonly humans: HumanScores) {
    const c = (this.columns = engine.columns);
    const G = c.dimensions.length * 2;
    const means = judge && other ? null : humans.means();
    this.xValues = judge ? judge.distinct.values : means!.distinct.values;
    this.yValues = other ? other.distinct.values : means!.distinct.values;
    this.xPlace = judge ? judge.order : means!.order;
    this.yPlace = other ? other.order : means!.order;
    this.byPattern = humans.patternStats();
    const X = (this.X = this.xValues.length);
    const Y = (this.Y = this.yValues.length);
    const P = this.byPattern.size.length;
    // Only a named rater's instances can pair (the smaller one's when both are): the work follows the raters' instances, not the store's.
    const from: Walk["from"] = judge && (!other || judge.present.length <= other.present.length) ? JUDGE : other ? OTHER : HUMANS_PRESENT;
    const candidates = from === JUDGE ? judge!.present : from === OTHER ? other!.present : humans.present;
    const pairSpace = G * X * Y;
    const ratedSpace = P * 2 * X;
    this.tally = {
      pairs: pairSpace <= DENSE_LIMIT ? new Int32Array(pairSpace) : new Map(),
      rated: ratedSpace <= DENSE_LIMIT ? new Int32Array(ratedSpace) : new Map(),
      used: new Float64Array(G),
      within: new Float64Array(G),
    };
    this.seen = engine.episodesInOrder ? null : new Uint8Array(c.rowStart.length - 1);
    const none = new Int32Array(0);
    this.walk = {
      candidates, from,
      judgePresent: judge?.present ?? none, judgeIds: judge?.ids ?? none, otherPresent: other?.present ?? none, otherIds: other?.ids ?? none,
      judgeByPattern: judge === null, otherByPattern: other === null, meanIds: means?.ids ?? none,
      pattern: humans.pattern, overlayAt: humans.overlayAt, overlayPattern: humans.overlayPattern,
      xValues: Float64Array.from(this.xValues), yValues: Float64Array.from(this.yValues),
    };
    this.againstAnnotators = from === JUDGE && this.walk.otherByPattern && this.tally.rated instanceof Int32Array && this.seen === null;
  }

  get paired(): number {
    return this.cursor.paired;
  }

  get episodes(): number {
    return this.cursor.episodes;
  }

  /** Walks up to `most` more candidates; returns whether the pass is done. */
  advance(most: number): boolean {
    const {walk, tally, cursor, humans, columns: c} = this;
    const to = Math.min(walk.candidates.length, cursor.c + most);
    if (cursor.c < to) {
      if (this.againstAnnotators) tallyAgainstAnnotators(walk.candidates, walk.judgeIds, humans.pattern, humans.overlayAt, humans.overlayPattern, c.playedByHuman, c.episode, this.X, tally.rated as Int32Array, cursor, to);
      else tallyPairs(walk, {dimension: c.dimension, playedByHuman: c.playedByHuman, episode: c.episode, size: this.byPattern.size, sd: this.byPattern.sd}, this.X, this.Y, tally, this.seen, cursor, to);
    }
    return cursor.c === walk.candidates.length;
  }
}

/** Per group (column dimension · 2 + who played), the cells it counts in: its listed dimension's all and own cells, then the pooled all and own; −1 where none. */
function groupTargets(listed: Int32Array, L: number): Int32Array {
  const pooled = L * 3;
  const targets = new Int32Array(listed.length * 2 * 4).fill(-1);
  for (let D = 0; D < listed.length; D++) {
    const d = listed[D]!;
    for (let h = 0; h < 2; h++) {
      const at = (D * 2 + h) * 4;
      const p = 1 + h;
      if (d < L) {
        targets[at] = d * 3;
        targets[at + 1] = d * 3 + p;
      }
      targets[at + 2] = pooled;
      targets[at + 3] = pooled + p;
    }
  }
  return targets;
}

/** The tallies one pass fills: dense by class index, or a map past DENSE_LIMIT. */
interface Tally {
  pairs: Int32Array | Map<number, number>;
  rated: Int32Array | Map<number, number>;
  used: Float64Array;
  within: Float64Array;
}

const JUDGE = 0;
const OTHER = 1;
const HUMANS_PRESENT = 2;

/**
 * What the pairing's pass walks: the candidates (the instances of A's list,
 * B's, or the annotators' when neither is a named rater), each named side's
 * instances (ascending) and score ids, and for the annotators their pattern
 * per instance, with a left-out annotator's instances in an overlay.
 */
interface Walk {
  candidates: Int32Array;
  from: typeof JUDGE | typeof OTHER | typeof HUMANS_PRESENT;
  judgePresent: Int32Array;
  judgeIds: Int32Array;
  otherPresent: Int32Array;
  otherIds: Int32Array;
  /** Whether A (or B) is the annotators' mean: its id is meanIds[pattern]. */
  judgeByPattern: boolean;
  otherByPattern: boolean;
  meanIds: Int32Array;
  pattern: Int32Array;
  overlayAt: Int32Array;
  overlayPattern: Int32Array;
  xValues: Float64Array;
  yValues: Float64Array;
}

/**
 * The one pass over the instances that can pair (ascending), each side's
 * score read through its own list (a cursor that only moves forward) or by
 * pattern: those both sides scored counted by class, and by annotators'
 * pattern when they have one; the within-the-annotators'-sd counts per
 * group; and the episodes (counted as they change when the columns keep an
 * episode's instances together, else with `seen`).
 */
function tallyPairs(
  walk: Walk,
  at: {dimension: Int32Array; playedByHuman: Uint8Array; episode: Int32Array; size: Int32Array; sd: Float64Array},
  X: number, Y: number, tally: Tally, seen: Uint8Array | null, cursor: Cursor, to: number,
): void {
  const {candidates, from, judgePresent, judgeIds, otherPresent, otherIds, judgeByPattern, otherByPattern, meanIds, pattern, overlayAt, overlayPattern, xValues, yValues} = walk;
  const {dimension, playedByHuman, episode, size, sd} = at;
  const {used, within} = tally;
  const densePairs = tally.pairs instanceof Int32Array ? tally.pairs : null;
  const denseRated = tally.rated instanceof Int32Array ? tally.rated : null;
  // With the annotators' mean as B every pair has a pattern, which fixes B's score: the pairs and the within counts come from the rated classes afterwards (addPairsByPattern).
  const byPattern = otherByPattern;
  const mapPairs = tally.pairs instanceof Map ? tally.pairs : null;
  const mapRated = tally.rated instanceof Map ? tally.rated : null;
  const overlays = overlayAt.length;
  const judges = judgePresent.length;
  const others = otherPresent.length;
  let {paired, episodes, lastEpisode, atJudge, atOther, atOverlay} = cursor;
  for (let c = cursor.c; c < to; c++) {
    const i = candidates[c]!;
    let pat = pattern[i]!;
    if (overlays > 0) {
      while (atOverlay < overlays && overlayAt[atOverlay]! < i) atOverlay++;
      if (atOverlay < overlays && overlayAt[atOverlay] === i) pat = overlayPattern[atOverlay]!;
    }
    let x: number;
    if (from === JUDGE) x = judgeIds[c]!;
    else if (judgeByPattern) {
      if (pat < 0) continue;
      x = meanIds[pat]!;
    } else {
      while (atJudge < judges && judgePresent[atJudge]! < i) atJudge++;
      if (atJudge === judges || judgePresent[atJudge] !== i) continue;
      x = judgeIds[atJudge]!;
    }
    let y: number;
    if (from === OTHER) y = otherIds[c]!;
    else if (otherByPattern) {
      if (pat < 0) continue;
      y = meanIds[pat]!;
    } else {
      while (atOther < others && otherPresent[atOther]! < i) atOther++;
      if (atOther === others || otherPresent[atOther] !== i) continue;
      y = otherIds[atOther]!;
    }
    paired++;
    const e = episode[i]!;
    if (seen) {
      if (seen[e] === 0) {
        seen[e] = 1;
        episodes++;
      }
    } else if (e !== lastEpisode) {
      lastEpisode = e;
      episodes++;
    }
    const h = playedByHuman[i]!;
    if (pat >= 0) {
      const ratedKey = (pat * 2 + h) * X + x;
      if (denseRated) denseRated[ratedKey]++;
      else mapRated!.set(ratedKey, (mapRated!.get(ratedKey) ?? 0) + 1);
    }
    if (byPattern) continue;
    const g = dimension[i]! * 2 + h;
    const pairKey = (g * X + x) * Y + y;
    if (densePairs) densePairs[pairKey]++;
    else mapPairs!.set(pairKey, (mapPairs!.get(pairKey) ?? 0) + 1);
    if (pat >= 0 && size[pat]! >= 2) {
      used[g]++;
      if (Math.abs(xValues[x]! - yValues[y]!) <= sd[pat]!) within[g]++;
    }
  }
  Object.assign(cursor, {c: to, paired, episodes, lastEpisode, atJudge, atOther, atOverlay});
}

/**
 * tallyPairs for the commonest pairing, a named A against the annotators'
 * mean: A's instances walked, each counted by (pattern, who played, A's id)
 * when some annotator (but A) scored it. Episodes in order.
 */
function tallyAgainstAnnotators(
  candidates: Int32Array, judgeIds: Int32Array, pattern: Int32Array, overlayAt: Int32Array, overlayPattern: Int32Array,
  playedByHuman: Uint8Array, episode: Int32Array, X: number, rated: Int32Array, cursor: Cursor, to: number,
): void {
  let {paired, episodes, lastEpisode, atOverlay} = cursor;
  const overlays = overlayAt.length;
  let nextOverlay = atOverlay < overlays ? overlayAt[atOverlay]! : -1;
  for (let c = cursor.c; c < to; c++) {
    const i = candidates[c]!;
    let pat = pattern[i]!;
    // The overlay is A's own instances, so it keeps pace with the candidates; the loop only guards a list that does not.
    while (nextOverlay >= 0 && nextOverlay < i) nextOverlay = ++atOverlay < overlays ? overlayAt[atOverlay]! : -1;
    if (i === nextOverlay) pat = overlayPattern[atOverlay]!;
    if (pat < 0) continue;
    paired++;
    rated[(pat * 2 + playedByHuman[i]!) * X + judgeIds[c]!]++;
    const e = episode[i]!;
    if (e !== lastEpisode) {
      lastEpisode = e;
      episodes++;
    }
  }
  Object.assign(cursor, {c: to, paired, episodes, lastEpisode, atOverlay});
}

/** The pairs' tally and the within-the-annotators'-sd counts from the rated classes (A's score id and the pattern), when B's score is the annotators' mean (fixed by the pattern). */
function addPairsByPattern(rated: Classes, walk: Walk, byPattern: PatternStats, X: number, Y: number, tally: Tally): void {
  const {meanIds, xValues, yValues} = walk;
  const {dimension, size, sd} = byPattern;
  for (let k = 0; k < rated.key.length; k++) {
    const pat = rated.key[k]! >> 1;
    const g = dimension[pat]! * 2 + (rated.key[k]! & 1);
    const count = rated.count[k]!;
    const x = rated.x[k]!;
    const y = meanIds[pat]!;
    const key = (g * X + x) * Y + y;
    if (tally.pairs instanceof Int32Array) tally.pairs[key] += count;
    else tally.pairs.set(key, (tally.pairs.get(key) ?? 0) + count);
    if (size[pat]! >= 2) {
      tally.used[g] += count;
      if (Math.abs(xValues[x]! - yValues[y]!) <= sd[pat]!) tally.within[g] += count;
    }
  }
}

/** The classes a tally holds: key = index / per, x = (index % per) / Y, y = index % Y. */
function classesOf(tally: Int32Array | Map<number, number>, per: number, Y: number): Classes {
  let size = 0;
  if (tally instanceof Map) size = tally.size;
  else for (let k = 0; k < tally.length; k++) if (tally[k] !== 0) size++;
  const out: Classes = {key: new Int32Array(size), x: new Int32Array(size), y: new Int32Array(size), count: new Float64Array(size)};
  let at = 0;
  const put = (index: number, count: number) => {
    const rest = index % per;
    out.key[at] = (index - rest) / per;
    out.x[at] = Math.floor(rest / Y);
    out.y[at] = rest % Y;
    out.count[at++] = count;
  };
  if (tally instanceof Map) for (const [index, count] of tally) put(index, count);
  else for (let k = 0; k < tally.length; k++) if (tally[k] !== 0) put(k, tally[k]!);
  return out;
}

interface BaseStats {
  n: Float64Array;
  diffSum: Float64Array;
  pearson: (Correlation | null)[];
  spearman: (Correlation | null)[];
  ranges: PerceivedRanges[];
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

/** Whether at most one of the `width` tallies from `start` is non-zero: a side that held one value only. */
function oneValue(tally: Int32Array, start: number, width: number): boolean {
  let seen = 0;
  for (let i = start; i < start + width; i++) if (tally[i] !== 0 && ++seen > 1) return false;
  return true;
}
