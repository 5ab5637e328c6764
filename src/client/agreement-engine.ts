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
import type {DifferenceCounts} from "../components/histogram.js";

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

/** The numbered columns of data/agreement-rows.parquet (AGREEMENT_COLUMNS_SQL), one entry per score. */
export interface CodedScores {
  instance: ArrayLike<number>;
  episode: ArrayLike<number>;
  dimension_code: ArrayLike<number>;
  played_human: ArrayLike<number>;
  rater_code: ArrayLike<number>;
  human: ArrayLike<number>;
  value: ArrayLike<number>;
}

/**
 * Columns from the numbered rows, with the raters and dimensions their codes
 * index (from data/agreement-summary.json). Rows out of (instance, rater)
 * order are put in it; a code out of range is an error naming the row, as it
 * means the two files come from different stores.
 */
export function columnsFromCodes(coded: CodedScores, raters: string[], dimensions: AgreementColumns["dimensions"], file = "agreement-rows.parquet"): AgreementColumns {
  const rows = coded.value.length;
  let instances = 0;
  let sorted = true;
  for (let r = 0; r < rows; r++) {
    const i = coded.instance[r]!;
    const problem = !(Number.isInteger(i) && i >= 0 && i < rows) ? `instance ${i} is not a row number below ${rows}`
      : !(coded.rater_code[r]! >= 0 && coded.rater_code[r]! < raters.length) ? `rater_code ${coded.rater_code[r]} is not below the ${raters.length} raters the summary names`
      : !(coded.dimension_code[r]! >= 0 && coded.dimension_code[r]! < dimensions.length) ? `dimension_code ${coded.dimension_code[r]} is not below the ${dimensions.length} dimensions the summary names`
      : !(coded.episode[r]! >= 0 && coded.episode[r]! < rows) ? `episode ${coded.episode[r]} is not a row number below ${rows}`
      : "";
    if (problem) throw new Error(`${file}, row ${r + 1}: ${problem}; the site's agreement files come from different stores: rebuild the site`);
    if (i + 1 > instances) instances = i + 1;
    if (r > 0 && (i < coded.instance[r - 1]! || (i === coded.instance[r - 1]! && coded.rater_code[r]! < coded.rater_code[r - 1]!))) sorted = false;
  }
  // A counting sort by instance keeps file order within one; then by rater code, as the SQL orders by rater name.
  const order = new Int32Array(rows);
  const rowStart = new Int32Array(instances + 1);
  for (let r = 0; r < rows; r++) rowStart[coded.instance[r]! + 1]++;
  for (let i = 0; i < instances; i++) rowStart[i + 1] += rowStart[i]!;
  if (sorted) {
    for (let r = 0; r < rows; r++) order[r] = r;
  } else {
    const fill = rowStart.slice(0, instances);
    for (let r = 0; r < rows; r++) order[fill[coded.instance[r]!]++] = r;
    for (let i = 0; i < instances; i++) {
      for (let x = rowStart[i]! + 1; x < rowStart[i + 1]!; x++) {
        const row = order[x]!;
        let y = x - 1;
        for (; y >= rowStart[i]! && coded.rater_code[order[y]!]! > coded.rater_code[row]!; y--) order[y + 1] = order[y]!;
        order[y + 1] = row;
      }
    }
  }
  const columns: AgreementColumns = {
    rowStart, episode: new Int32Array(instances), dimension: new Int32Array(instances), playedByHuman: new Uint8Array(instances),
    rater: new Int32Array(rows), human: new Uint8Array(rows), value: new Float64Array(rows), raters, dimensions,
  };
  for (let x = 0; x < rows; x++) {
    const r = order[x]!;
    const i = coded.instance[r]!;
    columns.episode[i] = coded.episode[r]!;
    columns.dimension[i] = coded.dimension_code[r]!;
    columns.playedByHuman[i] = coded.played_human[r]!;
    columns.rater[x] = coded.rater_code[r]!;
    columns.human[x] = coded.human[r]!;
    columns.value[x] = coded.value[r]!;
  }
  return columns;
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

/** One side of a pairing: a score per instance (NaN where none), its id among the side's distinct scores, and each id's place in ascending order. */
interface Side {
  values: Float64Array;
  ids: Int32Array;
  order: Int32Array;
}

function sideOf(values: Float64Array): Side {
  const distinct = new NumberIds();
  const ids = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) if (values[i] === values[i]) ids[i] = distinct.id(values[i]!);
  return {values, ids, order: distinct.order()};
}

/**
 * The human annotators' scores of every instance, one annotator left out (A,
 * when A is one of them): the humans' mean, count and perceived range, and
 * per k their bins. Shared by every pairing with the same A side.
 */
class HumanScores {
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

/**
 * The instances both raters scored (pairInstances, in its order), and the
 * table's parts over them, each computed once: the per-cell counts,
 * correlations and ranges on the first table, kappa per k, the within-one-sd
 * counts per basis. A cell is (dimension, played by): dimension index d of the
 * table's dimensions (d = L for every dimension pooled) times 3, plus 0 for
 * all agents, 1 for agents played by models, 2 by people.
 */
class Pairing {
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
  private cellCounts?: Float64Array;
  private spreads?: Float64Array;
  private histograms?: DifferenceCounts[];
  private readonly kappas = new Map<number, {humans: Kappa[]; withJudge: Kappa[]}>();
  private readonly withins = new Map<SpreadBasis, {within: Float64Array; used: Float64Array}>();

  constructor(private readonly engine: AgreementEngine, judgeSide: Side, otherSide: Side, private readonly humans: HumanScores) {
    const c = engine.columns;
    const judgeValues = judgeSide.values;
    const otherValues = otherSide.values;
    this.judgeOrder = judgeSide.order;
    this.otherOrder = otherSide.order;
    const instances = judgeValues.length;
    this.L = engine.dimensionKeys.length;
    this.cells = (this.L + 1) * 3;
    let n = 0;
    for (let i = 0; i < instances; i++) if (judgeValues[i] === judgeValues[i] && otherValues[i] === otherValues[i]) n++;
    this.n = n;
    this.instance = new Int32Array(n);
    this.judge = new Float64Array(n);
    this.other = new Float64Array(n);
    this.judgeId = new Int32Array(n);
    this.otherId = new Int32Array(n);
    this.cellOf = new Int32Array(n);
    const seen = new Uint8Array(instances);
    let episodes = 0;
    for (let i = 0, k = 0; i < instances; i++) {
      const j = judgeValues[i]!;
      const o = otherValues[i]!;
      // NaN: no score from that side.
      if (j !== j || o !== o) continue;
      this.instance[k] = i;
      this.judge[k] = j;
      this.other[k] = o;
      this.judgeId[k] = judgeSide.ids[i]!;
      this.otherId[k] = otherSide.ids[i]!;
      this.cellOf[k] = engine.listed[c.dimension[i]!]! * 3 + 1 + c.playedByHuman[i]!;
      k++;
      const e = c.episode[i]!;
      if (seen[e] === 0) {
        seen[e] = 1;
        episodes++;
      }
    }
    this.episodes = episodes;
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

  /** Whether a cell has instances: the library leaves out empty model / human rows. Counts only (kappaAmongAllAnnotators needs no more). */
  has(cell: number): boolean {
    if (this.base) return this.base.n[cell]! > 0;
    if (!this.cellCounts) {
      const pooled = this.L * 3;
      const n = new Float64Array(this.cells);
      for (let k = 0; k < this.n; k++) {
        const own = this.cellOf[k]!;
        const p = own % 3;
        if (own < pooled) {
          n[own - p]++;
          n[own]++;
        }
        n[pooled]++;
        n[pooled + p]++;
      }
      this.cellCounts = n;
    }
    return this.cellCounts[cell]! > 0;
  }

  private baseStats(): BaseStats {
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
    const {pearsons, spearmans} = this.correlations(n, mixed);
    return {n, diffSum, pearson: pearsons, spearman: spearmans, ranges: this.perceivedRanges()};
  }

  /** Pearson's r and Spearman's rho per cell, by the library's pearson over gathered values and over average ranks; null on pooled rows. */
  private correlations(n: Float64Array, mixed: Uint8Array): {pearsons: (Correlation | null)[]; spearmans: (Correlation | null)[]} {
    const {cells, L, cellOf} = this;
    const pooled = L * 3;
    // Each dimension cell's values in pairing order, side by side in one buffer.
    const offsets = new Int32Array(cells + 1);
    for (let cell = 0; cell < pooled; cell++) offsets[cell + 1] = offsets[cell]! + n[cell]!;
    for (let cell = pooled; cell < cells; cell++) offsets[cell + 1] = offsets[cell]!;
    const size = offsets[pooled]!;
    const xs = new Float64Array(size);
    const ys = new Float64Array(size);
    const xIds = new Int32Array(size);
    const yIds = new Int32Array(size);
    const fill = offsets.slice(0, pooled);
    for (let k = 0; k < this.n; k++) {
      const own = cellOf[k]!;
      if (own >= pooled) continue;
      const x = this.judge[k]!;
      const y = this.other[k]!;
      const xId = this.judgeId[k]!;
      const yId = this.otherId[k]!;
      const top = fill[own - (own % 3)]++;
      const at = fill[own]++;
      xs[top] = xs[at] = x;
      ys[top] = ys[at] = y;
      xIds[top] = xIds[at] = xId;
      yIds[top] = yIds[at] = yId;
    }
    const xOrder = this.judgeOrder;
    const yOrder = this.otherOrder;
    const pearsons: (Correlation | null)[] = [];
    const spearmans: (Correlation | null)[] = [];
    for (let cell = 0; cell < pooled; cell++) {
      const from = offsets[cell]!;
      const to = offsets[cell + 1]!;
      pearsons.push(pearson(xs.subarray(from, to), ys.subarray(from, to)));
      spearmans.push(pearson(averageRanks(xIds.subarray(from, to), xOrder), averageRanks(yIds.subarray(from, to), yOrder)));
    }
    for (let p = 0; p < 3; p++) {
      // Pooling dimensions with different ranges and levels makes r meaningless (POOLED_CORRELATION_REASON).
      if (mixed[p]) {
        pearsons.push(null);
        spearmans.push(null);
        continue;
      }
      // One dimension (or none) in the pooled row: r over its instances, which a scan finds.
      const xsOne: number[] = [];
      const ysOne: number[] = [];
      for (let k = 0; k < this.n; k++) {
        if (p !== 0 && cellOf[k]! % 3 !== p) continue;
        xsOne.push(this.judge[k]!);
        ysOne.push(this.other[k]!);
      }
      const xIdsOne = new NumberIds();
      const yIdsOne = new NumberIds();
      const xi = Int32Array.from(xsOne, (v) => xIdsOne.id(v));
      const yi = Int32Array.from(ysOne, (v) => yIdsOne.id(v));
      pearsons.push(pearson(xsOne, ysOne));
      spearmans.push(pearson(averageRanks(xi, xIdsOne.order()), averageRanks(yi, yIdsOne.order())));
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
    const cellsOfK = new Int32Array(4);
    for (let k = 0; k < this.n; k++) {
      const r = range[this.instance[k]!]!;
      if (r < 0) continue;
      const {min, max} = ranges[r]!;
      const judge = this.judge[k]!;
      const where = judge > max ? above : judge < min ? below : inside;
      const own = cellOf[k]!;
      const p = own % 3;
      let m = 0;
      if (own < pooled) {
        cellsOfK[m++] = own - p;
        cellsOfK[m++] = own;
      }
      cellsOfK[m++] = pooled;
      cellsOfK[m++] = pooled + p;
      for (let j = 0; j < m; j++) {
        const cell = cellsOfK[j]!;
        counted[cell]++;
        where[cell]++;
        groupN[cell * R + r]++;
        groupSum[cell * R + r] += judge;
      }
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

  /** Randolph's kappa per cell, among the annotators and with A as one more rater, summed as randolphKappa sums. */
  kappa(bins: number): {humans: Kappa[]; withJudge: Kappa[]} {
    const known = this.kappas.get(bins);
    if (known) return known;
    if (!(Number.isInteger(bins) && bins >= 2)) throw new Error(`kappa needs at least 2 bins, got ${bins}`);
    const {cells, L, cellOf} = this;
    const pooled = L * 3;
    const c = this.engine.columns;
    const {agreeing, counts} = this.humans.binned(bins);
    const sumH = new Float64Array(cells);
    const usedH = new Float64Array(cells);
    const sumJ = new Float64Array(cells);
    const usedJ = new Float64Array(cells);
    const lows = Float64Array.from(c.dimensions, (d) => d.lo);
    const highs = Float64Array.from(c.dimensions, (d) => d.hi);
    const add = (cell: number, m: number, termH: number, termJ: number) => {
      if (m >= 2) {
        sumH[cell] += termH;
        usedH[cell]++;
      }
      sumJ[cell] += termJ;
      usedJ[cell]++;
    };
    for (let k = 0; k < this.n; k++) {
      const i = this.instance[k]!;
      const m = this.humans.count[i]!;
      if (m === 0) continue;
      const lo = lows[c.dimension[i]!]!;
      const hi = highs[c.dimension[i]!]!;
      const judge = this.judge[k]!;
      // binIndex, inlined; binIndex itself throws its message for a score out of range.
      const bin = judge < lo || judge > hi ? binIndex(judge, lo, hi, bins) : Math.min(Math.floor(((judge - lo) * bins) / (hi - lo)), bins - 1);
      const termH = m >= 2 ? agreeing[i]! / (m * (m - 1)) : 0;
      // A's score joins its bin: that bin's c(c − 1) becomes (c + 1)c.
      const termJ = (agreeing[i]! + 2 * counts[i * bins + bin]!) / ((m + 1) * m);
      const own = cellOf[k]!;
      const p = own % 3;
      if (own < pooled) {
        add(own - p, m, termH, termJ);
        add(own, m, termH, termJ);
      }
      add(pooled, m, termH, termJ);
      add(pooled + p, m, termH, termJ);
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

interface BaseStats {
  n: Float64Array;
  diffSum: Float64Array;
  pearson: (Correlation | null)[];
  spearman: (Correlation | null)[];
  ranges: PerceivedRanges[];
}

/**
 * averageRanks of a cell's values, given as ids of distinct values and each
 * id's place in ascending order: ties get the mean of the ranks they span,
 * (i + j) / 2 + 1 for sorted positions i … j, found by counting instead of sorting.
 */
function averageRanks(ids: Int32Array, order: Int32Array): Float64Array {
  const tally = new Int32Array(order.length);
  for (let j = 0; j < ids.length; j++) tally[order[ids[j]!]!]++;
  const rank = new Float64Array(order.length);
  let less = 0;
  for (let p = 0; p < tally.length; p++) {
    const c = tally[p]!;
    if (c) rank[p] = (less + (less + c - 1)) / 2 + 1;
    less += c;
  }
  const out = new Float64Array(ids.length);
  for (let j = 0; j < ids.length; j++) out[j] = rank[order[ids[j]!]!]!;
  return out;
}

/**
 * The agreement computations over one set of columns, keeping what a next
 * change can reuse: the annotators' scores per A side, each rater's score per
 * instance, and the last pairings (changing k or the basis reuses a pairing's
 * correlations and ranges; going back to recent raters reuses all of it).
 */
export class AgreementEngine {
  /** Per dimension of the columns: its index among the table's dimensions, or that count for a dimension the table does not list. */
  readonly listed: Int32Array;
  private readonly raterIndex: Map<string, number>;
  /** Raters with at least one score as a human annotator. */
  private readonly annotator: Uint8Array;
  private readonly humanScores = new Map<number, HumanScores>();
  private readonly raterScores = new Map<number, Side>();
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

  /** A rater's index; NO_RATER for the humans; −2 for a name these rows never saw (it pairs nothing, as in the library). */
  private code(c: RaterChoice): number {
    return c === HUMANS ? NO_RATER : (this.raterIndex.get(c.rater) ?? -2);
  }

  /** The annotators' scores with `excluded` left out (NO_RATER: none), kept for the next calls. */
  private humans(excluded: number): HumanScores {
    return keep(this.humanScores, excluded, 2, () => new HumanScores(this.columns, excluded));
  }

  /** A rater's first score of each instance (as list.find gives it), NaN where it has none. */
  private scores(code: number): Side {
    return keep(this.raterScores, code, 6, () => {
      const c = this.columns;
      const values = new Float64Array(c.rowStart.length - 1).fill(NaN);
      for (let i = 0; i < values.length; i++) {
        for (let r = c.rowStart[i]!, end = c.rowStart[i + 1]!; r < end; r++) {
          if (c.rater[r] === code) {
            values[i] = c.value[r]!;
            break;
          }
        }
      }
      return sideOf(values);
    });
  }

  /** pairInstances(rows, a, b), kept for the next calls. */
  private pairing(a: RaterChoice, b: RaterChoice): Pairing {
    return keep(this.pairings, JSON.stringify([a, b]), 3, () => {
      const codeA = this.code(a);
      // Leaving A out of the humans matters only when A is one of them.
      const humans = this.humans(codeA >= 0 && this.annotator[codeA] === 1 ? codeA : NO_RATER);
      const side = (code: number) => (code === NO_RATER ? humans.side() : this.scores(code));
      return new Pairing(this, side(codeA), side(this.code(b)), humans);
    });
  }

  /**
   * Computes ahead, while the reader reads, one part a next change of these
   * options would need (kappa for another k, the other basis), so that change
   * is a lookup. Returns false when nothing is left; each call takes about
   * one change's time, so the worker answers a new request between calls.
   */
  prefetch({a, b, bins, basis}: ViewOptions): boolean {
    const p = this.pairing(a, b);
    const other: SpreadBasis = basis === "dimension" ? "annotators" : "dimension";
    if (!p.hasWithin(other)) {
      p.table(bins, other);
      return true;
    }
    for (let k = 2; k <= 11; k++) {
      if (k === bins || p.hasKappa(k)) continue;
      p.kappa(k);
      return true;
    }
    return false;
  }

  /** Everything the page shows for one choice of options. */
  view({a, b, bins, basis}: ViewOptions): AgreementView {
    const p = this.pairing(a, b);
    let table = p.table(bins, basis);
    const codeA = this.code(a);
    if (codeA >= 0 && this.annotator[codeA] === 1) {
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

/** The value under `key`, made by `make` when missing; at most `size` kept, the least recently used dropped first. */
function keep<K, V>(cache: Map<K, V>, key: K, size: number, make: () => V): V {
  let value = cache.get(key);
  if (value !== undefined) cache.delete(key);
  else {
    value = make();
    if (cache.size >= size) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, value);
  return value;
}
