// Evaluator agreement (METRICS.md § Evaluator agreement; SOTOPIA §5, Appendix E, G.3).
// An instance is one (episode, agent) on one dimension. Sums over instances
// are exact (agreement-sums.ts): the numbers do not depend on their order.

import {HUMANS, POOLED_CORRELATION_REASON, type RaterChoice, type SpreadBasis} from "./agreement-labels.js";
import {SOTOPIA_DIMENSIONS} from "./dimensions.js";
import type {Correlation} from "./inference.js";
import {exactMean, exactPearson, exactSd, exactSpearman, ExactSum} from "./agreement-sums.js";
import {extremes, mean, sd} from "./stats.js";

export {ANNOTATORS_KAPPA_NOTE, HUMANS, P_UNDERFLOW, POOLED_CORRELATION_REASON, pText, raterLabel, reportedP, type RaterChoice, type SpreadBasis} from "./agreement-labels.js";

/**
 * Equal-width bin of a score: k bins over [lo, hi], each of width (hi − lo)/k,
 * bin j holding [lo + j·w, lo + (j+1)·w); the top bin also holds hi itself.
 */
export function binIndex(value: number, lo: number, hi: number, bins: number): number {
  if (value < lo || value > hi) throw new Error(`${value} is outside [${lo}, ${hi}]`);
  const j = Math.floor(((value - lo) * bins) / (hi - lo));
  return Math.min(j, bins - 1);
}

export interface KappaItem {
  /** Every rater's score for the item (one score per rater). */
  scores: readonly number[];
  lo: number;
  hi: number;
}

export interface Kappa {
  bins: number;
  /** Items with at least two raters, the only ones that count. */
  items: number;
  /** P_o: the mean share of agreeing rater pairs, reported as pairwise agreement. */
  pairwiseAgreement: number;
  /** Randolph's free-marginal multi-rater kappa: (P_o − 1/k) / (1 − 1/k). */
  kappa: number;
}

/** Randolph's free-marginal multi-rater kappa over binned scores (METRICS.md; SOTOPIA Appendix E.1). */
export function randolphKappa(items: readonly KappaItem[], bins = 5): Kappa {
  if (!(Number.isInteger(bins) && bins >= 2)) throw new Error(`kappa needs at least 2 bins, got ${bins}`);
  const sum = new ExactSum();
  let used = 0;
  for (const item of items) {
    const m = item.scores.length;
    if (m < 2) continue;
    const counts = new Array<number>(bins).fill(0);
    for (const s of item.scores) counts[binIndex(s, item.lo, item.hi, bins)]++;
    let agreeing = 0;
    for (const c of counts) agreeing += c * (c - 1);
    sum.add(agreeing / (m * (m - 1)));
    used++;
  }
  const po = used ? sum.value() / used : NaN;
  return {bins, items: used, pairwiseAgreement: po, kappa: (po - 1 / bins) / (1 - 1 / bins)};
}

/** One instance seen by an LLM judge and by human annotators. */
export interface JudgedInstance {
  judge: number;
  /** Rater B's score when B is not the human score itself. */
  other?: number;
  /** One score per human annotator (an annotator's repeated responses already averaged). */
  humans: readonly number[];
}

/** The human score of an instance: the mean over its annotators. */
export const humanScore = (i: JudgedInstance): number => mean(i.humans);

export interface PerceivedRangeGroup {
  min: number;
  max: number;
  n: number;
  meanJudge: number;
}

export interface PerceivedRanges {
  groups: PerceivedRangeGroup[];
  /** Instances with at least two human scores. */
  n: number;
  inside: number;
  above: number;
  below: number;
}

/**
 * Perceived ranges (SOTOPIA Appendix G.3): for each instance with ≥ 2 human
 * scores, [min, max] of those scores; instances with the same range are grouped
 * with the mean judge score, and the shares of judge scores inside, above and
 * below their instance's range are counted.
 */
export function perceivedRanges(instances: readonly JudgedInstance[]): PerceivedRanges {
  const groups = new Map<string, {min: number; max: number; judges: number[]}>();
  let n = 0;
  let inside = 0;
  let above = 0;
  let below = 0;
  for (const i of instances) {
    if (i.humans.length < 2) continue;
    const {min, max} = extremes(i.humans);
    n++;
    if (i.judge > max) above++;
    else if (i.judge < min) below++;
    else inside++;
    const key = `${min}/${max}`;
    const g = groups.get(key) ?? {min, max, judges: []};
    g.judges.push(i.judge);
    groups.set(key, g);
  }
  return {
    groups: [...groups.values()]
      .map((g) => ({min: g.min, max: g.max, n: g.judges.length, meanJudge: exactMean(g.judges)}))
      .sort((a, b) => a.min - b.min || a.max - b.max),
    n, inside: n ? inside / n : NaN, above: n ? above / n : NaN, below: n ? below / n : NaN,
  };
}

export interface Differences {
  n: number;
  /** judge − human score, per instance. */
  diffs: number[];
  /** Mean difference: positive means the judge rates higher than humans. */
  bias: number;
  /** Share of instances with |judge − human| ≤ one sd (see SpreadBasis). */
  withinOneSd: number;
  basis: SpreadBasis;
}

export function differences(instances: readonly JudgedInstance[], basis: SpreadBasis = "dimension"): Differences {
  const used = basis === "annotators" ? instances.filter((i) => i.humans.length >= 2) : instances;
  // B's score: a named rater's when the instance carries one, else the human score.
  const reference = (i: JudgedInstance) => i.other ?? humanScore(i);
  const diffs = used.map((i) => i.judge - reference(i));
  const spread = basis === "dimension" ? exactSd(used.map(reference)) : NaN;
  let within = 0;
  used.forEach((i, k) => {
    const s = basis === "dimension" ? spread : sd(i.humans);
    if (Math.abs(diffs[k]) <= s) within++;
  });
  return {n: used.length, diffs, bias: exactMean(diffs), withinOneSd: used.length ? within / used.length : NaN, basis};
}

/** The rater A an agreement view starts with: the LLM rater with the most scores on multiply-rated episodes (ties by name). */
export function defaultJudge(rows: readonly {rater: string; rater_kind: string}[]): string | undefined {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.rater_kind === "llm") counts.set(r.rater, (counts.get(r.rater) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
}

/** One rater's score of one instance, as the agreement rows ship it. */
export interface RaterScore {
  episode_id: string;
  agent: number;
  dimension: string;
  rater: string;
  rater_kind: string;
  value: number;
  lo: number;
  hi: number;
  played_by: string;
}

export interface PairedInstance extends JudgedInstance {
  episode_id: string;
  agent: number;
  dimension: string;
  lo: number;
  hi: number;
  played_by: string;
  /** Score of the compared rater B (the human score when B is the humans). */
  other: number;
}

/** Scores grouped by instance (episode, agent, dimension), instances in order of first appearance. */
export function scoresByInstance(rows: readonly RaterScore[]): Map<string, RaterScore[]> {
  const byInstance = new Map<string, RaterScore[]>();
  for (const r of rows) {
    const key = `${r.episode_id}\u0000${r.agent}\u0000${r.dimension}`;
    const list = byInstance.get(key);
    if (list) list.push(r);
    else byInstance.set(key, [r]);
  }
  return byInstance;
}

/**
 * Pairs rater A's score (as `judge`) with rater B's on every instance both
 * scored. `humans` always lists the human annotators' scores (for ranges and
 * kappa); `other` is B's score, which is the human score when B = humans.
 * When A is itself a human annotator it is left out of the human score.
 */
export function pairInstances(rows: readonly RaterScore[], a: RaterChoice, b: RaterChoice): PairedInstance[] {
  const byInstance = scoresByInstance(rows);
  const pick = (list: RaterScore[], c: RaterChoice, humans: number[]): number | undefined =>
    c === HUMANS ? (humans.length ? mean(humans) : undefined) : list.find((r) => r.rater === c.rater)?.value;
  const out: PairedInstance[] = [];
  for (const list of byInstance.values()) {
    const humans = list.filter((r) => r.rater_kind === "human" && (a === HUMANS || r.rater !== a.rater)).map((r) => r.value);
    const judge = pick(list, a, humans);
    const other = pick(list, b, humans);
    if (judge === undefined || other === undefined) continue;
    const {episode_id, agent, dimension, lo, hi, played_by} = list[0];
    out.push({episode_id, agent, dimension, lo, hi, played_by, judge, other, humans});
  }
  return out;
}

export interface AgreementOptions {
  /** Bins for Randolph's kappa (default 5). */
  bins?: number;
  basis?: SpreadBasis;
}

export interface AgreementRow {
  dimension: string;
  /** Who played the rated agent: model, human, or all. */
  played_by: string;
  n: number;
  /** Null on a row that pools several dimensions: see POOLED_CORRELATION_REASON. */
  pearson: Correlation | null;
  spearman: Correlation | null;
  bias: number;
  withinOneSd: number;
  /** Judge inside / above / below the perceived range of the human scores. */
  ranges: PerceivedRanges;
  /** Kappa among the human annotators, and with rater A counted as one more rater. */
  kappaHumans: Kappa;
  kappaWithJudge: Kappa;
}

const ALL = "all";

/**
 * The agreement table (SOTOPIA Table 1 and Appendix E, G): per dimension and per
 * who played the agent, plus every dimension pooled (kappa after per-dimension
 * binning, bias and shares; no correlation, see POOLED_CORRELATION_REASON).
 */
export function agreementTable(instances: readonly PairedInstance[], dimensions: readonly string[], options: AgreementOptions = {}): AgreementRow[] {
  const bins = options.bins ?? 5;
  const basis = options.basis ?? "dimension";
  const rows: AgreementRow[] = [];
  for (const dimension of [...dimensions, ALL]) {
    for (const played_by of [ALL, "model", "human"]) {
      const subset = instances.filter((i) => (dimension === ALL || i.dimension === dimension) && (played_by === ALL || i.played_by === played_by));
      if (!subset.length && played_by !== ALL) continue;
      const judge = subset.map((i) => i.judge);
      const other = subset.map((i) => i.other);
      // The spread is a dimension's own over this row's split (model / human / all):
      // pooled rows add up per-dimension counts.
      let within = 0;
      let counted = 0;
      for (const d of dimension === ALL ? dimensions : [dimension]) {
        const part = subset.filter((i) => i.dimension === d);
        const diffs = differences(part, basis);
        if (diffs.n) {
          within += diffs.withinOneSd * diffs.n;
          counted += diffs.n;
        }
      }
      // Pooling dimensions with different ranges and levels makes r meaningless (POOLED_CORRELATION_REASON).
      const pooled = new Set(subset.map((i) => i.dimension)).size > 1;
      rows.push({
        dimension, played_by, n: subset.length,
        pearson: pooled ? null : exactPearson(judge, other), spearman: pooled ? null : exactSpearman(judge, other),
        bias: exactMean(subset.map((i) => i.judge - i.other)), withinOneSd: counted ? within / counted : NaN,
        ranges: perceivedRanges(subset),
        kappaHumans: randolphKappa(subset.map((i) => ({scores: i.humans, lo: i.lo, hi: i.hi})), bins),
        kappaWithJudge: randolphKappa(subset.map((i) => ({scores: [...i.humans, i.judge], lo: i.lo, hi: i.hi})), bins),
      });
    }
  }
  return rows;
}

/** One row of RATER_COVERAGE_SQL: a rater (the human annotators together) and the SOTOPIA episodes it scores. */
export interface RaterCoverage {
  rater: string;
  rater_kind: string;
  raters: number;
  episodes: number;
  /** Of those episodes, how many a human annotator also scored (for the annotators: all of them). */
  with_humans: number;
  /** How many two or more human annotators scored. */
  with_two_humans: number;
  /** How many an LLM rater also scored. */
  with_llm: number;
}

/** The command that puts an LLM judge's scores beside the human annotators'. */
export const JUDGE_COMMAND = "sociometer judge sotopia-eval --model MODEL";

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/**
 * What the store holds for an agreement view, in sentences: which raters
 * score how many episodes and how many of those overlap; and, when no LLM
 * rater scores an episode a human annotator scored, that no judge can be
 * compared with people and which command would produce one.
 */
export function coverageText(coverage: readonly RaterCoverage[]): {lines: string[]; llmMeetsHumans: boolean} {
  if (!coverage.length) return {lines: ["The store holds no SOTOPIA scores."], llmMeetsHumans: false};
  const humans = coverage.find((c) => c.rater_kind === "human");
  const llms = coverage.filter((c) => c.rater_kind === "llm");
  const parts = coverage.map((c) => c.rater_kind === "human"
    ? `${plural(c.raters, "human annotator")} on ${plural(c.episodes, "episode")} (${c.with_two_humans.toLocaleString("en-US")} of them by two or more annotators, ${c.with_llm.toLocaleString("en-US")} also by an LLM rater)`
    : `${c.rater} (${c.rater_kind}) on ${plural(c.episodes, "episode")} (${c.with_humans.toLocaleString("en-US")} of them also by a human annotator)`);
  const lines = [`SOTOPIA scores in the store: ${parts.join("; ")}.`];
  const llmMeetsHumans = llms.some((c) => c.with_humans > 0);
  if (humans && !llmMeetsHumans) {
    lines.push(`No LLM rater scores an episode that a human annotator scored, so no LLM judge can be compared with people here; ` +
      `agreement among the human annotators is all there is to show. To produce a judge to compare, run \`${JUDGE_COMMAND}\` ` +
      `(it scores every SOTOPIA episode in the store, the ${plural(humans.episodes, "human-rated episode")} among them).`);
  }
  return {lines, llmMeetsHumans};
}

/**
 * The "human annotators" kappa of every row as the paper means it (Appendix
 * E.1): Randolph's kappa among every annotator, over every instance two or
 * more of them scored, whatever rater A is: it replaces the table's own
 * kappaHumans, which is over the instances A and B were paired on. The kappa
 * with A as one more rater stays over A's instances, necessarily.
 */
export function kappaAmongAllAnnotators(table: readonly AgreementRow[], rows: readonly RaterScore[], dimensions: readonly string[], options: AgreementOptions = {}): AgreementRow[] {
  if (!rows.some((r) => r.rater_kind === "human")) return table.slice();
  const among = new Map(agreementTable(pairInstances(rows, HUMANS, HUMANS), dimensions, options).map((r) => [`${r.dimension}\u0000${r.played_by}`, r.kappaHumans]));
  return withAnnotatorsKappa(table, dimensions, options, (dimension, played_by) => among.get(`${dimension}\u0000${played_by}`));
}

/**
 * The table with the annotators' kappa (`kappaOf`; undefined: keep the
 * row's own) on its rows, and a row of no paired instances for each split
 * the annotators scored and A did not (an LLM that judged no human-played
 * episode still shows the annotators' kappa on human-played ones), in the
 * table's order. Shared with the page's engine, so both make the same rows.
 */
export function withAnnotatorsKappa(
  table: readonly AgreementRow[], dimensions: readonly string[], options: AgreementOptions,
  kappaOf: (dimension: string, played_by: string) => Kappa | undefined,
): AgreementRow[] {
  const have = new Map(table.map((r) => [`${r.dimension}\u0000${r.played_by}`, r]));
  let empty: Map<string, AgreementRow> | null = null;
  const out: AgreementRow[] = [];
  for (const dimension of [...dimensions, ALL]) {
    for (const played_by of [ALL, "model", "human"]) {
      const kappa = kappaOf(dimension, played_by);
      let row = have.get(`${dimension}\u0000${played_by}`);
      if (!row && kappa) {
        // agreementTable's row over no instances: what a split with no pairs shows in every other column.
        empty ??= new Map(agreementTable([], dimensions, options).map((r) => [r.dimension, r]));
        row = {...empty.get(dimension)!, played_by};
      }
      if (row) out.push(kappa ? {...row, kappaHumans: kappa} : row);
    }
  }
  return out;
}

/**
 * A − B per instance on one dimension (or every dimension, "all"), as
 * differences() computes it, and the spread the "within one sd" share uses
 * when it is one number (one dimension, basis "dimension": the sd of B's
 * scores): the reference the page's worker is tested against.
 */
export function differenceView(instances: readonly PairedInstance[], dimension: string, basis: SpreadBasis): {diffs: number[]; spread: number | null} {
  const keys = dimension === "all" ? SOTOPIA_DIMENSIONS.map((d) => d.key) : [dimension];
  const diffs: number[] = [];
  for (const key of keys) {
    const part = instances.filter((i) => i.dimension === key);
    for (const d of differences(part.map((i) => ({judge: i.judge, humans: [i.other]})), "dimension").diffs) diffs.push(d);
  }
  const spread = dimension !== "all" && basis === "dimension" ? exactSd(instances.filter((i) => i.dimension === dimension).map((i) => i.other)) : null;
  return {diffs, spread: spread !== null && Number.isFinite(spread) ? spread : null};
}
