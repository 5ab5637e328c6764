// The agreement table of src/lib/agreement.ts computed over columns (typed
// arrays) instead of one object per score, so that a change of rater, k or
// basis at 100k multiply-rated episodes (1.4M instances, ~4.5M scores) takes
// tens of milliseconds in the page's worker. Every number is the library's:
// sums run over the same instances in the same order, and correlations, bins
// and kappa items go through the library's own functions, so the results are
// equal to the last bit (test/client/agreement-engine.test.ts checks them
// against pairInstances + agreementTable + kappaAmongAllAnnotators).

import {binIndex, HUMANS, type AgreementRow, type Kappa, type PerceivedRangeGroup, type PerceivedRanges, type RaterChoice, type RaterScore, type SpreadBasis} from "../lib/agreement.js";
import {pearson, type Correlation} from "../lib/inference.js";

/**
 * Every score of the multiply-rated episodes, grouped by instance. Instances
 * come in the order pairInstances meets them (the rows' order: episode, agent,
 * dimension); within one, rows keep the rows' order (by rater name).
 */
export interface AgreementColumns {
  /** Per instance, its first row; one more entry closes the last instance. */
  rowStart: Int32Array;
  /** Per instance: episode index, below the number of instances. */
  episode: Int32Array;
  /** Per instance: index into `dimensions`. */
  dimension: Int32Array;
  /** Per instance: 1 when a person played the rated agent. */
  playedByHuman: Uint8Array;
  /** Per row: index into `raters`. */
  rater: Int32Array;
  /** Per row: 1 when the rater scored as a human annotator. */
  human: Uint8Array;
  value: Float64Array;
  raters: string[];
  dimensions: {key: string; lo: number; hi: number}[];
}

/** Columns from score objects, grouped as pairInstances groups them (first appearance): for tests, benchmarks and the summary loader. */
export function columnsFromScores(rows: readonly RaterScore[]): AgreementColumns {
  const raterIndex = new Map<string, number>();
  const dimensionIndex = new Map<string, number>();
  const episodeIndex = new Map<string, number>();
  const dimensions: AgreementColumns["dimensions"] = [];
  const byInstance = new Map<string, RaterScore[]>();
  for (const r of rows) {
    const key = `${r.episode_id}\u0000${r.agent}\u0000${r.dimension}`;
    const list = byInstance.get(key);
    if (list) list.push(r);
    else byInstance.set(key, [r]);
    if (!raterIndex.has(r.rater)) raterIndex.set(r.rater, raterIndex.size);
    if (!dimensionIndex.has(r.dimension)) {
      dimensionIndex.set(r.dimension, dimensions.length);
      dimensions.push({key: r.dimension, lo: r.lo, hi: r.hi});
    }
  }
  const n = byInstance.size;
  const columns: AgreementColumns = {
    rowStart: new Int32Array(n + 1), episode: new Int32Array(n), dimension: new Int32Array(n), playedByHuman: new Uint8Array(n),
    rater: new Int32Array(rows.length), human: new Uint8Array(rows.length), value: new Float64Array(rows.length),
    raters: [...raterIndex.keys()], dimensions,
  };
  let i = 0;
  let row = 0;
  for (const list of byInstance.values()) {
    const first = list[0]!;
    if (!episodeIndex.has(first.episode_id)) episodeIndex.set(first.episode_id, episodeIndex.size);
    columns.rowStart[i] = row;
    columns.episode[i] = episodeIndex.get(first.episode_id)!;
    columns.dimension[i] = dimensionIndex.get(first.dimension)!;
    columns.playedByHuman[i] = first.played_by === "human" ? 1 : 0;
    for (const r of list) {
      columns.rater[row] = raterIndex.get(r.rater)!;
      columns.human[row] = r.rater_kind === "human" ? 1 : 0;
      columns.value[row] = r.value;
      row++;
    }
    i++;
  }
  columns.rowStart[n] = row;
  return columns;
}

/** Counts of A − B in bins half a point wide centred on multiples of 0.5 (as halfPointBins), and how far the histogram must reach. */
export interface DifferenceCounts {
  bins: {from: number; to: number; instances: number}[];
  /** The largest ceil(|A − B| + 0.25): the x extent that shows every bar whole (0 with no differences). */
  reach: number;
}

/** What the page shows for one choice of raters, k and basis. */
export interface AgreementView {
  /** The agreement table as agreementTable gives it, kappa among annotators as kappaAmongAllAnnotators. */
  table: AgreementRow[];
  instances: number;
  episodes: number;
  /** Per dimension key and "all": the histogram of A − B and its ±1 sd band (null unless basis is "dimension" on one dimension). */
  differences: Record<string, DifferenceCounts & {spread: number | null}>;
}

export interface ViewOptions {
  a: RaterChoice;
  b: RaterChoice;
  bins: number;
  basis: SpreadBasis;
}

const ALL = "all";
const PLAYED = [ALL, "model", "human"] as const;
const NO_RATER = -1;

/** Groups of exactly equal numbers (−0 with 0, as === and sorting do), numbered in order of first appearance. */
class NumberIds {
  private keys = new Float64Array(1024);
  private ids = new Int32Array(1024).fill(-1);
  private readonly bits = new Float64Array(1);
  private readonly words = new Uint32Array(this.bits.buffer);
  readonly values: number[] = [];

  id(x: number): number {
    const v = x === 0 ? 0 : x;
    const mask = this.keys.length - 1;
    this.bits[0] = v;
    let slot = Math.imul(this.words[0]! ^ Math.imul(this.words[1]!, 0x9e3779b1), 0x85ebca6b) >>> 0;
    for (;;) {
      slot &= mask;
      const id = this.ids[slot]!;
      if (id < 0) break;
      if (this.keys[slot] === v) return id;
      slot++;
    }
    const id = this.values.length;
    this.values.push(v);
    this.keys[slot] = v;
    this.ids[slot] = id;
    if (this.values.length * 2 > this.keys.length) this.grow();
    return id;
  }

  private grow(): void {
    const size = this.keys.length * 2;
    this.keys = new Float64Array(size);
    this.ids = new Int32Array(size).fill(-1);
    const saved = this.values.slice();
    this.values.length = 0;
    for (const v of saved) this.id(v);
  }

  /** Position of each id's value in ascending order. */
  order(): Int32Array {
    const sorted = this.values.map((v, id) => id).sort((x, y) => this.values[x]! - this.values[y]!);
    const position = new Int32Array(sorted.length);
    sorted.forEach((id, p) => (position[id] = p));
    return position;
  }
}

/** The instances both raters scored, as struct-of-arrays; what pairInstances returns, in its order. */
class Pairing {
  readonly n: number;
  readonly instance: Int32Array;
  readonly judge: Float64Array;
  readonly other: Float64Array;
  /** The human annotators' scores of paired instance k: humanValues[humanStart[k] … humanStart[k + 1]). */
  readonly humanStart: Int32Array;
  readonly humanValues: Float64Array;
  readonly episodes: number;
  /** Per paired instance: its row of the table's cells, (dimension listed, played by) → cell. */
  private readonly cellOf: Int32Array;
  private readonly kappas = new Map<number, {humans: Kappa[]; withJudge: Kappa[]}>();
  private readonly withins = new Map<SpreadBasis, {within: Float64Array; used: Float64Array}>();
  private base?: BaseStats;

  constructor(private readonly engine: AgreementEngine, a: number, b: number, excluded: number) {
    const c = engine.columns;
    const instances = c.rowStart.length - 1;
    const instance = new Int32Array(instances);
    const judge = new Float64Array(instances);
    const other = new Float64Array(instances);
    const humanStart = new Int32Array(instances + 1);
    const humanValues = new Float64Array(c.value.length);
    let n = 0;
    let h = 0;
    let episodes = 0;
    const seen = new Uint8Array(c.rowStart.length);
    for (let i = 0; i < instances; i++) {
      const start = h;
      let sum = 0;
      let foundA = false;
      let foundB = false;
      let valueA = 0;
      let valueB = 0;
      for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
        const rater = c.rater[r]!;
        const v = c.value[r]!;
        if (c.human[r] === 1 && rater !== excluded) {
          humanValues[h++] = v;
          sum += v;
        }
        if (!foundA && rater === a) {
          foundA = true;
          valueA = v;
        }
        if (!foundB && rater === b) {
          foundB = true;
          valueB = v;
        }
      }
      const humans = h - start;
      // The library's mean: the sum in row order over the count.
      const humanMean = sum / humans;
      if (a === NO_RATER) {
        foundA = humans > 0;
        valueA = humanMean;
      }
      if (b === NO_RATER) {
        foundB = humans > 0;
        valueB = humanMean;
      }
      if (!foundA || !foundB) {
        h = start;
        continue;
      }
      instance[n] = i;
      judge[n] = valueA;
      other[n] = valueB;
      humanStart[n] = start;
      n++;
      humanStart[n] = h;
      if (seen[c.episode[i]!] === 0) {
        seen[c.episode[i]!] = 1;
        episodes++;
      }
    }
    this.n = n;
    this.instance = instance.subarray(0, n);
    this.judge = judge.subarray(0, n);
    this.other = other.subarray(0, n);
    this.humanStart = humanStart.subarray(0, n + 1);
    this.humanValues = humanValues.subarray(0, h);
    this.episodes = episodes;
    this.cellOf = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const i = this.instance[k]!;
      this.cellOf[k] = engine.listed[c.dimension[i]!]! * 3 + 1 + c.playedByHuman[i]!;
    }
  }

  /** The table for k bins and a basis (each part computed once per pairing and kept). */
  table(bins: number, basis: SpreadBasis): AgreementRow[] {
    const base = (this.base ??= this.baseStats());
    const kappa = this.kappa(bins);
    const within = this.within(basis);
    const L = this.engine.dimensionKeys.length;
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

  /** Whether cell (dimension, played by) has instances: the library leaves out empty model / human rows. */
  has(cell: number): boolean {
    return (this.base ??= this.baseStats()).n[cell]! > 0;
  }

  /** Calls fn(cell) for the cells paired instance k counts in: its dimension's (all, played by) and the pooled row's. */
  private cells(k: number, fn: (cell: number) => void): void {
    const own = this.cellOf[k]!;
    const pooled = this.engine.dimensionKeys.length * 3;
    const played = own % 3;
    if (own < pooled) {
      fn(own - played);
      fn(own);
    }
    fn(pooled);
    fn(pooled + played);
  }

  private baseStats(): BaseStats {
    const L = this.engine.dimensionKeys.length;
    const cells = (L + 1) * 3;
    const n = new Float64Array(cells);
    const diffSum = new Float64Array(cells);
    const dimensionsSeen = Array.from({length: cells}, () => new Set<number>());
    const {judge, other} = this;
    for (let k = 0; k < this.n; k++) {
      const diff = judge[k]! - other[k]!;
      const dim = this.engine.columns.dimension[this.instance[k]!]!;
      this.cells(k, (cell) => {
        n[cell]++;
        diffSum[cell] += diff;
        if (cell >= L * 3 && dimensionsSeen[cell]!.size < 2) dimensionsSeen[cell]!.add(dim);
      });
    }
    const {pearsons, spearmans} = this.correlations(n, dimensionsSeen);
    return {n, diffSum, pearson: pearsons, spearman: spearmans, ranges: this.perceivedRanges(n)};
  }

  /** Pearson's r and Spearman's rho per cell, by the library's pearson over gathered values and average ranks; null on pooled rows. */
  private correlations(n: Float64Array, dimensionsSeen: Set<number>[]): {pearsons: (Correlation | null)[]; spearmans: (Correlation | null)[]} {
    const cells = n.length;
    const L = this.engine.dimensionKeys.length;
    const judgeIds = new NumberIds();
    const otherIds = new NumberIds();
    const judgeId = new Int32Array(this.n);
    const otherId = new Int32Array(this.n);
    for (let k = 0; k < this.n; k++) {
      judgeId[k] = judgeIds.id(this.judge[k]!);
      otherId[k] = otherIds.id(this.other[k]!);
    }
    const judgeOrder = judgeIds.order();
    const otherOrder = otherIds.order();
    // Members of each cell, in pairing order: a counting sort by cell.
    const offsets = new Int32Array(cells + 1);
    for (let k = 0; k < this.n; k++) this.cells(k, (cell) => offsets[cell + 1]++);
    for (let cell = 0; cell < cells; cell++) offsets[cell + 1] += offsets[cell]!;
    const members = new Int32Array(offsets[cells]!);
    const fill = offsets.slice(0, cells);
    for (let k = 0; k < this.n; k++) this.cells(k, (cell) => (members[fill[cell]++] = k));
    let largest = 0;
    for (let cell = 0; cell < cells; cell++) largest = Math.max(largest, n[cell]!);
    const xs = new Float64Array(largest);
    const ys = new Float64Array(largest);
    const pearsons: (Correlation | null)[] = [];
    const spearmans: (Correlation | null)[] = [];
    for (let cell = 0; cell < cells; cell++) {
      // Pooling dimensions with different ranges and levels makes r meaningless (POOLED_CORRELATION_REASON).
      if (cell >= L * 3 && dimensionsSeen[cell]!.size > 1) {
        pearsons.push(null);
        spearmans.push(null);
        continue;
      }
      const from = offsets[cell]!;
      const count = offsets[cell + 1]! - from;
      for (let j = 0; j < count; j++) {
        const k = members[from + j]!;
        xs[j] = this.judge[k]!;
        ys[j] = this.other[k]!;
      }
      pearsons.push(pearson(xs.subarray(0, count), ys.subarray(0, count)));
      averageRanksInto(xs, members, from, count, judgeId, judgeOrder);
      averageRanksInto(ys, members, from, count, otherId, otherOrder);
      spearmans.push(pearson(xs.subarray(0, count), ys.subarray(0, count)));
    }
    return {pearsons, spearmans};
  }

  /** perceivedRanges per cell: instances with two or more annotators, grouped by [min, max] of their scores. */
  private perceivedRanges(n: Float64Array): PerceivedRanges[] {
    const cells = n.length;
    // The library groups by the text `${min}/${max}`: one group per pair of numbers (−0 prints as 0).
    const valueIds = new NumberIds();
    const rangeOf = new Map<number, number>();
    const ranges: {min: number; max: number}[] = [];
    const range = new Int32Array(this.n).fill(-1);
    for (let k = 0; k < this.n; k++) {
      const from = this.humanStart[k]!;
      const to = this.humanStart[k + 1]!;
      if (to - from < 2) continue;
      let min = Infinity;
      let max = -Infinity;
      for (let j = from; j < to; j++) {
        const v = this.humanValues[j]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      const key = valueIds.id(min) * 0x1000000 + valueIds.id(max);
      let r = rangeOf.get(key);
      if (r === undefined) {
        r = ranges.length;
        rangeOf.set(key, r);
        ranges.push({min, max});
      }
      range[k] = r;
    }
    const R = ranges.length;
    const counted = new Float64Array(cells);
    const inside = new Float64Array(cells);
    const above = new Float64Array(cells);
    const below = new Float64Array(cells);
    const groupN = new Float64Array(cells * R);
    const groupSum = new Float64Array(cells * R);
    for (let k = 0; k < this.n; k++) {
      const r = range[k]!;
      if (r < 0) continue;
      const {min, max} = ranges[r]!;
      const judge = this.judge[k]!;
      const where = judge > max ? above : judge < min ? below : inside;
      this.cells(k, (cell) => {
        counted[cell]++;
        where[cell]++;
        groupN[cell * R + r]++;
        groupSum[cell * R + r] += judge;
      });
    }
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

  /** Randolph's kappa per cell, among the annotators and with A as one more rater, as randolphKappa sums it. */
  kappa(bins: number): {humans: Kappa[]; withJudge: Kappa[]} {
    const known = this.kappas.get(bins);
    if (known) return known;
    if (!(Number.isInteger(bins) && bins >= 2)) throw new Error(`kappa needs at least 2 bins, got ${bins}`);
    const cells = (this.engine.dimensionKeys.length + 1) * 3;
    const sumH = new Float64Array(cells);
    const usedH = new Float64Array(cells);
    const sumJ = new Float64Array(cells);
    const usedJ = new Float64Array(cells);
    const counts = new Int32Array(bins);
    const c = this.engine.columns;
    for (let k = 0; k < this.n; k++) {
      const from = this.humanStart[k]!;
      const m = this.humanStart[k + 1]! - from;
      if (m === 0) continue;
      const {lo, hi} = c.dimensions[c.dimension[this.instance[k]!]!]!;
      counts.fill(0);
      for (let j = from; j < from + m; j++) counts[binIndex(this.humanValues[j]!, lo, hi, bins)]++;
      let agreeing = 0;
      for (let b = 0; b < bins; b++) agreeing += counts[b]! * (counts[b]! - 1);
      const termH = m >= 2 ? agreeing / (m * (m - 1)) : 0;
      // A's score joins its bin: that bin's c(c − 1) becomes (c + 1)c.
      const withJudge = agreeing + 2 * counts[binIndex(this.judge[k]!, lo, hi, bins)]!;
      const termJ = withJudge / ((m + 1) * m);
      this.cells(k, (cell) => {
        if (m >= 2) {
          sumH[cell] += termH;
          usedH[cell]++;
        }
        sumJ[cell] += termJ;
        usedJ[cell]++;
      });
    }
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

  /** Per (listed dimension, played by) cell: instances within one sd and instances used, as differences() counts them. */
  private within(basis: SpreadBasis): {within: Float64Array; used: Float64Array} {
    const known = this.withins.get(basis);
    if (known) return known;
    const cells = this.engine.dimensionKeys.length * 3;
    const within = new Float64Array(cells);
    const used = new Float64Array(cells);
    const spread = basis === "dimension" ? this.spreadOfOther() : null;
    for (let k = 0; k < this.n; k++) {
      const own = this.cellOf[k]!;
      if (own >= cells) continue;
      const dimensionCell = own - (own % 3);
      const diff = Math.abs(this.judge[k]! - this.other[k]!);
      if (spread) {
        used[dimensionCell]++;
        used[own]++;
        if (diff <= spread[dimensionCell]!) within[dimensionCell]++;
        if (diff <= spread[own]!) within[own]++;
        continue;
      }
      const from = this.humanStart[k]!;
      const m = this.humanStart[k + 1]! - from;
      if (m < 2) continue;
      if (diff <= sampleSd(this.humanValues, from, m)) {
        within[dimensionCell]++;
        within[own]++;
      }
      used[dimensionCell]++;
      used[own]++;
    }
    const result = {within, used};
    this.withins.set(basis, result);
    return result;
  }

  /** The sample sd of B's scores per (listed dimension, played by) cell, two-pass as sd() does; NaN under two instances. */
  private spreadOfOther(): Float64Array {
    const cells = this.engine.dimensionKeys.length * 3;
    const n = new Float64Array(cells);
    const sum = new Float64Array(cells);
    const ss = new Float64Array(cells);
    const eachCell = (k: number, fn: (cell: number) => void) => {
      const own = this.cellOf[k]!;
      if (own >= cells) return;
      fn(own - (own % 3));
      fn(own);
    };
    for (let k = 0; k < this.n; k++) {
      const v = this.other[k]!;
      eachCell(k, (cell) => {
        n[cell]++;
        sum[cell] += v;
      });
    }
    const mean = sum.map((s, cell) => s / n[cell]!);
    for (let k = 0; k < this.n; k++) {
      const v = this.other[k]!;
      eachCell(k, (cell) => (ss[cell] += (v - mean[cell]!) * (v - mean[cell]!)));
    }
    return ss.map((s, cell) => (n[cell]! - 1 <= 0 ? NaN : Math.sqrt(s / (n[cell]! - 1))));
  }

  /** differenceView per dimension key and "all": the counts of A − B in half-point bins, and the ±1 sd band. */
  differences(basis: SpreadBasis): AgreementView["differences"] {
    const keys = this.engine.dimensionKeys;
    const L = keys.length;
    const perDimension = Array.from({length: L}, () => new Map<number, number>());
    const reach = new Float64Array(L);
    for (let k = 0; k < this.n; k++) {
      const d = Math.floor(this.cellOf[k]! / 3);
      if (d >= L) continue;
      const diff = this.judge[k]! - this.other[k]!;
      const bin = Math.floor(diff * 2 + 0.5);
      const counts = perDimension[d]!;
      counts.set(bin, (counts.get(bin) ?? 0) + 1);
      reach[d] = Math.max(reach[d]!, Math.ceil(Math.abs(diff) + 0.25));
    }
    const spread = basis === "dimension" ? this.spreadOfOther() : null;
    const out: AgreementView["differences"] = {};
    const pooled = new Map<number, number>();
    let pooledReach = 0;
    keys.forEach((key, d) => {
      const s = spread?.[d * 3];
      out[key] = {...countsOf(perDimension[d]!, reach[d]!), spread: s !== undefined && Number.isFinite(s) ? s : null};
      for (const [bin, count] of perDimension[d]!) pooled.set(bin, (pooled.get(bin) ?? 0) + count);
      pooledReach = Math.max(pooledReach, reach[d]!);
    });
    out[ALL] = {...countsOf(pooled, pooledReach), spread: null};
    return out;
  }
}

interface BaseStats {
  n: Float64Array;
  diffSum: Float64Array;
  pearson: (Correlation | null)[];
  spearman: (Correlation | null)[];
  ranges: PerceivedRanges[];
}

function countsOf(counts: Map<number, number>, reach: number): DifferenceCounts {
  const bins = [...counts.entries()].sort((x, y) => x[0] - y[0]).map(([k, instances]) => ({from: k / 2 - 0.25, to: k / 2 + 0.25, instances}));
  return {bins, reach};
}

/** sd() of values[from … from + m): the mean first, then squared deviations, over m − 1. */
function sampleSd(values: Float64Array, from: number, m: number): number {
  let sum = 0;
  for (let j = from; j < from + m; j++) sum += values[j]!;
  const mean = sum / m;
  let ss = 0;
  for (let j = from; j < from + m; j++) ss += (values[j]! - mean) * (values[j]! - mean);
  return Math.sqrt(ss / (m - 1));
}

/**
 * averageRanks of one cell's values into `out`: ties get the mean of the
 * ranks they span, (i + j) / 2 + 1 for sorted positions i … j, found by
 * counting each distinct value instead of sorting the cell.
 */
function averageRanksInto(out: Float64Array, members: Int32Array, from: number, count: number, ids: Int32Array, order: Int32Array): void {
  const tally = new Int32Array(order.length);
  for (let j = 0; j < count; j++) tally[order[ids[members[from + j]!]!]!]++;
  const rank = new Float64Array(order.length);
  let less = 0;
  for (let p = 0; p < tally.length; p++) {
    const c = tally[p]!;
    if (c) rank[p] = (less + (less + c - 1)) / 2 + 1;
    less += c;
  }
  for (let j = 0; j < count; j++) out[j] = rank[order[ids[members[from + j]!]!]!]!;
}

/**
 * The agreement computations over one set of columns, with the last pairings
 * kept: changing k or the basis reuses the pairing and its correlations,
 * changing back to a recent pair of raters reuses all of it.
 */
export class AgreementEngine {
  /** Per dimension of the columns: its index among the table's dimensions, or that count for a dimension the table does not list. */
  readonly listed: Int32Array;
  private readonly raterIndex: Map<string, number>;
  /** Raters with at least one score as a human annotator. */
  private readonly annotator: Uint8Array;
  private readonly pairings = new Map<string, Pairing>();

  constructor(readonly columns: AgreementColumns, readonly dimensionKeys: readonly string[]) {
    this.listed = Int32Array.from(columns.dimensions, (d) => {
      const at = dimensionKeys.indexOf(d.key);
      return at < 0 ? dimensionKeys.length : at;
    });
    this.raterIndex = new Map(columns.raters.map((r, i) => [r, i]));
    this.annotator = new Uint8Array(columns.raters.length);
    for (let r = 0; r < columns.rater.length; r++) if (columns.human[r] === 1) this.annotator[columns.rater[r]!] = 1;
  }

  private code(c: RaterChoice): number {
    if (c === HUMANS) return NO_RATER;
    // A rater these rows never saw pairs nothing, as in the library.
    return this.raterIndex.get(c.rater) ?? -2;
  }

  /** pairInstances(rows, a, b), kept for the next calls. */
  private pairing(a: RaterChoice, b: RaterChoice): Pairing {
    const key = JSON.stringify([a, b]);
    let p = this.pairings.get(key);
    if (p) {
      this.pairings.delete(key);
    } else {
      const codeA = this.code(a);
      p = new Pairing(this, codeA, this.code(b), codeA);
      // The last few pairs only: each holds arrays as long as the scores.
      if (this.pairings.size >= 4) this.pairings.delete(this.pairings.keys().next().value!);
    }
    this.pairings.set(key, p);
    return p;
  }

  /** Everything the page shows for one choice of options. */
  view({a, b, bins, basis}: ViewOptions): AgreementView {
    const p = this.pairing(a, b);
    let table = p.table(bins, basis);
    const codeA = this.code(a);
    if (a !== HUMANS && codeA >= 0 && this.annotator[codeA] === 1) {
      // kappaAmongAllAnnotators: kappa among every annotator, on every instance two or more of them scored.
      const among = this.pairing(HUMANS, HUMANS);
      const kappa = among.kappa(bins).humans;
      const L = this.dimensionKeys.length;
      table = table.map((row) => {
        const d = row.dimension === ALL ? L : this.dimensionKeys.indexOf(row.dimension);
        const cell = d * 3 + PLAYED.indexOf(row.played_by as (typeof PLAYED)[number]);
        return among.has(cell) || row.played_by === ALL ? {...row, kappaHumans: kappa[cell]!} : row;
      });
    }
    return {table, instances: p.n, episodes: p.episodes, differences: p.differences(basis)};
  }
}
