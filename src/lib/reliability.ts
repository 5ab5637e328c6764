// The reliability table (issue 15, beyond METRICS.md): per
// dimension, how far each rater A agrees with rater B (by default the mean of
// the human annotators), and how far the annotators agree among themselves,
// with seeded bootstrap intervals over episodes (or scenarios) and
// family-adjusted p-values. The CLI's `report reliability`, the agreement
// page's worker and the benchmark all call reliabilityReport, so the same
// rows, options and seed give the same numbers everywhere.

import {binIndex, HUMANS, pairInstances, raterLabel, type RaterChoice, type RaterScore} from "./agreement.js";
import {blandAltman, type BlandAltman} from "./bland-altman.js";
import {DEFAULT_ICC_FORM, iccWithTest, meanSquares, weightedIcc, type Icc, type IccForm} from "./icc.js";
import {pearson, spearman} from "./inference.js";
import {cohenKappa, DEFAULT_KAPPA_WEIGHTING, multiRaterAgreement, weightedCohenKappa, weightedMultiRater, type KappaWeighting} from "./kappa.js";
import {DEFAULT_ALPHA_METRIC, krippendorffAlpha, weightedAlpha, type AlphaMetric} from "./krippendorff.js";
import {adjustPValues, DEFAULT_MULTIPLICITY, type MultiplicityMethod} from "./multiplicity.js";
import {bootstrapIntervals, DEFAULT_RESAMPLES, DEFAULT_SEED, type BootstrapInterval, type IntervalMethod, type ResampleUnits, type WeightedStatistic} from "./resample.js";
import {weightedPearson, weightedSpearman} from "./weighted-correlation.js";

export interface ReliabilityOptions {
  /** The raters A (the judge panel); none: only the annotators' own reliability. */
  judges: readonly string[];
  /** Rater B; the mean of the human annotators by default. */
  against?: RaterChoice;
  dimensions: readonly {key: string; lo: number; hi: number}[];
  metric?: AlphaMetric;
  iccForm?: IccForm;
  weighting?: KappaWeighting;
  /** Equal-width bins for kappa and AC1 (as Randolph's kappa on the agreement page). */
  bins?: number;
  resamples?: number;
  seed?: number;
  method?: IntervalMethod;
  /** Draw whole scenarios instead of episodes; needs scenarioOf. */
  cluster?: boolean;
  scenarioOf?: ReadonlyMap<string, string | null>;
  adjust?: MultiplicityMethod;
  /** Called with the statistics' resamples done so far over the whole report. */
  onProgress?: (done: number, total: number) => void;
}

export type ResolvedOptions = Required<Omit<ReliabilityOptions, "scenarioOf" | "onProgress" | "against">> & {against: RaterChoice};

/** One rater A against B on one dimension. */
export interface JudgeRow {
  a: string;
  b: string;
  dimension: string;
  /** Instances both scored, and their episodes (the bootstrap's units). */
  n: number;
  episodes: number;
  pearson: BootstrapInterval;
  /** Pearson's p (Student's t, n − 2 df), raw and adjusted over the table's family. */
  pearsonP: number;
  pearsonPAdjusted: number;
  spearman: BootstrapInterval;
  /** Alpha over B's raters with A added (B = humans: each annotator; else A and B). */
  alphaWithA: BootstrapInterval;
  /** ICC of the chosen form on the A, B pairs (always balanced): F test and F-based interval, plus the bootstrap interval. */
  icc: Icc;
  iccBootstrap: BootstrapInterval;
  iccPAdjusted: number;
  kappa: BootstrapInterval;
  ac1: BootstrapInterval;
  blandAltman: BlandAltman;
  slopePAdjusted: number;
}

/** The human annotators among themselves on one dimension. */
export interface AnnotatorRow {
  dimension: string;
  /** Items (episode, agent) with two or more annotators, and the annotators seen on them. */
  items: number;
  annotators: number;
  episodes: number;
  alpha: BootstrapInterval;
  /** ICC on the balanced part: items with exactly iccRaters annotators (the most common count). */
  icc: Icc | null;
  iccBootstrap: BootstrapInterval | null;
  iccPAdjusted: number;
  iccItems: number;
  iccRaters: number;
  /** Items with two or more annotators left out of the ICC for having another count. */
  iccLeftOut: number;
  ac1: BootstrapInterval;
  fleissKappa: number;
  randolphKappa: number;
  pairwiseAgreement: number;
}

export interface ReliabilityReport {
  options: ResolvedOptions;
  judges: JudgeRow[];
  annotators: AnnotatorRow[];
  /** How scenarios were found when clustering (episodes without one count as their own cluster). */
  unclustered: number;
}

export function resolveOptions(options: ReliabilityOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    judges: options.judges, against: options.against ?? HUMANS, dimensions: options.dimensions,
    metric: options.metric ?? DEFAULT_ALPHA_METRIC, iccForm: options.iccForm ?? DEFAULT_ICC_FORM, weighting: options.weighting ?? DEFAULT_KAPPA_WEIGHTING,
    bins: options.bins ?? 5, resamples: options.resamples ?? DEFAULT_RESAMPLES, seed: options.seed ?? DEFAULT_SEED,
    method: options.method ?? "percentile", cluster: options.cluster ?? false, adjust: options.adjust ?? DEFAULT_MULTIPLICITY,
  };
  if (resolved.cluster && !options.scenarioOf) throw new Error("clustering by scenario needs each episode's scenario");
  return resolved;
}

/**
 * Bootstrap units for a list of items: each item's episode numbered in order
 * of first appearance, and when clustering, each episode's scenario likewise
 * (an episode with no scenario is a cluster of its own).
 */
function unitsOf(episodeIds: readonly string[], scenarioOf: ReadonlyMap<string, string | null> | undefined, cluster: boolean): {units: ResampleUnits; unitOf: Int32Array; unclustered: number} {
  const episodes = new Map<string, number>();
  const unitOf = new Int32Array(episodeIds.length);
  episodeIds.forEach((e, i) => {
    let u = episodes.get(e);
    if (u === undefined) episodes.set(e, (u = episodes.size));
    unitOf[i] = u;
  });
  if (!cluster) return {units: {count: episodes.size}, unitOf, unclustered: 0};
  const clusters = new Map<string, number>();
  const clusterOf = new Int32Array(episodes.size);
  let unclustered = 0;
  for (const [e, u] of episodes) {
    const scenario = scenarioOf?.get(e) ?? null;
    if (scenario === null) unclustered++;
    const key = scenario === null ? `\u0000${e}` : scenario;
    let c = clusters.get(key);
    if (c === undefined) clusters.set(key, (c = clusters.size));
    clusterOf[u] = c;
  }
  return {units: {count: episodes.size, clusterOf}, unitOf, unclustered};
}

/** Counts resamples done over every bootstrap of the report, for one progress note. */
function progressCounter(total: number, onProgress?: (done: number, total: number) => void) {
  let finished = 0;
  return {
    forCall: (statistics: number) => (onProgress ? (done: number) => onProgress(finished + done * statistics, total) : undefined),
    done: (resamples: number, statistics: number) => {
      finished += resamples * statistics;
    },
  };
}

/** One human annotator's score of one item. */
interface AnnotatedItem {
  episode_id: string;
  /** (rater, score) in rater-name order. */
  scores: {rater: string; value: number}[];
}

/** Items of every dimension with their human annotators' scores, in row order, by dimension. */
function annotatedItems(rows: readonly RaterScore[]): Map<string, AnnotatedItem[]> {
  const items = new Map<string, AnnotatedItem>();
  const byDimension = new Map<string, AnnotatedItem[]>();
  for (const r of rows) {
    if (r.rater_kind !== "human") continue;
    const key = `${r.dimension}\u0000${r.episode_id}\u0000${r.agent}`;
    const item = items.get(key);
    if (item) {
      item.scores.push({rater: r.rater, value: r.value});
      continue;
    }
    const created = {episode_id: r.episode_id, scores: [{rater: r.rater, value: r.value}]};
    items.set(key, created);
    const list = byDimension.get(r.dimension);
    if (list) list.push(created);
    else byDimension.set(r.dimension, [created]);
  }
  for (const item of items.values()) if (item.scores.length > 1) item.scores.sort((x, y) => (x.rater < y.rater ? -1 : x.rater > y.rater ? 1 : 0));
  return byDimension;
}

/**
 * The reliability table for every rater A in options.judges against B, and
 * among the human annotators, per dimension. Intervals share one set of
 * resamples per row; the seed restarts for every row, so a row's interval does
 * not depend on which other rows are in the table.
 */
export function reliabilityReport(rows: readonly RaterScore[], options: ReliabilityOptions): ReliabilityReport {
  const o = resolveOptions(options);
  const resampling = {resamples: o.resamples, seed: o.seed, method: o.method};
  const judgeStats = 6;
  const annotatorStats = 3;
  const total = o.resamples * (o.judges.length * o.dimensions.length * judgeStats + o.dimensions.length * annotatorStats);
  const progress = progressCounter(total, options.onProgress);
  let unclustered = 0;
  const run = (episodeIds: readonly string[], build: (unitOf: Int32Array) => WeightedStatistic[]): BootstrapInterval[] => {
    const {units, unitOf, unclustered: missing} = unitsOf(episodeIds, options.scenarioOf, o.cluster);
    unclustered = Math.max(unclustered, missing);
    const statistics = build(unitOf);
    const intervals = bootstrapIntervals(units, statistics, {...resampling, onProgress: progress.forCall(statistics.length)});
    progress.done(o.resamples, statistics.length);
    return intervals;
  };

  const judges: JudgeRow[] = [];
  for (const judge of o.judges) {
    const paired = pairInstances(rows, {rater: judge}, o.against);
    for (const d of o.dimensions) {
      const items = paired.filter((i) => i.dimension === d.key);
      const a = items.map((i) => i.judge);
      const b = items.map((i) => i.other);
      const raters = items.map((i) => (o.against === HUMANS ? i.humans.concat(i.judge) : [i.other, i.judge]));
      const binsA = a.map((x) => binIndex(x, d.lo, d.hi, o.bins));
      const binsB = b.map((x) => binIndex(x, d.lo, d.hi, o.bins));
      const pairs = a.map((x, i) => [x, b[i]]);
      const balanced = items.length >= 2;
      const [r, rho, alpha, iccB, kappa, ac1] = run(items.map((i) => i.episode_id), (unitOf) => [
        weightedPearson(a, b, unitOf), weightedSpearman(a, b, unitOf), weightedAlpha(raters, o.metric, unitOf),
        balanced ? weightedIcc(pairs, o.iccForm, unitOf) : () => NaN, weightedCohenKappa(binsA, binsB, o.bins, o.weighting, unitOf),
        weightedMultiRater(binsA.map((x, i) => [x, binsB[i]]), o.bins, "ac1", unitOf),
      ]);
      // The point estimates come from the plain formulas; the weighted forms agree with them to 1e-12 (tests).
      const p = pearson(a, b);
      r.estimate = p.r;
      rho.estimate = spearman(a, b).r;
      alpha.estimate = krippendorffAlpha(raters, o.metric).alpha;
      const icc = balanced ? iccWithTest(meanSquares(pairs), o.iccForm) : noIcc(o.iccForm);
      iccB.estimate = icc.value;
      kappa.estimate = cohenKappa(binsA, binsB, o.bins, o.weighting).kappa;
      ac1.estimate = multiRaterAgreement(binsA.map((x, i) => [x, binsB[i]]), o.bins).gwetAc1;
      judges.push({
        a: judge, b: raterLabel(o.against), dimension: d.key, n: items.length, episodes: new Set(items.map((i) => i.episode_id)).size,
        pearson: r, pearsonP: p.p, pearsonPAdjusted: NaN, spearman: rho, alphaWithA: alpha, icc, iccBootstrap: iccB, iccPAdjusted: NaN,
        kappa, ac1, blandAltman: blandAltman(a, b), slopePAdjusted: NaN,
      });
    }
  }
  const adjust = (ps: number[]) => adjustPValues(ps, o.adjust);
  adjust(judges.map((j) => j.pearsonP)).forEach((p, i) => (judges[i].pearsonPAdjusted = p));
  adjust(judges.map((j) => j.icc.p)).forEach((p, i) => (judges[i].iccPAdjusted = p));
  adjust(judges.map((j) => j.blandAltman.slopeP)).forEach((p, i) => (judges[i].slopePAdjusted = p));

  const annotators: AnnotatorRow[] = [];
  const annotated = annotatedItems(rows);
  for (const d of o.dimensions) {
    const items = (annotated.get(d.key) ?? []).filter((i) => i.scores.length >= 2);
    const values = items.map((i) => i.scores.map((s) => s.value));
    const bins = values.map((v) => v.map((x) => binIndex(x, d.lo, d.hi, o.bins)));
    // The ICC needs one count of raters on every item: the most common count (the larger on a tie).
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v.length, (counts.get(v.length) ?? 0) + 1);
    let k = 0;
    for (const [m, c] of counts) if (c > (counts.get(k) ?? 0) || (c === counts.get(k) && m > k)) k = m;
    const balancedIndex: number[] = [];
    values.forEach((v, i) => {
      if (v.length === k) balancedIndex.push(i);
    });
    const matrix = balancedIndex.map((i) => values[i]);
    const withIcc = matrix.length >= 2;
    const [alpha, iccB, ac1] = run(items.map((i) => i.episode_id), (unitOf) => [
      weightedAlpha(values, o.metric, unitOf),
      withIcc ? weightedIcc(matrix, o.iccForm, Int32Array.from(balancedIndex, (i) => unitOf[i])) : () => NaN,
      weightedMultiRater(bins, o.bins, "ac1", unitOf),
    ]);
    const agreement = multiRaterAgreement(bins, o.bins);
    alpha.estimate = krippendorffAlpha(values, o.metric).alpha;
    ac1.estimate = agreement.gwetAc1;
    const icc = withIcc ? iccWithTest(meanSquares(matrix), o.iccForm) : null;
    if (icc) iccB.estimate = icc.value;
    annotators.push({
      dimension: d.key, items: items.length, annotators: new Set(items.flatMap((i) => i.scores.map((s) => s.rater))).size,
      episodes: new Set(items.map((i) => i.episode_id)).size, alpha, icc, iccBootstrap: withIcc ? iccB : null, iccPAdjusted: NaN,
      iccItems: matrix.length, iccRaters: k, iccLeftOut: items.length - matrix.length, ac1,
      fleissKappa: agreement.fleissKappa, randolphKappa: agreement.randolphKappa, pairwiseAgreement: agreement.pairwiseAgreement,
    });
  }
  adjust(annotators.map((r) => r.icc?.p ?? NaN)).forEach((p, i) => (annotators[i].iccPAdjusted = p));
  return {options: o, judges, annotators, unclustered};
}

function noIcc(form: IccForm): Icc {
  return {form, value: NaN, f: NaN, df1: NaN, df2: NaN, p: NaN, lo: NaN, hi: NaN, level: 0.95};
}

/** Thresholds of the reliability verdict, named wherever it is shown. */
export const RELIABILITY_TRUST = {
  /** Koo & Li (2016): an ICC below 0.5 is poor; the bootstrap interval's lower bound must clear it. */
  iccLower: 0.5,
  /** Krippendorff (2004): α ≥ 0.667 is the lowest for tentative conclusions; used when B is one named rater. */
  alphaMin: 0.667,
} as const;

export interface ReliabilityVerdict {
  a: string;
  dimension: string;
  standsIn: boolean;
  /** Why, in a phrase with the numbers. */
  because: string;
}

const f2 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(2));

/**
 * Whether A can stand in for B on each dimension, by reliability: the ICC's
 * bootstrap lower bound clears RELIABILITY_TRUST.iccLower, and adding A to the
 * annotators does not lower their alpha (B = humans; B named: α of A and B ≥
 * alphaMin). The thresholds are in the sentence.
 */
export function reliabilityVerdicts(report: ReliabilityReport): ReliabilityVerdict[] {
  const among = new Map(report.annotators.map((r) => [r.dimension, r.alpha.estimate]));
  const humans = report.options.against === HUMANS;
  return report.judges.map((j) => {
    const iccOk = j.iccBootstrap.lo >= RELIABILITY_TRUST.iccLower;
    const base = humans ? among.get(j.dimension) ?? NaN : RELIABILITY_TRUST.alphaMin;
    const alphaOk = j.alphaWithA.estimate >= base;
    const icc = `ICC(${j.icc.form}) ${f2(j.icc.value)} [${f2(j.iccBootstrap.lo)}, ${f2(j.iccBootstrap.hi)}] ${iccOk ? "≥" : "<"} ${RELIABILITY_TRUST.iccLower} at its lower bound`;
    const alpha = humans
      ? `α with A ${f2(j.alphaWithA.estimate)} ${alphaOk ? "≥" : "<"} α among annotators ${f2(base)}`
      : `α of A and B ${f2(j.alphaWithA.estimate)} ${alphaOk ? "≥" : "<"} ${RELIABILITY_TRUST.alphaMin}`;
    return {a: j.a, dimension: j.dimension, standsIn: iccOk && alphaOk, because: `${icc}; ${alpha}`};
  });
}

/** The thresholds sentence shown with the verdicts. */
export function reliabilityThresholdsText(report: Pick<ReliabilityReport, "options">): string {
  return `A stands in for B on a dimension, by reliability, when the lower bound of ICC(${report.options.iccForm})'s bootstrap interval is at least ` +
    `${RELIABILITY_TRUST.iccLower} (Koo & Li 2016: below 0.5 is poor) and ` +
    (report.options.against === HUMANS
      ? "adding A to the human annotators does not lower their Krippendorff's α (A agrees with them at least as well as they agree with each other)."
      : `Krippendorff's α of A and B is at least ${RELIABILITY_TRUST.alphaMin} (Krippendorff 2004: the lowest for tentative conclusions).`);
}

/** What each statistic measures and when it misleads, one sentence each: the page and the CLI print these. */
export const RELIABILITY_EXPLAINED: Readonly<Record<"alpha" | "icc" | "kappa" | "ac1" | "fleiss" | "r" | "blandAltman" | "interval", string>> = {
  alpha: "Krippendorff's α: 1 − observed / expected disagreement over every pair of ratings of an item, any number of raters, missing ratings allowed; it misleads when nearly every score is the same value (little expected disagreement makes a few disagreements weigh heavily).",
  icc: "ICC: the share of score variance that lies between items rather than between raters or in noise; absolute-agreement forms (2,·) count a constant offset between raters against agreement, consistency forms (3,·) do not, and any ICC is low on items that barely vary; against the mean of the human annotators, B is smoother than any one annotator, so thresholds set for single raters (Koo & Li) are met more easily.",
  kappa: "Cohen's κ on the binned scale: agreement of A's and B's bins beyond what their own bin frequencies give by chance, with linear or quadratic credit for near misses; it drops sharply when one bin holds most scores (the kappa paradox), even at high raw agreement.",
  ac1: "Gwet's AC1: chance-corrected agreement whose chance term shrinks when scores pile into one bin, so it stays near raw agreement on skewed dimensions (SOC, SEC); it can overstate agreement when raters agree only on the common bin.",
  fleiss: "Fleiss' κ (chance from each bin's share of an item's ratings, averaged over the items) and Randolph's κ (chance 1/k) among annotators on the same bins; P_o is raw pairwise agreement, which ignores agreement by chance altogether.",
  r: "Pearson's r and Spearman's ρ: whether A's scores rise and fall with B's; a rater that is consistently 3 points higher still gets r = 1, so read them with the bias.",
  blandAltman: "Bland–Altman: the mean difference A − B with 95% limits within which most differences fall, and the slope of the difference on the mean score (a significant slope means the bias changes along the scale); it assumes differences are roughly normal.",
  interval: "Intervals resample episodes (or whole scenarios) with replacement, so items of one episode stay together; percentile takes the replicates' quantiles, BCa corrects them for bias and skew.",
};
