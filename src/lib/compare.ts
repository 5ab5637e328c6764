// Comparing two runs (issue 16; README § Comparing two runs). A side is a
// slice of the store named by KEY=VALUE filters (model, rater, run, source,
// setting, memory, cot); the two sides' values are paired item by item on
// what both share, tested per metric, and the metrics of one comparison are
// adjusted together as a family. The rows come from SQL (loaders/queries/
// compare.ts in the CLI, the same rows from Parquet on the page); everything
// from the side filter on happens here, once, for both.

import {settingsLabel, type IbScoredRow} from "./informativebench.js";
import {adjustPValues, MULTIPLICITY_LABELS, type MultiplicityMethod} from "./multiplicity.js";
import {pairedBootstraps, pairedProportions, pairedT, twoProportions, welchT, wilcoxonSignedRank} from "./paired-tests.js";
import {DEFAULT_RESAMPLES, DEFAULT_SEED, intervalNote, type IntervalMethod} from "./resample.js";
import {BENCHMARK_KEYS, COMPARE_BENCHMARKS, SIDE_KEYS, type CompareBenchmark, type SideKey} from "./compare-keys.js";
import {HUMANS} from "./agreement-labels.js";

export {BENCHMARK_KEYS, COMPARE_BENCHMARKS, SIDE_KEYS, sideBySideHref, type CompareBenchmark, type SideKey} from "./compare-keys.js";

/** What a task is, per benchmark: the sentence above the table says it. */
export const TASK_PAIRING: Readonly<Record<CompareBenchmark, string>> = {
  sotopia: "the same task (scenario and characters) with the same partner model in the same seat",
  lifelong: "the same chain position of the same pair of characters and scenario, in the same seat",
  hsii: "the same case (and cluster)",
  stss: "the same task and conversation scenario (and goal condition, for condition rates)",
  informativebench: "the same question of the same dataset",
};

export const INSTANCE_PAIRING = "the same episode and seat (the two sides differ only in who rated it)";

/**
 * One value of one metric, as the comparison SQL writes it. `task` pairs
 * items across models or settings, `instance` (episode and seat) pairs two
 * raters or runs of a rater on the same episodes. A side key that does not
 * apply to a metric (an HSII parse has no rater) is null and filters nothing.
 */
export interface CompareRow {
  episode_id: string;
  task: string;
  instance: string;
  cluster: string;
  metric: string;
  /** "binary" (0/1 outcomes: McNemar and Newcombe) or "continuous" (t, Wilcoxon, bootstrap). */
  kind: string;
  value: number;
  model: string | null;
  rater: string | null;
  run: string | null;
  source: string | null;
  setting: string | null;
  memory: string | null;
  cot: string | null;
}

export type Side = Partial<Record<SideKey, string>>;

/** Parses `KEY=VALUE` words into a side, refusing keys the benchmark has not got. */
export function parseSide(words: readonly string[], benchmark: CompareBenchmark, label: "A" | "B"): Side {
  const side: Side = {};
  const allowed = BENCHMARK_KEYS[benchmark];
  for (const word of words) {
    const eq = word.indexOf("=");
    const key = word.slice(0, eq) as SideKey;
    if (eq <= 0) throw new Error(`side ${label}: "${word}" is not KEY=VALUE (keys for ${benchmark}: ${allowed.join(", ")})`);
    if (!allowed.includes(key)) throw new Error(`side ${label}: ${benchmark} has no key "${key}"; its keys are ${allowed.join(", ")}`);
    if (side[key] !== undefined) throw new Error(`side ${label}: ${key} is given twice`);
    side[key] = word.slice(eq + 1);
  }
  return side;
}

export const sideText = (side: Side): string => {
  const parts = SIDE_KEYS.filter((k) => side[k] !== undefined).map((k) => `${k}=${side[k]}`);
  return parts.length ? parts.join(", ") : "everything";
};

/** Whether a row belongs to a side: every key given equals the row's, or does not apply to it. */
export function onSide(row: CompareRow, side: Side): boolean {
  for (const k of SIDE_KEYS) {
    const want = side[k];
    if (want === undefined) continue;
    const have = row[k];
    if (have !== null && have !== want) return false;
  }
  return true;
}

/**
 * The keys the two sides name differently. A row with none of them (an HSII
 * parse has no rater, in a rater-against-rater comparison) satisfies both
 * sides alike and would pair with itself, so it belongs to neither.
 */
export const distinguishingKeys = (a: Side, b: Side): SideKey[] => SIDE_KEYS.filter((k) => a[k] !== b[k]);

/** Whether a row has a value of one of the distinguishing keys, so it can be on one side only. */
function tellsApart(row: CompareRow, keys: readonly SideKey[]): boolean {
  for (const k of keys) if (row[k] !== null) return true;
  return false;
}

/**
 * The metrics of the sides' rows that no row tells apart, in row order: left
 * out of the comparison (and of the family), and named in a note.
 */
export function sharedMetrics(rows: readonly CompareRow[], a: Side, b: Side): string[] {
  const apart = distinguishingKeys(a, b);
  const seen = new Map<string, boolean>();
  for (const r of rows) {
    if (!onSide(r, a) && !onSide(r, b)) continue;
    seen.set(r.metric, (seen.get(r.metric) ?? false) || tellsApart(r, apart));
  }
  const out: string[] = [];
  for (const [metric, told] of seen) if (!told) out.push(metric);
  return out;
}

/** onSide over the keys the side names only (collect reads every row of both sides with it). */
function onKeys(row: CompareRow, side: Side, keys: readonly SideKey[]): boolean {
  for (const k of keys) {
    const have = row[k];
    if (have !== null && have !== side[k]) return false;
  }
  return true;
}

export type Pairing = "task" | "instance";

/** Two sides that differ only in rater or run rate the same episodes: pair them by episode. */
export function pairingOf(a: Side, b: Side): Pairing {
  const differ = SIDE_KEYS.filter((k) => a[k] !== b[k]);
  return differ.length > 0 && differ.every((k) => k === "rater" || k === "run") ? "instance" : "task";
}

export interface CompareOptions {
  adjust: MultiplicityMethod;
  resamples?: number;
  seed?: number;
  interval?: IntervalMethod;
  /** Draw whole scenarios in the bootstrap rather than items. */
  cluster?: boolean;
  /** Compare every item of each side as independent samples (Welch t, two proportions), labelled unpaired. */
  unpaired?: boolean;
  level?: number;
  /** How many changed items to list each way per metric. */
  changed?: number;
  /** Hears each step as it starts, and the bootstrap's resamples now and then: the page's worker shows them. */
  onStep?: (step: string) => void;
}

/** One side's value of one item: the mean of its rows (repeats of a task are averaged and counted). */
interface SideItem {
  value: number;
  rows: number;
  episode: string;
  cluster: string;
}

export interface MetricComparison {
  metric: string;
  kind: "binary" | "continuous";
  nPaired: number;
  unpairedA: number;
  unpairedB: number;
  meanA: number;
  meanB: number;
  difference: number;
  lo: number;
  hi: number;
  bootLo: number;
  bootHi: number;
  p: number;
  pAdjusted: number;
  pWilcoxon: number;
  test: string;
}

export interface ChangedItem {
  metric: string;
  item: string;
  direction: "up" | "down";
  a: number;
  b: number;
  difference: number;
  episodeA: string;
  episodeB: string;
}

export interface UnpairedItem {
  metric: string;
  side: "A" | "B";
  item: string;
  episode: string;
}

export interface Comparison {
  benchmark: CompareBenchmark;
  a: Side;
  b: Side;
  pairing: Pairing;
  metrics: MetricComparison[];
  changed: ChangedItem[];
  unpaired: UnpairedItem[];
  /** Items whose side had several rows (repeats), averaged: per side. */
  averagedA: number;
  averagedB: number;
  /** The one sentence above the table: pairing key and every option. */
  statement: string;
  notes: string[];
}

/** The order metrics are listed in: as first met in the rows (the SQL orders them). */
function metricOrder(rows: Iterable<CompareRow>): {metric: string; kind: string}[] {
  const seen = new Map<string, string>();
  for (const r of rows) if (!seen.has(r.metric)) seen.set(r.metric, r.kind);
  return Array.from(seen, ([metric, kind]) => ({metric, kind}));
}

/** Keys that, when neither side names them, items must also share to pair (a with-COT case pairs with a with-COT case). */
export const MATCHED_KEYS: readonly SideKey[] = ["rater", "setting", "memory", "cot"];

/** The keys of MATCHED_KEYS that neither side names. */
export const matchedKeys = (a: Side, b: Side): SideKey[] => MATCHED_KEYS.filter((k) => a[k] === undefined && b[k] === undefined);

function collect(rows: readonly CompareRow[], side: Side, pairing: Pairing, matched: readonly SideKey[], apart: readonly SideKey[]): Map<string, Map<string, SideItem>> {
  const byMetric = new Map<string, Map<string, SideItem>>();
  // Rows come grouped by metric: the last metric's items are looked up once per run of rows, not once per row.
  let lastMetric: string | null = null;
  let items: Map<string, SideItem> | undefined;
  const wanted = SIDE_KEYS.filter((k) => side[k] !== undefined);
  for (const r of rows) {
    if (!onKeys(r, side, wanted) || !tellsApart(r, apart)) continue;
    if (r.metric !== lastMetric) {
      lastMetric = r.metric;
      items = byMetric.get(r.metric);
      if (!items) byMetric.set(r.metric, (items = new Map()));
    }
    let key = pairing === "task" ? r.task : r.instance;
    for (const k of matched) if (r[k] !== null) key += ` | ${k} ${r[k]}`;
    const item = items!.get(key);
    if (item) {
      item.value += r.value;
      item.rows++;
      if (r.episode_id < item.episode) item.episode = r.episode_id;
    } else {
      items!.set(key, {value: r.value, rows: 1, episode: r.episode_id, cluster: r.cluster});
    }
  }
  for (const items of byMetric.values()) for (const item of items.values()) item.value /= item.rows;
  return byMetric;
}

/**
 * One metric's items after pairing, however they were paired (from rows by
 * pairItems, or in SQL by `sociometer compare`): the paired keys sorted, the
 * two sides' item values and episodes in that order, and what did not pair.
 */
export interface PairedMetric {
  metric: string;
  /** The kind of the metric's first row. */
  kind: string;
  keys: string[];
  valuesA: Float64Array;
  valuesB: Float64Array;
  /** Side A's cluster of each paired item. */
  clusters: string[];
  episodesA: string[];
  episodesB: string[];
  /** The unpaired items, A's then B's, each in the order first met. */
  unpaired: {side: "A" | "B"; item: string; episode: string}[];
  /** Items averaged from several rows, per side. */
  averagedA: number;
  averagedB: number;
  /** Every item's value of each side, in the order first met: only for --unpaired. */
  allA?: Float64Array;
  allB?: Float64Array;
}

/** Pairs the rows of two sides item by item, per metric in the order the rows first give them. */
export function pairItems(rows: readonly CompareRow[], a: Side, b: Side, pairing: Pairing, matched: readonly SideKey[]): PairedMetric[] {
  const apart = distinguishingKeys(a, b);
  const sideA = collect(rows, a, pairing, matched, apart);
  const sideB = collect(rows, b, pairing, matched, apart);
  const out: PairedMetric[] = [];
  for (const {metric, kind} of metricOrder(rows)) {
    const itemsA = sideA.get(metric) ?? new Map<string, SideItem>();
    const itemsB = sideB.get(metric) ?? new Map<string, SideItem>();
    if (itemsA.size === 0 && itemsB.size === 0) continue;
    const keys: string[] = [];
    const unpaired: PairedMetric["unpaired"] = [];
    let averagedA = 0;
    let averagedB = 0;
    for (const [key, item] of itemsA) {
      if (item.rows > 1) averagedA++;
      if (itemsB.has(key)) keys.push(key);
      else unpaired.push({side: "A", item: key, episode: item.episode});
    }
    for (const [key, item] of itemsB) {
      if (item.rows > 1) averagedB++;
      if (!itemsA.has(key)) unpaired.push({side: "B", item: key, episode: item.episode});
    }
    keys.sort();
    const n = keys.length;
    const m: PairedMetric = {
      metric, kind, keys, valuesA: new Float64Array(n), valuesB: new Float64Array(n), clusters: new Array<string>(n), episodesA: new Array<string>(n), episodesB: new Array<string>(n),
      unpaired, averagedA, averagedB,
      allA: Float64Array.from(itemsA.values(), (i) => i.value), allB: Float64Array.from(itemsB.values(), (i) => i.value),
    };
    for (let i = 0; i < n; i++) {
      const x = itemsA.get(keys[i])!;
      const y = itemsB.get(keys[i])!;
      m.valuesA[i] = x.value;
      m.valuesB[i] = y.value;
      m.clusters[i] = x.cluster;
      m.episodesA[i] = x.episode;
      m.episodesB[i] = y.episode;
    }
    out.push(m);
  }
  return out;
}

/** The sides' pairing, refusing two sides that select the same thing. */
export function checkedPairing(a: Side, b: Side): Pairing {
  const pairing = pairingOf(a, b);
  if (pairing === "task" && SIDE_KEYS.every((k) => a[k] === b[k])) throw new Error(`sides A and B are the same (${sideText(a)}): give them different KEY=VALUE`);
  return pairing;
}

/**
 * Compares side B with side A on every metric of `rows` (differences B − A).
 * Each metric's p-values form one family with the others, adjusted by
 * `options.adjust`; unpaired items are counted and listed, never dropped.
 */
export function compareRuns(benchmark: CompareBenchmark, rows: readonly CompareRow[], a: Side, b: Side, options: CompareOptions): Comparison {
  const pairing = checkedPairing(a, b);
  const matched = matchedKeys(a, b);
  const present = matched.filter((k) => rows.some((r) => r[k] !== null));
  return comparePaired(benchmark, pairItems(rows, a, b, pairing, matched), a, b, options, present, sharedMetrics(rows, a, b));
}

/**
 * The tests, intervals and family adjustment over paired metrics (compareRuns
 * after pairing rows, `sociometer compare` after pairing in SQL).
 * `matchedPresent`: the matched keys some row has a value of, for the statement;
 * `shared`: the metrics left out because no row of theirs tells the sides apart, for a note.
 */
export function comparePaired(benchmark: CompareBenchmark, paired: readonly PairedMetric[], a: Side, b: Side, options: CompareOptions, matchedPresent: readonly SideKey[],
  shared: readonly string[] = []): Comparison {
  const pairing = checkedPairing(a, b);
  const level = options.level ?? 0.95;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  const method = options.interval ?? "percentile";
  const changedEach = options.changed ?? 5;
  const metrics: MetricComparison[] = [];
  const changed: ChangedItem[] = [];
  const unpaired: UnpairedItem[] = [];
  let averagedA = 0;
  let averagedB = 0;
  let bootNote = "";
  const pending: {index: number; keys: string[]; differences: Float64Array; clusterOf: Int32Array}[] = [];
  const say = options.onStep ?? (() => {});
  say(`Testing ${paired.length} metric${paired.length === 1 ? "" : "s"}…`);
  for (const p of paired) {
    const {metric, keys, valuesA: va, valuesB: vb} = p;
    averagedA += p.averagedA;
    averagedB += p.averagedB;
    for (const u of p.unpaired) unpaired.push({metric, ...u});
    const n = keys.length;
    let unpairedA = 0;
    for (const u of p.unpaired) if (u.side === "A") unpairedA++;
    const differences = new Float64Array(n);
    const clusterIds = new Map<string, number>();
    const clusterOf = new Int32Array(n);
    let sumA = 0;
    let sumB = 0;
    let whole = true;
    for (let i = 0; i < n; i++) {
      differences[i] = vb[i] - va[i];
      sumA += va[i];
      sumB += vb[i];
      if (!(isBinaryValue(va[i]) && isBinaryValue(vb[i]))) whole = false;
      let c = clusterIds.get(p.clusters[i]);
      if (c === undefined) clusterIds.set(p.clusters[i], (c = clusterIds.size));
      clusterOf[i] = c;
    }
    // A binary metric whose repeats were averaged is no longer 0/1: it is compared as a score.
    const kind: "binary" | "continuous" = p.kind === "binary" && whole ? "binary" : "continuous";
    const base = {metric, kind, nPaired: n, unpairedA, unpairedB: p.unpaired.length - unpairedA, meanA: n ? sumA / n : NaN, meanB: n ? sumB / n : NaN};
    if (options.unpaired) {
      if (!p.allA || !p.allB) throw new Error(`compare: the unpaired comparison of ${metric} needs every item's value of each side`);
      metrics.push({...base, ...unpairedTest(p.allA, p.allB, kind, level), bootLo: NaN, bootHi: NaN, pAdjusted: NaN, pWilcoxon: NaN});
      continue;
    }
    if (n >= 1) pending.push({index: metrics.length, keys, differences, clusterOf});
    let test: Pick<MetricComparison, "difference" | "lo" | "hi" | "p" | "test">;
    let pWilcoxon = NaN;
    if (kind === "binary") {
      const table = {a: 0, b: 0, c: 0, d: 0};
      for (let i = 0; i < n; i++) {
        if (va[i] === 1 && vb[i] === 1) table.a++;
        else if (va[i] === 1) table.b++;
        else if (vb[i] === 1) table.c++;
        else table.d++;
      }
      const r = pairedProportions(table, level);
      test = {difference: r.difference, lo: r.lo, hi: r.hi, p: r.p, test: r.method};
    } else {
      const t = pairedT(differences, level);
      const w = wilcoxonSignedRank(differences);
      pWilcoxon = w.p;
      test = {difference: t.difference, lo: t.lo, hi: t.hi, p: t.p, test: `${t.method}; ${w.method}`};
    }
    metrics.push({...base, ...test, bootLo: NaN, bootHi: NaN, pAdjusted: NaN, pWilcoxon});
    for (const c of mostChanged(p, differences, changedEach)) changed.push(c);
  }
  // Metrics over the same pairs (a SOTOPIA episode's seven dimensions) share one set of resamples.
  for (let start = 0; start < pending.length;) {
    let end = start + 1;
    while (end < pending.length && sameKeys(pending[end].keys, pending[start].keys)) end++;
    const group = pending.slice(start, end);
    const metricsNamed = group.map((g) => metrics[g.index].metric).join(", ");
    const onProgress = (done: number, total: number) => say(`Bootstrapping ${metricsNamed}: ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} resamples…`);
    onProgress(0, resamples);
    const intervals = pairedBootstraps(group.map((g) => g.differences), {resamples, seed, level, method, clusterOf: options.cluster ? group[0].clusterOf : undefined, onProgress});
    group.forEach((g, i) => {
      metrics[g.index].bootLo = intervals[i].lo;
      metrics[g.index].bootHi = intervals[i].hi;
    });
    if (!bootNote) bootNote = intervalNote(intervals[0]);
    start = end;
  }
  const adjusted = adjustPValues(metrics.map((m) => m.p), options.adjust);
  metrics.forEach((m, i) => (m.pAdjusted = adjusted[i]));
  const statement = statementOf(benchmark, a, b, pairing, options, bootNote, matchedPresent);
  const notes: string[] = [];
  if (averagedA || averagedB) notes.push(`items played more than once on a side are averaged first: ${averagedA} on A, ${averagedB} on B (counted over metrics)`);
  if (shared.length) {
    notes.push(`left out: ${shared.join(", ")}, whose values name no ${distinguishingKeys(a, b).join(" or ")}, so both sides share them (each would pair with itself)`);
  }
  const lonely = unpaired.length;
  if (lonely) notes.push(`${lonely} item${lonely === 1 ? "" : "s"} (over metrics) on one side only: counted in n_unpaired_a / n_unpaired_b and listed, not tested`);
  return {benchmark, a, b, pairing, metrics, changed, unpaired, averagedA, averagedB, statement, notes};
}

const isBinaryValue = (v: number): boolean => v === 0 || v === 1;

function sameKeys(x: readonly string[], y: readonly string[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function unpairedTest(valuesA: Float64Array, valuesB: Float64Array, kind: "binary" | "continuous", level: number) {
  const r = kind === "binary"
    ? twoProportions({x: countOnes(valuesA), n: valuesA.length}, {x: countOnes(valuesB), n: valuesB.length}, level)
    : welchT(valuesA, valuesB, level);
  return {difference: r.difference, lo: r.lo, hi: r.hi, p: r.p, test: r.method, meanA: meanOf(valuesA), meanB: meanOf(valuesB)};
}

function countOnes(values: Float64Array): number {
  let n = 0;
  for (const v of values) if (v === 1) n++;
  return n;
}

function meanOf(values: Float64Array): number {
  let s = 0;
  for (const v of values) s += v;
  return values.length ? s / values.length : NaN;
}

/** The `each` largest rises and falls of one metric (ties broken by item key, so page and CLI list the same). */
function mostChanged(p: PairedMetric, d: Float64Array, each: number): ChangedItem[] {
  const {metric, keys} = p;
  const order: number[] = [];
  for (let i = 0; i < keys.length; i++) if (d[i] !== 0) order.push(i);
  order.sort((i, j) => d[j] - d[i] || (keys[i] < keys[j] ? -1 : 1));
  const item = (i: number, direction: "up" | "down"): ChangedItem => ({
    metric, item: keys[i], direction, a: p.valuesA[i], b: p.valuesB[i], difference: d[i], episodeA: p.episodesA[i], episodeB: p.episodesB[i],
  });
  const ups = order.filter((i) => d[i] > 0).slice(0, each).map((i) => item(i, "up"));
  const downs = order.filter((i) => d[i] < 0).reverse().slice(0, each).map((i) => item(i, "down"));
  return ups.concat(downs);
}

function statementOf(benchmark: CompareBenchmark, a: Side, b: Side, pairing: Pairing, o: CompareOptions, bootNote: string, matched: readonly SideKey[]): string {
  const also = matched.length ? ` and the same ${matched.join(", ")} (named by neither side)` : "";
  const pairs = (pairing === "instance" ? INSTANCE_PAIRING : TASK_PAIRING[benchmark]) + also;
  const level = Math.round((o.level ?? 0.95) * 100);
  if (o.unpaired) {
    return `${benchmark}: B (${sideText(b)}) minus A (${sideText(a)}), UNPAIRED as asked: every item of each side as an independent sample ` +
      `(Welch t for scores, two-proportion z with Newcombe's interval for rates), ${level}% intervals; p adjusted by ${MULTIPLICITY_LABELS[o.adjust]}.`;
  }
  return `${benchmark}: B (${sideText(b)}) minus A (${sideText(a)}), paired by ${pairs}; scores: paired t interval and p, Wilcoxon signed-rank p, ` +
    `and a ${bootNote || `${level}% bootstrap`} interval; rates: exact McNemar p and Newcombe's paired score interval; ` +
    `p adjusted over the metrics by ${MULTIPLICITY_LABELS[o.adjust]}.`;
}

/**
 * InformativeBench rows, from results scored by src/lib/informativebench.ts:
 * one per record, the dataset as the metric (binary where the dataset's
 * metric is precision, a score for F1 and IoU), the settings combination as
 * `setting`. task = dataset and question; cluster = dataset.
 */
export function informativebenchCompareRows(scored: readonly IbScoredRow[], sourceOf: ReadonlyMap<string, string>): CompareRow[] {
  return scored.map((r) => ({
    episode_id: r.episode_id, task: `${r.dataset} | ${r.question_id}`, instance: r.episode_id, cluster: r.dataset,
    metric: r.dataset, kind: r.metric === "precision" ? "binary" : "continuous", value: r.score,
    model: r.model, rater: null, run: null, source: sourceOf.get(r.episode_id) ?? null, setting: settingsLabel(r), memory: null, cot: null,
  }));
}

/**
 * The default comparison (defaultSidesFromCounts), counted from rows: the
 * episodes of each model, the episodes each rater scored, and the items each
 * two models pair on.
 */
export function defaultSides(benchmark: CompareBenchmark, rows: readonly CompareRow[]): DefaultSides {
  const episodes = new Map<string, Set<string>>();
  const raterEpisodes = new Map<string, Set<string>>();
  // The models having each (metric, item, rater): what modelPairsSql (loaders/cli/compare-pairs.ts) joins.
  const modelsOfItem = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.model !== null) {
      let set = episodes.get(r.model);
      if (!set) episodes.set(r.model, (set = new Set()));
      set.add(r.episode_id);
      const item = JSON.stringify([r.metric, r.task, r.setting, r.memory, r.cot, r.rater]);
      let models = modelsOfItem.get(item);
      if (!models) modelsOfItem.set(item, (models = new Set()));
      models.add(r.model);
    }
    if (r.rater !== null) {
      let set = raterEpisodes.get(r.rater);
      if (!set) raterEpisodes.set(r.rater, (set = new Set()));
      set.add(r.episode_id);
    }
  }
  const pairs = new Map<string, ModelPairCount>();
  for (const [item, set] of modelsOfItem) {
    const rater = (JSON.parse(item) as (string | null)[])[5];
    const models = Array.from(set).sort();
    for (let j = 1; j < models.length; j++) {
      for (let i = 0; i < j; i++) {
        const key = JSON.stringify([models[i], models[j], rater]);
        const count = pairs.get(key);
        if (count) count.pairs++;
        else pairs.set(key, {model_a: models[i], model_b: models[j], rater, pairs: 1});
      }
    }
  }
  return defaultSidesFromCounts(benchmark, Array.from(episodes, ([model, set]) => ({model, n: set.size})),
    Array.from(raterEpisodes, ([rater, set]) => ({rater, n: set.size})), Array.from(pairs.values()));
}

export interface DefaultSides {
  a: Side;
  b: Side;
  shared: Side;
  note: string;
  /** The (metric, item) the two sides pair on, as counted for the choice: 0 when no two models pair. */
  pairs: number;
}

/**
 * The (metric, item) two models both have under one rater (null: rows that
 * have no rater, which join a side of any rater): what comparing the two,
 * rated by that rater, would pair. model_a and model_b in either order.
 */
export interface ModelPairCount {
  model_a: string;
  model_b: string;
  rater: string | null;
  pairs: number;
}

/** What the Compare page offers for one benchmark: the values of each side key, with their row counts, and the default sides. */
export interface BenchmarkChoices {
  benchmark: CompareBenchmark;
  /** Per side key of the benchmark, the values its rows take (sorted), with their row counts. */
  values: Partial<Record<SideKey, {value: string; rows: number}[]>>;
  defaults: DefaultSides;
}

/** Rows per combination of side keys of a benchmark, as SQL counts them (GROUP BY ALL). */
export type KeyCounts = {benchmark: string; rows: number} & Partial<Record<SideKey, string | null>>;

/**
 * The benchmarks with rows, in COMPARE_BENCHMARKS order, each with its key
 * values and default sides, from counts: rows per key combination, distinct
 * episodes per model, scores per rater, items per two models and rater.
 * Runs only human raters use are not offered: an annotation study is stored
 * as one run per response (hundreds of `response-N`), each a few scores of
 * one annotator, which the rater key already selects.
 */
export function benchmarkChoices(groups: readonly KeyCounts[], models: readonly {benchmark: string; model: string; n: number}[],
  raters: readonly {benchmark: string; rater: string; n: number}[], pairs: readonly (ModelPairCount & {benchmark: string})[],
  humanRaters: ReadonlySet<string>): BenchmarkChoices[] {
  const out: BenchmarkChoices[] = [];
  for (const benchmark of COMPARE_BENCHMARKS) {
    const mine = groups.filter((g) => g.benchmark === benchmark);
    if (mine.length === 0) continue;
    const notOnlyHuman = new Set<string>();
    for (const g of mine) if (g.run && !(g.rater && humanRaters.has(g.rater))) notOnlyHuman.add(g.run);
    const values: BenchmarkChoices["values"] = {};
    for (const key of BENCHMARK_KEYS[benchmark]) {
      const counted = new Map<string, number>();
      for (const g of mine) {
        const v = g[key];
        if (key === "run" && v && !notOnlyHuman.has(v)) continue;
        if (v !== null && v !== undefined) counted.set(v, (counted.get(v) ?? 0) + Number(g.rows));
      }
      if (counted.size) values[key] = Array.from(counted, ([value, rows]) => ({value, rows})).sort((x, y) => (x.value < y.value ? -1 : x.value > y.value ? 1 : 0));
    }
    const defaults = defaultSidesFromCounts(benchmark, models.filter((m) => m.benchmark === benchmark), raters.filter((r) => r.benchmark === benchmark),
      pairs.filter((p) => p.benchmark === benchmark));
    out.push({benchmark, values, defaults});
  }
  return out;
}

/** How a default note names a rater: the pooled annotators (rows of rater `humans`) as such. */
const raterName = (rater: string): string => (rater === HUMANS ? "humans (the annotators pooled)" : rater);

/**
 * The default sides from counts (the page and the CLI count them in SQL),
 * chosen by coverage (issue 33): the rater that scored the most episodes
 * (the pooled annotators are one rater; ties by name), then, rated by it, the
 * two models that pair on the most items (summed over the metrics; rows with
 * no rater pair under any), A the one with more episodes. A rater under which
 * no two models pair gives way to the next. When no two models pair at all,
 * the two with the most episodes and the rater with the most, and the note
 * says nothing pairs. `raterEpisodes` counts the episodes each rater scored.
 */
export function defaultSidesFromCounts(benchmark: CompareBenchmark, modelEpisodes: readonly {model: string; n: number}[], raterEpisodes: readonly {rater: string; n: number}[],
  pairCounts: readonly ModelPairCount[]): DefaultSides {
  const models = byEpisodes(modelEpisodes);
  const raters = byScored(raterEpisodes);
  if (models.length < 2) {
    const shared: Side = raters.length ? {rater: raters[0].rater} : {};
    return {a: {...shared}, b: {...shared}, shared, pairs: 0, note: `${benchmark} has ${models.length} model${models.length === 1 ? "" : "s"}: name the two sides (--a KEY=VALUE, --b KEY=VALUE)`};
  }
  const place = new Map(models.map((m, i) => [m.model, i]));
  // Per rater (null: rows with none), per two models (by their place in `models`), the items they pair on.
  const byRater = new Map<string | null, Map<string, {x: number; y: number; pairs: number}>>();
  for (const c of pairCounts) {
    const i = place.get(c.model_a);
    const j = place.get(c.model_b);
    if (i === undefined || j === undefined || i === j) continue;
    const [x, y] = i < j ? [i, j] : [j, i];
    let counts = byRater.get(c.rater);
    if (!counts) byRater.set(c.rater, (counts = new Map()));
    const key = `${x} ${y}`;
    const entry = counts.get(key) ?? {x, y, pairs: 0};
    entry.pairs += Number(c.pairs);
    counts.set(key, entry);
  }
  const sides = (x: number, y: number, rater: string | null, pairs: number, note: string): DefaultSides => {
    const shared: Side = rater === null ? {} : {rater};
    return {a: {model: models[x].model, ...shared}, b: {model: models[y].model, ...shared}, shared, pairs, note};
  };
  const counted = (x: number, y: number) => `(${models[x].model}: ${models[x].n}, ${models[y].model}: ${models[y].n} episodes)`;
  const candidates: (string | null)[] = raters.length ? raters.map((r) => r.rater) : [null];
  for (const [k, rater] of candidates.entries()) {
    // The rater's own items and the rater-less ones, per two models; ties go to the models with more episodes (the earlier places).
    const under = new Map<string, {x: number; y: number; pairs: number}>();
    for (const from of rater === null ? [null] : [rater, null]) {
      for (const [key, e] of byRater.get(from) ?? []) {
        const sum = under.get(key) ?? {x: e.x, y: e.y, pairs: 0};
        sum.pairs += e.pairs;
        under.set(key, sum);
      }
    }
    let best: {x: number; y: number; pairs: number} | null = null;
    for (const e of under.values()) {
      if (e.pairs > 0 && (!best || e.pairs > best.pairs || (e.pairs === best.pairs && (e.x < best.x || (e.x === best.x && e.y < best.y))))) best = e;
    }
    if (!best) continue;
    const items = `${best.pairs} item${best.pairs === 1 ? "" : "s"} paired, summed over the metrics`;
    if (rater === null) {
      return sides(best.x, best.y, null, best.pairs, `defaults: the two models that pair on the most ${benchmark} items ${counted(best.x, best.y)}: ${items}`);
    }
    const r = raters[k];
    const passed = k === 0 ? "" : ` (${raterName(raters[0].rater)} scored more, ${raters[0].n}, but no two models pair under it)`;
    return sides(best.x, best.y, rater, best.pairs, `defaults: rated by ${raterName(rater)}, the rater that scored the most ${benchmark} episodes (${r.n})${passed}; ` +
      `under it, the two models that pair on the most items ${counted(best.x, best.y)}: ${items}`);
  }
  const rater = raters.length ? raters[0].rater : null;
  return sides(0, 1, rater, 0, `defaults: the two models with the most ${benchmark} episodes ${counted(0, 1)}` +
    (rater === null ? "" : `, rated by ${raterName(rater)} (the rater that scored the most episodes)`) + `; no two models pair on any item${rater === null ? "" : " under one rater"}, so nothing is tested`);
}

/** Models by episodes, most first, ties by name: the order the default sides go down. */
const byEpisodes = <T extends {model: string; n: number}>(models: readonly T[]): T[] => models.slice().sort((x, y) => y.n - x.n || (x.model < y.model ? -1 : 1));

/** Raters by episodes scored, most first, ties by name. */
const byScored = <T extends {rater: string; n: number}>(raters: readonly T[]): T[] => raters.slice().sort((x, y) => y.n - x.n || (x.rater < y.rater ? -1 : 1));

/**
 * The default sides with the pair counts they were chosen from, counted by
 * `countPairs` (ModelPairCount over the rows of every model; of the rater
 * named and the rows with no rater, when one is): first under the rater that
 * scored the most episodes only, which mostly pairs two models, so that the
 * other raters' rows are joined only when it does not. The same sides as
 * defaultSidesFromCounts over every count.
 */
export async function countedDefaultSides(benchmark: CompareBenchmark, modelEpisodes: readonly {model: string; n: number}[], raterEpisodes: readonly {rater: string; n: number}[],
  countPairs: (models: readonly string[] | null, rater?: string) => Promise<ModelPairCount[]>): Promise<{defaults: DefaultSides; pairs: ModelPairCount[]}> {
  if (modelEpisodes.length < 2) return {defaults: defaultSidesFromCounts(benchmark, modelEpisodes, raterEpisodes, []), pairs: []};
  const [top] = byScored(raterEpisodes);
  if (top) {
    const under = await countPairs(null, top.rater);
    const first = defaultSidesFromCounts(benchmark, modelEpisodes, raterEpisodes, under);
    if (first.pairs > 0 && first.shared.rater === top.rater) return {defaults: first, pairs: under};
  }
  const all = await countPairs(null);
  return {defaults: defaultSidesFromCounts(benchmark, modelEpisodes, raterEpisodes, all), pairs: all};
}

/**
 * A SQL condition (with `?` placeholders, values bound in `params`) that
 * keeps the rows on side A or side B, as onSide reads a side: the CLI and
 * the page both read only these rows. Keys come from SIDE_KEYS, never from input.
 */
export function sidesWhere(a: Side, b: Side): {sql: string; params: string[]} {
  const x = sideWhere(a);
  const y = sideWhere(b);
  return {sql: `((${x.sql}) OR (${y.sql}))`, params: [...x.params, ...y.params]};
}

/** The condition of one side, as onSide reads it (sidesWhere joins two). */
export function sideWhere(side: Side): {sql: string; params: string[]} {
  const parts: string[] = [];
  const params: string[] = [];
  for (const key of SIDE_KEYS) {
    const value = side[key];
    if (value === undefined) continue;
    parts.push(`(${key} IS NULL OR ${key} = ?)`);
    params.push(value);
  }
  return {sql: parts.length ? parts.join(" AND ") : "true", params};
}
